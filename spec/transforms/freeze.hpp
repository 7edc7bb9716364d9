// tilesim/spec/transforms/freeze.hpp: a lower dimension pinned to a constant, with no upper dimension.
//
// freeze(v): () -> lower v. Used to drop a dimension by fixing it, e.g. taking row 2 of a 4x4 matrix:
// freeze(2) on the row dim leaves the col dim as the only top dim, and offsets 8 9 10 11.
// Not invertible (it has no upper dimension to recover); moves never change the lower value.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

struct freeze {
  index_t value;

  static constexpr int n_lower = 1, n_upper = 0;
  static constexpr bool always_valid = true, invertible = false;

  TILESIM_HOST_DEVICE constexpr multi_index<0> upper_lengths() const { return {}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<0>) const { return {value}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<0>, multi_index<0>,
                                                                  multi_index<1>&) const {
    return {0};
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<0>) const { return true; }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<0> upper_vectors(vector_guarantees<1>) const { return {}; }
  TILESIM_HOST_DEVICE constexpr violation check() const { return {}; }
  std::string cpp() const { return "make_freeze(" + std::to_string(value) + ")"; }
};

// make_freeze(2): the lower dim is always 2.
TILESIM_HOST_DEVICE constexpr freeze make_freeze(index_t value) { return freeze{value}; }

}  // namespace tilesim
