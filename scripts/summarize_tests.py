#!/usr/bin/env python3
"""Sums meson's testlog.json of the given build dirs into the closing line 'N passed, N failed'.

A doctest binary contributes its test-case counts (from its "[doctest] test cases:" line); any other test
(a RapidCheck suite, a compile-fail check) counts as one. Exit 1 if any test failed or none ran.
"""
import json
import re
import sys
from pathlib import Path

DOCTEST = re.compile(r"\[doctest\] test cases:\s*(\d+) \|\s*(\d+) passed \|\s*(\d+) failed")

passed = failed = skipped = 0
for build in sys.argv[1:]:
    log = Path(build) / "meson-logs" / "testlog.json"
    if not log.exists():
        failed += 1
        print(f"{build}: no test log")
        continue
    for line in log.read_text().splitlines():
        entry = json.loads(line)
        result = entry["result"]
        counts = DOCTEST.findall(entry.get("stdout") or "")
        if counts and result in ("OK", "FAIL"):
            _, ok, bad = map(int, counts[-1])
            passed += ok
            failed += bad + (1 if result == "FAIL" and bad == 0 else 0)
            continue
        if result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif result == "SKIP":
            skipped += 1
        else:
            failed += 1
tail = f", {skipped} skipped" if skipped else ""
print(f"{passed} passed, {failed} failed{tail}")
sys.exit(1 if failed or passed == 0 else 0)
