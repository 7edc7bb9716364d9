// tilesim/spec/transforms/xor.hpp: CK Tile's XOR permutation of one dimension keyed by another.
//
// xor_t(L0, L1): upper (u0, u1) -> lower (u0, u1 XOR (u0 mod L1)). Named xor_t because `xor` is a C++
// keyword. Example, xor_t(4, 4), the 4x4 table of stored columns (row r, logical column c -> c XOR r):
//
//            c=0 c=1 c=2 c=3
//     r=0     0   1   2   3
//     r=1     1   0   3   2
//     r=2     2   3   0   1
//     r=3     3   2   1   0
//
// Each row is a permutation, so LDS rows that would hit the same bank column are spread out.
// Invariants: its own inverse on dim 1; a bijection of [0, L0) x [0, L1) when L1 is a power of two, and for
// L0 >= L1 only then. CK accepts any L1 and silently leaves the range (L1 = 6: 5 XOR 3 = 6); tilesim rejects
// such L1 with rule::xor_length_not_power_of_two (the raw aggregate xor_t{{L0, L1}} stays unchecked for tests).
// Vectors: none. CK passes both guarantees through, which is wrong whenever the key has low bits set
// (row 1 above stores columns 0 1 as 1 0); `ck_upper_vectors` is CK's rule, and a tile window in strict mode
// reports the accesses CK would vectorize otherwise (oob_kind::vector_differs).
// Negative u0: tilesim keys with floor(u0 mod L1), CK with C++'s truncating %, so strict mode names the
// elements where the two differ (oob_kind::ck_index_differs).
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

struct xor_t {
  multi_index<2> lengths;  // (L0, L1)

  static constexpr int n_lower = 2, n_upper = 2;
  static constexpr bool always_valid = true, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<2> upper_lengths() const { return lengths; }
  TILESIM_HOST_DEVICE constexpr multi_index<2> lower_index(const multi_index<2>& up) const {
    return {up[0], up[1] ^ floor_mod(up[0], lengths[1])};
  }
  TILESIM_HOST_DEVICE constexpr multi_index<2> update_lower_index(const multi_index<2>&, const multi_index<2>& up,
                                                                  multi_index<2>& low) const {
    return recompute_lower(*this, up, low);
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(const multi_index<2>&) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<2> upper_index(const multi_index<2>& low) const {
    return {lower_index(low), true};  // XOR with the same key undoes itself
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<2> upper_vectors(const vector_guarantees<2>&) const { return {}; }
  // CK's rule (xor_t::calculate_upper_dimension_safe_vector_length_strides): both passed through.
  TILESIM_HOST_DEVICE constexpr vector_guarantees<2> ck_upper_vectors(const vector_guarantees<2>& low) const {
    return low;
  }
  // Strict mode: CK's key u0 % L1 truncates, so a negative u0 not a multiple of L1 gets another key.
  TILESIM_HOST_DEVICE constexpr bool ck_index_differs(const multi_index<2>& up) const {
    return up[0] % lengths[1] < 0;
  }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = check_lengths("xor_t", lengths)) return v;
    return broken_unless(is_power_of_two(lengths[1]), rule::xor_length_not_power_of_two, "xor_t", {"L1", lengths[1]});
  }
  std::string cpp() const {
    return "make_xor(" + std::to_string(lengths[0]) + ", " + std::to_string(lengths[1]) + ")";
  }
};

// make_xor(4, 4): (r, c) -> (r, c XOR r).
TILESIM_HOST_DEVICE constexpr xor_t make_xor(index_t l0, index_t l1) {
  xor_t t{{l0, l1}};
  require(t.check());
  return t;
}

}  // namespace tilesim
