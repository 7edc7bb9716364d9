// tilesim/examples/async_pipeline/async_pipeline.hpp: column sums of a tall slab through a double-buffered cp.async
// pipeline, the way sm80+ kernels stage tiles in LDS without registers.
//
// DEFINITION. Workgroup b owns a slab of Tiles tiles of 16 rows x 256 floats (in: grid * Tiles * 16 rows of 256) and
// writes out[b * 256 + c] = the sum of column c over its slab. Its 256 threads stage tile k + 1 into one LDS buffer
// with cp.async while they add tile k from the other:
//   "stage"   thread t copies 4 float4s of the next tile (row 4i + t / 64, columns 4 (t % 64) ..), commit
//   wait      async_wait<1> (async_wait<0> for the last tile): tile k has landed; barrier: everyone's has
//   "column"  thread t adds column t of tile k, 16 LDS reads (a wave reads 32 consecutive words: conflict-free)
//   barrier   before the next stage overwrites this buffer
//   "sum store" out[b * 256 + t]
// Two buffers of 16 KiB: 32 KiB of LDS.
//
// WORKED EXAMPLE (one 4x4 corner of tile 0): in rows 0..3, columns 0..3 = {1,2,3,4}, {5,6,7,8}, {9,10,11,12}, {13,14,
// 15,16}; thread 0 stages row 0's float4 {1,2,3,4} (it is one cp.async of 16 bytes), thread 64 row 1's, thread 128
// row 2's, thread 192 row 3's; after the wait and barrier thread 2 reads column 2 of those rows: 3 + 7 + 11 + 15 = 36.
//
// INVARIANTS: touches nothing but the context and spec/ and kernel/ (async_pipeline_kernel.cu compiles it); the
// sums are exact for integer inputs below 2^12 with Tiles <= 16; launched as grid x 256 threads on waves of 32.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/user/gpu_kernel.hpp"
#include "kernel/model/program.hpp"

namespace tilesim::examples {

template <index_t Tiles>
struct async_pipeline {
  int in = 0, out = 1;  // global slots: grid * Tiles * 16 x 256 floats in, grid * 256 floats out
  static constexpr index_t cols = 256, tile_rows = 16, threads = 256, tile_elements = tile_rows * cols;
  static constexpr index_t block_size = threads;  // the workgroup it is written for: its kernel is compiled for it
  static_assert(Tiles >= 1, "async_pipeline: at least one tile");

  template <class Ctx>
  TILESIM_HOST_DEVICE void operator()(Ctx& ctx) const {
    const auto src = global_buffer<float>(ctx, in);
    const auto dst = global_buffer<float>(ctx, out);
    const auto lds = lds_buffer<float>(ctx, 2 * tile_elements);
    const index_t t = ctx.thread_id(), slab = ctx.block_id() * Tiles * tile_elements;
    // Thread t's four float4s of tile k into buffer k % 2: rows 4i + t / 64, columns 4 (t % 64) .. + 3.
    auto stage = [&](index_t k) {
      ctx.label("stage");
      for (index_t i = 0; i < 4; ++i) {
        const index_t e = (4 * i + t / 64) * cols + 4 * (t % 64);
        async_copy<4>(ctx, lds, (k % 2) * tile_elements + e, src, slab + k * tile_elements + e);
      }
      async_commit(ctx);
    };
    float sum = 0.0f;
    stage(0);
    for (index_t k = 0; k < Tiles; ++k) {
      if (k + 1 < Tiles) {
        stage(k + 1);
        async_wait<1>(ctx);
      } else {
        async_wait<0>(ctx);
      }
      ctx.barrier();
      ctx.label("column");
      for (index_t r = 0; r < tile_rows; ++r) sum += load_element(lds, (k % 2) * tile_elements + r * cols + t);
      alu(ctx, alu_op::fma, tile_rows);
      ctx.barrier();
    }
    ctx.label("sum store");
    store_element(dst, ctx.block_id() * cols + t, sum);
  }
};

// n integers 0..15 from a 64-bit LCG seeded with `seed` (exact sums in fp32).
inline std::vector<float> async_pipeline_inputs(index_t n, std::uint64_t seed) {
  std::vector<float> v(static_cast<std::size_t>(n));
  std::uint64_t x = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (float& f : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    f = static_cast<float>((x >> 33) % 16);
  }
  return v;
}

// The host's column sums: out[b * 256 + c] over workgroup b's Tiles * 16 rows, in the program's order of rows.
inline std::vector<float> async_pipeline_sums(const std::vector<float>& in, index_t grid, index_t tiles) {
  std::vector<float> out(static_cast<std::size_t>(grid * 256), 0.0f);
  for (index_t b = 0; b < grid; ++b)
    for (index_t r = 0; r < tiles * 16; ++r)
      for (index_t c = 0; c < 256; ++c)
        out[static_cast<std::size_t>(b * 256 + c)] += in[static_cast<std::size_t>((b * tiles * 16 + r) * 256 + c)];
  return out;
}

// The GPU's launch: 8 tiles a workgroup, 16 workgroups (2 MiB in).
using async_pipeline_8 = async_pipeline<8>;

}  // namespace tilesim::examples

TILESIM_DECLARE_GPU_KERNEL(tilesim::examples::async_pipeline_8);
