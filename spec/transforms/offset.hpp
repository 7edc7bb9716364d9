// tilesim/spec/transforms/offset.hpp: a constant added to one dimension.
//
// offset(L, o): upper u in [0, L) -> lower u + o. Example, offset(4, 10): 0 1 2 3 -> 10 11 12 13. Used for a
// tensor that starts inside a larger buffer. Injective and linear.
// Vectors: none, as in CK (offset inherits base_transform's calculate_upper_dimension_safe_vector_length_strides,
// which returns -1, in every version read: 2024-10, 2025 and rocm-libraries' newest). spec/ used to keep
// gcd(V, o), which is sound, but the simulator must issue the accesses CK issues: CK's kernel loads scalars
// through an offset.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

struct offset {
  index_t length;
  index_t amount;

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = true, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {length}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<1> up) const { return {up[0] + amount}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<1> dup, multi_index<1>,
                                                                  multi_index<1>& low) const {
    low += dup;
    return dup;
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1>) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<1> upper_index(multi_index<1> low) const {
    return {{low[0] - amount}, true};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1>) const { return {}; }
  TILESIM_HOST_DEVICE constexpr violation check() const { return check_lengths("offset", multi_index<1>{length}); }
  std::string cpp() const { return "make_offset(" + std::to_string(length) + ", " + std::to_string(amount) + ")"; }
};

// make_offset(4, 10): 0 -> 10.
TILESIM_HOST_DEVICE constexpr offset make_offset(index_t length, index_t amount) {
  offset t{length, amount};
  require(t.check());
  return t;
}

}  // namespace tilesim
