// tilesim/spec/constant.hpp: structure known at compile time, as a type.
//
// DEFINITION. constant<V> is the value V (any structural value: a number, an encoding, a descriptor, a
// program's whole launch configuration) carried in a type, so that everything computed from it is a
// constant expression and every loop it bounds has a constant trip count. It is the one switch between the
// two forms of every spec/ object:
//   run-time form      tile_distribution_encoding e = make_warp_raked_encoding(threads, wave, 64, 32, 8);
//                      the command line's explorers and the property tests build these from numbers they read
//   compile-time form  constant<make_warp_raked_encoding(256, 32, 64, 32, 8)>{}: windows, thread buffers and
//                      views built from it fold to constants (spec/window/static_tile_window.hpp), which is
//                      what a GPU kernel needs (docs/design/zero-overhead-device-code.md, principle 1)
// derive(x, f) applies a builder to either form and keeps the form: f(x) for a run-time x, constant<f(V)> for
// constant<V>. A program written with derive is one source for both: the simulator can run it on numbers
// from the command line, and a kernel (and the simulator, for the very same instantiation) on a constant.
//
// WORKED EXAMPLE (a 4x4 tile over 2 warps of 2 lanes, 2x2 elements each, the docs' encoding):
//   struct tile_launch { index_t rows = 4, cols = 4; };
//   auto f = [](const tile_launch& l) { return l.rows * l.cols; };
//   derive(tile_launch{}, f)                 == 16                      (an index_t, computed at run time)
//   derive(constant<tile_launch{}>{}, f)     is constant<index_t{16}>   (value_of(...) == 16, in the type)
//   static_for<4>([&](auto i) { r[i] = 2 * i; })  writes r[0], r[2]... with i a constant each time: r = {0, 2, 4, 6}
//
// INVARIANTS: value_of(derive(x, f)) == f(value_of(x)) for both forms; derive needs f captureless (its type
// is default-constructed at compile time); static_for<N> calls f exactly N times, in order, with
// constant<index_t{0}> .. constant<index_t{N-1}>, and leaves no loop behind (each call is its own code).
#pragma once

#include <type_traits>
#include <utility>

#include "spec/config.hpp"

namespace tilesim {

template <auto V>
struct constant {
  using value_type = decltype(V);
  static constexpr value_type value = V;
  TILESIM_HOST_DEVICE constexpr operator value_type() const { return V; }
};

template <class T>
inline constexpr bool is_constant_v = false;
template <auto V>
inline constexpr bool is_constant_v<constant<V>> = true;

// Either form's value: value_of(constant<3>{}) == 3, value_of(x) == x.
template <class T>
TILESIM_HOST_DEVICE constexpr const T& value_of(const T& x) {
  return x;
}
template <auto V>
TILESIM_HOST_DEVICE constexpr auto value_of(constant<V>) {
  return V;  // a copy: a static member's address cannot be taken in device code
}

// f applied to x, in x's form: run-time in, run-time out; constant<V> in, constant<f(V)> out.
template <class T, class F>
TILESIM_HOST_DEVICE constexpr auto derive(const T& x, F f) {
  return f(x);
}
template <auto V, class F>
TILESIM_HOST_DEVICE constexpr auto derive(constant<V>, F) {
  static_assert(std::is_empty_v<F>, "derive: a builder of a compile-time value must capture nothing");
  return constant<F{}(V)>{};
}

// f(constant<index_t{0}>), ..., f(constant<index_t{N-1}>): an unrolled loop by construction (the argument
// converts to index_t on host and device alike, and decltype(i)::value is a constant expression).
template <index_t N, class F>
TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void static_for(F&& f) {
  [&]<index_t... I>(std::integer_sequence<index_t, I...>) {
    (f(constant<I>{}), ...);
  }(std::make_integer_sequence<index_t, N>{});
}

// f(i) for i = 0 .. n-1: static_for when n is a constant<> (each i a constant), a plain loop when n is a number.
// for_range(derive(grid, [](const auto& g) { return g.m_iter; }), [&](auto mi) { ... }).
template <class N, class F>
TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void for_range(N n, F&& f) {
  if constexpr (is_constant_v<N>) {
    static_for<N::value>(f);
  } else {
    for (index_t i = 0; i < n; ++i) f(i);
  }
}

}  // namespace tilesim
