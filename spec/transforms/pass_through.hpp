// tilesim/spec/transforms/pass_through.hpp: the identity on one dimension.
//
// pass_through(L): upper u in [0, L) -> lower u. Used to carry a dimension unchanged through a transform step
// (e.g. the KPack dim beside an xor). Example, L = 4: 0 1 2 3 -> 0 1 2 3. Bijective; vectors pass through.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

struct pass_through {
  index_t length;

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = true, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {length}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<1> up) const { return up; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<1> dup, multi_index<1>,
                                                                  multi_index<1>& low) const {
    low += dup;
    return dup;
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1>) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<1> upper_index(multi_index<1> low) const { return {low, true}; }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1> low) const { return low; }
  TILESIM_HOST_DEVICE constexpr violation check() const { return check_lengths("pass_through", multi_index<1>{length}); }
  std::string cpp() const { return "make_pass_through(" + std::to_string(length) + ")"; }
};

// make_pass_through(4): the identity on [0, 4).
TILESIM_HOST_DEVICE constexpr pass_through make_pass_through(index_t length) {
  pass_through t{length};
  require(t.check());
  return t;
}

}  // namespace tilesim
