// tilesim/examples/example_point.hpp: one sm90 case of an example as a cross-check point.
//
// DEFINITION. example_point(kind, example, case name, grid, block) is the point gpu/crosscheck runs for that case:
// named "example EXAMPLE: CASE", program `kind`, launched on grid x block threads at sm90's wave; the caller sets
// the program's parameters. Each example folder lists its points with it (NAME_crosscheck_points()), and
// examples/catalogue.cpp's one list of examples hands them to the cross-check (examples/adapters/adapters.cpp).
//
// WORKED EXAMPLE.
//   crosscheck_point p = example_point(program_kind::copy_fp16, "cute-swizzle", "row-major 8x64", 1, 256);
//   p.name == "example cute-swizzle: row-major 8x64";  p.example == "cute-swizzle";  p.wave_size == 32
//
// INVARIANTS: p.example is the example's name as recordings hold it; only sm90 cases become points.
#pragma once

#include <string>

#include "gpu/crosscheck/crosscheck.hpp"
#include "sim/arch/arch.hpp"

namespace tilesim::examples {

inline gpu::crosscheck_point example_point(gpu::program_kind kind, const std::string& example, const std::string& name,
                                           int grid, int block) {
  gpu::crosscheck_point p;
  p.program = kind;
  p.example = example;
  p.name = "example " + example + ": " + name;
  p.grid = grid;
  p.block = block;
  p.wave_size = sim::arch_named("sm90").wave_size;
  return p;
}

}  // namespace tilesim::examples
