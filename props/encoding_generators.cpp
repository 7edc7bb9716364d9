// tilesim/props/encoding_generators.cpp: random valid encodings, and threads split into component values.
#include "props/encoding_generators.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace tilesim {
void showValue(const tile_distribution_encoding& e, std::ostream& os) { os << e.cpp(); }
}  // namespace tilesim

namespace tilesim::props {

namespace gen = rc::gen;
using enc = tile_distribution_encoding;

namespace {
// A uniform draw from [lo, hi] at every size, shrinking toward lo.
int draw(int lo, int hi) { return *gen::resize(100, gen::inRange(lo, hi + 1)); }

// Shuffles v with drawn swaps (Fisher-Yates), so the order shrinks toward the given one.
template <class T>
void shuffle(std::vector<T>& v) {
  for (int k = static_cast<int>(v.size()) - 1; k > 0; --k) std::swap(v[k], v[k - draw(0, k)]);
}
}  // namespace

rc::Gen<enc> gen_encoding(encoding_options o) {
  return gen::exec([o] {
    enc e{};
    e.n_x = draw(o.min_x, o.max_x);
    int budget = o.max_h - e.n_x;  // components beyond the first of each X dim
    for (int i = 0; i < e.n_x; ++i) {
      e.n_h[i] = 1 + draw(0, std::min(2, budget));
      budget -= e.n_h[i] - 1;
      for (int j = 0; j < e.n_h[i]; ++j) e.h[i][j] = draw(1, 4);
    }
    switch (o.r) {
      case r_components::none:
        break;
      case r_components::maybe:
        e.n_r = draw(0, 2);
        for (int k = 0; k < e.n_r; ++k) e.r[k] = draw(1, 4);
        break;
      case r_components::some:
        e.n_r = draw(1, 2);
        for (int k = 0; k < e.n_r; ++k) e.r[k] = draw(2, 4);
        break;
    }
    e.n_p = o.n_p != 0 ? o.n_p : draw(1, 2);
    int h_count = 0;
    for (int i = 0; i < e.n_x; ++i) h_count += e.n_h[i];
    if (o.r == r_components::none) e.n_p = std::min(e.n_p, h_count);  // each P dim needs a component

    // Owners: each H component goes to a P dim or to the Ys (owner n_p); each R component to a P dim.
    std::vector<rh> named_by[enc::max_p + 1];
    for (int k = 0; k < e.n_r; ++k) named_by[draw(0, e.n_p - 1)].push_back(rh{0, k});
    for (int i = 0; i < e.n_x; ++i)
      for (int j = 0; j < e.n_h[i]; ++j) named_by[draw(0, e.n_p)].push_back(rh{i + 1, j});
    // A P dim needs a component: take one from the Ys, else from the other P dim, else give it a new R.
    for (int p = 0; p < e.n_p; ++p) {
      if (!named_by[p].empty()) continue;
      std::vector<rh>* from = !named_by[e.n_p].empty() ? &named_by[e.n_p] : nullptr;
      for (int q = 0; q < e.n_p && !from; ++q)
        if (named_by[q].size() >= 2) from = &named_by[q];
      if (from) {
        named_by[p].push_back(from->back());
        from->pop_back();
      } else {
        e.r[e.n_r] = draw(1, 4);
        named_by[p].push_back(rh{0, e.n_r});
        ++e.n_r;
      }
    }
    for (int p = 0; p < e.n_p; ++p) {
      shuffle(named_by[p]);
      e.p_size[p] = static_cast<int>(named_by[p].size());
      std::copy(named_by[p].begin(), named_by[p].end(), e.p[p]);
    }
    shuffle(named_by[e.n_p]);
    e.n_y = static_cast<int>(named_by[e.n_p].size());
    std::copy(named_by[e.n_p].begin(), named_by[e.n_p].end(), e.y);
    require(e.check());  // a generator bug shows up as a spec_error naming the broken rule
    return e;
  });
}

component_values components_of(const enc& e, const multi_index<enc::max_p>& p) {
  component_values c{};
  for (int i = 0; i < e.n_p; ++i) {
    index_t rest = p[i];
    for (int k = e.p_size[i] - 1; k > 0; --k) {
      const index_t len = e.length_of(e.p[i][k]);
      c.v[e.p[i][k].major][e.p[i][k].minor] = rest % len;
      rest /= len;
    }
    c.v[e.p[i][0].major][e.p[i][0].minor] = rest;
  }
  return c;
}

multi_index<enc::max_p> thread_of(const enc& e, const component_values& c) {
  multi_index<enc::max_p> p{};
  for (int i = 0; i < e.n_p; ++i)
    for (int k = 0; k < e.p_size[i]; ++k) p[i] = p[i] * e.length_of(e.p[i][k]) + c.v[e.p[i][k].major][e.p[i][k].minor];
  return p;
}

index_t thread_count(const enc& e) {
  index_t n = 1;
  for (int i = 0; i < e.n_p; ++i) n *= e.p_length(i);
  return n;
}

multi_index<enc::max_p> thread_at(const enc& e, index_t t) {
  multi_index<enc::max_p> p{};
  for (int i = e.n_p - 1; i >= 0; --i) {
    p[i] = t % e.p_length(i);
    t /= e.p_length(i);
  }
  return p;
}

}  // namespace tilesim::props
