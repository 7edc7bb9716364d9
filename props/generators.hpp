// tilesim/props/generators.hpp: RapidCheck generators of descriptors, top indices and steps.
//
// Descriptors come in two forms: random chains whose lengths and transforms are drawn at run time
// (chain_layers.hpp: a base tensor, then random layers from a few slot lists) and a fixed set of compile-time
// descriptors (static_descriptors.cpp: ck_lds_xor_descriptor<...>, fixed<xor_t{...}>, constexpr layouts).
// A family restricts both forms to the descriptors a law is about.
#pragma once

#include <rapidcheck.h>

#include <vector>

#include "props/any_descriptor.hpp"

namespace tilesim::props {

enum class family {
  bijective,  // the top box maps one-to-one onto [0, element size)
  injective,  // invertible; distinct in-range top indices map to distinct offsets
  vectors,    // stated vector guarantees on the base, then only transforms that keep or cut a guarantee
  any,        // every transform kind, also many-to-one ones (modulo, freeze, insert, replicate)
};

// A uniform pick from `values` that shrinks toward values[0] (gen::element and gen::elementOf never shrink).
template <class T>
rc::Gen<T> gen_pick(std::vector<T> values) {
  const std::size_t n = values.size();
  return rc::gen::map(rc::gen::resize(100, rc::gen::inRange<std::size_t>(0, n)),
                      [values = std::move(values)](std::size_t i) { return values[i]; });
}

// One law instantiated for 1..4 dimensions, run for a count drawn uniformly (shrinking toward 1):
// over_counts<law<1>, law<2>, law<3>, law<4>>() inside an rc::check.
template <void (*L1)(), void (*L2)(), void (*L3)(), void (*L4)()>
void over_counts() {
  switch (*gen_pick<int>({1, 2, 3, 4})) {
    case 1:
      return L1();
    case 2:
      return L2();
    case 3:
      return L3();
    default:
      return L4();
  }
}

// A length for one dimension: small, powers of two, medium, and now and then large.
rc::Gen<index_t> gen_length();
// 0 .. n-1, uniform at every size, shrinking toward 0.
rc::Gen<index_t> gen_index_below(index_t n);
// A top index inside the box [0, lengths).
rc::Gen<point> gen_point_in(const point& lengths);
// A top index in [-L, 2L) per dim: inside, beside and below the box.
rc::Gen<point> gen_point_around(const point& lengths);
// A top step: each component 0 or in [-L, L].
rc::Gen<point> gen_step(const point& lengths);

// One random chain of each file's shapes (chains_*.cpp); call only inside a generator or property.
any_descriptor grow_strided_chain(family f);
any_descriptor grow_strided_chain_more(family f);
any_descriptor grow_packed_chain(family f);
any_descriptor grow_misaligned_chain(family f);
rc::Gen<any_descriptor> gen_random_chain(family f);
rc::Gen<any_descriptor> gen_static_descriptor(family f);
// Mostly random chains, sometimes a compile-time descriptor.
rc::Gen<any_descriptor> gen_descriptor(family f);

// Every point of a box, row-major, when it has at most `limit` points; else a drawn sample of them.
std::vector<point> points_to_check(const point& lengths, index_t limit = index_t{1} << 16);

// Π of the components.
index_t volume(const point& lengths);

}  // namespace tilesim::props
