// tilesim/spec/transforms/merge.hpp: one upper dimension split into N lower digits (mixed radix).
//
// merge(lengths): upper u -> lower digits (l_0 .. l_{N-1}) with u = Σ l_i * Π_{j>i} len_j, l_0 most
// significant. Example, merge(4, 4): 9 -> (2, 1); merge(2, 3, 4): 23 -> (1, 2, 3).
//
//   u:  0     1     2     3     4     5    ...   merge(2, 3)
//       (0,0) (0,1) (0,2) (1,0) (1,1) (1,2)
//
// Invariants: bijective from [0, Π len) onto the digit box; merge and unmerge with equal lengths are inverses.
// CK misbehaviours and what tilesim does instead:
//   * CK's default merge uses magic-number division, wrong for u < 0 or u >= 2^31: tilesim uses exact floor
//     division on 64-bit indices.
//   * Neither CK merge wraps the top digit: an out-of-range u silently yields l_0 >= len_0. tilesim keeps
//     that (it is what makes unmerge(merge(u)) == u for *every* integer u, so moves stay exact), and the
//     descriptor's strict check (`descriptor::in_range`) reports the out-of-range upper index instead.
//   * Strict mode (a tile window with a reporter) names every element whose coordinate feeds a merge a
//     negative u (oob_kind::ck_index_differs): the CK kernel computes other digits there.
// Vectors: the upper dim inherits the last digit's guarantee, cut to a divisor of that digit's length. CK
// passes the guarantee uncut, so a vector longer than the last digit crosses into the next one and reads
// elements that are not consecutive; strict mode reports where CK would vectorize otherwise (vector_differs).
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

template <int N>
struct merge {
  multi_index<N> lengths;

  static constexpr int n_lower = N, n_upper = 1;
  static constexpr bool always_valid = true, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {product(lengths)}; }
  TILESIM_HOST_DEVICE constexpr multi_index<N> lower_index(multi_index<1> up) const {
    multi_index<N> low{};
    index_t t = up[0];
    for (int i = N - 1; i > 0; --i) {
      if (lengths[i] == 1) continue;  // digit 0, t unchanged: no division
      low[i] = floor_mod(t, lengths[i]);
      t = floor_div(t, lengths[i]);
    }
    low[0] = t;
    return low;
  }
  // A step that keeps the last digit in range changes that digit alone (low holds lower_index of the old u,
  // the only digits with that u); any other step recomputes the digits.
  TILESIM_HOST_DEVICE constexpr multi_index<N> update_lower_index(multi_index<1> diff, multi_index<1> up,
                                                                  multi_index<N>& low) const {
    const index_t last = low[N - 1] + diff[0];
    if (N > 1 && last >= 0 && last < lengths[N - 1]) {
      multi_index<N> step{};
      step[N - 1] = diff[0];
      low[N - 1] = last;
      return step;
    }
    return recompute_lower(*this, up, low);
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1>) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<1> upper_index(const multi_index<N>& low) const {
    index_t u = 0;
    bool found = true;
    for (int i = 0; i < N; ++i) {
      if (i > 0 && (low[i] < 0 || low[i] >= lengths[i])) found = false;
      u = u * lengths[i] + low[i];
    }
    return {{u}, found};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(const vector_guarantees<N>& low) const {
    return {limit_vector(low[N - 1], lengths[N - 1])};
  }
  // CK's rule (merge_v2/v3 calculate_upper_dimension_safe_vector_length_strides): the last digit's, uncut.
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> ck_upper_vectors(const vector_guarantees<N>& low) const {
    return {low[N - 1]};
  }
  // Strict mode: CK's magic division (and merge_v3's truncating division) give other digits for u < 0.
  TILESIM_HOST_DEVICE constexpr bool ck_index_differs(multi_index<1> up) const { return N > 1 && up[0] < 0; }
  TILESIM_HOST_DEVICE constexpr violation check() const { return check_lengths("merge", lengths); }
  std::string cpp() const { return "make_merge(" + cpp_list(lengths) + ")"; }
};

// make_merge({4, 4}): 9 -> (2, 1).
template <int N>
TILESIM_HOST_DEVICE constexpr merge<N> make_merge(const index_t (&lengths)[N]) {
  merge<N> t{};
  for (int i = 0; i < N; ++i) t.lengths[i] = lengths[i];
  require(t.check());
  return t;
}
template <int N>
TILESIM_HOST_DEVICE constexpr merge<N> make_merge(const multi_index<N>& lengths) {
  merge<N> t{lengths};
  require(t.check());
  return t;
}

}  // namespace tilesim
