// tilesim/spec/fixed_descriptor.hpp: a descriptor known at compile time, as an empty object.
//
// DEFINITION. fixed_descriptor<D> has the members of descriptor D (spec/descriptor.hpp: lengths, offsets,
// coordinates, moves, validity, vector guarantees), each forwarding to D itself, a compile-time constant.
// A tensor view over it (make_tensor_view(constant<D>{}, buffer)) holds no descriptor data at all: the
// transforms' lengths, the wiring ids and the guarantees are constants in the code that uses them, so an
// offset computed from a run-time top index folds to the arithmetic of the transforms alone (no table is
// read, nothing is kept in local memory on a GPU).
//
// WORKED EXAMPLE (a 4x4 row-major tile):
//   using d = fixed_descriptor<make_row_major_descriptor(4, 4)>;
//   d{}.calculate_offset({2, 1}) == 9;  d::element_space_size == 16;  d{}.top_vectors()[1] == {4, 1}
//
// INVARIANTS: every member returns exactly what D's does for the same arguments; sizeof is 1 (empty).
#pragma once

#include "spec/constant.hpp"
#include "spec/descriptor.hpp"

namespace tilesim {

template <auto D>
struct fixed_descriptor {
  static_assert(static_require<D>());  // every rule of D, as a named static_assert
  using descriptor_type = decltype(D);
  using coordinate_type = typename descriptor_type::coordinate_type;
  static constexpr descriptor_type value = D;
  static constexpr int n_top = descriptor_type::n_top;
  static constexpr int n_hidden = descriptor_type::n_hidden;
  static constexpr index_t element_space_size = D.element_space_size;
  static constexpr bool may_be_invalid = descriptor_type::may_be_invalid;

  TILESIM_HOST_DEVICE static constexpr multi_index<n_top> lengths() { return D.lengths(); }
  TILESIM_HOST_DEVICE static constexpr index_t element_size() { return D.element_size(); }
  TILESIM_HOST_DEVICE TILESIM_INLINE static constexpr index_t calculate_offset(const multi_index<n_top>& top) {
    return D.calculate_offset(top);
  }
  TILESIM_HOST_DEVICE TILESIM_INLINE static constexpr coordinate_type make_coordinate(const multi_index<n_top>& top) {
    return D.make_coordinate(top);
  }
  TILESIM_HOST_DEVICE TILESIM_INLINE static constexpr index_t move(coordinate_type& c, const multi_index<n_top>& s) {
    return D.move(c, s);
  }
  TILESIM_HOST_DEVICE static constexpr multi_index<n_top> top_index(const coordinate_type& c) { return D.top_index(c); }
  TILESIM_HOST_DEVICE TILESIM_INLINE static constexpr bool is_valid(const coordinate_type& c) { return D.is_valid(c); }
  TILESIM_HOST_DEVICE static constexpr bool in_bounds(const coordinate_type& c) { return D.in_bounds(c); }
  TILESIM_HOST_DEVICE static constexpr bool in_range(const coordinate_type& c) { return D.in_range(c); }
  TILESIM_HOST_DEVICE static constexpr vector_guarantees<n_top> top_vectors() { return D.top_vectors(); }
  TILESIM_HOST_DEVICE static constexpr vector_guarantees<n_top> ck_top_vectors() { return D.ck_top_vectors(); }
  TILESIM_HOST_DEVICE static constexpr bool beyond_unchecked_pad_side(const coordinate_type& c) {
    return D.beyond_unchecked_pad_side(c);
  }
  TILESIM_HOST_DEVICE static constexpr bool ck_index_differs(const coordinate_type& c) { return D.ck_index_differs(c); }
  TILESIM_HOST_DEVICE static constexpr bool ck_moves_differ(const coordinate_type& c,
                                                            const multi_index<n_hidden>& last_step) {
    return D.ck_moves_differ(c, last_step);
  }
  TILESIM_HOST_DEVICE static constexpr violation check() { return D.check(); }
  std::string cpp() const { return D.cpp(); }
};

// The descriptor of either form as an object a tensor view can hold: D itself, or fixed_descriptor<V>.
template <class D>
TILESIM_HOST_DEVICE constexpr const D& as_descriptor(const D& d) {
  return d;
}
template <auto V>
TILESIM_HOST_DEVICE constexpr fixed_descriptor<V> as_descriptor(constant<V>) {
  return {};
}

}  // namespace tilesim
