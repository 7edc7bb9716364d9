// tilesim/kernel/model/mfma.hpp: AMD's MFMA f16 instructions (32x32x8 and 16x16x16), wave-wide matrix multiplies.
//
// DEFINITION (AMD CDNA3 ISA, "Matrix Arithmetic Instructions"; the same on CDNA2 and gfx950): the 64 lanes of a
// wave hold D = A * B + C in registers, fp16 A (M x K) and B (K x N), fp32 C and D:
//   v_mfma_f32_32x32x8_f16   A 32 x 8, B 8 x 32, C 32 x 32: 4 halves of A and B per lane, 16 floats of C
//   v_mfma_f32_16x16x16_f16  A 16 x 16, B 16 x 16, C 16 x 16: 4 halves of A and B per lane, 4 floats of C
// Which element a lane's slot d holds is spec/'s encoding (spec/distribution/warp_gemm_encodings.hpp: A's
// encoding over (m, k), B's over (n, k), C's over (m, n)); the halves pack two per 32-bit register, low first.
// Programs call mfma_32x32x8_f16(ctx, a, b, c) / mfma_16x16x16_f16 (program.hpp); the simulator waits for the
// whole wave and computes mfma_wave below; on a GPU each is one v_mfma (__builtin_amdgcn_mfma_f32_*).
// SUMMATION ORDER: D = C + sum over k ascending of A * B, in fp32 (the hardware's internal order is not
// documented; tests use inputs whose products and sums are exact in fp32, where every order agrees).
//
// WORKED EXAMPLE (16x16x16): lane 17's A slots hold A(1, 4..7), its B slots B(k 4..7, n 1), its C / D floats
// C(4..7, 1).
//
// INVARIANTS: each element of A, B and C is held by exactly one (lane, slot) (the encodings' law, tested in
// spec/); a wave of 64 lanes (mfma.test.cpp: the engine refuses others, naming the wave).
#pragma once

#include <cstdint>

#include "kernel/model/mma.hpp"
#include "spec/distribution/warp_gemm_encodings.hpp"

namespace tilesim {

enum class mfma_shape : int { none = 0, f32_32x32x8_f16 = 1, f32_16x16x16_f16 = 2 };

struct mfma_f16_operand { std::uint32_t r[2] = {}; };  // 4 fp16 (A or B of either shape)
struct mfma_32x32x8_c { float r[16] = {}; };
struct mfma_16x16x16_c { float r[4] = {}; };

inline constexpr int mfma_wave_size = 64;

// C floats per lane: 16 for 32x32x8, 4 for 16x16x16.
constexpr int mfma_c_count(mfma_shape s) { return s == mfma_shape::f32_32x32x8_f16 ? 16 : 4; }
// (M, N, K): mfma_dims(f32_16x16x16_f16) == {16, 16, 16}.
struct mfma_dims_t {
  int m = 0, n = 0, k = 0;
};
constexpr mfma_dims_t mfma_dims(mfma_shape s) {
  return s == mfma_shape::f32_32x32x8_f16 ? mfma_dims_t{32, 32, 8} : mfma_dims_t{16, 16, 16};
}
// Multiply-adds per instruction in units of one mma.sync m16n8k16 (2048): 4 for 32x32x8, 2 for 16x16x16 (the
// alu_op::matrix count the timing model prices with each arch's clocks per unit).
constexpr int mfma_matrix_units(mfma_shape s) {
  const mfma_dims_t d = mfma_dims(s);
  return d.m * d.n * d.k / 2048;
}

// The encodings of shape s's A, B (over (n, k)) and C: built once per use, not per element.
struct mfma_encodings {
  tile_distribution_encoding a, b, c;
};
inline mfma_encodings mfma_encodings_of(mfma_shape s) {
  if (s == mfma_shape::f32_32x32x8_f16)
    return {make_mfma_32x32x8_a_encoding(), make_mfma_32x32x8_b_encoding(), make_mfma_32x32x8_c_encoding()};
  return {make_mfma_16x16x16_a_encoding(), make_mfma_16x16x16_b_encoding(), make_mfma_16x16x16_c_encoding()};
}
// (x0, x1) of lane `lane`'s slot d of encoding e.
inline matrix_position mfma_slot(const tile_distribution_encoding& e, int lane, int d) {
  const auto x = e.x_of({lane, 0}, e.y_of(d));
  return {static_cast<int>(x[0]), static_cast<int>(x[1])};
}

// Where lane `lane`'s slot d of A, B or C sits: A as (m, k), B as (k, n), C as (m, n).
inline matrix_position mfma_a_position(mfma_shape s, int lane, int d) { return mfma_slot(mfma_encodings_of(s).a, lane, d); }
inline matrix_position mfma_b_position(mfma_shape s, int lane, int d) {
  const matrix_position nk = mfma_slot(mfma_encodings_of(s).b, lane, d);
  return {nk.col, nk.row};
}
inline matrix_position mfma_c_position(mfma_shape s, int lane, int d) { return mfma_slot(mfma_encodings_of(s).c, lane, d); }

// One wave's MFMA: a[l], b[l] are lane l's two registers of A and B, c[l] its C floats; d[l] receives D.
inline void mfma_wave(mfma_shape s, const std::uint32_t (*a)[2], const std::uint32_t (*b)[2], const float (*c)[16],
                      float (*d)[16]) {
  const mfma_dims_t dim = mfma_dims(s);
  const mfma_encodings e = mfma_encodings_of(s);
  float am[32][16] = {}, bm[16][32] = {}, cm[32][32] = {};
  for (int l = 0; l < mfma_wave_size; ++l) {
    for (int slot = 0; slot < 4; ++slot) {
      const auto half = [&](const std::uint32_t* r) { return half_to_float(static_cast<std::uint16_t>(r[slot / 2] >> (16 * (slot % 2)))); };
      const matrix_position pa = mfma_slot(e.a, l, slot), pb = mfma_slot(e.b, l, slot);  // pb: (n, k)
      am[pa.row][pa.col] = half(a[l]);
      bm[pb.col][pb.row] = half(b[l]);
    }
    for (int slot = 0; slot < mfma_c_count(s); ++slot) {
      const matrix_position pc = mfma_slot(e.c, l, slot);
      cm[pc.row][pc.col] = c[l][slot];
    }
  }
  for (int l = 0; l < mfma_wave_size; ++l)
    for (int slot = 0; slot < mfma_c_count(s); ++slot) {
      const matrix_position pc = mfma_slot(e.c, l, slot);
      float sum = cm[pc.row][pc.col];
      for (int k = 0; k < dim.k; ++k) sum += am[pc.row][k] * bm[k][pc.col];
      d[l][slot] = sum;
    }
}

}  // namespace tilesim
