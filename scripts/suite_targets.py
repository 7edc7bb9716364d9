#!/usr/bin/env python3
"""Prints the ninja targets the tests of the given suites need: suite_targets.py BUILD_DIR SUITE...

For `ninja -C BUILD_DIR $(suite_targets.py BUILD_DIR unit)`: each test's executable and the targets it
depends on (e.g. the tilesim binary a cli test runs), as paths relative to BUILD_DIR. Exit 2 with a message
when meson cannot describe the build.
"""
import json
import os
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        print("usage: suite_targets.py BUILD_DIR SUITE...", file=sys.stderr)
        return 2
    build, suites = os.path.abspath(argv[1]), set(argv[2:])
    try:
        info = json.loads(subprocess.run(["meson", "introspect", build, "--tests", "--targets"], check=True,
                                         capture_output=True, text=True).stdout)
    except (subprocess.CalledProcessError, json.JSONDecodeError, OSError) as e:
        print(f"suite_targets.py: meson introspect {build} failed: {e}", file=sys.stderr)
        return 2
    files_of = {t["id"]: t["filename"] for t in info["targets"]}
    wanted = set()
    for test in info["tests"]:
        if not suites & {s.split(":")[-1] for s in test["suite"]}:
            continue
        paths = [test["cmd"][0]] + [f for d in test.get("depends", []) for f in files_of.get(d, [])]
        wanted.update(os.path.relpath(p, build) for p in paths if os.path.abspath(p).startswith(build + os.sep))
    print("\n".join(sorted(wanted)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
