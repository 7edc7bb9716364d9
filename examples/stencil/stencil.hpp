// tilesim/examples/stencil/stencil.hpp: a 5-point stencil with its halo staged in LDS, a program with divergent lanes.
//
// DEFINITION. out[y][x] = in'[y][x+1] + in'[y+2][x+1] + in'[y+1][x] + in'[y+1][x+2] + in'[y+1][x+1] over an
// N x N image (N = 32 * Tiles), in' being the input padded by one element on every side ((N+2) x (N+2) floats, so
// every halo element exists). One workgroup of 256 threads per 32 x 32 output tile, as a user writes it from
// docs/programming-guide.md:
//   1. "halo load" / "halo store": the tile's 34 x 34 halo (1156 floats) in 5 steps, i = 256 s + t, guarded by
//      i < 1156: all 5 loads into registers, then all 5 stores into an LDS tile of pitch Pitch (34: rows packed;
//      36: padded). The last step is partial: threads 128-131 (wave 4's lanes 0-3 on a wave of 32) make a fifth
//      load while the rest of their wave has gone on to its stores, the divergence the simulator groups by
//      instruction (sim/engine/grouping.hpp); by ordinal, lanes 4-31's first store joined lanes 0-3's fifth load.
//   2. barrier; "stencil read": each thread computes 4 outputs, o = 256 k + t, reading 5 LDS neighbours each;
//      "out store": one float each.
//
// WORKED EXAMPLE. Pitch 34, a wave of 32 reading its outputs' upper neighbours: lanes 0-31 read row r = o / 32,
// columns 1..32, consecutive floats: 32 banks, one wavefront. With in' = 1 everywhere, out = 5 everywhere.
//
// INVARIANTS: touches nothing but the context and spec/ (it compiles as a kernel: stencil_kernel.cu); the sums are
// exact for integer inputs below 2^20; every global access is inside its buffer (no guard beyond i < 1156).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/user/gpu_kernel.hpp"
#include "kernel/model/program.hpp"

namespace tilesim::examples {

template <index_t Tiles, index_t Pitch>
struct stencil {
  int in = 0, out = 1;  // global slots: (N+2)^2 floats in, N^2 floats out
  static constexpr index_t tile = 32, halo = tile + 2, threads = 256, n = Tiles * tile, padded = n + 2;
  static constexpr index_t halo_elements = halo * halo, steps = (halo_elements + threads - 1) / threads;
  static constexpr index_t block_size = threads;  // the workgroup it is written for: its kernel is compiled for it
  static_assert(Pitch >= halo, "stencil: the LDS pitch holds a halo row");

  template <class Ctx>
  TILESIM_HOST_DEVICE void operator()(Ctx& ctx) const {
    const auto src = global_buffer<float>(ctx, in);
    const auto dst = global_buffer<float>(ctx, out);
    const auto lds = lds_buffer<float>(ctx, halo * Pitch);
    const index_t t = ctx.thread_id(), tx = ctx.block_id() % Tiles, ty = ctx.block_id() / Tiles;
    const index_t origin = ty * tile * padded + tx * tile;  // the halo's first element in in'
    float staged[steps] = {};
    ctx.label("halo load");  // every step's load first, then the stores: the loads overlap
    for (index_t s = 0; s < steps; ++s)
      if (const index_t i = s * threads + t; i < halo_elements)
        staged[s] = load_element(src, origin + (i / halo) * padded + i % halo);
    ctx.label("halo store");
    for (index_t s = 0; s < steps; ++s)
      if (const index_t i = s * threads + t; i < halo_elements) store_element(lds, (i / halo) * Pitch + i % halo, staged[s]);
    ctx.barrier();
    for (index_t k = 0; k < tile * tile / threads; ++k) {
      const index_t o = k * threads + t, y = o / tile, x = o % tile;
      const index_t centre = (y + 1) * Pitch + x + 1;
      ctx.label("stencil read");
      float sum = load_element(lds, centre - Pitch);
      sum += load_element(lds, centre + Pitch), alu(ctx, alu_op::fma, 1);
      sum += load_element(lds, centre - 1), alu(ctx, alu_op::fma, 1);
      sum += load_element(lds, centre + 1), alu(ctx, alu_op::fma, 1);
      sum += load_element(lds, centre), alu(ctx, alu_op::fma, 1);
      ctx.label("out store");
      store_element(dst, (ty * tile + y) * n + tx * tile + x, sum);
    }
  }
};

// Inputs for a `tiles` x `tiles` grid: (32 tiles + 2)^2 integers 0..63 from a 64-bit LCG seeded with `seed`.
inline std::vector<float> stencil_inputs(index_t tiles, std::uint64_t seed) {
  const index_t padded = 32 * tiles + 2;
  std::vector<float> v(static_cast<std::size_t>(padded * padded));
  std::uint64_t x = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (float& f : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    f = static_cast<float>((x >> 33) % 64);
  }
  return v;
}

// The host's stencil: what both sides must produce.
inline std::vector<float> stencil_reference(index_t tiles, const std::vector<float>& in) {
  const index_t n = 32 * tiles, padded = n + 2;
  std::vector<float> out(static_cast<std::size_t>(n * n));
  auto at = [&](index_t y, index_t x) { return in[static_cast<std::size_t>(y * padded + x)]; };
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) {
      float sum = at(y, x + 1);
      sum += at(y + 2, x + 1);
      sum += at(y + 1, x);
      sum += at(y + 1, x + 2);
      sum += at(y + 1, x + 1);
      out[static_cast<std::size_t>(y * n + x)] = sum;
    }
  return out;
}

}  // namespace tilesim::examples

namespace tilesim::examples {
// The GPU's launches: a 4 x 4 grid of tiles, halo pitch 34 (packed) and 36 (padded).
using stencil_packed = stencil<4, 34>;
using stencil_padded = stencil<4, 36>;
}  // namespace tilesim::examples
TILESIM_DECLARE_GPU_KERNEL(tilesim::examples::stencil_packed);
TILESIM_DECLARE_GPU_KERNEL(tilesim::examples::stencil_padded);
