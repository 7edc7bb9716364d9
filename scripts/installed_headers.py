#!/usr/bin/env python3
"""Prints the headers `meson install` installs, one per line, relative to the repository root.

Every *.hpp under spec/ and under sim/ except test helpers (*.test.hpp), spec/compile_fail/ (sources that
must not compile) and sim/synth/ (the library behind `tilesim synth`, not installed). They go to
<includedir>/tilesim/<the same path>, so a program's `#include "sim/engine/engine.hpp"` works against the
install as it does in the tree. Run by the root meson.build at configure time (a new header needs a
reconfigure, as a new source does); tests/consumer/run.sh checks that every include among them resolves.
"""
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
skip_dirs = {("spec", "compile_fail"), ("sim", "synth")}
for top in ("spec", "sim"):
    for path in sorted((root / top).rglob("*.hpp")):
        rel = path.relative_to(root)
        if path.name.endswith(".test.hpp") or tuple(rel.parts[:2]) in skip_dirs:
            continue
        sys.stdout.write(rel.as_posix() + "\n")
