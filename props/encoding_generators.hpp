// tilesim/props/encoding_generators.hpp: RapidCheck generators of valid tile distribution encodings.
//
// A drawn encoding has 1-3 X dims, each split into 1-3 H components of length 1-4 (at most 6 H components in
// all, so a tile has at most 4^6 elements), optionally R components, and 1 or 2 P dims. Every H component is
// named by exactly one P or Y and every R component by a P (a P dim left with none takes one from the Ys, or
// from the other P dim, or else gets a new R component); the order of the components inside each P and the
// order of the Ys are random. Failing cases print the encoding as the make_encoding(...) call that
// rebuilds it, ready to paste into a regression test.
#pragma once

#include <rapidcheck.h>

#include <ostream>
#include <string>

#include "spec/distribution/encoding.hpp"

namespace tilesim {
// RapidCheck shows an encoding as e.cpp(): "make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, ...)".
void showValue(const tile_distribution_encoding& e, std::ostream& os);
}  // namespace tilesim

namespace tilesim::props {

enum class r_components {
  none,   // no R
  maybe,  // 0-2 R components of length 1-4
  some,   // 1-2 R components of length 2-4 (so replicas exist)
};

struct encoding_options {
  int min_x = 1, max_x = 3;  // X dims
  int max_h = 6;             // H components over all X dims (each X dim has 1-3)
  r_components r = r_components::maybe;
  int n_p = 0;  // P dims: 1, 2, or 0 for either
};

// A random valid encoding (passes check()); shrinks toward fewer, shorter components.
rc::Gen<tile_distribution_encoding> gen_encoding(encoding_options options = {});

// The value a thread gives each R/H component, indexed [major][minor] as in RH space.
struct component_values {
  index_t v[1 + tile_distribution_encoding::max_x][tile_distribution_encoding::max_components] = {};
};

// Splits thread p over the components its P dims name (the last named is the least significant digit).
// Docs 4x4, p = (1, 0): v[1][0] == 1, v[2][0] == 0.
component_values components_of(const tile_distribution_encoding& e, const multi_index<tile_distribution_encoding::max_p>& p);
// The thread whose P dims merge the given component values: the inverse of components_of for in-range values.
multi_index<tile_distribution_encoding::max_p> thread_of(const tile_distribution_encoding& e, const component_values& c);

// Threads of the launch an encoding describes: Π P lengths (P0 = warp, P1 = lane, or P0 = lane).
index_t thread_count(const tile_distribution_encoding& e);
// Thread number t (0 <= t < thread_count) as P indices, P0 the most significant.
multi_index<tile_distribution_encoding::max_p> thread_at(const tile_distribution_encoding& e, index_t t);

// "(1, 3)": an index's first n components, for failure messages.
template <int N>
std::string show_index(const multi_index<N>& a, int n) {
  std::string s = "(";
  for (int k = 0; k < n; ++k) s += (k ? ", " : "") + std::to_string(a[k]);
  return s + ")";
}

}  // namespace tilesim::props
