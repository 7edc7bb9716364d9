// tilesim/python/src/module.cpp: the extension module tilesim._tilesim (bindings.hpp says what it holds).
#include <pybind11/pybind11.h>

#include "python/src/bindings.hpp"
#include "util/args.hpp"

PYBIND11_MODULE(_tilesim, m) {
  m.doc() = "tilesim's C++ engine (spec/, sim/, the commands' registries); use the package `tilesim`, not this";
  // A usage mistake (an unknown option, a value out of range): the same sentence the command prints after
  // "tilesim: error: ". spec_error is a std::invalid_argument, which pybind11 raises as ValueError already.
  pybind11::register_exception<tilesim::cli::usage_error>(m, "UsageError", PyExc_ValueError);
  tilesim::python::bind_layouts(m);
  tilesim::python::bind_banks(m);
  tilesim::python::bind_synth(m);
  tilesim::python::bind_run(m);
}
