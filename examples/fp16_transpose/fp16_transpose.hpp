// tilesim/examples/fp16_transpose/fp16_transpose.hpp: a 64 x 64 fp16 transpose through LDS with 16-byte accesses.
//
// DEFINITION. out[x][y] = in[y][x] over an N x N matrix of fp16 bits (N = 64 * Tiles, uint16_t elements), one
// workgroup of 256 threads per 64 x 64 tile, as a user writes it from docs/programming-guide.md:
//   1. "tile load" / "tile store": the tile's 512 16-byte chunks (8 per row), chunk q = 256 s + t (s = 0, 1) is
//      row q / 8, chunk q % 8: one load_vector<8> from global, one store_vector<8> into the LDS tile at
//      Layout's offset of (row, 8 * chunk);
//   2. barrier; "column read": output row x = input column x, chunk k = rows 8k .. 8k+7: eight 2-byte LDS loads
//      (lanes 0-7 of a warp take one column's 8 chunks, so one warp reads 4 columns at 8 rows 8 apart);
//      "out store": the 8 values as one store_vector<8> (16 bytes) of output row x.
// The LDS tile's layout (Layout) is the variable: row-major (64 elements a row), padded (72: one chunk more) and
// CuTe's Swizzle<3,3,6> on element offsets (chunk XOR (row / 8) % 8: spec/layouts/cute_swizzle.hpp), the
// layout `tilesim synth` gives the column read.
//
// WORKED EXAMPLE. The column read's first load on a warp: lanes (column x + i, chunk k), i < 4, k < 8, read row
// 8k of column x + i. Row-major: byte 128 (8k) + 2 (x + i): every k lands on the same bank (a row is 32 banks),
// 8-way (8 wavefronts); padded 72: a row is 36 banks, 8 rows are 288 = 9 x 32: still 8-way; Swizzle<3,3,6>:
// chunk (x / 8) XOR k is a different chunk for each k: one wavefront. The tile store (16 bytes a lane, 4 rows of
// 8 chunks a warp) is 4 wavefronts, the least for 512 bytes, under all three.
//
// INVARIANTS: touches nothing but the context and spec/ (it compiles as a kernel: fp16_transpose_kernel.cu); every
// LDS index comes from a compile-time descriptor (fixed_descriptor: no descriptor data on the device); the output
// is a permutation of the input bits, exact.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/user/gpu_kernel.hpp"
#include "kernel/model/program.hpp"
#include "spec/fixed_descriptor.hpp"
#include "spec/layouts/cute_swizzle.hpp"
#include "spec/layouts/row_major.hpp"

namespace tilesim::examples {

enum class transpose_lds { row_major, padded, swizzled };

// The LDS tile of each layout as a compile-time descriptor over (row, column) of the 64 x 64 tile.
template <transpose_lds Layout>
constexpr auto transpose_lds_descriptor() {
  if constexpr (Layout == transpose_lds::row_major) return make_row_major_descriptor(64, 64);
  else if constexpr (Layout == transpose_lds::padded) return make_row_major_descriptor(64, 64, 8);
  else return make_cute_swizzle_descriptor(3, 3, 6, 64, 64);
}

template <index_t Tiles, transpose_lds Layout>
struct fp16_transpose {
  int in = 0, out = 1;  // global slots: N^2 fp16 bits each
  static constexpr index_t tile = 64, threads = 256, n = Tiles * tile, vector = 8;
  static constexpr index_t chunks = tile * tile / vector, steps = chunks / threads;  // 512 chunks, 2 per thread
  static constexpr index_t block_size = threads;  // the workgroup it is written for: its kernel is compiled for it
  using lds_layout = fixed_descriptor<transpose_lds_descriptor<Layout>()>;

  template <class Ctx>
  TILESIM_HOST_DEVICE void operator()(Ctx& ctx) const {
    const auto src = global_buffer<std::uint16_t>(ctx, in);
    const auto dst = global_buffer<std::uint16_t>(ctx, out);
    const auto lds = lds_buffer<std::uint16_t>(ctx, lds_layout::element_space_size);
    const index_t t = ctx.thread_id(), tx = ctx.block_id() % Tiles, ty = ctx.block_id() / Tiles;
    std::uint16_t staged[steps][vector];
    ctx.label("tile load");
    for (index_t s = 0; s < steps; ++s) {
      const index_t q = s * threads + t, r = q / vector, c = q % vector * vector;
      load_vector<vector>(src, (ty * tile + r) * n + tx * tile + c, staged[s], true);
    }
    ctx.label("tile store");
    for (index_t s = 0; s < steps; ++s) {
      const index_t q = s * threads + t, r = q / vector, c = q % vector * vector;
      store_vector<vector>(lds, lds_layout::calculate_offset({r, c}), staged[s], true);
    }
    ctx.barrier();
    for (index_t s = 0; s < steps; ++s) {
      const index_t q = s * threads + t, x = q / vector, k = q % vector;  // output row x, its chunk k
      std::uint16_t column[vector];
      ctx.label("column read");
      for (index_t j = 0; j < vector; ++j) column[j] = load_element(lds, lds_layout::calculate_offset({k * vector + j, x}));
      ctx.label("out store");
      store_vector<vector>(dst, (tx * tile + x) * n + ty * tile + k * vector, column, true);
    }
  }
};

// A tiles x tiles grid's input: (64 tiles)^2 distinct-ish fp16 bit patterns from a 64-bit LCG seeded with `seed`.
inline std::vector<std::uint16_t> transpose_inputs(index_t tiles, std::uint64_t seed) {
  std::vector<std::uint16_t> v(static_cast<std::size_t>(64 * tiles * 64 * tiles));
  std::uint64_t x = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (std::uint16_t& e : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    e = static_cast<std::uint16_t>(x >> 48);
  }
  return v;
}

// The host's transpose: what both sides must produce.
inline std::vector<std::uint16_t> transpose_reference(index_t tiles, const std::vector<std::uint16_t>& in) {
  const index_t n = 64 * tiles;
  std::vector<std::uint16_t> out(in.size());
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) out[static_cast<std::size_t>(x * n + y)] = in[static_cast<std::size_t>(y * n + x)];
  return out;
}

// The GPU's launches: a 4 x 4 grid of tiles (256 x 256), each LDS layout.
using transpose_row_major = fp16_transpose<4, transpose_lds::row_major>;
using transpose_padded = fp16_transpose<4, transpose_lds::padded>;
using transpose_swizzled = fp16_transpose<4, transpose_lds::swizzled>;

}  // namespace tilesim::examples

TILESIM_DECLARE_GPU_KERNEL(tilesim::examples::transpose_row_major);
TILESIM_DECLARE_GPU_KERNEL(tilesim::examples::transpose_padded);
TILESIM_DECLARE_GPU_KERNEL(tilesim::examples::transpose_swizzled);
