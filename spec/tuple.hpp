// tilesim/spec/tuple.hpp: a minimal heterogeneous tuple for host and device.
//
// std::tuple has private members (so it cannot appear in a template argument) and is not usable in device
// code without flags; this one is a plain recursive aggregate: tuple<A, B>{a, {b, {}}}.
#pragma once

#include <cstddef>
#include <utility>

#include "spec/config.hpp"

namespace tilesim {

template <class... Ts>
struct tuple {};

template <class T, class... Ts>
struct tuple<T, Ts...> {
  T head;
  tuple<Ts...> tail;
};

TILESIM_HOST_DEVICE constexpr tuple<> make_tuple() { return {}; }

// make_tuple(1, 'a') == tuple<int, char>{1, {'a', {}}}.
template <class T, class... Ts>
TILESIM_HOST_DEVICE constexpr tuple<T, Ts...> make_tuple(const T& first, const Ts&... rest) {
  return {first, make_tuple(rest...)};
}

// The I-th element: get<1>(make_tuple(1, 'a')) == 'a'.
template <std::size_t I, class T, class... Ts>
TILESIM_HOST_DEVICE constexpr auto& get(tuple<T, Ts...>& t) {
  if constexpr (I == 0)
    return t.head;
  else
    return get<I - 1>(t.tail);
}
template <std::size_t I, class T, class... Ts>
TILESIM_HOST_DEVICE constexpr const auto& get(const tuple<T, Ts...>& t) {
  if constexpr (I == 0)
    return t.head;
  else
    return get<I - 1>(t.tail);
}

// concat(tuple<A>, tuple<B, C>) == tuple<A, B, C>.
template <class... As, class... Bs>
TILESIM_HOST_DEVICE constexpr tuple<As..., Bs...> concat(const tuple<As...>& a, const tuple<Bs...>& b) {
  return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
    return make_tuple(get<I>(a)..., get<J>(b)...);
  }(std::index_sequence_for<As...>{}, std::index_sequence_for<Bs...>{});
}

}  // namespace tilesim
