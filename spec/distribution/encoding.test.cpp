// Reference tables of ck-tile-semantics.md §3.3-3.6, reproduced through tile_distribution_encoding.
#include <doctest/doctest.h>

#include <set>
#include <tuple>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
using enc = tile_distribution_encoding;

// x_of for a 2-D tile, as a pair.
constexpr std::pair<index_t, index_t> x2(const enc& e, index_t warp, index_t lane, multi_index<enc::max_y> y) {
  const auto x = e.n_p == 2 ? e.x_of({warp, lane}, y) : e.x_of({lane, 0}, y);
  return {x[0], x[1]};
}

// Every (P, Y) of the launch, visited once: f(warp, lane, y).
template <class F>
void for_each_owner(const enc& e, F&& f) {
  const index_t warps = e.n_p == 2 ? e.p_length(0) : 1, lanes = e.p_length(e.n_p - 1);
  for (index_t w = 0; w < warps; ++w)
    for (index_t l = 0; l < lanes; ++l)
      for (index_t d = 0; d < e.elements_per_thread(); ++d) f(w, l, e.y_of(d));
}
}  // namespace

TEST_CASE("docs 4x4 encoding: x0 = 2*warp + y0, x1 = 2*lane + y1, d = 2*y0 + y1 (the docs' table)") {
  constexpr enc e = make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});
  static_assert(x2(e, 1, 1, {0, 1}).first == 2 && x2(e, 1, 1, {0, 1}).second == 3);
  const std::pair<index_t, index_t> table[4][4] = {{{0, 0}, {0, 1}, {1, 0}, {1, 1}},
                                                   {{0, 2}, {0, 3}, {1, 2}, {1, 3}},
                                                   {{2, 0}, {2, 1}, {3, 0}, {3, 1}},
                                                   {{2, 2}, {2, 3}, {3, 2}, {3, 3}}};
  for (int t = 0; t < 4; ++t)
    for (int d = 0; d < 4; ++d) {
      CAPTURE(t);
      CAPTURE(d);
      CHECK(x2(e, t / 2, t % 2, e.y_of(d)) == table[t][d]);
      CHECK(e.d_of(e.y_of(d)) == d);
    }
  CHECK(e.elements_per_thread() == 4);
}

TEST_CASE("docs 4x4 encoding: lane 5 is not masked and lands outside the tile at x = (0, 10)") {
  const enc e = make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});
  CHECK(x2(e, 0, 5, {0, 0}) == std::pair<index_t, index_t>{0, 10});
  CHECK(e.check_launch(128, 64).what == rule::none);              // the docs' 2 waves of 64 cover P = 2 x 2
  CHECK(e.check_launch(64, 64).what == rule::encoding_threads);    // one wave cannot hold warp 1
}

TEST_CASE("warp-raked 64x32 fp16 on 256 threads: row = 16*warp + lane/4, col = 8*(lane%4) + y1, each element once") {
  // R = <1>; H0 = <4, 1, 16>, H1 = <4, 8>; P0 -> H0[0]; P1 -> merge(H0[2], H1[0]); Y0 -> H0[1], Y1 -> H1[1].
  const enc e = make_encoding({1}, {{4, 1, 16}, {4, 8}}, {{{1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}});
  CHECK(e.check_launch(256, 64).what == rule::none);
  CHECK(e.elements_per_thread() == 8);
  CHECK(x2(e, 0, 1, {0, 0}) == std::pair<index_t, index_t>{0, 8});
  CHECK(x2(e, 0, 3, {0, 7}) == std::pair<index_t, index_t>{0, 31});
  CHECK(x2(e, 0, 4, {0, 0}) == std::pair<index_t, index_t>{1, 0});
  CHECK(x2(e, 0, 63, {0, 0}) == std::pair<index_t, index_t>{15, 24});
  CHECK(x2(e, 1, 0, {0, 0}) == std::pair<index_t, index_t>{16, 0});
  CHECK(x2(e, 3, 63, {0, 7}) == std::pair<index_t, index_t>{63, 31});
  std::set<std::pair<index_t, index_t>> owned;
  int visits = 0;
  for_each_owner(e, [&](index_t w, index_t l, auto y) {
    const auto x = x2(e, w, l, y);
    CHECK(x2(e, w, l, y) == std::pair<index_t, index_t>{16 * w + l / 4, 8 * (l % 4) + y[1]});
    owned.insert(x);
    ++visits;
  });
  CHECK(visits == 2048);
  CHECK(owned.size() == 2048);  // every element of 64x32 owned exactly once
}

TEST_CASE("R replication copy encoding: warps {0,2} and {1,3} hold the same X, and differ in R") {
  // R = <2>; H0 = <2, 2, 8>, H1 = <8, 8>; P0 -> merge(R0, H0[0]); P1 -> merge(H0[2], H1[0]); Y -> H0[1], H1[1].
  const enc e = make_encoding({2}, {{2, 2, 8}, {8, 8}}, {{{0, 0}, {1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}});
  using xy = std::pair<index_t, index_t>;
  CHECK(x2(e, 0, 0, {0, 0}) == xy{0, 0});
  CHECK(x2(e, 1, 0, {0, 0}) == xy{16, 0});
  CHECK(x2(e, 2, 9, {1, 7}) == xy{9, 15});
  CHECK(x2(e, 3, 9, {1, 7}) == xy{25, 15});
  CHECK(e.r_of({2, 0})[0] == 1);
  CHECK(e.r_of({1, 0})[0] == 0);
  for (index_t l = 0; l < 64; ++l)
    for (index_t d = 0; d < e.elements_per_thread(); ++d) {
      CHECK(x2(e, 0, l, e.y_of(d)) == x2(e, 2, l, e.y_of(d)));
      CHECK(x2(e, 1, l, e.y_of(d)) == x2(e, 3, l, e.y_of(d)));
    }
}

TEST_CASE("MFMA 32x32x8 fp16 A operand: lane l, y holds A[l % 32][4*(l/32) + y]; lane 32 v0 holds A(0,4)") {
  const enc a = make_encoding({}, {{32}, {2, 4}}, {{{2, 0}, {1, 0}}}, {{2, 1}});
  using xy = std::pair<index_t, index_t>;
  CHECK(x2(a, 0, 32, {0}) == xy{0, 4});
  for (index_t l = 0; l < 64; ++l)
    for (index_t y = 0; y < 4; ++y) CHECK(x2(a, 0, l, {y}) == xy{l % 32, 4 * (l / 32) + y});
}

TEST_CASE("MFMA 32x32x8 accumulator: c[4i+j] of lane l is C[8i + 4*(l/32) + j][l % 32]; lane 63 c[15] is C(31,31)") {
  const enc c = make_encoding({}, {{4, 2, 4}, {32}}, {{{1, 1}, {2, 0}}}, {{1, 0}, {1, 2}});
  using xy = std::pair<index_t, index_t>;
  CHECK(x2(c, 0, 63, c.y_of(15)) == xy{31, 31});
  for (index_t l = 0; l < 64; ++l)
    for (index_t i = 0; i < 4; ++i)
      for (index_t j = 0; j < 4; ++j) CHECK(x2(c, 0, l, c.y_of(4 * i + j)) == xy{8 * i + 4 * (l / 32) + j, l % 32});
}

TEST_CASE("invalid encodings are rejected with the component named") {
  // The CK docs' example with Ys2RHsMajor = sequence<2, 4>: there is no X dim 3.
  auto [r1, m1] = error_of([] { (void)make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{2, 1}, {4, 1}}); });
  CHECK(r1 == rule::encoding_rh_out_of_range);
  CHECK(m1 == "tilesim: encoding: a P or Y names an (major, minor) that is no R or H component (Y = 1, major = 4, minor = 1)");
  auto [r2, m2] = error_of([] { (void)make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}}); });
  CHECK(r2 == rule::encoding_h_unclaimed);
  CHECK(m2 == "tilesim: encoding: an H component is named by no P or Y (major = 2, minor = 1, length = 2)");
  CHECK(error_of([] { (void)make_encoding({}, {{2, 2}}, {{{1, 0}}}, {{1, 0}}); }).first == rule::encoding_rh_claimed_twice);
  CHECK(error_of([] { (void)make_encoding({2}, {{2}}, {{{1, 0}}}, {{0, 0}}); }).first == rule::encoding_y_names_r);
  CHECK(error_of([] { (void)make_encoding({}, {{2}}, {}, {{1, 0}}); }).first == rule::encoding_p_count);
  CHECK(error_of([] { (void)make_encoding({}, {{0, 2}}, {{{1, 0}}}, {{1, 1}}); }).first == rule::length_not_positive);
}

TEST_CASE("well_formed() is exactly check() finding nothing, over valid encodings and single-field mutations") {
  const enc valid[] = {
      make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}}),
      make_encoding({1}, {{4, 1, 16}, {4, 8}}, {{{1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}}),
      make_encoding({2}, {{2, 2, 8}, {8, 8}}, {{{0, 0}, {1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}}),
      make_encoding({}, {{32}, {2, 4}}, {{{2, 0}, {1, 0}}}, {{2, 1}}),
      make_encoding({}, {{4, 2, 4}, {32}}, {{{1, 1}, {2, 0}}}, {{1, 0}, {1, 2}}),
  };
  const index_t lengths[] = {-1, 0, 1, 3, index_t{1} << 20, index_t{1} << 39, index_t{1} << 40, (index_t{1} << 40) + 1};
  const int counts[] = {-1, 0, 1, 2, 3, 8, 9};
  const rh names[] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 3}, {3, 0}, {-1, 0}, {1, -1}};
  int mutants = 0;
  auto agree = [&](const enc& e) {
    ++mutants;
    CHECK(e.well_formed() == !e.check());
  };
  for (const enc& v : valid) {
    CHECK(v.well_formed());
    agree(v);
    for (int c : counts) {
      enc e = v;
      e.n_r = c;
      agree(e);
      e = v;
      e.n_x = c;
      agree(e);
      e = v;
      e.n_y = c;
      agree(e);
      e = v;
      e.n_p = c;
      agree(e);
      for (int i = 0; i < enc::max_x; ++i) {
        e = v;
        e.n_h[i] = c;
        agree(e);
      }
      for (int q = 0; q < enc::max_p; ++q) {
        e = v;
        e.p_size[q] = c;
        agree(e);
      }
    }
    for (index_t l : lengths) {
      for (int k = 0; k < enc::max_components; ++k) {
        enc e = v;
        e.r[k] = l;
        agree(e);
        for (int i = 0; i < enc::max_x; ++i) {
          e = v;
          e.h[i][k] = l;
          agree(e);
        }
      }
    }
    for (const rh& n : names) {
      for (int j = 0; j < enc::max_y; ++j) {
        enc e = v;
        e.y[j] = n;
        agree(e);
      }
      for (int q = 0; q < enc::max_p; ++q)
        for (int k = 0; k < enc::max_components; ++k) {
          enc e = v;
          e.p[q][k] = n;
          agree(e);
        }
    }
  }
  CHECK(mutants > 1000);
}

TEST_CASE("ck_spelling prints CK's positional template arguments") {
  const enc e = make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});
  CHECK(e.ck_spelling() ==
        "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>, tuple<sequence<1>, sequence<2>>, "
        "tuple<sequence<0>, sequence<0>>, sequence<1, 2>, sequence<1, 1>>");
}
