// tilesim/examples/stencil/stencil_variants.hpp: the stencil's rows in the main job's table.
//
// DEFINITION. stencil_variants(): the GPU's launches of examples/stencil/stencil.hpp (a 4 x 4 grid of 32 x 32
// tiles, 256 threads) on sm90, halo pitch 34 ("pitch 34, rows packed") and 36 ("pitch 36, padded"), each checked
// against the host's stencil (stencil_reference) on inputs from seed 20261129.
//
// WORKED EXAMPLE. The pitch-36 row reads "stencil  pitch 36, padded  sm90  ...  out == 5-point stencil": its halo
// store is 2-way on a few rows (1.84 wavefronts an instruction), the stencil reads conflict-free.
//
// INVARIANTS: the variants run exactly the programs the GPU cross-check launches (stencil_packed, stencil_padded).
#pragma once

#include <vector>

#include "examples/example.hpp"

namespace tilesim::examples {

std::vector<variant> stencil_variants();

}  // namespace tilesim::examples
