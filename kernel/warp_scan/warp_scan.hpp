// tilesim/kernel/warp_scan/warp_scan.hpp: a tile program that moves values between the lanes of a wave (shuffles).
//
// DEFINITION. Thread t of a workgroup reads in[g] (g = block * block_size + t, int32) and writes four results
// per element to out[4 g .. 4 g + 3], all computed across its wave W lanes wide with shuffles (shuffle.hpp):
//   0  the wave's sum            butterfly: log2 W steps of sum += shuffle_xor(sum, W/2, W/4, ..., 1)
//   1  the inclusive prefix sum  log2 W steps of shuffle_up by 1, 2, 4, ... (Hillis-Steele)
//   2  lane 0's value            shuffle_index(v, 0)
//   3  the next lane's value     shuffle_down(v, 1) (the last lane keeps its own)
// Sums wrap in 32 bits like the GPU's integer adds. No LDS, no barrier: every exchange is a register move.
//
// WORKED EXAMPLE (W = 4, in = {1, 2, 3, 4}): out = {10, 1, 1, 2,  10, 3, 1, 3,  10, 6, 1, 4,  10, 10, 1, 4}.
//
// INVARIANTS: the block is a multiple of the wave size (every lane of every wave takes part; the simulator
// reports a partial wave's missing lanes); the program touches nothing but the context and spec/ (it compiles
// as a CUDA and a HIP kernel body: gpu/collectives).
#pragma once

#include <cstdint>

#include "kernel/model/program.hpp"

namespace tilesim::programs {

struct warp_scan_params {
  int input = 0;   // slot of in: int32, grid * block elements
  int output = 1;  // slot of out: int32, 4 * grid * block elements
};

template <class Ctx>
TILESIM_HOST_DEVICE void warp_scan(Ctx& ctx, const warp_scan_params& p) {
  const auto in = global_buffer<std::int32_t>(ctx, p.input);
  const auto out = global_buffer<std::int32_t>(ctx, p.output);
  const index_t g = ctx.block_id() * ctx.block_size() + ctx.thread_id(), w = ctx.warp_size();
  ctx.label("in load");
  const std::int32_t v = load_element(in, g);
  std::uint32_t sum = static_cast<std::uint32_t>(v), scan = static_cast<std::uint32_t>(v);
  for (index_t mask = w / 2; mask >= 1; mask /= 2) sum += shuffle_xor(ctx, sum, mask);
  for (index_t d = 1; d < w; d *= 2) {
    const std::uint32_t up = shuffle_up(ctx, scan, d);
    if (ctx.lane() >= d) scan += up;
  }
  const std::int32_t first = shuffle_index(ctx, v, 0), next = shuffle_down(ctx, v, 1);
  ctx.label("out store");
  store_element(out, 4 * g, static_cast<std::int32_t>(sum));
  store_element(out, 4 * g + 1, static_cast<std::int32_t>(scan));
  store_element(out, 4 * g + 2, first);
  store_element(out, 4 * g + 3, next);
}

}  // namespace tilesim::programs
