// The named encodings of patterns.hpp: CK's raked patterns against the row/col formulas of the header essay
// (and the reference §3.4 table), the reference examples A-D, and the rejection of non-dividing parameters.
#include "spec/distribution/patterns.hpp"

#include <doctest/doctest.h>

#include <set>
#include <utility>

#include "spec/error_of.test.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
using enc = tile_distribution_encoding;
using xy = std::pair<index_t, index_t>;

// x_of for a 2-D tile as a pair; a 1-P encoding takes the lane only.
constexpr xy x2(const enc& e, index_t warp, index_t lane, multi_index<enc::max_y> y) {
  const auto x = e.n_p == 2 ? e.x_of({warp, lane}, y) : e.x_of({lane, 0}, y);
  return {x[0], x[1]};
}

// How many (warp, lane, d) of the P space land on each element: {visits, distinct elements, all inside}.
struct coverage {
  index_t visits = 0, distinct = 0;
  bool inside = true;
};
coverage cover(const enc& e) {
  const index_t warps = e.n_p == 2 ? e.p_length(0) : 1, lanes = e.p_length(e.n_p - 1);
  std::set<xy> owned;
  coverage c;
  for (index_t w = 0; w < warps; ++w)
    for (index_t l = 0; l < lanes; ++l)
      for (index_t d = 0; d < e.elements_per_thread(); ++d) {
        const xy x = x2(e, w, l, e.y_of(d));
        c.inside = c.inside && x.first >= 0 && x.first < e.x_length(0) && x.second >= 0 && x.second < e.x_length(1);
        owned.insert(x);
        ++c.visits;
      }
  c.distinct = static_cast<index_t>(owned.size());
  return c;
}
}  // namespace

TEST_CASE("warp_raked 256 threads, 64x32, vector 8: the reference §3.4 table, row by row") {
  constexpr enc e = make_warp_raked_encoding(256, 64, 64, 32, 8);
  static_assert(e.x_length(0) == 64 && e.x_length(1) == 32 && e.elements_per_thread() == 8);
  CHECK(e.ck_spelling() ==
        "tile_distribution_encoding<sequence<1>, tuple<sequence<4, 1, 16>, sequence<4, 8>>, tuple<sequence<1>, "
        "sequence<1, 2>>, tuple<sequence<0>, sequence<2, 0>>, sequence<1, 2>, sequence<1, 1>>");
  // (warp, lane) -> the row and the first and last col of y1 = 0..7.
  struct row_cols {
    index_t warp, lane, row, first, last;
  };
  for (const row_cols& t :
       {row_cols{0, 0, 0, 0, 7}, row_cols{0, 1, 0, 8, 15}, row_cols{0, 3, 0, 24, 31}, row_cols{0, 4, 1, 0, 7},
        row_cols{0, 63, 15, 24, 31}, row_cols{1, 0, 16, 0, 7}, row_cols{3, 63, 63, 24, 31}}) {
    CAPTURE(t.warp);
    CAPTURE(t.lane);
    for (index_t y1 = 0; y1 < 8; ++y1) CHECK(x2(e, t.warp, t.lane, {0, y1}) == xy{t.row, t.first + y1});
    CHECK(t.last == t.first + 7);
  }
}

TEST_CASE("raked patterns on 256 threads, 64x32, vector 8: every element owned exactly once, none outside") {
  for (const enc& e : {make_warp_raked_encoding(256, 64, 64, 32, 8), make_block_raked_encoding(256, 64, 64, 32, 8),
                       make_thread_raked_encoding(256, 64, 64, 32, 8)}) {
    CAPTURE(e.ck_spelling());
    const coverage c = cover(e);
    CHECK(c.visits == 2048);
    CHECK(c.distinct == 2048);
    CHECK(c.inside);
    CHECK(e.check_launch(256, 64).what == rule::none);
  }
}

TEST_CASE("raked patterns with 2 iterations follow the header's row formulas; each element still owned once") {
  // 256 threads, warp 64, 128 x 32, vector 8: X0 = 4, rows_per_warp = 16, warps = 4, iterations = 2.
  const enc warp = make_warp_raked_encoding(256, 64, 128, 32, 8);
  const enc block = make_block_raked_encoding(256, 64, 128, 32, 8);
  const enc thread = make_thread_raked_encoding(256, 64, 128, 32, 8);
  CHECK(block.ck_spelling() ==
        "tile_distribution_encoding<sequence<1>, tuple<sequence<2, 4, 16>, sequence<4, 8>>, tuple<sequence<1>, "
        "sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>");
  CHECK(thread.ck_spelling() ==
        "tile_distribution_encoding<sequence<1>, tuple<sequence<4, 16, 2>, sequence<4, 8>>, tuple<sequence<1>, "
        "sequence<1, 2>>, tuple<sequence<0>, sequence<1, 0>>, sequence<1, 2>, sequence<2, 1>>");
  for (index_t w = 0; w < 4; ++w)
    for (index_t l = 0; l < 64; ++l)
      for (index_t y0 = 0; y0 < 2; ++y0)
        for (index_t y1 = 0; y1 < 8; ++y1) {
          const index_t col = 8 * (l % 4) + y1, lane_row = l / 4;
          CHECK(x2(warp, w, l, {y0, y1}) == xy{w * 32 + y0 * 16 + lane_row, col});
          CHECK(x2(block, w, l, {y0, y1}) == xy{y0 * 64 + w * 16 + lane_row, col});
          CHECK(x2(thread, w, l, {y0, y1}) == xy{w * 32 + lane_row * 2 + y0, col});
        }
  CHECK(x2(block, 1, 0, {1, 0}) == xy{80, 0});
  CHECK(x2(thread, 0, 4, {1, 0}) == xy{3, 0});
  for (const enc& e : {warp, block, thread}) {
    const coverage c = cover(e);
    CHECK(c.visits == 4096);
    CHECK(c.distinct == 4096);
    CHECK(c.inside);
  }
}

TEST_CASE("raked patterns on wave32 with scalar accesses: 64 threads, warp 32, 8 x 16, vector 1") {
  // X0 = 16, rows_per_warp = 2, warps = 2, iterations = 2.
  const raked_pattern p{raking::warp, 64, 32, 8, 16, 1};
  CHECK(p.x0() == 16);
  CHECK(p.rows_per_warp() == 2);
  CHECK(p.warps() == 2);
  CHECK(p.iterations() == 2);
  for (raking k : {raking::thread, raking::warp, raking::block}) {
    const coverage c = cover(raked_pattern{k, 64, 32, 8, 16, 1}.encoding());
    CHECK(c.visits == 128);
    CHECK(c.distinct == 128);
    CHECK(c.inside);
  }
}

TEST_CASE("raked patterns reject a split that is not exact, naming the split and its values") {
  auto [r1, m1] = error_of([] { (void)make_warp_raked_encoding(256, 64, 64, 30, 8); });
  CHECK(r1 == rule::pattern_not_dividing);
  CHECK(m1 ==
        "tilesim: encoding pattern: every split must be exact: vector | cols, warp size | threads, X1 = min(vector, "
        "rows*cols/threads) >= 1, X1 | cols, cols/X1 | warp size, threads/(cols/X1) | rows (cols = 30, vector = 8)");
  auto [r2, m2] = error_of([] { (void)make_block_raked_encoding(256, 64, 96, 24, 8); });
  CHECK(r2 == rule::pattern_not_dividing);
  CHECK(m2.ends_with("(warp size = 64, X0 = cols/X1 = 3)"));
  auto [r3, m3] = error_of([] { (void)make_thread_raked_encoding(200, 64, 64, 32, 8); });
  CHECK(r3 == rule::pattern_not_dividing);
  CHECK(m3.ends_with("(threads = 200, warp size = 64)"));
  auto [r4, m4] = error_of([] { (void)make_warp_raked_encoding(256, 64, 96, 32, 8); });
  CHECK(r4 == rule::pattern_not_dividing);
  CHECK(m4.ends_with("(rows = 96, rows per pass = threads/X0 = 64)"));
  // The clamp's own refusals: fewer elements than threads (CK's X1 = 0 divides by zero), and an X1 that does
  // not divide cols (CK's 2025 form silently covers 4 * 5 = 20 of the 22 columns).
  auto [r6, m6] = error_of([] { (void)make_warp_raked_encoding(256, 64, 4, 32, 8); });
  CHECK(r6 == rule::pattern_not_dividing);
  CHECK(m6.ends_with("(rows = 4, cols = 32, threads = 256, X1 = min(vector, rows*cols/threads) = 0)"));
  auto [r7, m7] = error_of([] { (void)make_warp_raked_encoding(64, 64, 16, 22, 11); });
  CHECK(r7 == rule::pattern_not_dividing);
  CHECK(m7.ends_with("(cols = 22, X1 = min(vector, rows*cols/threads) = 5)"));
  CHECK(error_of([] { (void)make_warp_raked_encoding(256, 64, index_t{1} << 30, index_t{1} << 20, 8); }).first ==
        rule::extent_too_large);  // rows * cols past 2^40
  auto [r5, m5] = error_of([] { (void)make_warp_raked_encoding(256, 64, 64, 32, 0); });
  CHECK(r5 == rule::length_not_positive);
  CHECK(m5 == "tilesim: encoding pattern: every length must be >= 1 (vector = 0)");
  CHECK(error_of([] { (void)make_warp_raked_encoding(256, index_t{1} << 41, 64, 32, 8); }).first ==
        rule::extent_too_large);
}

TEST_CASE("warp_raked 256 threads, 16 x 32, VecSize 8: CK 2025 clamps X1 to 2 elements per thread and builds it") {
  // CK: static_encoding_pattern.hpp (ROCm/composable_kernel e55b1548, TileDistributionEncodingPattern2D<...,
  // warp_raked>): LargestVec = (32 * 16) / (4 * 64) = 2, X1 = VecSize > LargestVec ? LargestVec : VecSize = 2,
  // X0 = 32 / 2 = 16, Y2 = 64 / 16 = 4, Y0 = 4 warps, Y1 = 16 / (4 * 4) = 1: tile_distribution_encoding<
  // sequence<1>, tuple<sequence<4, 1, 4>, sequence<16, 2>>, ...>. The unclamped form refused it.
  const raked_pattern p{raking::warp, 256, 64, 16, 32, 8};
  CHECK(p.largest_vector() == 2);
  CHECK(p.x1() == 2);
  CHECK(p.x0() == 16);
  CHECK(p.rows_per_warp() == 4);
  CHECK(p.iterations() == 1);
  const enc e = p.encoding();
  CHECK(e.ck_spelling() ==
        "tile_distribution_encoding<sequence<1>, tuple<sequence<4, 1, 4>, sequence<16, 2>>, tuple<sequence<1>, "
        "sequence<1, 2>>, tuple<sequence<0>, sequence<2, 0>>, sequence<1, 2>, sequence<1, 1>>");
  CHECK(e.elements_per_thread() == 2);
  // row = 4*warp + lane/16, col = 2*(lane%16) + y1.
  for (index_t w = 0; w < 4; ++w)
    for (index_t l = 0; l < 64; ++l)
      for (index_t y1 = 0; y1 < 2; ++y1) CHECK(x2(e, w, l, {0, y1}) == xy{4 * w + l / 16, 2 * (l % 16) + y1});
  for (raking k : {raking::thread, raking::warp, raking::block}) {
    const coverage c = cover(raked_pattern{k, 256, 64, 16, 32, 8}.encoding());
    CHECK(c.visits == 512);
    CHECK(c.distinct == 512);
    CHECK(c.inside);
  }
  // block_raked, 64 x 24, VecSize 8: LargestVec 6, X1 = 6 (CK 2025 builds a 6-element access), X0 = 4.
  const raked_pattern b{raking::block, 256, 64, 64, 24, 8};
  CHECK(b.x1() == 6);
  CHECK(cover(b.encoding()).distinct == 64 * 24);
}

TEST_CASE("reference example A (docs 4x4): x0 = 2*warp + y0, x1 = 2*lane + y1; lane 5 sits at (0, 10)") {
  constexpr enc e = make_docs_4x4_encoding();
  static_assert(e.elements_per_thread() == 4);
  for (index_t w = 0; w < 2; ++w)
    for (index_t l = 0; l < 2; ++l)
      for (index_t d = 0; d < 4; ++d) CHECK(x2(e, w, l, e.y_of(d)) == xy{2 * w + d / 2, 2 * l + d % 2});
  CHECK(x2(e, 0, 5, {0, 0}) == xy{0, 10});
}

TEST_CASE("reference example C (copy with R = <2>): warps {0,2} and {1,3} hold the same elements") {
  const enc e = make_replicated_copy_encoding();
  CHECK(x2(e, 1, 0, {0, 0}) == xy{16, 0});
  CHECK(x2(e, 2, 9, {1, 7}) == xy{9, 15});
  CHECK(x2(e, 3, 9, {1, 7}) == xy{25, 15});
  CHECK(e.r_of({2, 0})[0] == 1);
  const coverage c = cover(e);
  CHECK(c.visits == 2 * 32 * 64);  // every element twice
  CHECK(c.distinct == 32 * 64);
}

TEST_CASE("reference example D (MFMA 32x32x8): lane 32 v0 holds A(0,4); lane 63 c[15] holds C(31,31)") {
  constexpr enc a = make_mfma_32x32x8_a_encoding(), c = make_mfma_32x32x8_c_encoding();
  static_assert(a.n_p == 1 && a.p_length(0) == 64 && c.p_length(0) == 64);
  CHECK(x2(a, 0, 32, {0}) == xy{0, 4});
  CHECK(x2(c, 0, 63, c.y_of(15)) == xy{31, 31});
  for (index_t l = 0; l < 64; ++l) {
    for (index_t y = 0; y < 4; ++y) CHECK(x2(a, 0, l, {y}) == xy{l % 32, 4 * (l / 32) + y});
    for (index_t i = 0; i < 4; ++i)
      for (index_t j = 0; j < 4; ++j) CHECK(x2(c, 0, l, c.y_of(4 * i + j)) == xy{8 * i + 4 * (l / 32) + j, l % 32});
  }
  CHECK(cover(a).distinct == 256);
  CHECK(cover(c).distinct == 1024);
}
