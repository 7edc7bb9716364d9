// tilesim/spec/transforms/embed.hpp: an affine map from N upper dims to one lower dim.
//
// embed(lengths, coefficients): upper (u_0 .. u_{N-1}) -> lower Σ u_i * c_i. Strided views and convolution
// windows are embeds. Example, lengths (2, 3), coefficients (3, 1): (1, 2) -> 5; with coefficients (1, 1)
// (two sliding indices, im2col) both (0, 1) and (1, 0) map to 1: embed is injective only when the
// coefficients do not alias.
//
// Inverse: the greedy mixed-radix decode (largest coefficient first) followed by a re-encode; when that does
// not reproduce `low`, no preimage is reported. For non-aliasing coefficients this is the exact inverse.
// Vectors: no guarantee (as in CK; naive descriptors state their guarantee explicitly instead).
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

template <int N>
struct embed {
  multi_index<N> lengths;
  multi_index<N> coefficients;

  static constexpr int n_lower = 1, n_upper = N;
  static constexpr bool always_valid = true, invertible = true;  // exact only without aliasing

  TILESIM_HOST_DEVICE constexpr multi_index<N> upper_lengths() const { return lengths; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(const multi_index<N>& up) const {
    index_t l = 0;
    for (int i = 0; i < N; ++i) l += up[i] * coefficients[i];
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
    bool used[N == 0 ? 1 : N] = {};
    index_t rest = low[0];
    for (int k = 0; k < N; ++k) {  // the unused dim with the largest coefficient goes next
      int best = -1;
      for (int i = 0; i < N; ++i)
        if (!used[i] && (best < 0 || coefficients[i] > coefficients[best])) best = i;
      used[best] = true;
      if (coefficients[best] == 0) continue;
      index_t q = floor_div(rest, coefficients[best]);
      if (q < 0) q = 0;
      if (q > lengths[best] - 1) q = lengths[best] - 1;
      up[best] = q;
      rest -= q * coefficients[best];
    }
    return {up, rest == 0};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<N> upper_vectors(vector_guarantees<1>) const { return {}; }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = check_lengths("embed", lengths)) return v;
    for (int i = 0; i < N; ++i)
      if (coefficients[i] < 0)
        return broken_unless(false, rule::coefficient_negative, "embed", {"dim", i}, {"coefficient", coefficients[i]});
    return {};
  }
  std::string cpp() const { return "make_embed(" + cpp_list(lengths) + ", " + cpp_list(coefficients) + ")"; }
};

// make_embed({2, 3}, {3, 1}): (i, j) -> 3i + j.
template <int N>
TILESIM_HOST_DEVICE constexpr embed<N> make_embed(const index_t (&lengths)[N], const index_t (&coefficients)[N]) {
  embed<N> t{};
  for (int i = 0; i < N; ++i) {
    t.lengths[i] = lengths[i];
    t.coefficients[i] = coefficients[i];
  }
  require(t.check());
  return t;
}
template <int N>
TILESIM_HOST_DEVICE constexpr embed<N> make_embed(const multi_index<N>& lengths, const multi_index<N>& coefficients) {
  embed<N> t{lengths, coefficients};
  require(t.check());
  return t;
}

}  // namespace tilesim
