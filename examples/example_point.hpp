// tilesim/examples/example_point.hpp: one sm90 case of an example as a cross-check point.
//
// DEFINITION. example_point(program, example, case name, grid, block, params) is the point gpu/crosscheck runs
// for that case: named "example EXAMPLE: CASE", run by the catalogue program named `program` (its adapter's
// name, examples/adapters/) on the case's parameters (that program's parameter type: the adapter reads them
// back as such), launched on grid x block threads at sm90's wave. Each example folder lists its points with it
// (NAME_crosscheck_points()), and examples/catalogue.cpp's one list of examples hands them to the cross-check
// (examples/adapters/adapters.cpp).
//
// WORKED EXAMPLE.
//   crosscheck_point p = example_point("copy_fp16", "cute-swizzle", "row-major 8x64", 1, 256, c.params);
//   p.name == "example cute-swizzle: row-major 8x64";  p.example == "cute-swizzle";  p.wave_size == 32
//   p.program == "copy_fp16";  p.params.as<programs::copy_params>() == c.params
//
// INVARIANTS: p.example is the example's name as recordings hold it; only sm90 cases become points; the
// program is named, not linked (the examples' library does not link the adapters: gpu/meson.build).
#pragma once

#include <string>
#include <utility>

#include "gpu/crosscheck/crosscheck.hpp"
#include "sim/arch/arch.hpp"

namespace tilesim::examples {

template <class Params>
gpu::crosscheck_point example_point(const char* program, const std::string& example, const std::string& name, int grid,
                                    int block, Params params) {
  gpu::crosscheck_point p;
  p.program = program;
  p.params = std::move(params);
  p.example = example;
  p.name = "example " + example + ": " + name;
  p.grid = grid;
  p.block = block;
  p.wave_size = sim::arch_named("sm90").wave_size;
  return p;
}

}  // namespace tilesim::examples
