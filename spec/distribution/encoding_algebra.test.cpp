// Worked examples and laws of encoding_algebra.hpp (embed and reduce; ck-tile-semantics.md §3.2 helpers).
#include <doctest/doctest.h>

#include <set>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
using enc = tile_distribution_encoding;
using ys = multi_index<enc::max_y>;

// Threads of a 1-P encoding: 0 .. p_length(0) - 1.
index_t threads(const enc& e) { return e.p_length(0); }

// The embed law over every outer thread, inner thread and Y: x = outer x * inner length + inner x, R and d
// concatenated. Both encodings have one P dim; the result's P is (outer's, inner's). Returns the failures.
int embed_law_failures(const enc& outer, const enc& inner, const enc& e) {
  int failures = 0;
  for (index_t po = 0; po < threads(outer); ++po)
    for (index_t pi = 0; pi < threads(inner); ++pi)
      for (index_t d_outer = 0; d_outer < outer.elements_per_thread(); ++d_outer)
        for (index_t d_inner = 0; d_inner < inner.elements_per_thread(); ++d_inner) {
          const ys yo = outer.y_of(d_outer), yi = inner.y_of(d_inner);
          ys y{};
          for (int j = 0; j < outer.n_y; ++j) y[j] = yo[j];
          for (int j = 0; j < inner.n_y; ++j) y[outer.n_y + j] = yi[j];
          const auto x = e.x_of({po, pi}, y), xo = outer.x_of({po, 0}, yo), xi = inner.x_of({pi, 0}, yi);
          for (int i = 0; i < e.n_x; ++i) failures += x[i] != xo[i] * inner.x_length(i) + xi[i];
          const auto r = e.r_of({po, pi}), ro = outer.r_of({po, 0}), ri = inner.r_of({pi, 0});
          for (int k = 0; k < outer.n_r; ++k) failures += r[k] != ro[k];
          for (int k = 0; k < inner.n_r; ++k) failures += r[outer.n_r + k] != ri[k];
          failures += e.d_of(y) != d_outer * inner.elements_per_thread() + d_inner;
        }
  return failures;
}

// The outer block encoding: 2x2 warps (P0 -> merge(MWarp, NWarp)), 2 M-iterations per warp (Y0).
const enc block_2x2_warps = make_encoding({}, {{2, 2}, {2}}, {{{1, 1}, {2, 0}}}, {{1, 0}});
// MFMA 32x32x8 accumulator (§3.6): c[4i+j] of lane l is C[8i + 4*(l/32) + j][l % 32].
const enc mfma_c = make_encoding({}, {{4, 2, 4}, {32}}, {{{1, 1}, {2, 0}}}, {{1, 0}, {1, 2}});
const enc docs_4x4 = make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});
}  // namespace

TEST_CASE("embed: one P dim each gives P0 = outer's (warp) and P1 = inner's (lane): x0 = 4*warp + lane") {
  constexpr enc e = embed_encoding(make_encoding({}, {{2}}, {{{1, 0}}}, {}), make_encoding({}, {{4}}, {{{1, 0}}}, {}));
  static_assert(e.n_p == 2 && e.x_of({1, 3}, {})[0] == 7);
  CHECK(e.cpp() == "make_encoding({}, {{2, 4}}, {{{1, 0}}, {{1, 1}}}, {})");
}

TEST_CASE("embed MFMA C in 2x2 warps with 2 M-iterations: x0 = 32*(2*y0 + warp/2) + 8*y1 + 4*(lane/32) + y2, "
          "x1 = 32*(warp%2) + lane%32") {
  const enc e = embed_encoding(block_2x2_warps, mfma_c);
  // H lists concatenated (outer first); inner minors shifted past the outer's: H0[1] -> H0[3], H1[0] -> H1[1].
  CHECK(e.cpp() ==
        "make_encoding({}, {{2, 2, 4, 2, 4}, {2, 32}}, {{{1, 1}, {2, 0}}, {{1, 3}, {2, 1}}}, {{1, 0}, {1, 2}, {1, 4}})");
  CHECK(e.x_length(0) == 128);
  CHECK(e.x_length(1) == 64);
  CHECK(e.check_launch(256, 64).what == rule::none);
  CHECK(e.x_of({3, 63}, {1, 3, 3}) == multi_index<enc::max_x>{127, 63});
  std::set<std::pair<index_t, index_t>> owned;
  int wrong = 0;
  for (index_t warp = 0; warp < 4; ++warp)
    for (index_t lane = 0; lane < 64; ++lane)
      for (index_t d = 0; d < e.elements_per_thread(); ++d) {
        const ys y = e.y_of(d);
        const auto x = e.x_of({warp, lane}, y);
        wrong += x[0] != 32 * (2 * y[0] + warp / 2) + 8 * y[1] + 4 * (lane / 32) + y[2];
        wrong += x[1] != 32 * (warp % 2) + lane % 32;
        owned.insert({x[0], x[1]});
      }
  CHECK(wrong == 0);
  CHECK(owned.size() == 128 * 64);  // 4 warps x 64 lanes x 32 registers: each element of 128x64 once
  CHECK(embed_law_failures(block_2x2_warps, mfma_c, e) == 0);
}

TEST_CASE("embed with R on both sides: R lists concatenated, inner R minors shifted, r_of = outer's ++ inner's") {
  const enc outer = make_encoding({2}, {{2}, {1}}, {{{0, 0}, {1, 0}}}, {{2, 0}});
  const enc inner = make_encoding({2}, {{2, 2}, {4}}, {{{1, 0}, {0, 0}, {2, 0}}}, {{1, 1}});
  const enc e = embed_encoding(outer, inner);
  CHECK(e.cpp() == "make_encoding({2, 2}, {{2, 2, 2}, {1, 4}}, {{{0, 0}, {1, 0}}, {{1, 1}, {0, 1}, {2, 1}}}, {{2, 0}, {1, 2}})");
  CHECK(embed_law_failures(outer, inner, e) == 0);
}

TEST_CASE("embed rejects different X counts and P counts that do not add up to 2, with the values") {
  auto [r1, m1] = error_of([] { (void)embed_encoding(block_2x2_warps, make_encoding({}, {{4}}, {{{1, 0}}}, {})); });
  CHECK(r1 == rule::encoding_embed_mismatch);
  CHECK(m1 == "tilesim: encoding embed: the outer and inner encodings must have the same X count (outer X dims = 2, "
              "inner X dims = 1)");
  auto [r2, m2] = error_of([] { (void)embed_encoding(docs_4x4, mfma_c); });
  CHECK(r2 == rule::encoding_embed_p_count);
  CHECK(m2 == "tilesim: encoding embed: outer and inner need 1 P dim each (the outer's becomes the warp, the inner's "
              "the lane) (outer P dims = 2, inner P dims = 1)");
  CHECK(error_of([] { (void)embed_encoding(mfma_c, docs_4x4); }).first == rule::encoding_embed_p_count);
}

TEST_CASE("reduce the docs 4x4 over X1: H1[0] (P1's) becomes R0, H1[1] (Y1's) is dropped; lanes become replicas") {
  const enc e = reduce_encoding(docs_4x4, {1});
  CHECK(e.cpp() == "make_encoding({2}, {{2, 2}}, {{{1, 0}}, {{0, 0}}}, {{1, 1}})");
  for (index_t warp = 0; warp < 2; ++warp)
    for (index_t lane = 0; lane < 2; ++lane)
      for (index_t y0 = 0; y0 < 2; ++y0) {
        CHECK(e.x_of({warp, lane}, {y0})[0] == 2 * warp + y0);  // x0 unchanged
        CHECK(e.r_of({warp, lane})[0] == lane);                  // the lane is now a replica index
      }
  // Over X0 instead: H0[0] (P0's) becomes R0, Y0 is dropped, X1 becomes X0.
  CHECK(reduce_encoding(docs_4x4, {0}).cpp() == "make_encoding({2}, {{2, 2}}, {{{0, 0}}, {{1, 0}}}, {{1, 1}})");
  // Naming a dim twice is naming it once.
  CHECK(reduce_encoding(docs_4x4, {1, 1}).cpp() == e.cpp());
}

TEST_CASE("reduce keeps existing R first and appends the reduced components after it (R copy encoding over X1)") {
  const enc in = make_encoding({2}, {{2, 2, 8}, {8, 8}}, {{{0, 0}, {1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}});
  const enc e = reduce_encoding(in, {1});
  CHECK(e.cpp() == "make_encoding({2, 8}, {{2, 2, 8}}, {{{0, 0}, {1, 0}}, {{1, 2}, {0, 1}}}, {{1, 1}})");
}

TEST_CASE("reduce the embedded MFMA block over N (a row reduction): warp%2 and lane%32 become R; over M, "
          "every Y goes") {
  const enc block = embed_encoding(block_2x2_warps, mfma_c);
  const enc rows = reduce_encoding(block, {1});
  CHECK(rows.cpp() ==
        "make_encoding({2, 32}, {{2, 2, 4, 2, 4}}, {{{1, 1}, {0, 0}}, {{1, 3}, {0, 1}}}, {{1, 0}, {1, 2}, {1, 4}})");
  // Law: the kept dim does not move, and R = (the values of the reduced P components) = (warp % 2, lane % 32).
  int wrong = 0;
  for (index_t warp = 0; warp < 4; ++warp)
    for (index_t lane = 0; lane < 64; ++lane) {
      for (index_t d = 0; d < block.elements_per_thread(); ++d)
        wrong += rows.x_of({warp, lane}, block.y_of(d))[0] != block.x_of({warp, lane}, block.y_of(d))[0];
      wrong += rows.r_of({warp, lane})[0] != warp % 2;
      wrong += rows.r_of({warp, lane})[1] != lane % 32;
    }
  CHECK(wrong == 0);
  const enc cols = reduce_encoding(block, {0});
  CHECK(cols.cpp() == "make_encoding({2, 2}, {{2, 32}}, {{{0, 0}, {1, 0}}, {{0, 1}, {1, 1}}}, {})");
  CHECK(cols.elements_per_thread() == 1);
  CHECK(cols.x_of({3, 63}, {})[0] == 63);
}

TEST_CASE("reduce rejects an X dim out of range and reducing every X dim, with the values") {
  auto [r1, m1] = error_of([] { (void)reduce_encoding(docs_4x4, {2}); });
  CHECK(r1 == rule::encoding_reduce_dim_out_of_range);
  CHECK(m1 == "tilesim: encoding reduce: a reduced X dim is not one of the encoding's X dims (reduced X dim = 2, X dims = 2)");
  CHECK(error_of([] { (void)reduce_encoding(docs_4x4, {-1}); }).first == rule::encoding_reduce_dim_out_of_range);
  auto [r2, m2] = error_of([] { (void)reduce_encoding(docs_4x4, {0, 1}); });
  CHECK(r2 == rule::encoding_reduce_every_dim);
  CHECK(m2 == "tilesim: encoding reduce: at least one X dim must remain (X dims = 2, reduced X dims = 2)");
}

TEST_CASE("cpp() prints a make_encoding call that rebuilds the same encoding") {
  CHECK(docs_4x4.cpp() == "make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}})");
  const enc pasted = make_encoding({}, {{2, 2, 4, 2, 4}, {2, 32}}, {{{1, 1}, {2, 0}}, {{1, 3}, {2, 1}}},
                                   {{1, 0}, {1, 2}, {1, 4}});
  CHECK(pasted.cpp() == embed_encoding(block_2x2_warps, mfma_c).cpp());
}
