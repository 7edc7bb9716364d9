// tilesim/spec/distribution/space_filling_curve.hpp: the order in which a tile window visits Y indices.
//
// DEFINITION (CK's space_filling_curve). Over Y lengths L with scalars_per_access S (the vector width on one
// dim, 1 elsewhere), the access grid has lengths L / S. Access i is decomposed row-major over that grid in the
// dimension order `order` (a permutation; CK always uses 0 .. n-1). In snake order, dim k >= 1 runs backwards
// whenever the row-major number of the digits before it is odd. The Y index is the grid index times S.
//
// WORKED EXAMPLE. lengths [2,3,4], vector 2 on the last dim (grid [2,3,2]):
//   linear: 000 002 010 012 020 022 100 102 110 112 120 122
//   snake:  000 002 012 010 020 022 122 120 110 112 102 100
// INVARIANT: in snake order consecutive accesses differ by one step (+-S) in exactly one dimension.
#pragma once

#include "spec/multi_index.hpp"
#include "spec/rules.hpp"
#include "spec/transform.hpp"

namespace tilesim {

template <int N>
struct space_filling_curve {
  multi_index<N> lengths;
  multi_index<N> scalars_per_access;
  multi_index<N> order;
  bool snake;

  // Accesses in the whole curve: Π lengths / scalars.
  TILESIM_HOST_DEVICE constexpr index_t size() const { return product(lengths) / product(scalars_per_access); }

  // The Y index of access i; snake [2,3,4] / vector 2: index(2) == {0, 1, 2}.
  TILESIM_HOST_DEVICE constexpr multi_index<N> index(index_t i) const {
    const multi_index<N> g = grid();
    multi_index<N> digit{};
    for (int k = N - 1; k >= 0; --k) {
      if (g[k] == 1) continue;  // digit 0; skips the division (a window's curve has max_y dims, most of length 1)
      digit[k] = i % g[k];
      i /= g[k];
    }
    return y_of_digits(g, digit);
  }
  // Accesses along each curve dim, outermost first: lengths[order[k]] / scalars_per_access[order[k]].
  TILESIM_HOST_DEVICE constexpr multi_index<N> grid() const {
    multi_index<N> g{};
    for (int k = 0; k < N; ++k) g[k] = lengths[order[k]] / scalars_per_access[order[k]];
    return g;
  }
  // The Y index of the access whose row-major digits over grid() are `digit` (index(i) for i's digits).
  TILESIM_HOST_DEVICE constexpr multi_index<N> y_of_digits(const multi_index<N>& g, const multi_index<N>& digit) const {
    multi_index<N> y{};
    index_t before = 0;  // row-major number of the digits before dim k
    for (int k = 0; k < N; ++k) {
      const index_t d = (snake && before % 2 == 1) ? g[k] - 1 - digit[k] : digit[k];
      y[order[k]] = d * scalars_per_access[order[k]];
      before = before * g[k] + digit[k];
    }
    return y;
  }
  // Steps digits to the next access's (an odometer over grid(): index(i + 1) from i's digits, no division).
  TILESIM_HOST_DEVICE static constexpr void next_digits(const multi_index<N>& g, multi_index<N>& digit) {
    for (int k = N - 1; k >= 0; --k) {
      if (++digit[k] < g[k]) return;
      digit[k] = 0;
    }
  }
  // index(i + 1) - index(i).
  TILESIM_HOST_DEVICE constexpr multi_index<N> forward_step(index_t i) const { return index(i + 1) - index(i); }

  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = check_lengths("space_filling_curve", lengths)) return v;
    if (violation v = check_lengths("space_filling_curve", scalars_per_access)) return v;
    for (int k = 0; k < N; ++k) {
      int named = 0;
      for (int m = 0; m < N; ++m) named += order[m] == k;
      if (named != 1)
        return broken_unless(false, rule::sfc_order_not_permutation, "space_filling_curve", {"dim", k},
                             {"times named", named});
    }
    for (int k = 0; k < N; ++k)
      if (lengths[k] % scalars_per_access[k] != 0)
        return broken_unless(false, rule::sfc_vector_not_dividing, "space_filling_curve", {"dim", k},
                             {"length", lengths[k]}, {"scalars", scalars_per_access[k]});
    return {};
  }
};

// make_space_filling_curve({2, 3, 4}, {1, 1, 2}, true): CK's snake curve in declaration order;
// pass `order` (outermost dim first, e.g. {2, 0, 1}) to visit the dims in another order.
template <int N>
TILESIM_HOST_DEVICE constexpr space_filling_curve<N> make_space_filling_curve(const multi_index<N>& lengths,
                                                                             const multi_index<N>& scalars_per_access,
                                                                             bool snake,
                                                                             const multi_index<N>& order = iota<N>()) {
  space_filling_curve<N> c{lengths, scalars_per_access, order, snake};
  require(c.check());
  return c;
}

}  // namespace tilesim
