// tilesim/spec/multi_index.hpp: a fixed-size index vector usable on host and device.
//
// multi_index<N> is an aggregate of N index_t values: `multi_index<3>{4, 0, 2}`. It is a structural type, so
// descriptors holding it can be template arguments (compile-time descriptors). N may be 0 (freeze has no
// upper dimension, replicate no lower one).
//
//   multi_index<2>{1, 2} + multi_index<2>{10, 20} == multi_index<2>{11, 22}
#pragma once

#include "spec/config.hpp"

namespace tilesim {

template <int N>
struct multi_index {
  static_assert(N >= 0, "multi_index: the number of dimensions N must be >= 0");
  index_t v[N == 0 ? 1 : N];  // one unused slot when N == 0 keeps the type an aggregate

  TILESIM_HOST_DEVICE static constexpr int size() { return N; }
  TILESIM_HOST_DEVICE constexpr index_t& operator[](int i) { return v[i]; }
  TILESIM_HOST_DEVICE constexpr const index_t& operator[](int i) const { return v[i]; }

  // The all-`value` index: filled<3>(-1) == {-1, -1, -1}.
  TILESIM_HOST_DEVICE static constexpr multi_index filled(index_t value) {
    multi_index r{};
    for (int i = 0; i < N; ++i) r.v[i] = value;
    return r;
  }

  TILESIM_HOST_DEVICE friend constexpr bool operator==(const multi_index& a, const multi_index& b) {
    for (int i = 0; i < N; ++i)
      if (a.v[i] != b.v[i]) return false;
    return true;
  }
  TILESIM_HOST_DEVICE friend constexpr multi_index operator+(multi_index a, const multi_index& b) {
    for (int i = 0; i < N; ++i) a.v[i] += b.v[i];
    return a;
  }
  TILESIM_HOST_DEVICE friend constexpr multi_index operator-(multi_index a, const multi_index& b) {
    for (int i = 0; i < N; ++i) a.v[i] -= b.v[i];
    return a;
  }
  TILESIM_HOST_DEVICE constexpr multi_index& operator+=(const multi_index& b) { return *this = *this + b; }
};

// {0, 1, ..., N-1}: iota<3>() == {0, 1, 2}.
template <int N>
TILESIM_HOST_DEVICE constexpr multi_index<N> iota() {
  multi_index<N> r{};
  for (int i = 0; i < N; ++i) r[i] = i;
  return r;
}

// Π of all components: product(multi_index<3>{2, 3, 4}) == 24; product of zero components == 1.
template <int N>
TILESIM_HOST_DEVICE constexpr index_t product(const multi_index<N>& a) {
  index_t p = 1;
  for (int i = 0; i < N; ++i) p *= a[i];
  return p;
}

// Σ of all components.
template <int N>
TILESIM_HOST_DEVICE constexpr index_t sum(const multi_index<N>& a) {
  index_t s = 0;
  for (int i = 0; i < N; ++i) s += a[i];
  return s;
}

// The components I..I+M-1 of a: subrange<1, 2>({5, 6, 7}) == {6, 7}.
template <int I, int M, int N>
TILESIM_HOST_DEVICE constexpr multi_index<M> subrange(const multi_index<N>& a) {
  static_assert(I >= 0 && I + M <= N, "subrange: the range [I, I+M) must lie inside [0, N)");
  multi_index<M> r{};
  for (int k = 0; k < M; ++k) r[k] = a[I + k];
  return r;
}

// The components of `from` named by `ids`: gather({7, 8, 9}, {2, 0}) == {9, 7}.
template <int M, int N>
TILESIM_HOST_DEVICE constexpr multi_index<M> gather(const multi_index<N>& from, const multi_index<M>& ids) {
  multi_index<M> r{};
  for (int k = 0; k < M; ++k) r[k] = from[ids[k]];
  return r;
}

// Writes values[k] into into[ids[k]]: scatter(x, {2, 0}, {1, 2}) sets x[2] = 1, x[0] = 2.
template <int M, int N>
TILESIM_HOST_DEVICE constexpr void scatter(multi_index<N>& into, const multi_index<M>& ids,
                                           const multi_index<M>& values) {
  for (int k = 0; k < M; ++k) into[ids[k]] = values[k];
}

}  // namespace tilesim
