// tilesim/python/src/bindings.hpp: the parts of the extension module tilesim._tilesim, one function per concept.
//
// The module is a thin door: every function here calls what spec/, sim/ and cli/ already have (the layout
// registry of `tilesim layout`, the bank model of `tilesim bank`, synthesize() of `tilesim synth`, the command
// `tilesim run`) and converts its answer to Python (dicts, lists, NumPy arrays). Nothing re-derives a number, so
// a result equals the command's for the same inputs (python/tests/ compares them with the built binary).
// Errors: a bad argument raises tilesim.UsageError (a ValueError) or ValueError with spec/'s rule and its values.
#pragma once

#include <pybind11/pybind11.h>

namespace tilesim::python {

void bind_layouts(pybind11::module_& m);  // layouts.cpp: built-in layouts as offset tables, CuTe's swizzle
void bind_banks(pybind11::module_& m);    // banks.cpp: one wave's lane addresses priced, per phase; tile sides
void bind_synth(pybind11::module_& m);    // synth.cpp: synthesize() as a dict
void bind_run(pybind11::module_& m);      // run.cpp: `tilesim run ... --json` as text

}  // namespace tilesim::python
