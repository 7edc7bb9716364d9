// tilesim/spec/transforms/embed.hpp: an affine map from N upper dims to one lower dim.
//
// embed(lengths, coefficients): upper (u_0 .. u_{N-1}) -> lower Σ u_i * c_i. Strided views and convolution
// windows are embeds. Example, lengths (2, 3), coefficients (3, 1): (1, 2) -> 5; with coefficients (1, 1)
// (two sliding indices, im2col) both (0, 1) and (1, 0) map to 1: embed is injective only when the
// coefficients do not alias.
//
// Inverse: a depth-first search for u in the box with Σ u_i * c_i == low, dims by decreasing coefficient, each
// digit tried from its largest feasible value down; .found is false exactly when no u in the box maps to low.
// For a mixed radix (every strided tensor) each dim has one feasible digit, so this is the greedy decode;
// injective but overlapping coefficients, (3, 2) : (2, 3), need the search; aliasing ones give one preimage.
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
    if constexpr (N == 0) {
      return {up, low[0] == 0};
    } else {
      int order[N] = {};  // dims by decreasing coefficient (an insertion sort; ties keep dim order)
      for (int i = 0; i < N; ++i) {
        order[i] = i;
        for (int j = i; j > 0 && coefficients[order[j]] > coefficients[order[j - 1]]; --j) {
          const int t = order[j];
          order[j] = order[j - 1];
          order[j - 1] = t;
        }
      }
      index_t reach[N + 1] = {};  // the most that the dims from position k on add
      for (int k = N - 1; k >= 0; --k) reach[k] = reach[k + 1] + coefficients[order[k]] * (lengths[order[k]] - 1);
      index_t rest[N + 1] = {}, lowest[N] = {}, next[N] = {};
      auto feasible_digits = [&](int k) {  // [lowest[k], next[k]]: the digits that leave a reachable rest
        const index_t c = coefficients[order[k]];
        if (c == 0) {
          lowest[k] = next[k] = 0;
          return;
        }
        const index_t lo = -floor_div(reach[k + 1] - rest[k], c), hi = floor_div(rest[k], c);
        lowest[k] = lo > 0 ? lo : 0;
        next[k] = hi < lengths[order[k]] - 1 ? hi : lengths[order[k]] - 1;
      };
      rest[0] = low[0];
      feasible_digits(0);
      for (int k = 0; k >= 0;) {
        if (k == N) {
          if (rest[N] == 0) return {up, true};
          --k;
        } else if (next[k] < lowest[k]) {
          --k;  // no digit left here: back to the previous dim
        } else {
          up[order[k]] = next[k]--;
          rest[k + 1] = rest[k] - up[order[k]] * coefficients[order[k]];
          if (++k < N) feasible_digits(k);
        }
      }
      return {up, false};
    }
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<N> upper_vectors(vector_guarantees<1>) const { return {}; }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = check_lengths("embed", lengths)) return v;
    for (int i = 0; i < N; ++i) {
      if (coefficients[i] < 0)
        return broken_unless(false, rule::coefficient_negative, "embed", {"dim", i}, {"coefficient", coefficients[i]});
      // The largest term (len - 1) * c must stay within 2^40, so offsets and element spaces cannot overflow.
      if (coefficients[i] > 0 && lengths[i] - 1 > max_extent / coefficients[i])
        return broken_unless(false, rule::extent_too_large, "embed", {"dim", i}, {"length", lengths[i]},
                             {"coefficient", coefficients[i]});
    }
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
