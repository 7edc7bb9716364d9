// tilesim/kernel/mfma_tile/mfma_tile.hpp: one wave of 64 multiplies fp16 A by fp16 B with an MFMA (32x32x8 or 16x16x16).
//
// DEFINITION. Workgroup b (one wave of 64 lanes) computes D_b (M x N, fp32) = A_b (M x K, fp16, row-major) * B_b
// (K x N, fp16, stored n-major: element (k, n) at n * K + k) + C_b (M x N, fp32, row-major), each at block b's
// slice of its buffer, with (M, N, K) = (32, 32, 8) or (16, 16, 16). Every lane loads exactly the elements the
// MFMA's encodings give it (spec/distribution/warp_gemm_encodings.hpp): its 4 A halves are 4 consecutive k of
// one row (one 8-byte load, label "A load"), its 4 B halves 4 consecutive k of one column ("B load"), its C
// floats one at a time ("C load"); one MFMA; D goes back the way C came ("D store").
//
// WORKED EXAMPLE (16x16x16). Lane 17 loads A(1, 4..7) from element 1*16 + 4, B(k 4..7, n 1) from 1*16 + 4, and
// C / D (4..7, 1) from elements 4*16 + 1, 5*16 + 1, ...
//
// INVARIANTS: block == 64 == the wave size (gfx9); the program touches nothing but the context and spec/ (it
// compiles as a HIP kernel body: gpu/kernels/amd/collectives_probe.hip).
#pragma once

#include <cstdint>

#include "kernel/model/program.hpp"

namespace tilesim::programs {

struct mfma_tile_params {
  int a = 0, b = 1, c = 2, d = 3;  // slots: A, B (uint16 fp16 bits), C, D (float); one slice per block
};

template <mfma_shape Shape, class Ctx>
TILESIM_HOST_DEVICE void mfma_tile(Ctx& ctx, const mfma_tile_params& p) {
  constexpr bool big = Shape == mfma_shape::f32_32x32x8_f16;
  constexpr int M = big ? 32 : 16, N = M, K = big ? 8 : 16, C = big ? 16 : 4, G = big ? 32 : 16;  // G: lanes per k group
  const auto a_in = global_buffer<std::uint16_t>(ctx, p.a);
  const auto b_in = global_buffer<std::uint16_t>(ctx, p.b);
  const auto c_in = global_buffer<float>(ctx, p.c);
  const auto d_out = global_buffer<float>(ctx, p.d);
  const index_t blk = ctx.block_id(), lane = ctx.lane();
  const index_t row = lane % G, k0 = 4 * (lane / G);  // A(row, k0..k0+3); B(k0..k0+3, n = row)
  std::uint16_t h[4];
  mfma_f16_operand a, b;
  ctx.label("A load");
  load_vector<4>(a_in, blk * M * K + row * K + k0, h, true);
  a.r[0] = h[0] | std::uint32_t{h[1]} << 16, a.r[1] = h[2] | std::uint32_t{h[3]} << 16;
  ctx.label("B load");
  load_vector<4>(b_in, blk * N * K + row * K + k0, h, true);
  b.r[0] = h[0] | std::uint32_t{h[1]} << 16, b.r[1] = h[2] | std::uint32_t{h[3]} << 16;
  // C slot d of lane l: (8 (d / 4) + 4 (l / 32) + d % 4, l % 32) on 32x32x8, (4 (l / 16) + d, l % 16) on 16x16x16.
  auto c_at = [&](int d) {
    const index_t r = big ? 8 * (d / 4) + 4 * (lane / 32) + d % 4 : 4 * (lane / 16) + d;
    return blk * M * N + r * N + lane % G;
  };
  float c[C], d[C];
  ctx.label("C load");
  for (int s = 0; s < C; ++s) load_vector<1>(c_in, c_at(s), &c[s], true);
  if constexpr (big) {
    mfma_32x32x8_c acc;
    for (int s = 0; s < C; ++s) acc.r[s] = c[s];
    acc = mfma_32x32x8_f16(ctx, a, b, acc);
    for (int s = 0; s < C; ++s) d[s] = acc.r[s];
  } else {
    mfma_16x16x16_c acc;
    for (int s = 0; s < C; ++s) acc.r[s] = c[s];
    acc = mfma_16x16x16_f16(ctx, a, b, acc);
    for (int s = 0; s < C; ++s) d[s] = acc.r[s];
  }
  ctx.label("D store");
  for (int s = 0; s < C; ++s) store_vector<1>(d_out, c_at(s), &d[s], true);
}

}  // namespace tilesim::programs
