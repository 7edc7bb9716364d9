#!/usr/bin/env python3
"""Prints the headers `meson install` installs, one per line, relative to the repository root.

Without arguments: every *.hpp under spec/, kernel/ (the program model and the built-in programs) and sim/ except
test helpers (*.test.hpp), spec/compile_fail/ (sources that must not compile), sim/engine/internal/ (the engine's
own machinery, included by its .cpp files only) and sim/synth/ (the library behind `tilesim synth`, not installed),
and util/json.hpp (the JSON library that sim/'s partial reports and the cross-check's reports use; its code is in
libtilesim_sim).
With --gpu: the gpu/ headers a user's own program needs to run as a kernel and be cross-checked in one call
(gpu/user/, docs/programming-guide.md's "Cross-checking your own program on a GPU"), installed only where nvcc and
libcudart_static were found (gpu/meson.build: gpu_install): the kernel side (gpu/user/user_kernel.cuh and what
it includes: the device context, the launch, the device's description), the host side (user_crosscheck.hpp, the
doctest helper) and the report headers they and examples/user_program/column_sums_crosscheck.cpp include. The
list is explicit: gpu/kernels/device_run.hpp and the catalogue's headers pull examples/ and are not installed.
They go to <includedir>/tilesim/<the same path>, so a program's `#include "sim/engine/engine.hpp"` works against
the install as it does in the tree. Run by the root meson.build at configure time (a new header needs a
reconfigure, as a new source does); tests/consumer/run.sh and tests/consumer/gpu/run.sh check that every
include among them resolves.
"""
import pathlib
import sys

GPU_HEADERS = [
    "gpu/crosscheck/counters.hpp",
    "gpu/crosscheck/sass_lines.hpp",
    "gpu/crosscheck/source_counters.hpp",
    "gpu/crosscheck/source_match.hpp",
    "gpu/runtime/device_context.hpp",
    "gpu/runtime/device_describe.cuh",
    "gpu/runtime/device_error.hpp",
    "gpu/runtime/device_types.hpp",
    "gpu/runtime/hip_runtime.hpp",
    "gpu/runtime/kernel_launch.hpp",
    "gpu/user/doctest_crosscheck.hpp",
    "gpu/user/gpu_kernel.hpp",
    "gpu/user/user_crosscheck.hpp",
    "gpu/user/user_kernel.cuh",
    "gpu/runtime/vector_access.hpp",
]

root = pathlib.Path(__file__).resolve().parent.parent
if sys.argv[1:] == ["--gpu"]:
    for rel in GPU_HEADERS:
        if not (root / rel).is_file():
            sys.exit(f"installed_headers.py: {rel} does not exist")
        sys.stdout.write(rel + "\n")
    sys.exit(0)
if sys.argv[1:]:
    sys.exit("usage: installed_headers.py [--gpu]")
skip_dirs = {("spec", "compile_fail"), ("sim", "synth"), ("sim", "engine", "internal")}
sys.stdout.write("util/json.hpp\n")
for top in ("spec", "kernel", "sim"):
    for path in sorted((root / top).rglob("*.hpp")):
        rel = path.relative_to(root)
        if path.name.endswith(".test.hpp") or any(tuple(rel.parts[:len(d)]) == d for d in skip_dirs):
            continue
        sys.stdout.write(rel.as_posix() + "\n")
