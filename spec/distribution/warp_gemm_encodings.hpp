// tilesim/spec/distribution/warp_gemm_encodings.hpp: the register layouts of the matrix instructions, as encodings.
//
// DEFINITION. A warp-level matrix instruction (NVIDIA mma.sync, AMD MFMA) takes its operands A (M x K), B (K x N)
// and its accumulator C (M x N) spread over the lanes of one wave, each lane holding a fixed set of elements in
// a fixed register order. That assignment is a tile distribution encoding with one P dim (P0 = the lane) and
// Y = the lane's element index d (row-major over Y): exactly CK's warp-GEMM attribute encodings
// (ops/gemm/warp/warp_gemm_attribute_mfma_impl.hpp), which its block GEMMs embed in an outer warp/iteration
// encoding (embed_encoding). B is stored K-major (CK's "B^T", X0 = n, X1 = k), so every B encoding here is over
// (n, k). The vendors' tables (PTX ISA "Matrix Fragments for mma.m16n8k16 with floating point type"; AMD's
// CDNA3 ISA section 7.1 and its Matrix Instruction Calculator for v_mfma_f32_{32x32x8,16x16x16}_f16):
//   mma.sync m16n8k16, wave 32, g = lane / 4, q = lane % 4, d = the lane's element (halves, then floats):
//     A (16 x 16):  d = 4kh + 2h + e   holds A(g + 8h, 2q + e + 8kh)         (a[d / 2], half d % 2)
//     B (n x k):    d = 2kh + e        holds B(n = g, k = 2q + e + 8kh)      (b[d / 2], half d % 2)
//     C (16 x 8):   d = 2h + e         holds C(g + 8h, 2q + e)               (c[d])
//   MFMA 32x32x8 f16, wave 64: A(l % 32, 4 (l / 32) + d), B(n = l % 32, k = 4 (l / 32) + d),
//                              C: c[4i + j] = C(8i + 4 (l / 32) + j, l % 32)
//   MFMA 16x16x16 f16, wave 64: A(l % 16, 4 (l / 16) + d), B(n = l % 16, k = 4 (l / 16) + d),
//                              C: c[j] = C(4 (l / 16) + j, l % 16)
//
// WORKED EXAMPLE (a 4x4 corner of mma's A): lanes 0-3 hold row 0 in pairs, (0,0) (0,1) | (0,2) (0,3), and
// lanes 4-7 row 1; the same lanes' d = 2, 3 hold rows 8 and 9. As an encoding: H0 = <2, 8> (h, g),
// H1 = <2, 4, 2> (kh, q, e); P0 = merge(H0[1], H1[1]) = 4g + q; Y = (H1[0], H0[0], H1[2]) = (kh, h, e).
// Lane 5 (g 1, q 1), d = 2 (kh 0, h 1, e 0) holds A(9, 2).
//
// INVARIANTS: every encoding covers its matrix exactly once (no R: no replicas), its P0 length is the wave
// size and its d order is the instruction's register order (warp_gemm_encodings.test.cpp checks every lane and
// d against the tables above and against kernel/model/mma.hpp's position maps).
#pragma once

#include "spec/distribution/encoding.hpp"
#include "spec/distribution/patterns.hpp"

namespace tilesim {

// mma.sync m16n8k16's A (16 x 16 halves): lane 5, d = 2 holds A(9, 2).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mma_m16n8k16_a_encoding() {
  return make_encoding({}, {{2, 8}, {2, 4, 2}}, {{{1, 1}, {2, 1}}}, {{2, 0}, {1, 0}, {2, 2}});
}

// mma.sync m16n8k16's B over (n, k) (8 x 16 halves): lane 5, d = 3 holds B(n 1, k 11).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mma_m16n8k16_b_encoding() {
  return make_encoding({}, {{8}, {2, 4, 2}}, {{{1, 0}, {2, 1}}}, {{2, 0}, {2, 2}});
}

// mma.sync m16n8k16's C / D (16 x 8 floats): lane 5, d = 2 holds C(9, 2).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mma_m16n8k16_c_encoding() {
  return make_encoding({}, {{2, 8}, {4, 2}}, {{{1, 1}, {2, 0}}}, {{1, 0}, {2, 1}});
}

// MFMA 32x32x8 f16's B over (n, k) (32 x 8 halves; the same shape as A): lane 33, d = 1 holds B(n 1, k 5).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mfma_32x32x8_b_encoding() {
  return make_mfma_32x32x8_a_encoding();
}

// CK's MFMA 32x32x8 f16 A iterated twice over K (WarpGemmMfmaF16F16F32M32N32K16, kKIter = 2; 32 x 16 halves):
// lane l holds A(l % 32, 8 (l / 32) + d), d < 8, one 16-byte read feeding two MFMAs (d 0-3, then 4-7; B alike,
// so K is only re-ordered). Lane 33, d = 5 holds A(1, 13).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mfma_32x32x16_iterate_k_a_encoding() {
  return make_encoding({}, {{32}, {2, 8}}, {{{2, 0}, {1, 0}}}, {{2, 1}});
}

// MFMA 16x16x16 f16's A (16 x 16 halves): lane 17, d = 2 holds A(1, 6).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mfma_16x16x16_a_encoding() {
  return make_encoding({}, {{16}, {4, 4}}, {{{2, 0}, {1, 0}}}, {{2, 1}});
}

// MFMA 16x16x16 f16's B over (n, k): lane 17, d = 2 holds B(n 1, k 6).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mfma_16x16x16_b_encoding() {
  return make_mfma_16x16x16_a_encoding();
}

// MFMA 16x16x16 f16's C / D (16 x 16 floats): c[j] of lane l is C(4 (l / 16) + j, l % 16); lane 17, d = 2: C(6, 1).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mfma_16x16x16_c_encoding() {
  return make_encoding({}, {{4, 4}, {16}}, {{{1, 0}, {2, 0}}}, {{1, 1}});
}

}  // namespace tilesim
