// tilesim/spec/transform.hpp: what a coordinate transform is.
//
// DEFINITION. A coordinate transform maps an index in its *upper* space (toward the user) to an index in its
// *lower* space (toward memory): T : Z^n_upper -> Z^n_lower. Descriptors are chains of transforms (see
// adaptor.hpp); a tile program names an element by its top index and the chain turns it into a memory
// offset. Direction matters: every transform is written upper -> lower, as in CK Tile, because that is the
// direction a thread computes in; lower -> upper (the inverse) exists only for injective transforms.
//
// WORKED EXAMPLE. A 4x4 row-major matrix is the single transform unmerge(4, 4): upper (row, col), lower
// offset = 4*row + col. Reading it back the other way, merge(4, 4) maps offset 9 to (2, 1).
//
//        col 0  1  2  3                    unmerge(4,4): (2,1) -> 9
//   row 0    0  1  2  3                    merge(4,4):   9 -> (2,1)
//   row 1    4  5  6  7                    xor_t(4,4):   (r,c) -> (r, c XOR r), a bank swizzle:
//   row 2    8  9 10 11                      row 2 keeps its elements but stores column c at c XOR 2:
//   row 3   12 13 14 15                      offsets 10 11 8 9
//
// INTERFACE (checked by the concept below; every member is TILESIM_HOST_DEVICE constexpr):
//   n_lower, n_upper                 dimension counts (either may be 0: freeze, insert, replicate)
//   upper_lengths()                  the upper index space [0, len_0) x ... ; lower lengths are not stored
//   lower_index(up)                  the absolute map upper -> lower
//   update_lower_index(dup, up, low) incremental move: `up` already includes `dup`; updates `low` in place and
//                                    returns the lower difference
//   always_valid, is_valid_upper(up) the padding predicate; only pads have invalid upper points
//   upper_vectors(low_vectors)       guaranteed vector (length, stride) propagated from lower to upper dims
//   invertible, upper_index(low)     the inverse, for injective transforms (and embed, exact when its
//                                    coefficients do not alias); .found is false when `low` has no preimage
//   check()                          the first broken parameter rule (rules.hpp), or none
//   cpp()                            host only: the factory call that rebuilds it, "make_pad(4, 1, 1)"
//
// OPTIONAL MEMBERS, where CK Tile computes something else (docs/programming-guide.md, "Where CK Tile misbehaves"; a tile
// window's strict mode reports each through the descriptor):
//   ck_upper_vectors(low_vectors)    CK's vector rule where it differs from upper_vectors (pad, left_pad,
//                                    merge, xor_t, cyclic shifts): descriptor::ck_top_vectors
//   ck_index_differs(up)             CK's truncating or magic-number arithmetic maps up elsewhere (merge,
//                                    modulo, xor_t, cyclic shifts fed negative indices)
//   ck_move_differs(up, dup)         CK's move by dup to up lands elsewhere (modulo counts the step twice)
//   beyond_unchecked_side(up)        valid, but outside the lower range on the side CK does not check
//                                    (left_pad, right_pad)
// Vector rules: each transform's header states its own. CK's base_transform gives -1 (no guarantee); embed,
// slice, offset, modulo, freeze, insert and replicate keep that here too, so the simulator issues what CK issues.
//
// INVARIANTS (tested in props/):
//   * update_lower_index agrees with lower_index: after moving up by d, low == lower_index(up + d).
//   * injective transforms: upper_index(lower_index(u)).index == u for every u in the upper space.
//   * a guaranteed vector (V, S) on an upper dim: for u with u_d a multiple of V, the V indices u + j*e_d map
//     to lower indices whose offsets differ by j*S (property "vector guarantee" in props/).
#pragma once

#include <concepts>
#include <string>

#include "spec/config.hpp"
#include "spec/math.hpp"
#include "spec/multi_index.hpp"
#include "spec/rules.hpp"

namespace tilesim {

// A guaranteed vector on one dimension: `length` consecutive indices starting at a multiple of `length`
// are `stride` apart in memory. {unknown, unknown} means no guarantee.
struct vector_guarantee {
  index_t length = unknown;
  index_t stride = unknown;
  TILESIM_HOST_DEVICE friend constexpr bool operator==(const vector_guarantee&, const vector_guarantee&) = default;
};

template <int N>
struct vector_guarantees {
  vector_guarantee v[N == 0 ? 1 : N];
  TILESIM_HOST_DEVICE constexpr vector_guarantee& operator[](int i) { return v[i]; }
  TILESIM_HOST_DEVICE constexpr const vector_guarantee& operator[](int i) const { return v[i]; }
};

// No guarantee on any of N dims.
template <int N>
TILESIM_HOST_DEVICE constexpr vector_guarantees<N> no_vectors() {
  return {};
}

// A guarantee shortened to a divisor: (8, 1) limited by 4 is (gcd(8, 4), 1) = (4, 1).
TILESIM_HOST_DEVICE constexpr vector_guarantee limit_vector(vector_guarantee g, index_t divisor) {
  if (g.length == unknown) return g;
  return {gcd(g.length, divisor), g.stride};
}

// The inverse of a transform at one point: `index` is meaningful only when `found`.
template <int N>
struct inverse_result {
  multi_index<N> index;
  bool found;
};

// Moves `low` to lower_index(up_new) and returns the difference: the update rule of non-linear transforms.
template <class T>
TILESIM_HOST_DEVICE constexpr multi_index<T::n_lower> recompute_lower(const T& t,
                                                                     const multi_index<T::n_upper>& up_new,
                                                                     multi_index<T::n_lower>& low) {
  multi_index<T::n_lower> fresh = t.lower_index(up_new);
  multi_index<T::n_lower> diff = fresh - low;
  low = fresh;
  return diff;
}

template <class T>
concept coordinate_transform = requires(const T t, multi_index<T::n_upper> up, multi_index<T::n_lower> low,
                                        vector_guarantees<T::n_lower> lv) {
  { T::n_lower } -> std::convertible_to<int>;
  { T::n_upper } -> std::convertible_to<int>;
  { T::always_valid } -> std::convertible_to<bool>;
  { T::invertible } -> std::convertible_to<bool>;
  { t.upper_lengths() } -> std::same_as<multi_index<T::n_upper>>;
  { t.lower_index(up) } -> std::same_as<multi_index<T::n_lower>>;
  { t.update_lower_index(up, up, low) } -> std::same_as<multi_index<T::n_lower>>;
  { t.is_valid_upper(up) } -> std::same_as<bool>;
  { t.upper_vectors(lv) } -> std::same_as<vector_guarantees<T::n_upper>>;
  { t.check() } -> std::same_as<violation>;
  { t.cpp() } -> std::same_as<std::string>;
};

// Transforms that can be inverted point by point.
template <class T>
concept invertible_transform = coordinate_transform<T> && T::invertible && requires(const T t, multi_index<T::n_lower> low) {
  { t.upper_index(low) } -> std::same_as<inverse_result<T::n_upper>>;
};

// Host-only printing helper for cpp(): cpp_list({4, 8}) == "{4, 8}".
template <int N>
std::string cpp_list(const multi_index<N>& a) {
  std::string s = "{";
  for (int i = 0; i < N; ++i) s += (i ? ", " : "") + std::to_string(a[i]);
  return s + "}";
}

// Whether check_lengths finds nothing, without building a violation (for checks made per thread).
template <int N>
TILESIM_HOST_DEVICE constexpr bool lengths_within(const multi_index<N>& lengths) {
  index_t p = 1;
  for (int i = 0; i < N; ++i) {
    if (lengths[i] < 1 || lengths[i] > max_extent) return false;
    if (p < (index_t{1} << 23) ? p * lengths[i] > max_extent : lengths[i] > max_extent / p) return false;
    p *= lengths[i];
  }
  return true;
}

// The shared length rule: every component in [1, 2^40], and their product too.
template <int N>
TILESIM_HOST_DEVICE constexpr violation check_lengths(const char* where, const multi_index<N>& lengths) {
  index_t p = 1;
  for (int i = 0; i < N; ++i) {
    if (lengths[i] < 1) return broken_unless(false, rule::length_not_positive, where, {"dim", i}, {"length", lengths[i]});
    if (lengths[i] > max_extent) return broken_unless(false, rule::extent_too_large, where, {"dim", i}, {"length", lengths[i]});
    // p * lengths[i] > 2^40: the product itself while it cannot pass 2^63 (p < 2^23), else by a division
    if (p < (index_t{1} << 23) ? p * lengths[i] > max_extent : lengths[i] > max_extent / p) {
      if (lengths[i] > INT64_MAX / p)
        return broken_unless(false, rule::extent_too_large, where, {"product up to dim", i}, {"product before it", p},
                             {"length", lengths[i]});
      return broken_unless(false, rule::extent_too_large, where, {"product up to dim", i}, {"product", p * lengths[i]});
    }
    p *= lengths[i];
  }
  return {};
}

}  // namespace tilesim
