// tilesim/spec/transforms/embed.hpp: an affine map from N upper dims to one lower dim.
//
// embed(lengths, coefficients): upper (u_0 .. u_{N-1}) -> lower Σ u_i * c_i. Strided views and convolution
// windows are embeds. Example, lengths (2, 3), coefficients (3, 1): (1, 2) -> 5; with coefficients (1, 1)
// (two sliding indices, im2col) both (0, 1) and (1, 0) map to 1: embed is injective only when the
// coefficients do not alias.
//
// NEGATIVE COEFFICIENTS, as CK accepts them (coordinate_transform.hpp, embed::calculate_lower_index is the
// plain sum, with no sign rule): a flipped traversal. embed((3, 4), (-4, 1)) walks the rows backwards:
//
//   (r, c)    c=0  c=1  c=2  c=3
//   r=0         0    1    2    3
//   r=1        -4   -3   -2   -1
//   r=2        -8   -7   -6   -5          (2, 1) -> -7, CK's value
//
// so lower indices may be negative; a descriptor adds its base (an offset stage, or a pad) to land in the
// buffer, and a tile window's strict mode reports an element whose offset leaves the buffer. Validity is
// unchanged (embed has no invalid points, as in CK), moves stay linear (d = Σ du_i * c_i), and each term
// |c_i| * (len_i - 1) stays within 2^40 as for positive coefficients.
//
// Inverse: a depth-first search for u in the box with Σ u_i * c_i == low, dims by decreasing |c_i|, each
// digit tried from its largest feasible value down (feasible: the dims after it can still reach the rest,
// whose range is [Σ min(c, 0) (len - 1), Σ max(c, 0) (len - 1)]); .found is false exactly when no u in the box
// maps to low. For a mixed radix (every strided tensor, flipped or not) each dim has one feasible digit, so
// this is the greedy decode; injective but overlapping coefficients, (3, 2) : (2, 3), need the search;
// aliasing ones give one preimage.
// Vectors: no guarantee, as in CK (embed inherits base_transform's -1; naive descriptors state their
// guarantee explicitly instead). A stated guarantee on a naive descriptor's last dim is the user's word; its
// stride must be the real one (a coefficient of -1 gives stride -1, which never vectorizes).
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

template <int N>
struct embed {
  multi_index<N> lengths;
  multi_index<N> coefficients;

  static constexpr int n_lower = 1, n_upper = N;
  static constexpr bool always_valid = true, invertible = true;  // exact only without aliasing

  // |c| for the coefficients check() admits (c >= -2^40).
  TILESIM_HOST_DEVICE static constexpr index_t magnitude(index_t c) { return c < 0 ? -c : c; }

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
      int order[N] = {};  // dims by decreasing |coefficient| (an insertion sort; ties keep dim order)
      for (int i = 0; i < N; ++i) {
        order[i] = i;
        for (int j = i; j > 0 && magnitude(coefficients[order[j]]) > magnitude(coefficients[order[j - 1]]); --j) {
          const int t = order[j];
          order[j] = order[j - 1];
          order[j - 1] = t;
        }
      }
      index_t most[N + 1] = {}, least[N + 1] = {};  // the range the dims from position k on can add
      for (int k = N - 1; k >= 0; --k) {
        const index_t c = coefficients[order[k]], term = c * (lengths[order[k]] - 1);
        most[k] = most[k + 1] + (c > 0 ? term : 0);
        least[k] = least[k + 1] + (c < 0 ? term : 0);
      }
      index_t rest[N + 1] = {}, lowest[N] = {}, next[N] = {};
      auto feasible_digits = [&](int k) {  // [lowest[k], next[k]]: the digits that leave a reachable rest
        const index_t c = coefficients[order[k]];
        if (c == 0) {
          lowest[k] = next[k] = 0;
          return;
        }
        // u * c must lie in [rest - most, rest - least]; dividing by a negative c swaps the ends.
        const index_t a = rest[k] - most[k + 1], b = rest[k] - least[k + 1];
        const index_t lo = c > 0 ? -floor_div(-a, c) : -floor_div(b, -c), hi = c > 0 ? floor_div(b, c) : floor_div(-a, -c);
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
      // The largest term (len - 1) * |c| must stay within 2^40, so offsets and element spaces cannot overflow.
      const index_t c = coefficients[i];
      if (c < -max_extent || (c != 0 && lengths[i] - 1 > max_extent / magnitude(c)))
        return broken_unless(false, rule::extent_too_large, "embed", {"dim", i}, {"length", lengths[i]},
                             {"coefficient", c});
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
