// tilesim/spec/distribution/distributed_tensor.hpp: one thread's share of a distributed tile, indexed by d.
//
// DEFINITION (CK's static_distributed_tensor). A tile laid out by an encoding E lives in registers: thread p
// holds elements_per_thread(E) values, value d being the tile element x_of(p, y_of(d)), where d is row-major
// over the Y lengths (ys_to_d). distributed_tensor<T, Capacity> is that thread buffer plus its encoding;
// Capacity is a compile-time upper bound. static_distributed_tensor<T, E> is the compile-time form: exactly E's
// size, the encoding in its type (spec/constant.hpp says when to use which).
//
// WORKED EXAMPLE (the docs' 4x4: x0 = 2*warp + y0, x1 = 2*lane + y1, d = 2*y0 + y1). Thread (warp 1, lane 0)
// of a tile t(x0, x1) = 10*x0 + x1 holds
//   d:      0    1    2    3
//   y:    (0,0)(0,1)(1,0)(1,1)
//   value:  20   21   30   31
//
// INVARIANTS: size() == E.elements_per_thread() <= Capacity (checked by make_distributed_tensor);
// at(y) is data[E.d_of(y)]; d_of and y_of are inverse over 0 <= d < size().
#pragma once

#include "spec/constant.hpp"
#include "spec/distribution/encoding.hpp"

namespace tilesim {

template <class T, index_t Capacity>
struct distributed_tensor {
  static_assert(Capacity >= 1, "distributed_tensor: the capacity must be >= 1");
  using value_type = T;
  static constexpr index_t capacity = Capacity;
  static constexpr int max_y = tile_distribution_encoding::max_y;

  tile_distribution_encoding encoding;
  T data[Capacity];

  // Elements this thread holds: Π of the Y lengths.
  TILESIM_HOST_DEVICE constexpr index_t size() const { return encoding.elements_per_thread(); }
  // Element d (register order).
  TILESIM_HOST_DEVICE constexpr T& operator[](index_t d) { return data[d]; }
  TILESIM_HOST_DEVICE constexpr const T& operator[](index_t d) const { return data[d]; }
  // Register index of Y index y: encoding.d_of(y); docs 4x4: d_of({1, 0}) == 2.
  TILESIM_HOST_DEVICE constexpr index_t d_of(const multi_index<max_y>& y) const { return encoding.d_of(y); }
  // Element at Y index y; docs 4x4: at({1, 0}) is data[2].
  TILESIM_HOST_DEVICE constexpr T& at(const multi_index<max_y>& y) { return data[encoding.d_of(y)]; }
  TILESIM_HOST_DEVICE constexpr const T& at(const multi_index<max_y>& y) const { return data[encoding.d_of(y)]; }
  // Sets every element to v.
  TILESIM_HOST_DEVICE constexpr void fill(const T& v) {
    for (index_t d = 0; d < size(); ++d) data[d] = v;
  }
};

// A zero-initialized thread buffer for encoding e; throws when e needs more than Capacity elements.
template <class T, index_t Capacity>
TILESIM_HOST_DEVICE constexpr distributed_tensor<T, Capacity> make_distributed_tensor(const tile_distribution_encoding& e) {
  require(broken_unless(e.elements_per_thread() <= Capacity, rule::distributed_tensor_too_small, "distributed_tensor",
                        {"elements per thread", e.elements_per_thread()}, {"capacity", Capacity}));
  distributed_tensor<T, Capacity> t{e, {}};
  return t;
}

// The exact-size thread buffer of a compile-time encoding E (CK's static_distributed_tensor): the encoding is
// its type, not a member, so the buffer is just E.elements_per_thread() values, and an index computed from
// constants (d_of of a constant y) picks a register. Same members as distributed_tensor.
template <class T, tile_distribution_encoding E>
struct static_distributed_tensor {
  using value_type = T;
  static constexpr tile_distribution_encoding encoding = E;
  static constexpr index_t capacity = E.elements_per_thread();
  static constexpr int max_y = tile_distribution_encoding::max_y;
  static_assert(capacity >= 1, "static_distributed_tensor: the encoding gives a thread no element");

  T data[capacity];

  TILESIM_HOST_DEVICE static constexpr index_t size() { return capacity; }
  TILESIM_HOST_DEVICE constexpr T& operator[](index_t d) { return data[d]; }
  TILESIM_HOST_DEVICE constexpr const T& operator[](index_t d) const { return data[d]; }
  TILESIM_HOST_DEVICE static constexpr index_t d_of(const multi_index<max_y>& y) { return E.d_of(y); }
  TILESIM_HOST_DEVICE constexpr T& at(const multi_index<max_y>& y) { return data[E.d_of(y)]; }
  TILESIM_HOST_DEVICE constexpr const T& at(const multi_index<max_y>& y) const { return data[E.d_of(y)]; }
  TILESIM_HOST_DEVICE constexpr void fill(const T& v) {
    static_for<capacity>([&](auto d) { data[d] = v; });
  }
};

// make_distributed_tensor<float, E>(): the exact-size, zero-initialized tensor of compile-time encoding E.
template <class T, tile_distribution_encoding E>
TILESIM_HOST_DEVICE constexpr static_distributed_tensor<T, E> make_distributed_tensor() {
  return static_distributed_tensor<T, E>{};
}

// The same from an encoding in either form: make_distributed_tensor<float, 64>(constant<E>{}) is exact-size
// (the capacity only bounds the run-time form and is checked against E at compile time).
template <class T, index_t Capacity, tile_distribution_encoding E>
TILESIM_HOST_DEVICE constexpr static_distributed_tensor<T, E> make_distributed_tensor(constant<E>) {
  static_assert(E.elements_per_thread() <= Capacity, "distributed_tensor: the encoding needs more elements than the capacity");
  return static_distributed_tensor<T, E>{};
}

}  // namespace tilesim
