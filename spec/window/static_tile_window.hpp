// tilesim/spec/window/static_tile_window.hpp: a tile window whose structure is known at compile time.
//
// DEFINITION. static_tile_window<View, E> is tile_window (tile_window.hpp) with the encoding E a template
// argument and the view's descriptor a fixed_descriptor: the load/store traits, the number of accesses,
// each access's first y, its register index d and the x step from the thread's first element are all
// constants. What is left at run time is what a hand-written kernel has too: the thread's x at y = 0
// (x_of(thread, 0), a function of its warp and lane), the window origin, and the buffer's pointer. Each
// access is its own code (static_for), its vector moves through load_vector<N> / store_vector<N> (one
// instruction of N elements on a GPU), and its offset is the descriptor's arithmetic on
// origin + x_base + a constant step, so nothing is indexed by a run-time value and nothing lives in memory
// (docs/design/zero-overhead-device-code.md, principles 1-4).
// make_tile_window(view, lengths, origin, constant<E>{}, thread) makes one; the run-time form
// (a tile_distribution_encoding value) still makes a tile_window.
//
// WORKED EXAMPLE (the docs' 4x4: H0 = <2,2>, H1 = <2,2>, P0 -> H0[0], P1 -> H1[0], Y0 -> H0[1], Y1 -> H1[1],
// over an 8x8 row-major fixed view, origin (1, 3)): traits: vector along Y1, 2 scalars, 2 accesses, both
// constants. Thread (warp 1, lane 1): x_base = (2, 2); access 0: y (0, 0), step (0, 0), d 0: top (3, 5) =
// offset 29, 2 elements into d 0, 1; access 1: y (1, 0), step (1, 0), d 2: top (4, 5) = offset 37, into d 2, 3.
// The same offsets and registers as tile_window's (the law below), with no loop at run time.
//
// INVARIANTS (static_tile_window.test.cpp): for every thread, its accesses are tile_window's, in the same order,
// with the same offsets, validity and register indices; loads and stores move the same elements; moving the
// window by s equals making it at origin + s. Strict mode (out-of-bounds reports) is tile_window's; this one
// has CK's semantics only.
#pragma once

#include "spec/constant.hpp"
#include "spec/window/tile_window.hpp"

namespace tilesim {

template <class View, tile_distribution_encoding E, access_order Visit = access_order::linear>
struct static_tile_window {
  using descriptor_type = typename View::descriptor_type;
  static_assert(requires { descriptor_type::value; },
                "static_tile_window: the view's descriptor must be compile-time too (make_tensor_view(constant<D>{}, buffer))");
  static_assert(static_require<E>());
  static constexpr int n_dim = View::n_dim;
  static_assert(E.n_x == n_dim, "static_tile_window: the encoding's X dims must be the view's dims");
  static constexpr int max_y = tile_distribution_encoding::max_y;
  static constexpr int max_p = tile_distribution_encoding::max_p;
  using value_type = typename View::value_type;
  static constexpr tile_distribution_encoding encoding = E;
  static constexpr load_store_traits traits = make_load_store_traits(E, descriptor_type::top_vectors(), Visit);
  static constexpr index_t scalars_per_vector = traits.scalars_per_vector;
  static constexpr index_t num_access = traits.num_access;

  View view;
  multi_index<max_p> thread;  // this thread's P index
  multi_index<n_dim> origin_;
  multi_index<n_dim> x_base_;  // x_of(thread, 0)

  // The window lengths: E's X lengths.
  TILESIM_HOST_DEVICE static constexpr multi_index<n_dim> lengths() {
    multi_index<n_dim> l{};
    for (int i = 0; i < n_dim; ++i) l[i] = E.x_length(i);
    return l;
  }
  TILESIM_HOST_DEVICE constexpr const multi_index<n_dim>& origin() const { return origin_; }
  TILESIM_HOST_DEVICE constexpr void set_origin(const multi_index<n_dim>& origin) { origin_ = origin; }
  // Moves the window by `step` (CK's move_tile_window).
  TILESIM_HOST_DEVICE constexpr void move(const multi_index<n_dim>& step) { origin_ += step; }

  // Access i's first element: y, and its x minus x_of(thread, 0) (x_of is affine in y for any thread).
  TILESIM_HOST_DEVICE static constexpr multi_index<max_y> access_y(index_t i) { return traits.first_y(i); }
  TILESIM_HOST_DEVICE static constexpr multi_index<n_dim> access_step(index_t i) {
    return subrange<0, n_dim>(E.x_of({}, access_y(i))) - subrange<0, n_dim>(E.x_of({}, {}));
  }
  // Register index of access i's first element, and the register distance between its elements.
  TILESIM_HOST_DEVICE static constexpr index_t access_d(index_t i) { return E.d_of(access_y(i)); }
  TILESIM_HOST_DEVICE static constexpr index_t vector_d_stride() {
    multi_index<max_y> unit{};
    unit[traits.vector_dim_y] = 1;
    return E.n_y > 0 ? E.d_of(unit) : 0;
  }

  // Calls f(window_access) for each access in curve order (the same records tile_window gives).
  template <class F>
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void for_each_access(F&& f) const {
    static_for<num_access>([&](auto i) {
      const multi_index<n_dim> top = origin_ + x_base_ + access_step(i);
      const auto c = descriptor_type::make_coordinate(top);
      f(window_access<n_dim>{i, access_y(i), top, c.offset(), descriptor_type::is_valid(c)});
    });
  }

  // Loads this thread's elements into dst, a thread buffer of the same encoding. CK semantics.
  template <class Tensor>
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void load(Tensor& dst) const {
    require_encoding<Tensor>();
    static_for<num_access>([&](auto i) {
      constexpr index_t d = access_d(i), stride = vector_d_stride();
      constexpr multi_index<n_dim> step = access_step(i);
      const auto c = descriptor_type::make_coordinate(origin_ + x_base_ + step);
      value_type vec[scalars_per_vector];
      load_vector<scalars_per_vector>(view.buffer, c.offset(), vec, descriptor_type::is_valid(c));
      static_for<scalars_per_vector>([&](auto j) {
        dst[d + j * stride] = static_cast<typename Tensor::value_type>(vec[j]);
      });
    });
  }

  // Stores this thread's elements from src (invalid vectors are skipped). CK semantics.
  template <class Tensor>
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void store(const Tensor& src) const {
    write<memory_op::store>(src);
  }
  // Adds src into memory (CK's update with DstInMemOp add).
  template <class Tensor>
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void update(const Tensor& src) const {
    write<memory_op::update>(src);
  }

 private:
  template <class Tensor>
  TILESIM_HOST_DEVICE static constexpr void require_encoding() {
    static_assert(Tensor::encoding == E,
                  "static_tile_window: the thread buffer's encoding must be the window's (make_distributed_tensor<T, Cap>(constant<E>{}))");
  }

  template <memory_op Op, class Tensor>
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void write(const Tensor& src) const {
    require_encoding<Tensor>();
    static_for<num_access>([&](auto i) {
      constexpr index_t d = access_d(i), stride = vector_d_stride();
      constexpr multi_index<n_dim> step = access_step(i);
      const auto c = descriptor_type::make_coordinate(origin_ + x_base_ + step);
      value_type vec[scalars_per_vector];
      static_for<scalars_per_vector>([&](auto j) { vec[j] = static_cast<value_type>(src[d + j * stride]); });
      if constexpr (Op == memory_op::store)
        store_vector<scalars_per_vector>(view.buffer, c.offset(), vec, descriptor_type::is_valid(c));
      else
        view.buffer.add(c.offset(), scalars_per_vector, vec, descriptor_type::is_valid(c));
    });
  }
};

// x_of(thread, y) of an encoding in either form: thread_x_of(constant<E>{}, {1, 0}, {}) is E.x_of({1, 0}, {}).
TILESIM_HOST_DEVICE constexpr multi_index<tile_distribution_encoding::max_x> thread_x_of(
    const tile_distribution_encoding& e, const multi_index<tile_distribution_encoding::max_p>& thread,
    const multi_index<tile_distribution_encoding::max_y>& y) {
  return e.x_of(thread, y);
}
template <tile_distribution_encoding E>
TILESIM_HOST_DEVICE constexpr multi_index<tile_distribution_encoding::max_x> thread_x_of(
    constant<E>, const multi_index<tile_distribution_encoding::max_p>& thread,
    const multi_index<tile_distribution_encoding::max_y>& y) {
  return E.x_of(thread, y);
}

// A window over a compile-time view with compile-time encoding E (see the essay). `lengths` must be E's X
// lengths (checked at run time on the host, like tile_window's; both are usually constants).
template <class View, tile_distribution_encoding E>
TILESIM_HOST_DEVICE constexpr static_tile_window<View, E> make_tile_window(
    const View& view, const multi_index<View::n_dim>& lengths, const multi_index<View::n_dim>& origin, constant<E>,
    const multi_index<tile_distribution_encoding::max_p>& thread) {
  using window = static_tile_window<View, E>;
  for (int i = 0; i < View::n_dim; ++i)
    require(broken_unless(E.x_length(i) == lengths[i], rule::window_shape_mismatch, "tile_window", {"dim", i},
                          {"window length", lengths[i]}, {"encoding X length", E.x_length(i)}));
  static_assert(window::scalars_per_vector <= tile_window<View>::max_vector, "static_tile_window: vector too long");
  multi_index<View::n_dim> x_base{};
  const auto x = E.x_of(thread, {});
  for (int i = 0; i < View::n_dim; ++i) x_base[i] = x[i];
  return window{view, thread, origin, x_base};
}

}  // namespace tilesim
