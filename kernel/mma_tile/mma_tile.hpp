// tilesim/kernel/mma_tile/mma_tile.hpp: one warp multiplies a 16 x 16 fp16 A by a 16 x 8 fp16 B with mma.sync.
//
// DEFINITION. Workgroup b (one warp of 32 lanes) computes D_b (16 x 8, fp32) = A_b (16 x 16, fp16, row-major) *
// B_b (16 x 8, fp16, stored n-major: element (k, n) at n * 16 + k, K contiguous) + C_b (16 x 8, fp32,
// row-major), each matrix at block b's slice of its buffer. Every lane loads exactly the elements mma.sync's
// fragments give it (kernel/model/mma.hpp): its A pairs and B pairs are 2 contiguous fp16 each (one 4-byte load
// apiece, labels "A load", "B load"), its C pairs 2 contiguous floats ("C load"); one mma_m16n8k16; its D pairs
// go back the same way ("D store").
//
// WORKED EXAMPLE. Lane 5 (g = 1, q = 1) loads A (1, 2..3), (9, 2..3), (1, 10..11), (9, 10..11), B (2..3, 1) and
// (10..11, 1), C and D (1, 2..3) and (9, 2..3). With bf16 the same loads carry bfloat16 bits.
//
// INVARIANTS: block == 32 == the wave size; sm90 only (mma.sync); the program touches nothing but the context and
// spec/ (it compiles as a CUDA kernel body: gpu/kernels/collectives_probe.cu).
#pragma once

#include <cstdint>

#include "kernel/model/program.hpp"

namespace tilesim::programs {

struct mma_tile_params {
  int a = 0, b = 1, c = 2, d = 3;  // slots: A, B (uint16 fp16 bits), C, D (float); one 16 x 16 / 16 x 8 slice per block
  bool bf16 = false;               // A and B hold bfloat16 bits: mma.sync's bf16 form
};

template <class Ctx>
TILESIM_HOST_DEVICE void mma_tile(Ctx& ctx, const mma_tile_params& p) {
  const auto a_in = global_buffer<std::uint16_t>(ctx, p.a);
  const auto b_in = global_buffer<std::uint16_t>(ctx, p.b);
  const auto c_in = global_buffer<float>(ctx, p.c);
  const auto d_out = global_buffer<float>(ctx, p.d);
  const index_t blk = ctx.block_id();
  const int lane = static_cast<int>(ctx.lane());
  mma_m16n8k16_a a;
  mma_m16n8k16_b b;
  mma_m16n8k16_c c;
  ctx.label("A load");
  for (int reg = 0; reg < 4; ++reg) {
    const matrix_position at = mma_a_position(lane, reg, 0);
    std::uint16_t pair[2];
    load_vector<2>(a_in, blk * 256 + at.row * 16 + at.col, pair, true);
    a.r[reg] = pair[0] | std::uint32_t{pair[1]} << 16;
  }
  ctx.label("B load");
  for (int reg = 0; reg < 2; ++reg) {
    const matrix_position at = mma_b_position(lane, reg, 0);  // (k, n): k and k + 1 are contiguous
    std::uint16_t pair[2];
    load_vector<2>(b_in, blk * 128 + at.col * 16 + at.row, pair, true);
    b.r[reg] = pair[0] | std::uint32_t{pair[1]} << 16;
  }
  ctx.label("C load");
  for (int reg = 0; reg < 4; reg += 2) {
    const matrix_position at = mma_c_position(lane, reg);
    load_vector<2>(c_in, blk * 128 + at.row * 8 + at.col, &c.r[reg], true);
  }
  const mma_m16n8k16_c d = p.bf16 ? mma_m16n8k16_bf16(ctx, a, b, c) : mma_m16n8k16(ctx, a, b, c);
  ctx.label("D store");
  for (int reg = 0; reg < 4; reg += 2) {
    const matrix_position at = mma_c_position(lane, reg);
    store_vector<2>(d_out, blk * 128 + at.row * 8 + at.col, &d.r[reg], true);
  }
}

}  // namespace tilesim::programs
