#!/usr/bin/env python3
"""scripts/gpu/isa_check.py FILE [--absent REGEX] REGEX...: exit 0 when every REGEX matches a line of FILE (PTX or
device assembly) and no --absent REGEX does; else print what is missing (or present) and exit 1. Exit 2 when
FILE cannot be read. Used by gpu-collectives-isa, gpu-kernels-isa and amd-shuffle-isa (gpu/meson.build, gpu/kernels/amd/meson.build)."""
import re
import sys


def main(argv):
    if len(argv) < 3:
        print("usage: isa_check.py FILE [--absent REGEX] REGEX...", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        print(f"isa_check.py: cannot read {argv[1]}: {e}", file=sys.stderr)
        return 2
    wanted, absent, args = [], [], argv[2:]
    while args:
        if args[0] == "--absent" and len(args) > 1:
            absent.append(args[1])
            args = args[2:]
        else:
            wanted.append(args[0])
            args = args[1:]
    failed = False
    for pattern in wanted:
        hits = [l for l in lines if re.search(pattern, l)]
        print(f"{pattern}: {len(hits)} line(s)" + (f", e.g. {hits[0].strip()}" if hits else ""))
        failed |= not hits
    for pattern in absent:
        hits = [l for l in lines if re.search(pattern, l)]
        if hits:
            print(f"{pattern} must not appear, but does: {hits[0].strip()}")
            failed = True
    if failed:
        print(f"isa_check.py: {argv[1]} does not have the instructions asked for", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
