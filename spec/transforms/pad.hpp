// tilesim/spec/transforms/pad.hpp: padding, the only transforms with invalid upper points.
//
// pad(L, lp, rp): upper u in [0, lp + L + rp) -> lower u - lp; u is *valid* iff lp <= u < lp + L.
// left_pad(L, lp) = pad(L, lp, 0) and right_pad(L, rp) = pad(L, 0, rp) are the one-sided cases.
// Example, pad(4, 1, 1): upper 0 1 2 3 4 5 -> lower -1 0 1 2 3 4, valid . x x x x .
//
// Invariants: injective on valid points; the map is linear (no clamping), so moves are exact everywhere, and
// every upper point outside [lp, lp + L) is reported invalid. Tile loads read 0 there; stores are dropped.
// Vectors: a guaranteed lower vector V survives as gcd(V, lp) (CK passes V through unchanged, which breaks
// contiguity when lp is not a multiple of V; a right pad has lp = 0 and keeps V).
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

struct pad {
  index_t length;  // L, the lower length
  index_t left;    // lp
  index_t right;   // rp

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = false, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {left + length + right}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<1> up) const { return {up[0] - left}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<1> dup, multi_index<1>,
                                                                  multi_index<1>& low) const {
    low += dup;
    return dup;
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1> up) const {
    return up[0] >= left && up[0] < left + length;
  }
  TILESIM_HOST_DEVICE constexpr inverse_result<1> upper_index(multi_index<1> low) const {
    return {{low[0] + left}, true};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1> low) const {
    return {limit_vector(low[0], left)};
  }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = check_lengths("pad", multi_index<1>{length})) return v;
    if (violation v = broken_unless(left >= 0 && right >= 0, rule::pad_negative, "pad", {"left", left}, {"right", right}))
      return v;
    if (violation v = broken_unless(left <= max_extent && right <= max_extent, rule::extent_too_large, "pad",
                                    {"left", left}, {"right", right}))
      return v;  // keeps the sum far below 2^63
    return check_lengths("pad", multi_index<1>{left + length + right});
  }
  std::string cpp() const {
    return "make_pad(" + std::to_string(length) + ", " + std::to_string(left) + ", " + std::to_string(right) + ")";
  }
};

// make_pad(4, 1, 1): upper [0, 6), valid on [1, 5).
TILESIM_HOST_DEVICE constexpr pad make_pad(index_t length, index_t left, index_t right) {
  pad t{length, left, right};
  require(t.check());
  return t;
}
// make_left_pad(4, 2): upper [0, 6), valid on [2, 6).
TILESIM_HOST_DEVICE constexpr pad make_left_pad(index_t length, index_t left) { return make_pad(length, left, 0); }
// make_right_pad(4, 2): upper [0, 6), valid on [0, 4).
TILESIM_HOST_DEVICE constexpr pad make_right_pad(index_t length, index_t right) { return make_pad(length, 0, right); }

}  // namespace tilesim
