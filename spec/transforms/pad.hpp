// tilesim/spec/transforms/pad.hpp: padding, the only transforms with invalid upper points.
//
// DEFINITION. Three pads, as in CK Tile (coordinate_transform.hpp: pad, left_pad, right_pad); each maps
// linearly (no clamping) and differs only in what it *checks*:
//
//   pad(L, lp, rp)   upper [0, lp + L + rp) -> lower u - lp   valid iff lp <= u < lp + L   (both sides)
//   left_pad(L, lp)  upper [0, lp + L)      -> lower u - lp   valid iff u >= lp            (left side only)
//   right_pad(L, rp) upper [0, L + rp)      -> lower u        valid iff u < L              (right side only)
//
// WORKED EXAMPLE, L = 4, one pad element on each padded side, at upper -1 .. 5:
//
//   upper u               -1  0  1  2  3  4  5
//   pad(4, 1, 1):  lower  -2 -1  0  1  2  3  4    valid  .  .  x  x  x  x  .
//   left_pad(4, 1): lower -2 -1  0  1  2  3  4    valid  .  .  x  x  x  x  x   (5 is past L, still valid)
//   right_pad(4, 1): lower -1 0  1  2  3  4  5    valid  x  x  x  x  x  .  .   (-1 is before 0, still valid)
//
// CK's one-sided pads check one side only (left_pad::is_valid_upper_index_mapped_to_valid_lower_index tests
// u >= lp, right_pad's tests u < L), and so does tilesim, so that a window whose origin or move reaches past
// the unchecked side accesses what the CK kernel accesses. Such a point is valid but lies outside the padded
// dimension: `beyond_unchecked_side(u)` says so, and a tile window in strict mode reports the element
// (oob_kind::unchecked_pad_side). Use the two-sided pad when both sides must be checked.
//
// VECTORS. pad and left_pad keep a lower vector V as gcd(V, lp), right_pad keeps V: a run of V upper indices
// from a multiple of V starts lp further on in the lower dim, so only gcd(V, lp) stays aligned. CK passes V
// through all three (newest rocm-libraries pad; left_pad and right_pad in every version, with a "TODO: the
// runtime must keep the pad a multiple of the vector length"). tilesim keeps its rule; `ck_upper_vectors` is
// CK's, and a window in strict mode reports the accesses whose vector width CK would choose otherwise
// (oob_kind::vector_differs). CK 2024-10 and 2025 give a two-sided pad no guarantee at all.
//
// INVARIANTS: injective on valid points; update_lower_index agrees with lower_index everywhere (props/:
// move == make, also through one-sided pads); upper_index(lower_index(u)) == u.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

// Both sides checked.
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
  // CK's rule (newest rocm-libraries pad): the lower guarantee unchanged.
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> ck_upper_vectors(vector_guarantees<1> low) const { return low; }
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

// Only the left side checked (CK's left_pad).
struct left_pad {
  index_t length;  // L, the lower length
  index_t left;    // lp

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = false, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {left + length}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<1> up) const { return {up[0] - left}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<1> dup, multi_index<1>,
                                                                  multi_index<1>& low) const {
    low += dup;
    return dup;
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1> up) const { return up[0] >= left; }
  // Valid, but past the lower length: the side CK does not check.
  TILESIM_HOST_DEVICE constexpr bool beyond_unchecked_side(multi_index<1> up) const { return up[0] >= left + length; }
  TILESIM_HOST_DEVICE constexpr inverse_result<1> upper_index(multi_index<1> low) const {
    return {{low[0] + left}, true};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1> low) const {
    return {limit_vector(low[0], left)};
  }
  // CK's rule (left_pad::calculate_upper_dimension_safe_vector_length_strides): unchanged.
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> ck_upper_vectors(vector_guarantees<1> low) const { return low; }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = check_lengths("left_pad", multi_index<1>{length})) return v;
    if (violation v = broken_unless(left >= 0, rule::pad_negative, "pad", {"left", left})) return v;
    if (violation v = broken_unless(left <= max_extent, rule::extent_too_large, "left_pad", {"left", left})) return v;
    return check_lengths("left_pad", multi_index<1>{left + length});
  }
  std::string cpp() const { return "make_left_pad(" + std::to_string(length) + ", " + std::to_string(left) + ")"; }
};

// Only the right side checked (CK's right_pad).
struct right_pad {
  index_t length;  // L, the lower length
  index_t right;   // rp

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = false, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {length + right}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<1> up) const { return up; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<1> dup, multi_index<1>,
                                                                  multi_index<1>& low) const {
    low += dup;
    return dup;
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1> up) const { return up[0] < length; }
  // Valid, but below 0: the side CK does not check.
  TILESIM_HOST_DEVICE constexpr bool beyond_unchecked_side(multi_index<1> up) const { return up[0] < 0; }
  TILESIM_HOST_DEVICE constexpr inverse_result<1> upper_index(multi_index<1> low) const { return {low, true}; }
  // Unchanged, as in CK (right_pad::calculate_upper_dimension_safe_vector_length_strides).
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1> low) const { return low; }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = check_lengths("right_pad", multi_index<1>{length})) return v;
    if (violation v = broken_unless(right >= 0, rule::pad_negative, "pad", {"right", right})) return v;
    if (violation v = broken_unless(right <= max_extent, rule::extent_too_large, "right_pad", {"right", right})) return v;
    return check_lengths("right_pad", multi_index<1>{length + right});
  }
  std::string cpp() const { return "make_right_pad(" + std::to_string(length) + ", " + std::to_string(right) + ")"; }
};

// make_pad(4, 1, 1): upper [0, 6), valid on [1, 5).
TILESIM_HOST_DEVICE constexpr pad make_pad(index_t length, index_t left, index_t right) {
  pad t{length, left, right};
  require(t.check());
  return t;
}
// make_left_pad(4, 2): upper [0, 6), valid from 2 on (CK checks no upper end).
TILESIM_HOST_DEVICE constexpr left_pad make_left_pad(index_t length, index_t left) {
  left_pad t{length, left};
  require(t.check());
  return t;
}
// make_right_pad(4, 2): upper [0, 6), valid below 4 (CK checks no lower end).
TILESIM_HOST_DEVICE constexpr right_pad make_right_pad(index_t length, index_t right) {
  right_pad t{length, right};
  require(t.check());
  return t;
}

}  // namespace tilesim
