// Laws of the CK-conformance cases (docs/programming-guide.md, "Where CK Tile misbehaves"): one-sided pads under moves, embeds
// with negative coefficients against a brute-force reference, and raked patterns whose vector CK 2025 clamps.
// Counterexamples print the C++ that rebuilds the case.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "props/encoding_generators.hpp"
#include "props/generators.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace tilesim {
// RapidCheck shows a pattern as the aggregate that rebuilds it.
void showValue(const raked_pattern& p, std::ostream& os) {
  const char* kind = p.kind == raking::thread ? "thread" : p.kind == raking::warp ? "warp" : "block";
  os << "raked_pattern{raking::" << kind << ", " << p.threads << ", " << p.warp_size << ", " << p.rows << ", "
     << p.cols << ", " << p.vector << "}";
}
}  // namespace tilesim

namespace {

std::string num(index_t v) { return std::to_string(v); }

// A uniform value in [lo, hi] at every size, shrinking toward lo.
rc::Gen<index_t> between(index_t lo, index_t hi) { return gen::resize(100, gen::inRange<index_t>(lo, hi + 1)); }

// ---- one-sided pads ----

// A packed l0 x l1 tensor, one dim left-padded and the other right-padded (which one: `right_first`),
// perhaps merged into one top dim. The oracle knows only these numbers.
struct one_sided_case {
  index_t l[2], pad[2];
  bool right_first;  // dim 0 right_pad, dim 1 left_pad (else the other way round)
  bool merged;       // the two padded dims merged into one top dim

  bool right(int k) const { return right_first == (k == 0); }
  index_t upper_length(int k) const { return l[k] + pad[k]; }
  // The padded dims' upper values of a top index.
  std::vector<index_t> padded(const point& top) const {
    if (!merged) return {top[0], top[1]};
    return {floor_div(top[0], upper_length(1)), floor_mod(top[0], upper_length(1))};
  }
  bool valid(const point& top) const {  // CK: right_pad checks u < L, left_pad u >= lp
    const std::vector<index_t> u = padded(top);
    for (int k : {0, 1})
      if (right(k) ? u[k] >= l[k] : u[k] < pad[k]) return false;
    return true;
  }
  bool beyond(const point& top) const {  // valid by CK's one check, outside on the other side
    const std::vector<index_t> u = padded(top);
    for (int k : {0, 1})
      if (right(k) ? u[k] < 0 : u[k] >= pad[k] + l[k]) return true;
    return false;
  }
  std::string cpp() const {
    auto p = [&](int k) {
      return right(k) ? "make_right_pad(" + num(l[k]) + ", " + num(pad[k]) + ")"
                      : "make_left_pad(" + num(l[k]) + ", " + num(pad[k]) + ")";
    };
    std::string s = "auto d = transform_descriptor(make_naive_descriptor_packed<2>({" + num(l[0]) + ", " + num(l[1]) +
                    "}), step(" + p(0) + ", {0}, {0}), step(" + p(1) + ", {1}, {1}));";
    if (merged)
      s += "\nauto m = transform_descriptor(d, step(make_merge({" + num(upper_length(0)) + ", " + num(upper_length(1)) +
           "}), {0, 1}, {0}));";
    return s;
  }
};
void showValue(const one_sided_case& c, std::ostream& os) { os << "\n" << c.cpp(); }

rc::Gen<one_sided_case> gen_one_sided_case() {
  return gen::exec([] {
    one_sided_case c{};
    for (int k : {0, 1}) {
      c.l[k] = *between(1, 12);
      c.pad[k] = *between(0, 5);
    }
    c.right_first = *gen_pick<int>({1, 0}) == 1;
    c.merged = *gen_pick<int>({0, 1}) == 1;
    return c;
  });
}

template <class P0, class P1>
auto one_sided_descriptor(const one_sided_case& c, const P0& p0, const P1& p1) {
  return transform_descriptor(make_naive_descriptor_packed<2>({c.l[0], c.l[1]}), step(p0, {0}, {0}), step(p1, {1}, {1}));
}

// move == make through the walk, and validity and the unchecked side as the oracle says, at every point.
template <class D>
void check_one_sided(const one_sided_case& c, const D& d) {
  const auto lengths = to_point(d.lengths());
  const point start = *gen::weightedOneOf<point>({{1, gen_point_in(lengths)}, {1, gen_point_around(lengths)}});
  const auto steps = *gen::resize(5, gen::nonEmpty(gen::container<std::vector<point>>(gen_step(lengths))));
  auto moved = d.make_coordinate(to_multi_index<D::n_top>(start));
  point at = start;
  for (const point& s : steps) {
    d.move(moved, to_multi_index<D::n_top>(s));
    at = at + s;
    const auto fresh = d.make_coordinate(to_multi_index<D::n_top>(at));
    if (!(moved.hidden == fresh.hidden)) RC_FAIL("moved to " + at.cpp() + ": hidden differs from make");
    if (d.is_valid(moved) != c.valid(at)) RC_FAIL("is_valid at " + at.cpp() + " is not CK's one-sided check");
    if (d.beyond_unchecked_pad_side(moved) != c.beyond(at)) RC_FAIL("beyond_unchecked_pad_side wrong at " + at.cpp());
  }
  RC_CLASSIFY(c.beyond(at), "ends past an unchecked side");
}

void one_sided_law() {
  const one_sided_case c = *gen_one_sided_case();
  auto run = [&](const auto& p0, const auto& p1) {
    const auto d = one_sided_descriptor(c, p0, p1);
    if (c.merged)
      check_one_sided(c, transform_descriptor(d, step(make_merge({c.upper_length(0), c.upper_length(1)}), {0, 1}, {0})));
    else
      check_one_sided(c, d);
  };
  if (c.right_first)
    run(make_right_pad(c.l[0], c.pad[0]), make_left_pad(c.l[1], c.pad[1]));
  else
    run(make_left_pad(c.l[0], c.pad[0]), make_right_pad(c.l[1], c.pad[1]));
}

// ---- embeds with negative coefficients ----

// embed((a, b), (c0, c1)) over a 1-D buffer, dim 0 then right-padded by r, dim 1 left-padded by lp.
struct signed_embed_case {
  index_t a, b, c0, c1, r, lp;
  std::string cpp() const {
    return "auto e = transform_descriptor(make_naive_descriptor_packed<1>({1}), step(make_embed({" + num(a) + ", " +
           num(b) + "}, {" + num(c0) + ", " + num(c1) + "}), {0}, {0, 1}));\nauto d = transform_descriptor(e, step("
           "make_right_pad(" + num(a) + ", " + num(r) + "), {0}, {0}), step(make_left_pad(" + num(b) + ", " + num(lp) +
           "), {1}, {1}));";
  }
};
void showValue(const signed_embed_case& c, std::ostream& os) { os << "\n" << c.cpp(); }

rc::Gen<signed_embed_case> gen_signed_embed_case() {
  return gen::exec([] {
    return signed_embed_case{*between(1, 8), *between(1, 8), *between(-12, 12), *between(-12, 12),
                             *between(0, 3),  *between(0, 3)};
  });
}

// ---- raked patterns ----

// A pattern CK 2025 clamps: X1 elements per thread (one pass), VecSize = k * X1 with k > 1 dividing X0.
rc::Gen<raked_pattern> gen_clamped_pattern() {
  return gen::exec([] {
    raked_pattern p{};
    p.kind = *gen_pick<raking>({raking::warp, raking::block, raking::thread});
    p.warp_size = *gen_pick<index_t>({64, 32});
    const index_t warps = *gen_pick<index_t>({1, 2, 4, 8}), x1 = *gen_pick<index_t>({1, 2, 4, 8, 3});
    const index_t x0 = *gen_pick<index_t>({2, 4, 8, 16, 32});  // divides either warp size
    std::vector<index_t> ks;
    for (index_t k = 2; k <= x0; ++k)
      if (x0 % k == 0) ks.push_back(k);
    p.threads = warps * p.warp_size;
    p.cols = x0 * x1;
    p.rows = (p.warp_size / x0) * warps;
    p.vector = x1 * *gen_pick(ks);
    return p;
  });
}

// Any small parameters (most are refused; the law holds for the others).
rc::Gen<raked_pattern> gen_small_pattern() {
  return gen::exec([] {
    raked_pattern p{};
    p.kind = *gen_pick<raking>({raking::warp, raking::block, raking::thread});
    p.warp_size = *gen_pick<index_t>({64, 32});
    p.threads = p.warp_size * *gen_pick<index_t>({1, 2, 4});
    p.rows = *gen_pick<index_t>({2, 4, 8, 16, 32, 64, 128, 24, 48, 96, 5});
    p.cols = *gen_pick<index_t>({8, 16, 32, 64, 128, 24, 12});
    p.vector = *gen_pick<index_t>({1, 2, 4, 8, 16, 3});
    return p;
  });
}

// Every element of the tile owned Π R times, and owners of one element differ only in R components.
void covered_once_replicas_under_r(const raked_pattern& p) {
  const tile_distribution_encoding e = p.encoding();
  std::map<std::pair<index_t, index_t>, multi_index<tile_distribution_encoding::max_p>> owner;
  std::map<std::pair<index_t, index_t>, index_t> owners;
  index_t r = 1;
  for (int k = 0; k < e.n_r; ++k) r *= e.r[k];
  for (index_t t = 0; t < thread_count(e); ++t) {
    const auto th = thread_at(e, t);
    for (index_t d = 0; d < e.elements_per_thread(); ++d) {
      const auto x = e.x_of(th, e.y_of(d));
      if (x[0] < 0 || x[0] >= p.rows || x[1] < 0 || x[1] >= p.cols)
        RC_FAIL("thread " + show_index(th, e.n_p) + ", d " + num(d) + " -> " + show_index(x, 2) + ": outside the tile");
      const std::pair<index_t, index_t> key{x[0], x[1]};
      if (owners[key]++ > 0) {
        const component_values a = components_of(e, owner[key]), b = components_of(e, th);
        for (int m = 1; m <= e.n_x; ++m)
          for (int k = 0; k < e.n_h[m - 1]; ++k)
            if (a.v[m][k] != b.v[m][k])
              RC_FAIL(show_index(x, 2) + " held by threads " + show_index(owner[key], e.n_p) + " and " +
                      show_index(th, e.n_p) + ", which differ outside R");
      } else {
        owner[key] = th;
      }
    }
  }
  RC_ASSERT(static_cast<index_t>(owners.size()) == p.rows * p.cols);
  for (const auto& [x, n] : owners) RC_ASSERT(n == r);
}

}  // namespace

TEST_SUITE("ck_conformance") {
  TEST_CASE("one-sided pads: move == make, validity is CK's one check, the other side is named") {
    CHECK(rc::check("through left_pad/right_pad (and a merge above them), moving equals making afresh; is_valid is "
                    "u >= lp or u < L alone; beyond_unchecked_pad_side is exactly the other side",
                    one_sided_law));
  }

  TEST_CASE("embeds with negative coefficients: offsets, validity and moves against a brute-force reference") {
    const auto law = [] {
      const signed_embed_case c = *gen_signed_embed_case();
      const auto e = transform_descriptor(make_naive_descriptor_packed<1>({1}),
                                          step(make_embed({c.a, c.b}, {c.c0, c.c1}), {0}, {0, 1}));
      const auto d = transform_descriptor(e, step(make_right_pad(c.a, c.r), {0}, {0}),
                                          step(make_left_pad(c.b, c.lp), {1}, {1}));
      for (index_t t0 = -2; t0 < c.a + c.r + 2; ++t0)
        for (index_t t1 = -2; t1 < c.lp + c.b + 2; ++t1) {
          const auto k = d.make_coordinate({t0, t1});
          const index_t expected = t0 * c.c0 + (t1 - c.lp) * c.c1;
          if (k.offset() != expected) RC_FAIL("(" + num(t0) + ", " + num(t1) + ") -> " + num(k.offset()) + ", not " + num(expected));
          RC_ASSERT(d.is_valid(k) == (t0 < c.a && t1 >= c.lp));
          auto moved = d.make_coordinate({0, 0});
          d.move(moved, {t0, t1});
          RC_ASSERT(moved.hidden == k.hidden);
        }
      // The inverse finds a preimage in the embed's box exactly when one exists.
      std::map<index_t, int> hits;
      for (index_t u0 = 0; u0 < c.a; ++u0)
        for (index_t u1 = 0; u1 < c.b; ++u1) ++hits[u0 * c.c0 + u1 * c.c1];
      const embed<2> t = make_embed({c.a, c.b}, {c.c0, c.c1});
      for (index_t low = -12 * 16; low <= 12 * 16; ++low) {
        const auto inv = t.upper_index({low});
        if (inv.found != (hits.count(low) > 0)) RC_FAIL("upper_index(" + num(low) + ").found is wrong");
        if (inv.found) RC_ASSERT(t.lower_index(inv.index)[0] == low);
      }
      RC_CLASSIFY(c.c0 < 0 || c.c1 < 0, "a negative coefficient");
    };
    CHECK(rc::check("offset == t0 c0 + (t1 - lp) c1, is_valid == (t0 < a && t1 >= lp), move == make, and "
                    "upper_index finds a preimage iff one exists",
                    law));
  }

  TEST_CASE("raked patterns CK 2025 clamps: every element covered exactly once, X1 = elements per thread") {
    const auto law = [] {
      const raked_pattern p = *gen_clamped_pattern();
      RC_ASSERT(p.check().what == rule::none);
      RC_ASSERT(p.x1() == p.rows * p.cols / p.threads);
      RC_ASSERT(p.x1() < p.vector);
      covered_once_replicas_under_r(p);
    };
    CHECK(rc::check("X1 = min(VecSize, rows*cols/threads) < VecSize, and the encoding covers the tile once", law));
  }

  TEST_CASE("any raked pattern spec/ accepts covers its tile once; replicas differ only in R") {
    const auto law = [] {
      const raked_pattern p = *gen_small_pattern();
      const bool accepted = p.check().what == rule::none;
      RC_CLASSIFY(accepted, "accepted");
      RC_CLASSIFY(accepted && p.x1() < p.vector, "clamped");
      if (accepted) covered_once_replicas_under_r(p);
    };
    CHECK(rc::check("for accepted parameters, each element has Π R owners that differ only in R components", law));
  }
}
