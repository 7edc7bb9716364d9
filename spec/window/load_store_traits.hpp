// tilesim/spec/window/load_store_traits.hpp: how a tile window vectorizes and orders its accesses.
//
// DEFINITION (CK's load_store_traits). Given an encoding and the guaranteed vector (length GL, stride GS) of
// each X dim of the view (descriptor::top_vectors), a Y dim can be a vector dim only when it is the *last* H
// component of its X dim and that X has GS == 1; its vector length is gcd(GL, len(H_last)). The vector dim is
// the first such Y with the largest length > 1 (default: Y 0 with 1 scalar). Every access then moves
// scalars_per_vector elements along that Y, and the accesses follow a space-filling curve over the Y lengths
// (scalars_per_access = the vector length on the vector dim, 1 elsewhere).
//
// WORKED EXAMPLE (the docs' 4x4: H0 = <2,2>, H1 = <2,2>, Y0 -> H0[1], Y1 -> H1[1]):
//   view X1 guarantee {4, 1}: Y1 is H1's last component, gcd(4, 2) = 2 -> vector dim 1, 2 scalars, 2 accesses
//       access 0: y = (0,0),(0,1)    access 1: y = (1,0),(1,1)
//   packed view without a stated guarantee (GL unknown): scalar, 4 accesses.
//
// INVARIANTS: scalars_per_vector divides the vector Y's length; num_access * scalars_per_vector equals the
// elements per thread; the elements of one vector are consecutive in the bottom tensor (GS == 1 on X, and the
// Y is X's fastest component), which props/window.props.cpp checks for random encodings and views.
#pragma once

#include "spec/distribution/encoding.hpp"
#include "spec/distribution/space_filling_curve.hpp"
#include "spec/math.hpp"

namespace tilesim {

// The visiting order of a window's accesses: CK 2025 uses linear, CK 2024 used snake.
enum class access_order { linear, snake };

struct load_store_traits {
  static constexpr int max_y = tile_distribution_encoding::max_y;
  int vector_dim_y = 0;            // the Y dim the vectors run along
  index_t scalars_per_vector = 1;  // elements per access
  index_t num_access = 1;          // accesses per thread: elements_per_thread / scalars_per_vector
  space_filling_curve<max_y> curve{};  // over the Y lengths (dims >= n_y have length 1)

  // The Y index of access i's first element; docs 4x4 with a {4, 1} X1 guarantee: first_y(1) == {1, 0}.
  TILESIM_HOST_DEVICE constexpr multi_index<max_y> first_y(index_t i) const { return curve.index(i); }
};

// The vector length Y dim j can have: gcd(GL, len) when it is the last H of an X with GS == 1, else 1.
template <int NX>
TILESIM_HOST_DEVICE constexpr index_t y_vector_length(const tile_distribution_encoding& e, int j,
                                                      const vector_guarantees<NX>& x_vectors) {
  const rh c = e.y[j];
  if (c.major < 1 || c.major > NX || c.minor != e.n_h[c.major - 1] - 1) return 1;
  const vector_guarantee g = x_vectors[c.major - 1];
  if (g.stride != 1 || g.length < 1) return 1;
  return gcd(g.length, e.length_of(c));
}

// The vector Y dim and its length: the first Y with the largest y_vector_length > 1, else Y 0 with 1 scalar.
struct vector_choice {
  int dim_y = 0;
  index_t scalars = 1;
  TILESIM_HOST_DEVICE friend constexpr bool operator==(const vector_choice&, const vector_choice&) = default;
};
template <int NX>
TILESIM_HOST_DEVICE constexpr vector_choice choose_vector(const tile_distribution_encoding& e,
                                                          const vector_guarantees<NX>& x_vectors) {
  vector_choice v{};
  for (int j = 0; j < e.n_y; ++j) {
    const index_t len = y_vector_length(e, j, x_vectors);
    if (len > v.scalars) v = {j, len};
  }
  return v;
}

// The traits of a window with encoding e over a view whose X dims guarantee x_vectors.
// `order` permutes the Y dims for the curve (outermost first); the default is declaration order, as in CK.
template <int NX>
TILESIM_HOST_DEVICE constexpr load_store_traits make_load_store_traits(
    const tile_distribution_encoding& e, const vector_guarantees<NX>& x_vectors,
    access_order visit = access_order::linear,
    const multi_index<tile_distribution_encoding::max_y>& order = iota<tile_distribution_encoding::max_y>()) {
  constexpr int max_y = tile_distribution_encoding::max_y;
  load_store_traits t{};
  const vector_choice v = choose_vector(e, x_vectors);
  t.vector_dim_y = v.dim_y;
  t.scalars_per_vector = v.scalars;
  multi_index<max_y> lengths = multi_index<max_y>::filled(1), scalars = multi_index<max_y>::filled(1);
  for (int j = 0; j < e.n_y; ++j) lengths[j] = e.y_length(j);
  scalars[t.vector_dim_y] = t.scalars_per_vector;
  t.curve = space_filling_curve<max_y>{lengths, scalars, order, visit == access_order::snake};
  require(t.curve.check());
  t.num_access = t.curve.size();
  return t;
}

}  // namespace tilesim
