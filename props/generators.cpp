// tilesim/props/generators.cpp: lengths, indices, steps, and the mix of random and compile-time descriptors.
#include "props/generators.hpp"

namespace tilesim::props {

namespace gen = rc::gen;

namespace {
rc::Gen<index_t> power_of_two(int lo, int hi) {
  return gen::map(gen::inRange(lo, hi + 1), [](int k) { return index_t{1} << k; });
}
rc::Gen<index_t> one_plus(rc::Gen<index_t> g) {
  return gen::map(std::move(g), [](index_t x) { return x + 1; });
}
}  // namespace

rc::Gen<index_t> gen_length() {
  return gen::weightedOneOf<index_t>({{5, one_plus(gen_index_below(16))},
                                      {3, power_of_two(0, 7)},
                                      {2, one_plus(gen_index_below(256))},
                                      {1, one_plus(gen_index_below(4096))},
                                      {1, power_of_two(8, 16)}});
}

rc::Gen<index_t> gen_index_below(index_t n) {
  return gen::weightedOneOf<index_t>(
      {{6, gen::resize(100, gen::inRange<index_t>(0, n))}, {1, gen::just<index_t>(0)}, {1, gen::just<index_t>(n - 1)}});
}

rc::Gen<point> gen_point_in(const point& lengths) {
  return gen::exec([lengths] {
    point p{lengths.size, {}};
    for (int i = 0; i < p.size; ++i) p[i] = *gen_index_below(lengths[i]);
    return p;
  });
}

rc::Gen<point> gen_point_around(const point& lengths) {
  return gen::exec([lengths] {
    point p{lengths.size, {}};
    for (int i = 0; i < p.size; ++i) p[i] = *gen_index_below(3 * lengths[i]) - lengths[i];
    return p;
  });
}

rc::Gen<point> gen_step(const point& lengths) {
  return gen::exec([lengths] {
    point p{lengths.size, {}};
    for (int i = 0; i < p.size; ++i)
      p[i] = *gen::weightedOneOf<index_t>(
          {{1, gen::just<index_t>(0)},
           {3, gen::map(gen_index_below(2 * lengths[i] + 1), [l = lengths[i]](index_t x) { return x - l; })}});
    return p;
  });
}

rc::Gen<any_descriptor> gen_random_chain(family f) {
  return gen::exec([f] {
    if (f == family::vectors && *gen_pick<int>({0, 1}) == 1) return grow_misaligned_chain(f);
    switch (*gen_pick<int>({0, 1, 2})) {
      case 0:
        return grow_strided_chain(f);
      case 1:
        return grow_strided_chain_more(f);
      default:
        return grow_packed_chain(f);
    }
  });
}

rc::Gen<any_descriptor> gen_descriptor(family f) {
  return gen::weightedOneOf<any_descriptor>({{5, gen_random_chain(f)}, {1, gen_static_descriptor(f)}});
}

index_t volume(const point& lengths) {
  index_t n = 1;
  for (int i = 0; i < lengths.size; ++i) n *= lengths[i];
  return n;
}

std::vector<point> points_to_check(const point& lengths, index_t limit) {
  if (volume(lengths) > limit)
    return *gen::resize(64, gen::nonEmpty(gen::container<std::vector<point>>(gen_point_in(lengths))));
  std::vector<point> all;
  point p{lengths.size, {}};
  while (true) {
    all.push_back(p);
    int i = p.size - 1;
    while (i >= 0 && ++p[i] == lengths[i]) p[i--] = 0;
    if (i < 0) return all;
  }
}

}  // namespace tilesim::props
