// tilesim/spec/transforms/insert.hpp: a new upper dimension that the lower side ignores.
//
// insert(L): upper u in [0, L) -> nothing. Adds a dimension that does not move the offset (a broadcast),
// e.g. viewing a length-4 vector as 3x4 where all three rows alias: offsets 0 1 2 3 / 0 1 2 3 / 0 1 2 3.
// Not invertible; no vector guarantee on the new dim.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

struct insert {
  index_t length;

  static constexpr int n_lower = 0, n_upper = 1;
  static constexpr bool always_valid = true, invertible = false;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {length}; }
  TILESIM_HOST_DEVICE constexpr multi_index<0> lower_index(multi_index<1>) const { return {}; }
  TILESIM_HOST_DEVICE constexpr multi_index<0> update_lower_index(multi_index<1>, multi_index<1>,
                                                                  multi_index<0>&) const {
    return {};
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1>) const { return true; }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<0>) const { return {}; }
  TILESIM_HOST_DEVICE constexpr violation check() const { return check_lengths("insert", multi_index<1>{length}); }
  std::string cpp() const { return "make_insert(" + std::to_string(length) + ")"; }
};

// make_insert(3): a new dim of length 3 that does not affect the offset.
TILESIM_HOST_DEVICE constexpr insert make_insert(index_t length) {
  insert t{length};
  require(t.check());
  return t;
}

}  // namespace tilesim
