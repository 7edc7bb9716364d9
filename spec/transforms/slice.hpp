// tilesim/spec/transforms/slice.hpp: a sub-range [begin, end) of one dimension.
//
// slice(L, b, e): upper u in [0, e - b) -> lower u + b. Example, slice(8, 2, 6): 0 1 2 3 -> 2 3 4 5.
// Injective and linear; no validity check (as in CK: the caller keeps u inside [0, e - b)).
// Vectors: none, as in CK (slice inherits base_transform's calculate_upper_dimension_safe_vector_length_strides,
// which returns -1, in every version read: 2024-10, 2025 and rocm-libraries' newest). spec/ used to keep
// gcd(V, b), which is sound (the upper alignment is shifted by b), but the simulator must issue the accesses
// CK issues: CK's kernel loads scalars through a slice.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

struct slice {
  index_t length;  // L, the lower length
  index_t begin;   // b
  index_t end;     // e

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = true, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {end - begin}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<1> up) const { return {up[0] + begin}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<1> dup, multi_index<1>,
                                                                  multi_index<1>& low) const {
    low += dup;
    return dup;
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1>) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<1> upper_index(multi_index<1> low) const {
    return {{low[0] - begin}, true};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1>) const { return {}; }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = check_lengths("slice", multi_index<1>{length})) return v;
    return broken_unless(0 <= begin && begin < end && end <= length, rule::slice_out_of_range, "slice",
                         {"length", length}, {"begin", begin}, {"end", end});
  }
  std::string cpp() const {
    return "make_slice(" + std::to_string(length) + ", " + std::to_string(begin) + ", " + std::to_string(end) + ")";
  }
};

// make_slice(8, 2, 6): upper [0, 4) -> lower [2, 6).
TILESIM_HOST_DEVICE constexpr slice make_slice(index_t length, index_t begin, index_t end) {
  slice t{length, begin, end};
  require(t.check());
  return t;
}

}  // namespace tilesim
