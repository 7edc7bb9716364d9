// tilesim/examples/row_sums/row_sums.hpp: a per-row fp32 reduction with a shuffle butterfly, a program without LDS.
//
// DEFINITION. out[r] = sum over c of in[r][c] for Rows rows of 256 floats: one wave of 32 lanes per row, 8 rows per
// workgroup of 256 threads. Lane l loads the float4s at columns 4l and 128 + 4l ("row load", two 16-byte loads),
// adds its 8 values, then the wave adds across its lanes with a butterfly (shuffle_xor by 16, 8, 4, 2, 1) and lane 0
// stores the row's sum ("sum store", one lane: the other 31 branch around it). No LDS, no barrier: the program the
// one-call cross-check once aborted on (Nsight's source page then has no shared-memory column).
//
// WORKED EXAMPLE. in[r][c] = 1: each lane's 8 values sum to 8, the butterfly makes every lane's sum 256, out[r] = 256.
// A wave's row load is 32 lanes x 16 consecutive bytes: 512 bytes, 16 sectors, ideal.
//
// INVARIANTS: touches nothing but the context and spec/ (row_sums_kernel.cu compiles it); the sums are exact for
// integer inputs below 2^16; a launch of Rows / 8 workgroups of 256 threads on waves of 32 lanes.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/user/gpu_kernel.hpp"
#include "kernel/model/program.hpp"

namespace tilesim::examples {

template <index_t Rows>
struct row_sums {
  int in = 0, out = 1;  // global slots: Rows x 256 floats in, Rows floats out
  static constexpr index_t cols = 256, threads = 256, wave = 32, rows_per_block = threads / wave;
  static constexpr index_t block_size = threads;  // the workgroup it is written for: its kernel is compiled for it
  static_assert(Rows % rows_per_block == 0, "row_sums: whole workgroups of 8 rows");

  template <class Ctx>
  TILESIM_HOST_DEVICE void operator()(Ctx& ctx) const {
    const auto src = global_buffer<float>(ctx, in);
    const auto dst = global_buffer<float>(ctx, out);
    const index_t row = ctx.block_id() * rows_per_block + ctx.warp(), lane = ctx.lane();
    float a[4] = {}, b[4] = {};
    ctx.label("row load");
    load_vector<4>(src, row * cols + 4 * lane, a, true);
    load_vector<4>(src, row * cols + 128 + 4 * lane, b, true);
    float sum = a[0] + a[1] + a[2] + a[3] + b[0] + b[1] + b[2] + b[3];
    alu(ctx, alu_op::fma, 7);
    for (index_t mask = wave / 2; mask >= 1; mask /= 2) sum += shuffle_xor(ctx, sum, mask), alu(ctx, alu_op::fma, 1);
    if (lane == 0) {
      ctx.label("sum store");
      store_element(dst, row, sum);
    }
  }
};

// Rows x 256 integers 0..63 from a 64-bit LCG seeded with `seed` (exact sums in fp32).
inline std::vector<float> row_sums_inputs(index_t rows, std::uint64_t seed) {
  std::vector<float> v(static_cast<std::size_t>(rows * 256));
  std::uint64_t x = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (float& f : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    f = static_cast<float>((x >> 33) % 64);
  }
  return v;
}

// The GPU's launch: 128 rows, 16 workgroups.
using row_sums_128 = row_sums<128>;

}  // namespace tilesim::examples

TILESIM_DECLARE_GPU_KERNEL(tilesim::examples::row_sums_128);
