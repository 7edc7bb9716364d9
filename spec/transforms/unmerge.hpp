// tilesim/spec/transforms/unmerge.hpp: N upper digits combined into one lower index (row-major packing).
//
// unmerge(lengths): upper (u_0 .. u_{N-1}) -> lower Σ u_i * Π_{j>i} len_j. Example, unmerge(4, 4):
// (2, 1) -> 9; a packed row-major tensor is exactly one unmerge. The inverse of merge with equal lengths.
//
// Invariants: bijective from the box onto [0, Π len); linear, so moves add. Its inverse decodes any integer
// (the top digit takes what is left), so upper_index always finds a preimage.
// Vectors: the last upper dim keeps the lower guarantee cut to gcd(V, len_last); the others get none.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

template <int N>
struct unmerge {
  multi_index<N> lengths;

  static constexpr int n_lower = 1, n_upper = N;
  static constexpr bool always_valid = true, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<N> upper_lengths() const { return lengths; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(const multi_index<N>& up) const {
    index_t l = 0;
    for (int i = 0; i < N; ++i) l = l * lengths[i] + up[i];
    return {l};
  }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(const multi_index<N>& dup, const multi_index<N>&,
                                                                  multi_index<1>& low) const {
    multi_index<1> d = lower_index(dup);
    low += d;
    return d;
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(const multi_index<N>&) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<N> upper_index(multi_index<1> low) const {
    multi_index<N> up{};
    index_t t = low[0];
    for (int i = N - 1; i > 0; --i) {
      up[i] = floor_mod(t, lengths[i]);
      t = floor_div(t, lengths[i]);
    }
    up[0] = t;
    return {up, true};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<N> upper_vectors(vector_guarantees<1> low) const {
    vector_guarantees<N> up{};
    up[N - 1] = limit_vector(low[0], lengths[N - 1]);
    return up;
  }
  TILESIM_HOST_DEVICE constexpr violation check() const { return check_lengths("unmerge", lengths); }
  std::string cpp() const { return "make_unmerge(" + cpp_list(lengths) + ")"; }
};

// make_unmerge({4, 4}): (2, 1) -> 9.
template <int N>
TILESIM_HOST_DEVICE constexpr unmerge<N> make_unmerge(const index_t (&lengths)[N]) {
  unmerge<N> t{};
  for (int i = 0; i < N; ++i) t.lengths[i] = lengths[i];
  require(t.check());
  return t;
}
template <int N>
TILESIM_HOST_DEVICE constexpr unmerge<N> make_unmerge(const multi_index<N>& lengths) {
  unmerge<N> t{lengths};
  require(t.check());
  return t;
}

}  // namespace tilesim
