// tilesim/kernel/morton/morton_shapes.hpp: the Morton example's cases as constants, and their launches.
//
// DEFINITION. morton_case_table lists the example's cases (examples/morton's morton_cases() is this table): a
// 64 x 64 fp32 image, T = 8, read by footprints of 8 rows x 4 columns on sm90 (wave 32) or 8 x 8 on gfx942
// (wave 64), each layout (row-major, Morton by transforms, Morton by bits) read directly or staged through a
// Z-ordered LDS band; grid 8 x block 256. morton_case_shape(c) is case c's launch (morton.hpp's morton_shape),
// a constant expression, so the compiled kernels (gpu/kernels/programs/morton_f32.hpp, sm90 and AMD tables) take
// it as constant<morton_case_shape(morton_case_table[i])>. Device-safe: nothing here but morton.hpp.
//
// WORKED EXAMPLE. morton_case_shape(morton_case_table[1]) == {p, 256, 32, 8} with p.height = p.width = 64,
// p.tile = 8, p.footprint_rows = 8, p.footprint_cols = 4, p.layout = morton_transforms, p.staging = direct.
//
// INVARIANTS (morton.test.cpp): morton_cases()[i] has morton_case_table[i]'s params, grid and block, and runs at
// the wave size the table names.
#pragma once

#include "kernel/morton/morton.hpp"

namespace tilesim::examples {

// One case as constants: morton_cases() is this table, and a compiled kernel's shape is
// morton_case_shape(morton_case_table[i]) (constant expressions throughout).
struct morton_case_def {
  const char* name;
  const char* arch;     // "sm90" or "gfx942"
  index_t wave_size;    // the arch's: 32 or 64
  morton_params params;
  int grid = 8;
  int block = 256;
};

// 64 x 64, T = 8, footprints of 8 rows x `cols`: morton_case_params(texel_layout::row_major, texel_staging::direct, 4).
constexpr morton_params morton_case_params(texel_layout layout, texel_staging staging, index_t cols) {
  morton_params p;
  p.height = p.width = 64;
  p.tile = 8;
  p.footprint_rows = 8;
  p.footprint_cols = cols;
  p.layout = layout;
  p.staging = staging;
  return p;
}

// sm90: 32 lanes -> 8 rows x 4 cols per wave, 8 waves per band of 16 footprints: 2 passes.
// gfx942: 64 lanes -> 8 x 8 per wave, 4 waves per band of 8 footprints: 2 passes.
inline constexpr morton_case_def morton_case_table[] = {
    {"row-major, 8x4 reads", "sm90", 32, morton_case_params(texel_layout::row_major, texel_staging::direct, 4)},
    {"morton T=8 (transforms), 8x4 reads", "sm90", 32,
     morton_case_params(texel_layout::morton_transforms, texel_staging::direct, 4)},
    {"morton T=8 (bits), 8x4 reads", "sm90", 32,
     morton_case_params(texel_layout::morton_bits, texel_staging::direct, 4)},
    {"morton T=8 (transforms), 8x4 reads, LDS in Z order", "sm90", 32,
     morton_case_params(texel_layout::morton_transforms, texel_staging::lds_morton, 4)},
    {"row-major, 8x8 reads", "gfx942", 64, morton_case_params(texel_layout::row_major, texel_staging::direct, 8)},
    {"morton T=8 (transforms), 8x8 reads", "gfx942", 64,
     morton_case_params(texel_layout::morton_transforms, texel_staging::direct, 8)},
    {"morton T=8 (bits), 8x8 reads", "gfx942", 64,
     morton_case_params(texel_layout::morton_bits, texel_staging::direct, 8)},
    {"morton T=8 (bits), 8x8 reads, LDS in Z order", "gfx942", 64,
     morton_case_params(texel_layout::morton_bits, texel_staging::lds_morton, 8)},
};

// A case's launch, ready to be a constant: constant<morton_case_shape(morton_case_table[1])>{}.
constexpr morton_shape morton_case_shape(const morton_case_def& c) { return {c.params, c.block, c.wave_size, c.grid}; }

}  // namespace tilesim::examples
