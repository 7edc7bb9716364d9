// tilesim/kernel/model/mma.hpp: mma.sync m16n8k16 (fp16 or bf16 A and B, fp32 C and D), sm90's warp-wide multiply.
//
// DEFINITION (PTX ISA, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"): the 32 lanes of a warp hold
// D (16 x 8, fp32) = A (16 x 16, fp16) * B (16 x 8, fp16) + C (16 x 8, fp32) in registers, lane t in group
// g = t / 4 at position q = t % 4:
//   A: 4 registers of two fp16 (low half first): a[0] = (g, 2q), (g, 2q+1); a[1] = (g+8, 2q), (g+8, 2q+1);
//      a[2] = (g, 2q+8), (g, 2q+9); a[3] = (g+8, 2q+8), (g+8, 2q+9)             (row, column) of A
//   B: 2 registers: b[0] = (2q, g), (2q+1, g); b[1] = (2q+8, g), (2q+9, g)        (k, n) of B
//   C, D: 4 floats: c[0] = (g, 2q), c[1] = (g, 2q+1), c[2] = (g+8, 2q), c[3] = (g+8, 2q+1)
// The bf16 form (".f32.bf16.bf16.f32") has the same fragments with bfloat16 halves (the high 16 bits of an fp32).
// Programs call mma_m16n8k16(ctx, a, b, c) or mma_m16n8k16_bf16 (program.hpp); the simulator waits for the whole wave, gathers the
// three matrices and computes each D element as C + sum over k = 0..15 of A * B in fp32, k ascending (the
// hardware's order is not documented: tests use inputs whose products and sums are exact in fp32, where every
// order agrees); on a GPU it is one mma.sync (HMMA).
//
// WORKED EXAMPLE. Lane 5 (g = 1, q = 1) holds A (1, 2), (1, 3) in a[0], B (2, 1), (3, 1) in b[0], and C/D (1, 2),
// (1, 3), (9, 2), (9, 3).
//
// INVARIANTS: each element of A, B and C is held by exactly one (lane, register, half); the functions below
// give, for every lane and slot, a position inside the matrix.
#pragma once

#include <cstdint>

#include "spec/config.hpp"

namespace tilesim {

struct mma_m16n8k16_a { std::uint32_t r[4] = {}; };  // 8 fp16
struct mma_m16n8k16_b { std::uint32_t r[2] = {}; };  // 4 fp16
struct mma_m16n8k16_c { float r[4] = {}; };          // 4 fp32, C in and D out

struct matrix_position {
  int row = 0, col = 0;
};

// Where half `half` of A register `reg` of lane t sits: mma_a_position(5, 0, 0) == {1, 2}.
TILESIM_HOST_DEVICE constexpr matrix_position mma_a_position(int lane, int reg, int half) {
  return {lane / 4 + 8 * (reg % 2), 2 * (lane % 4) + half + 8 * (reg / 2)};
}
// Where half `half` of B register `reg` of lane t sits, as (k, n): mma_b_position(5, 0, 1) == {3, 1}.
TILESIM_HOST_DEVICE constexpr matrix_position mma_b_position(int lane, int reg, int half) {
  return {2 * (lane % 4) + half + 8 * reg, lane / 4};
}
// Where float `reg` of lane t's C / D sits: mma_c_position(5, 2) == {9, 2}.
TILESIM_HOST_DEVICE constexpr matrix_position mma_c_position(int lane, int reg) {
  return {lane / 4 + 8 * (reg / 2), 2 * (lane % 4) + reg % 2};
}

// The value of IEEE binary16 bits, exactly: half_to_float(0x3c00) == 1.0f; subnormals, infinities, NaN kept.
constexpr float half_to_float(std::uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float v = 0;
  if (exponent == 0) {
    v = static_cast<float>(mantissa) / 16777216.0f;  // mantissa * 2^-24
  } else if (exponent == 31) {
    v = mantissa ? __builtin_nanf("") : __builtin_inff();
  } else {
    v = static_cast<float>(1024 + mantissa);
    for (int e = exponent - 25; e > 0; --e) v *= 2;
    for (int e = exponent - 25; e < 0; ++e) v /= 2;
  }
  return sign ? -v : v;
}

// The value of bfloat16 bits, exactly (the high half of an fp32): bf16_to_float(0x3f80) == 1.0f.
constexpr float bf16_to_float(std::uint16_t h) { return __builtin_bit_cast(float, std::uint32_t{h} << 16); }

// The IEEE binary16 bits of an integer with |v| <= 2048 (exact): integer_to_half(1) == 0x3c00, (-2) == 0xc000.
constexpr std::uint16_t integer_to_half(int v) {
  if (v == 0) return 0;
  const unsigned sign = v < 0 ? 0x8000u : 0u;
  unsigned m = static_cast<unsigned>(v < 0 ? -v : v);
  int e = 0;
  while (m >= 2048) m >>= 1, ++e;
  while (m < 1024) m <<= 1, --e;
  return static_cast<std::uint16_t>(sign | static_cast<unsigned>(e + 25) << 10 | (m & 0x3ffu));
}

}  // namespace tilesim
