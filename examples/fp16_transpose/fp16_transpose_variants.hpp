// tilesim/examples/fp16_transpose/fp16_transpose_variants.hpp: the fp16 transpose's rows in the main job's table.
//
// DEFINITION. fp16_transpose_variants(): the GPU's launches of examples/fp16_transpose/fp16_transpose.hpp (256 x 256
// fp16 bits in 64 x 64 tiles, 16 workgroups of 256 threads) on sm90, one row per LDS layout (row-major, padded 72,
// Swizzle<3,3,6>), each checked bit for bit against the host's transpose on inputs from seed 20261129.
//
// WORKED EXAMPLE. "fp16-transpose  Swizzle<3,3,6>  sm90  3072 / 3072": the column read conflict-free, where
// row-major and padded 72 read it 8-way (17408 wavefronts).
//
// INVARIANTS: the variants run exactly the programs the GPU cross-check launches (transpose_row_major, ...).
#pragma once

#include <vector>

#include "examples/example.hpp"

namespace tilesim::examples {

std::vector<variant> fp16_transpose_variants();

}  // namespace tilesim::examples
