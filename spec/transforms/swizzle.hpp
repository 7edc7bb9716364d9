// tilesim/spec/transforms/swizzle.hpp: CuTe's Swizzle<B, M, S> as a transform of one dimension.
//
// swizzle(B, M, S, L): upper offset u in [0, L) -> lower u XOR ((u & YYY) >> S), where (for S >= 0)
//
//   bit:   ... | M+S+B-1 .. M+S | ... | M+B-1 .. M | M-1 .. 0
//              |      YYY       |     |    ZZZ    |  kept
//
// i.e. the B bits at M+S are XOR-ed into the B bits at M ("ZZZ ^= YYY"); the low M bits (one vector) never
// move. A negative S mirrors it: YYY sits at M and ZZZ at M+|S| (the mask is shifted left instead).
// Example, Swizzle<2,0,2> on 16 offsets (4 rows of 4): row r keeps its elements, column c moves to c XOR r:
//      0  1  2  3 |  5  4  7  6 | 10 11  8  9 | 15 14 13 12
// With fp16 and Swizzle<3,3,3> on an 8x64 tile, the 16-byte chunk c of row r lands in chunk c XOR r.
//
// Invariants: |S| >= B makes YYY and ZZZ disjoint, so applying it twice is the identity (an involution) and it
// permutes every aligned block of 2^(B+M+|S|) offsets. The length must be a whole number of such blocks.
// Vectors: the low M bits are untouched, so a lower guarantee V survives as gcd(V, 2^M).
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

// CuTe's apply(): swizzle_offset(3, 3, 3, 72) == 72 ^ ((72 & 0x1c0) >> 3) == 64.
TILESIM_HOST_DEVICE constexpr index_t swizzle_offset(int bits, int base, int shift, index_t o) {
  const index_t bit_mask = (index_t{1} << bits) - 1;
  const index_t yyy_mask = bit_mask << (base + (shift > 0 ? shift : 0));
  const index_t y = o & yyy_mask;
  return o ^ (shift >= 0 ? (y >> shift) : (y << -shift));
}

struct swizzle {
  int bits;       // B: how many bits are XOR-ed
  int base;       // M: how many low bits stay untouched
  int shift;      // S: distance from the ZZZ bits to the YYY bits (negative: YYY below ZZZ)
  index_t length;

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = true, invertible = true;

  // Offsets per aligned block that the swizzle permutes: 2^(B+M+|S|).
  TILESIM_HOST_DEVICE constexpr index_t block() const {
    return index_t{1} << (bits + base + (shift < 0 ? -shift : shift));
  }
  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {length}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<1> up) const {
    return {swizzle_offset(bits, base, shift, up[0])};
  }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<1>, multi_index<1> up,
                                                                  multi_index<1>& low) const {
    return recompute_lower(*this, up, low);
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1>) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<1> upper_index(multi_index<1> low) const {
    return {lower_index(low), true};  // an involution
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1> low) const {
    return {limit_vector(low[0], index_t{1} << base)};
  }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = broken_unless(bits >= 0 && base >= 0, rule::swizzle_bits_negative, "swizzle", {"B", bits}, {"M", base}))
      return v;
    const index_t abs_shift = shift < 0 ? -index_t{shift} : index_t{shift};  // 64-bit: no overflow at INT_MIN
    if (violation v = broken_unless(abs_shift >= bits, rule::swizzle_shift_smaller_than_bits, "swizzle", {"B", bits},
                                    {"S", shift}))
      return v;
    if (violation v = broken_unless(index_t{bits} + base + abs_shift <= 40, rule::extent_too_large, "swizzle", {"B", bits},
                                    {"M", base}, {"S", shift}))
      return v;
    if (violation v = check_lengths("swizzle", multi_index<1>{length})) return v;
    return broken_unless(length % block() == 0, rule::swizzle_length_not_whole_blocks, "swizzle", {"length", length},
                         {"block", block()});
  }
  // CuTe's spelling: "Swizzle<3,3,3>".
  std::string cute_name() const {
    return "Swizzle<" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift) + ">";
  }
  std::string cpp() const {
    return "make_swizzle(" + std::to_string(bits) + ", " + std::to_string(base) + ", " + std::to_string(shift) + ", " +
           std::to_string(length) + ")";
  }
};

// make_swizzle(3, 3, 3, 512): Swizzle<3,3,3> on one 8x64 fp16 tile.
TILESIM_HOST_DEVICE constexpr swizzle make_swizzle(int bits, int base, int shift, index_t length) {
  swizzle t{bits, base, shift, length};
  require(t.check());
  return t;
}

}  // namespace tilesim
