// A user's test suite asserting a GPU cross-check in one line (gpu/user/doctest_crosscheck.hpp): the column sums
// program on the GPU equals the simulator, outputs and counters; on a machine without a GPU it reports
// "skipped: no GPU" and passes.
#include <doctest/doctest.h>

#include <vector>

#include "examples/user_program/column_sums.hpp"
#include "gpu/user/doctest_crosscheck.hpp"

TEST_CASE("column sums on the GPU: outputs and Nsight Compute's counters equal the simulator's, both layouts") {
  for (const bool swizzled : {false, true}) {
    tilesim::gpu::user_buffers buffers;
    std::vector<float> tiles(4 * 64 * 64);
    for (std::size_t i = 0; i < tiles.size(); ++i) tiles[i] = static_cast<float>((i * 7) % 64);
    const int in = buffers.input<float>("in", tiles);
    const int out = buffers.output<float>("out", 4 * 64, -1.0f);
    TILESIM_CHECK_CROSSCHECK(tilesim::gpu::crosscheck(tilesim::examples::column_sums<4>{in, out, swizzled},
                                                      {.grid = 4, .block = 256, .wave_size = 32}, buffers));
  }
}
