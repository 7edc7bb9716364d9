// tilesim/examples/row_sums/row_sums_variants.hpp: the row reduction's row in the main job's table.
//
// DEFINITION. row_sums_variants(): the GPU's launch of examples/row_sums/row_sums.hpp (128 rows of 256 floats, 16
// workgroups of 256 threads, waves of 32) on sm90, checked against the host's sums on inputs from seed 20261129.
//
// WORKED EXAMPLE. "row-sums  shuffle butterfly, 128 x 256  sm90  -  4224 / 4224  ...  out == row sums": no LDS, every
// row load 16 sectors, the sums stored by lane 0 of each wave (one sector each).
//
// INVARIANTS: the variant runs exactly the program the GPU cross-check launches (row_sums_128).
#pragma once

#include <vector>

#include "examples/example.hpp"

namespace tilesim::examples {

std::vector<variant> row_sums_variants();

}  // namespace tilesim::examples
