#!/usr/bin/env python3
"""Compile-fail checks: every *.cpp (or *.cu) in DIR names what the compiler must say in '// expect: TEXT'.

Usage: run.py DIR -- COMPILER [FLAGS...]    (e.g. run.py spec/compile_fail -- g++ -std=c++20 -fsyntax-only -I.)

A case passes when compiling it fails and the compiler output contains TEXT; the control case
('// expect: compiles') passes when it compiles. Prints one line per case; exits 1 if any case fails.
"""
import concurrent.futures
import re
import subprocess
import sys
from pathlib import Path

EXPECT = re.compile(r"^//\s*expect:\s*(.+?)\s*$", re.MULTILINE)


def run_case(compiler, path):
    match = EXPECT.search(path.read_text())
    if not match:
        return False, f"FAIL {path.name}: no '// expect:' line"
    expected = match.group(1)
    proc = subprocess.run(compiler + [str(path)], capture_output=True, text=True, encoding="utf-8", errors="replace")
    output = proc.stdout + proc.stderr
    if expected == "compiles":
        if proc.returncode == 0:
            return True, f"ok   {path.name}: compiles"
        return False, f"FAIL {path.name}: should compile but failed:\n{output}"
    if proc.returncode == 0:
        return False, f"FAIL {path.name}: compiled, expected an error containing '{expected}'"
    if expected not in output:
        return False, f"FAIL {path.name}: the error does not contain '{expected}':\n{output}"
    return True, f"ok   {path.name}: fails with '{expected}'"


def main(argv):
    if len(argv) < 4 or argv[2] != "--":
        print(__doc__)
        return 2
    folder, compiler = Path(argv[1]), argv[3:]
    cases = sorted(list(folder.glob("*.cpp")) + list(folder.glob("*.cu")))
    if not cases:
        print(f"no cases in {folder}")
        return 1
    with concurrent.futures.ThreadPoolExecutor() as pool:
        results = list(pool.map(lambda p: run_case(compiler, p), cases))
    for _, line in results:
        print(line)
    failed = sum(not ok for ok, _ in results)
    print(f"{len(results) - failed} of {len(results)} compile-fail cases behave as expected")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
