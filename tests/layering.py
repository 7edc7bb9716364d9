#!/usr/bin/env python3
"""tests/layering.py SOURCE_ROOT: no folder includes a folder above it.

THE LAW. The folders are layers, each including only itself and the layers below it:

    spec/  util/            the layout algebra; the option parser, output files and JSON (no deps)
    kernel/                 the program model and the tile programs: spec/ only
    sim/                    the simulator (its rooms in order: SIM_ORDER)
    gpu/                    the programs as kernels and the cross-check (its rooms in order: GPU_ORDER)
    examples/               the reference programs, their variants and the catalogue
    props/ bench/ tests/    property suites, benchmarks, package tests: clients of everything below
    cli/                    the commands' mains
    python/                 the Python module (pybind11 over the layers below and the commands' registries)

A second law: gpu/ holds only GPU code (C++, CUDA and HIP sources, meson.build, README.md, and the
folders of GPU_NON_SOURCE); recordings and calibration tables live in data/, scripts in scripts/.

Inside sim/ and gpu/ the rooms are ordered too: a room includes only rooms before it, and a test
(*.test.cpp, *.test.hpp) may use every room of its own top-level folder (it is a client of the folder, not a
part of it), never a folder above. Every `#include "a/b..."` of every tracked C++/CUDA/HIP source is checked.

KNOWN lists the files whose upward includes remain today, each with why; they are reported, not failed, and a
known file that no longer includes upward fails until it is taken off the list, so the list only shrinks. Exit 0 when the law holds;
1 naming each offending include as FILE:LINE: FROM includes TO.
"""
import os
import re
import subprocess
import sys

TOP_ORDER = [("spec", "util"), ("kernel",), ("sim",), ("gpu",), ("examples",), ("props", "bench", "tests"), ("cli",), ("python",)]
# sim/'s rooms: "sim" is sim/wave_access.hpp, the one type every room shares.
SIM_ORDER = ["sim", "sim/arch", "sim/models", "sim/patterns", "sim/timing", "sim/engine", "sim/runs", "sim/report",
             "sim/pricing", "sim/synth"]
GPU_ORDER = ["gpu/runtime", "gpu/kernels", "gpu/crosscheck", "gpu/reference", "gpu/user", "gpu/rtc_props",
             "gpu/calibrate"]

GPU_SOURCE = (".cu", ".cuh", ".cpp", ".hpp", ".hip", "meson.build", "README.md")
GPU_NON_SOURCE = {
    "gpu/rtc_props/rtc_include/": "NVRTC's stand-ins for the std headers spec/ includes (extensionless, as <array>)",
}

# Files whose upward includes remain today -> why (none now: the cross-check's points and checks reach examples/
# through the programs' adapters, registered in examples/adapters/adapters.cpp: issue 35 item 2).
KNOWN = {}


def room(path):
    parts = path.split("/")
    if parts[0] in ("sim", "gpu"):
        return parts[0] + "/" + parts[1] if len(parts) > 2 else parts[0]
    return parts[0]


def top_rank(top):
    for i, group in enumerate(TOP_ORDER):
        if top in group:
            return i
    return None


def allowed(src, inc):
    a, b = room(src), room(inc)
    ta, tb = a.split("/")[0], b.split("/")[0]
    ra, rb = top_rank(ta), top_rank(tb)
    if ra is None or rb is None:
        return True  # not a layered folder (e.g. a system-like include)
    if ta != tb:
        return rb < ra
    is_test = ".test." in os.path.basename(src)
    if is_test or a == b:
        return True
    order = SIM_ORDER if ta == "sim" else GPU_ORDER if ta == "gpu" else None
    if order is None:
        return True
    if a not in order or b not in order:
        return False
    return order.index(b) < order.index(a)


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    files = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True, text=True).stdout.split()
    bad, seen_known = [], set()
    include = re.compile(r'^\s*#\s*include\s+"([^"]+/[^"]+)"')
    for f in files:
        if not re.search(r"\.(hpp|cpp|cu|cuh|hip|h)$", f):
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = include.match(line)
                if not m or allowed(f, m.group(1)):
                    continue
                if f in KNOWN:
                    seen_known.add(f)
                    continue
                bad.append(f"{f}:{n}: {room(f)} includes {room(m.group(1))} ({m.group(1)}), a layer above it")
    for f in files:
        if f.startswith("gpu/") and not f.endswith(GPU_SOURCE) and not any(f.startswith(d) for d in GPU_NON_SOURCE):
            bad.append(f"{f}: gpu/ holds only GPU code (recordings go to data/, scripts to scripts/)")
    for f, why in KNOWN.items():
        if f in seen_known:
            print(f"known: {f} includes a layer above it: {why}")
        else:
            bad.append(f"KNOWN lists {f}, which no longer includes a layer above it: take it off the list")
    for b in bad:
        print(b)
    print(f"layering: {len(bad)} violation(s), {len(seen_known)} known")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
