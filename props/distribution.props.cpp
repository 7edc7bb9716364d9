// Laws of distribution/: encoding.hpp (ownership, replicas, d <-> y), sweep.hpp, space_filling_curve.hpp and
// encoding_algebra.hpp (embed, reduce), over random valid encodings (encoding_generators.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "props/encoding_generators.hpp"
#include "props/generators.hpp"
#include "spec/distribution/encoding_algebra.hpp"
#include "spec/distribution/space_filling_curve.hpp"
#include "spec/distribution/sweep.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {
using enc = tile_distribution_encoding;
using ps = multi_index<enc::max_p>;
using ys = multi_index<enc::max_y>;
using xs = multi_index<enc::max_x>;

// A uniform int in [lo, hi) at every size (gen::inRange favours lo at small sizes), shrinking toward lo.
rc::Gen<int> uniform(int lo, int hi) { return gen::resize(100, gen::inRange(lo, hi)); }

// Row-major number of x over the X lengths; -1 when x lies outside the tile.
index_t tile_offset(const enc& e, const xs& x) {
  index_t flat = 0;
  for (int i = 0; i < e.n_x; ++i) {
    if (x[i] < 0 || x[i] >= e.x_length(i)) return -1;
    flat = flat * e.x_length(i) + x[i];
  }
  return flat;
}

index_t tile_size(const enc& e) {
  index_t n = 1;
  for (int i = 0; i < e.n_x; ++i) n *= e.x_length(i);
  return n;
}

index_t r_product(const enc& e) {
  index_t n = 1;
  for (int k = 0; k < e.n_r; ++k) n *= e.r[k];
  return n;
}

// "thread (1, 3), y (0, 2) -> x (5, 6)" for failure messages.
std::string at(const enc& e, const ps& p, const ys& y) {
  return "thread " + show_index(p, e.n_p) + ", y " + show_index(y, e.n_y) + " -> x " + show_index(e.x_of(p, y), e.n_x);
}

// Every in-range thread and every register: f(p, d).
template <class F>
void for_each_owner(const enc& e, F&& f) {
  for (index_t t = 0; t < thread_count(e); ++t)
    for (index_t d = 0; d < e.elements_per_thread(); ++d) f(thread_at(e, t), d);
}

// A space-filling curve's parameters, shown as the make_space_filling_curve call.
template <int N>
struct sfc_case {
  multi_index<N> lengths, scalars, order;
  bool snake;
  space_filling_curve<N> curve() const { return make_space_filling_curve<N>(lengths, scalars, snake, order); }
};
template <int N>
void showValue(const sfc_case<N>& c, std::ostream& os) {
  os << "make_space_filling_curve<" << N << ">(" << show_index(c.lengths, N) << ", " << show_index(c.scalars, N)
     << ", " << (c.snake ? "true" : "false") << ", " << show_index(c.order, N) << ")";
}

template <int N>
rc::Gen<sfc_case<N>> gen_sfc_case() {
  return gen::exec([] {
    sfc_case<N> c{};
    for (int k = 0; k < N; ++k) {
      c.lengths[k] = *gen::resize(100, gen::inRange<index_t>(1, 7));
      c.scalars[k] = 1;
      c.order[k] = k;
    }
    const int v = *uniform(0, N);  // the vector dim: scalars = a divisor of its length
    std::vector<index_t> divisors;
    for (index_t s = 1; s <= c.lengths[v]; ++s)
      if (c.lengths[v] % s == 0) divisors.push_back(s);
    c.scalars[v] = *gen_pick(divisors);
    for (int k = N - 1; k > 0; --k) std::swap(c.order[k], c.order[k - *uniform(0, k + 1)]);
    c.snake = (*uniform(0, 2) == 1);
    return c;
  });
}

// Snake curves: consecutive accesses differ by +-scalars_per_access in exactly one dim.
template <int N>
void snake_steps_are_unit() {
  sfc_case<N> c = *gen_sfc_case<N>();
  c.snake = true;
  const space_filling_curve<N> s = c.curve();
  for (index_t i = 0; i + 1 < s.size(); ++i) {
    const multi_index<N> step = s.forward_step(i);
    int moved = 0;
    for (int k = 0; k < N; ++k)
      if (step[k] != 0) {
        ++moved;
        if (step[k] != c.scalars[k] && step[k] != -c.scalars[k])
          RC_FAIL("access " + std::to_string(i) + " steps " + show_index(step, N) + ": not +-scalars in dim " +
                  std::to_string(k));
      }
    if (moved != 1) RC_FAIL("access " + std::to_string(i) + " steps " + show_index(step, N) + " in " + std::to_string(moved) + " dims");
  }
}

// Linear and snake curves visit every point of the access grid once (and linear ones in row-major order).
template <int N>
void curve_visits_grid_once() {
  const sfc_case<N> c = *gen_sfc_case<N>();
  const space_filling_curve<N> s = c.curve();
  index_t grid_size = 1;
  for (int k = 0; k < N; ++k) grid_size *= c.lengths[k] / c.scalars[k];
  RC_ASSERT(s.size() == grid_size);
  std::set<std::vector<index_t>> seen;
  for (index_t i = 0; i < s.size(); ++i) {
    const multi_index<N> y = s.index(i);
    index_t row_major = 0;  // access number of y's grid point, row-major in the dim order
    for (int k = 0; k < N; ++k) {
      const int dim = static_cast<int>(c.order[k]);
      if (y[dim] < 0 || y[dim] >= c.lengths[dim] || y[dim] % c.scalars[dim] != 0)
        RC_FAIL("access " + std::to_string(i) + " is " + show_index(y, N) + ": off the access grid");
      row_major = row_major * (c.lengths[dim] / c.scalars[dim]) + y[dim] / c.scalars[dim];
    }
    if (!c.snake && row_major != i)
      RC_FAIL("linear access " + std::to_string(i) + " is " + show_index(y, N) + ", row-major number " + std::to_string(row_major));
    if (!seen.insert(std::vector<index_t>(y.v, y.v + N)).second)
      RC_FAIL("access " + std::to_string(i) + " revisits " + show_index(y, N));
  }
}

// The spec_error rule that f throws, or rule::none.
template <class F>
rule rule_thrown(F&& f) {
  try {
    f();
  } catch (const spec_error& e) {
    return e.broken;
  }
  return rule::none;
}
}  // namespace

TEST_SUITE("distribution") {
  TEST_CASE("without R, every tile element is owned by exactly one in-range (P, Y)") {
    const auto law = [] {
      encoding_options no_r;
      no_r.r = r_components::none;
      const enc e = *gen_encoding(no_r);
      std::vector<int> owners(static_cast<std::size_t>(tile_size(e)), 0);
      for_each_owner(e, [&](const ps& p, index_t d) {
        const index_t o = tile_offset(e, e.x_of(p, e.y_of(d)));
        if (o < 0) RC_FAIL(at(e, p, e.y_of(d)) + ": outside the tile");
        if (++owners[static_cast<std::size_t>(o)] > 1) RC_FAIL(at(e, p, e.y_of(d)) + ": owned twice");
      });
      RC_ASSERT(std::count(owners.begin(), owners.end(), 1) == static_cast<std::ptrdiff_t>(owners.size()));
    };
    CHECK(rc::check("without R, x_of maps the in-range (P, Y) one-to-one onto the tile", law));
  }

  TEST_CASE("with R, threads that differ only in R hold the same X for every y, and r_of tells them apart") {
    const auto law = [] {
      encoding_options with_r;
      with_r.r = r_components::some;
      const enc e = *gen_encoding(with_r);
      const ps p = thread_at(e, *gen_index_below(thread_count(e)));
      component_values other = components_of(e, p);
      for (int k = 0; k < e.n_r; ++k) other.v[0][k] = *gen_index_below(e.r[k]);
      const ps q = thread_of(e, other);
      RC_TAG(q == p ? "same thread" : "another replica");
      for (index_t d = 0; d < e.elements_per_thread(); ++d)
        if (!(e.x_of(q, e.y_of(d)) == e.x_of(p, e.y_of(d))))
          RC_FAIL(at(e, p, e.y_of(d)) + " but " + at(e, q, e.y_of(d)));
      for (int k = 0; k < e.n_r; ++k) RC_ASSERT(e.r_of(q)[k] == other.v[0][k]);
      RC_ASSERT((e.r_of(q) == e.r_of(p)) == (q == p));
      // Counting: each tile element is then owned by exactly Π R in-range (P, Y).
      std::vector<index_t> owners(static_cast<std::size_t>(tile_size(e)), 0);
      for_each_owner(e, [&](const ps& t, index_t d) {
        const index_t o = tile_offset(e, e.x_of(t, e.y_of(d)));
        if (o < 0) RC_FAIL(at(e, t, e.y_of(d)) + ": outside the tile");
        ++owners[static_cast<std::size_t>(o)];
      });
      RC_ASSERT(std::count(owners.begin(), owners.end(), r_product(e)) == static_cast<std::ptrdiff_t>(owners.size()));
    };
    CHECK(rc::check("changing only a thread's R components keeps x_of(p, y) for every y and changes r_of; every "
                    "element has Π R owners",
                    law));
  }

  TEST_CASE("d_of and y_of are inverse") {
    const auto law = [] {
      const enc e = *gen_encoding();
      for (index_t d = 0; d < e.elements_per_thread(); ++d) {
        const ys y = e.y_of(d);
        for (int j = 0; j < e.n_y; ++j) RC_ASSERT(y[j] >= 0 && y[j] < e.y_length(j));
        RC_ASSERT(e.d_of(y) == d);
      }
      ys y{};
      for (int j = 0; j < e.n_y; ++j) y[j] = *gen_index_below(e.y_length(j));
      RC_ASSERT(e.y_of(e.d_of(y)) == y);
    };
    CHECK(rc::check("d_of(y_of(d)) == d on [0, elements per thread) with y_of(d) in the Y box; y_of(d_of(y)) == y", law));
  }

  TEST_CASE("sweep visits each d exactly once, in lexicographic order of the X0, X1, ... span indices") {
    const auto law = [] {
      const enc e = *gen_encoding();
      // The span key of y, straight from the definition: for each X dim, for each of its H components that a Y
      // names (minor order), that Y's value.
      const auto key = [&](const ys& y) {
        std::vector<index_t> k;
        for (int i = 0; i < e.n_x; ++i)
          for (int minor = 0; minor < e.n_h[i]; ++minor)
            for (int j = 0; j < e.n_y; ++j)
              if (e.y[j].major == i + 1 && e.y[j].minor == minor) k.push_back(y[j]);
        return k;
      };
      std::vector<int> seen(static_cast<std::size_t>(e.elements_per_thread()), 0);
      std::vector<index_t> previous;
      index_t visits = 0;
      sweep(e, [&](const ys& y) {
        const index_t d = e.d_of(y);
        if (d < 0 || d >= e.elements_per_thread() || seen[static_cast<std::size_t>(d)]++ != 0)
          RC_FAIL("visit " + std::to_string(visits) + ": y " + show_index(y, e.n_y) + " (d = " + std::to_string(d) +
                  ") out of range or seen before");
        const std::vector<index_t> k = key(y);
        if (visits > 0 && !(previous < k))
          RC_FAIL("visit " + std::to_string(visits) + ": y " + show_index(y, e.n_y) + " does not follow the previous in span order");
        previous = k;
        ++visits;
      });
      RC_ASSERT(visits == e.elements_per_thread());
    };
    CHECK(rc::check("sweep(e, f) calls f once per register, X0's span outermost, each span row-major", law));
  }

  TEST_CASE("snake space-filling curves step by +-scalars_per_access in exactly one dim") {
    CHECK(rc::check("snake: index(i+1) - index(i) is +-scalars_per_access in one dim, 0 in the others (random "
                    "lengths, vector dim and dim order)",
                    over_counts<snake_steps_are_unit<1>, snake_steps_are_unit<2>, snake_steps_are_unit<3>,
                                    snake_steps_are_unit<4>>));
  }

  TEST_CASE("snake and linear space-filling curves visit every access-grid point once") {
    CHECK(rc::check("index(0 .. size-1) is each grid point (multiples of scalars_per_access below the lengths) once; "
                    "linear curves are row-major in the dim order",
                    over_counts<curve_visits_grid_once<1>, curve_visits_grid_once<2>, curve_visits_grid_once<3>,
                                    curve_visits_grid_once<4>>));
  }

  TEST_CASE("embed: x = outer x * inner X length + inner x, R and d concatenated; the result passes check()") {
    const auto law = [] {
      const int n_x = *uniform(1, 4);
      encoding_options one_p;  // n_x X dims and one P dim each; at most 4 + 4 Ys, within the capacity of 8
      one_p.min_x = one_p.max_x = n_x;
      one_p.n_p = 1;
      one_p.max_h = std::min(n_x + 2, 4);
      const enc outer = *gen_encoding(one_p);
      one_p.max_h = std::min(n_x + 3, 4);
      const enc inner = *gen_encoding(one_p);
      const enc e = embed_encoding(outer, inner);
      RC_ASSERT(!e.check());
      RC_ASSERT(e.n_p == 2);
      RC_ASSERT(e.p_length(0) == outer.p_length(0));
      RC_ASSERT(e.p_length(1) == inner.p_length(0));
      // Every (outer thread, inner thread, outer d, inner d) when there are at most 2^14, else 2^12 drawn ones.
      const index_t radix[4] = {outer.p_length(0), inner.p_length(0), outer.elements_per_thread(),
                                inner.elements_per_thread()};
      const index_t total = radix[0] * radix[1] * radix[2] * radix[3];
      const bool exhaustive = total <= index_t{1} << 14;
      RC_CLASSIFY(!exhaustive, "sampled");
      std::mt19937_64 rng(*gen::resize(100, gen::arbitrary<std::uint32_t>()));
      for (index_t n = 0; n < (exhaustive ? total : index_t{1} << 12); ++n) {
        index_t t = exhaustive ? n : static_cast<index_t>(rng() % static_cast<std::uint64_t>(total));
        index_t digit[4];
        for (int k = 3; k >= 0; --k) {
          digit[k] = t % radix[k];
          t /= radix[k];
        }
        const ys yo = outer.y_of(digit[2]), yi = inner.y_of(digit[3]);
        ys y{};
        for (int j = 0; j < outer.n_y; ++j) y[j] = yo[j];
        for (int j = 0; j < inner.n_y; ++j) y[outer.n_y + j] = yi[j];
        const ps p{digit[0], digit[1]};
        const xs x = e.x_of(p, y), x_outer = outer.x_of({digit[0], 0}, yo), x_inner = inner.x_of({digit[1], 0}, yi);
        for (int i = 0; i < n_x; ++i)
          if (x[i] != x_outer[i] * inner.x_length(i) + x_inner[i])
            RC_FAIL(at(e, p, y) + "; outer " + show_index(x_outer, n_x) + ", inner " + show_index(x_inner, n_x));
        const auto r = e.r_of(p), r_outer = outer.r_of({digit[0], 0}), r_inner = inner.r_of({digit[1], 0});
        for (int k = 0; k < outer.n_r; ++k) RC_ASSERT(r[k] == r_outer[k]);
        for (int k = 0; k < inner.n_r; ++k) RC_ASSERT(r[outer.n_r + k] == r_inner[k]);
        RC_ASSERT(e.d_of(y) == digit[2] * inner.elements_per_thread() + digit[3]);
      }
    };
    CHECK(rc::check("embed_encoding(outer, inner) with one P dim each: P = (outer's, inner's), x_i = x_outer_i * "
                    "inner.x_length(i) + x_inner_i, r = r_outer ++ r_inner, d = d_outer * |inner Ys| + d_inner",
                    law));
  }

  TEST_CASE("embed rejects different X counts, then P counts that do not total 2") {
    const auto law = [] {
      encoding_options small;
      small.max_h = 4;
      const enc outer = *gen_encoding(small);
      const enc inner = *gen_encoding(small);
      const rule expected = outer.n_x != inner.n_x              ? rule::encoding_embed_mismatch
                            : outer.n_p + inner.n_p != 2 ? rule::encoding_embed_p_count
                                                                : rule::none;
      RC_TAG(expected == rule::none ? "embeds" : rule_text(expected));
      RC_ASSERT(rule_thrown([&] { (void)embed_encoding(outer, inner); }) == expected);
    };
    CHECK(rc::check("embed_encoding throws encoding_embed_mismatch for different X counts, else encoding_embed_p_count "
                    "unless both have one P dim",
                    law));
  }

  TEST_CASE("reduce: kept X dims do not move, reduced P components become R, and the result passes check()") {
    const auto law = [] {
      encoding_options two_x;  // 2-3 X dims, so that one can be kept
      two_x.min_x = 2;
      const enc in = *gen_encoding(two_x);
      // Mostly a proper subset of the X dims (X dim `keep` stays), now and then all of them.
      std::vector<int> dims;
      const bool reduce_all = *uniform(0, 8) == 0;
      const int keep = *uniform(0, in.n_x);
      for (int i = 0; i < in.n_x; ++i)
        if (reduce_all || (i != keep && (*uniform(0, 2) == 1))) dims.push_back(i);
      if (dims.empty()) dims.push_back(keep == 0 ? 1 : 0);
      if (*uniform(0, 8) == 0) dims.push_back(dims.front());  // naming a dim twice is naming it once
      std::shuffle(dims.begin(), dims.end(), std::mt19937(*uniform(0, 1000)));
      bool reduced[enc::max_x] = {};
      int n_reduced = 0;
      for (int i : dims) {
        n_reduced += reduced[i] ? 0 : 1;
        reduced[i] = true;
      }
      if (n_reduced == in.n_x) {
        RC_TAG("every X dim reduced");
        RC_ASSERT(rule_thrown([&] { (void)reduce_encoding(in, dims.data(), static_cast<int>(dims.size())); }) ==
                  rule::encoding_reduce_every_dim);
        return;
      }
      const enc out = reduce_encoding(in, dims.data(), static_cast<int>(dims.size()));
      RC_ASSERT(!out.check());
      RC_ASSERT(out.n_x == in.n_x - n_reduced);
      RC_ASSERT(out.n_p == in.n_p);
      for (int i = 0; i < in.n_p; ++i) RC_ASSERT(out.p_length(i) == in.p_length(i));
      // kept(y): the Ys of the kept X dims, in order; kept X dim k of out is X dim kept_x[k] of in.
      const auto kept = [&](const ys& y) {
        ys k{};
        int n = 0;
        for (int j = 0; j < in.n_y; ++j)
          if (!reduced[in.y[j].major - 1]) k[n++] = y[j];
        RC_ASSERT(n == out.n_y);
        return k;
      };
      std::vector<int> kept_x;
      for (int i = 0; i < in.n_x; ++i)
        if (!reduced[i]) kept_x.push_back(i);
      // The R that out gives thread p: in's R, then the reduced dims' P-named components (X order, minor order).
      const auto expected_r = [&](const ps& p) {
        const component_values c = components_of(in, p);
        std::vector<index_t> r(c.v[0], c.v[0] + in.n_r);
        for (int i = 0; i < in.n_x; ++i)
          for (int j = 0; reduced[i] && j < in.n_h[i]; ++j) {
            bool by_y = false;
            for (int k = 0; k < in.n_y; ++k) by_y |= in.y[k].major == i + 1 && in.y[k].minor == j;
            if (!by_y) r.push_back(c.v[i + 1][j]);
          }
        return r;
      };
      for (index_t t = 0; t < thread_count(in); ++t) {
        const ps p = thread_at(in, t);
        const std::vector<index_t> r = expected_r(p);
        RC_ASSERT(out.n_r == static_cast<int>(r.size()));
        for (int k = 0; k < out.n_r; ++k) RC_ASSERT(out.r_of(p)[k] == r[static_cast<std::size_t>(k)]);
        for (index_t d = 0; d < in.elements_per_thread(); ++d) {
          const ys y = in.y_of(d);
          const xs x_in = in.x_of(p, y), x_out = out.x_of(p, kept(y));
          for (int k = 0; k < out.n_x; ++k)
            if (x_out[k] != x_in[kept_x[static_cast<std::size_t>(k)]])
              RC_FAIL(at(in, p, y) + " in the input, but " + at(out, p, kept(y)) + " after the reduction");
        }
      }
      // Threads that differ only in the reduced dims' P components now differ only in R.
      const ps p = thread_at(in, *gen_index_below(thread_count(in)));
      component_values c = components_of(in, p);
      for (int p_dim = 0; p_dim < in.n_p; ++p_dim)
        for (int k = 0; k < in.p_size[p_dim]; ++k) {
          const rh comp = in.p[p_dim][k];
          if (comp.major >= 1 && reduced[comp.major - 1]) c.v[comp.major][comp.minor] = *gen_index_below(in.length_of(comp));
        }
      const ps q = thread_of(in, c);
      RC_TAG(q == p ? "same thread" : "a thread differing in reduced components");
      for (index_t d = 0; d < out.elements_per_thread(); ++d)
        if (!(out.x_of(q, out.y_of(d)) == out.x_of(p, out.y_of(d))))
          RC_FAIL(at(out, p, out.y_of(d)) + " but " + at(out, q, out.y_of(d)));
      RC_ASSERT((out.r_of(q) == out.r_of(p)) == (q == p));
    };
    CHECK(rc::check("reduce_encoding(in, xs): x_of(out, p, kept(y)) == kept(x_of(in, p, y)); r_of(out, p) == r_of(in, p) "
                    "++ the reduced dims' P-named components; threads differing there are replicas; reducing every "
                    "X dim throws",
                    law));
  }
}
