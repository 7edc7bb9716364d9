// tilesim/spec/transforms/replicate.hpp: N upper dimensions that the lower side ignores (the R dims).
//
// replicate(lengths): upper (r_0 .. r_{N-1}) -> nothing. In a tile distribution these are the replication
// components: threads that differ only in r hold the same data. Example, replicate(2): warps r = 0 and r = 1
// both see offsets 0 1 2 3 of a 4-element tile. Not invertible (many-to-one); no vector guarantees.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

template <int N>
struct replicate {
  multi_index<N> lengths;

  static constexpr int n_lower = 0, n_upper = N;
  static constexpr bool always_valid = true, invertible = false;

  TILESIM_HOST_DEVICE constexpr multi_index<N> upper_lengths() const { return lengths; }
  TILESIM_HOST_DEVICE constexpr multi_index<0> lower_index(const multi_index<N>&) const { return {}; }
  TILESIM_HOST_DEVICE constexpr multi_index<0> update_lower_index(const multi_index<N>&, const multi_index<N>&,
                                                                  multi_index<0>&) const {
    return {};
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(const multi_index<N>&) const { return true; }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<N> upper_vectors(vector_guarantees<0>) const { return {}; }
  TILESIM_HOST_DEVICE constexpr violation check() const { return check_lengths("replicate", lengths); }
  std::string cpp() const { return "make_replicate(" + cpp_list(lengths) + ")"; }
};

// make_replicate({2}): one replication dim of length 2.
template <int N>
TILESIM_HOST_DEVICE constexpr replicate<N> make_replicate(const index_t (&lengths)[N]) {
  replicate<N> t{};
  for (int i = 0; i < N; ++i) t.lengths[i] = lengths[i];
  require(t.check());
  return t;
}

}  // namespace tilesim
