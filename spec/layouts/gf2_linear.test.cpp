// Laws of layouts/gf2_linear.hpp: the GF(2)-linear offset map, as `tilesim synth` realises its gf2 answers.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("gf2_linear worked example: columns {5, 10, 1, 2} on 4 x 4 give offset 4c + (r XOR c), at compile time too") {
  constexpr auto d = make_gf2_linear_descriptor(4, 4, 0, gf2_matrix{4, {5, 10, 1, 2}});
  static_assert(d.calculate_offset({0, 1}) == 5);
  static_assert(d.calculate_offset({3, 2}) == 9);
  const index_t table[4][4] = {{0, 5, 10, 15}, {1, 4, 11, 14}, {2, 7, 8, 13}, {3, 6, 9, 12}};
  int wrong = 0;
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) wrong += d.calculate_offset({r, c}) != table[r][c] || table[r][c] != 4 * c + (r ^ c);
  CHECK(wrong == 0);
  // The essay's inverse: columns {4, 8, 5, 10}; offset 5 comes from (0, 1).
  const gf2_inverse_result inv = gf2_invert(gf2_matrix{4, {5, 10, 1, 2}});
  REQUIRE(inv.found);
  CHECK(std::vector<index_t>(inv.inverse.col, inv.inverse.col + 4) == std::vector<index_t>{4, 8, 5, 10});
  const auto back = d.graph.top_index({5});
  CHECK(back.found);
  CHECK(back.index == multi_index<2>{0, 1});
}

TEST_CASE("gf2_linear: a bijection of [0, 2^(k+n)) that keeps the low k bits, and its inverse undoes it (16 x 64, k = 3)") {
  // A map that is no CuTe swizzle: bank bits 3..5 take row bits, and row bit 0 of the result takes column bits.
  const gf2_matrix m{7, {8 | 1, 16, 32, 1, 2, 4, 64}};
  const auto d = make_gf2_linear_descriptor(16, 64, 3, m);
  std::vector<int> hits(1024, 0);
  int moved_low = 0, not_inverted = 0;
  for (index_t r = 0; r < 16; ++r)
    for (index_t c = 0; c < 64; ++c) {
      const index_t o = d.calculate_offset({r, c});
      REQUIRE(o >= 0);
      REQUIRE(o < 1024);
      ++hits[static_cast<std::size_t>(o)];
      moved_low += (o & 7) != (c & 7);
      const auto back = d.graph.top_index({o});
      not_inverted += !(back.found && back.index == multi_index<2>{r, c});
    }
  CHECK(std::count(hits.begin(), hits.end(), 1) == 1024);
  CHECK(moved_low == 0);
  CHECK(not_inverted == 0);
}

TEST_CASE("gf2_linear: a Swizzle<B,M,S> is the map with columns e_j + (shifted bits): Swizzle<3,3,3> on 8 x 64 agrees") {
  // h = offset >> 3 (6 bits: chunk c0..c2, row r0..r2); Swizzle<3,3,3> XORs the row bits into the chunk bits.
  const auto g = make_gf2_linear_descriptor(8, 64, 3, gf2_matrix{6, {1, 2, 4, 8 | 1, 16 | 2, 32 | 4}});
  const auto s = make_cute_swizzle_descriptor(3, 3, 3, 8, 64);
  int differ = 0;
  for (index_t r = 0; r < 8; ++r)
    for (index_t c = 0; c < 64; ++c) differ += g.calculate_offset({r, c}) != s.calculate_offset({r, c});
  CHECK(differ == 0);
}

TEST_CASE("gf2_linear rejects each broken rule with its values") {
  CHECK(error_of([] { make_gf2_linear(12, 0, gf2_matrix{2, {1, 2}}); }).first == rule::gf2_length_not_power_of_two);
  CHECK(error_of([] { make_gf2_linear(16, 1, gf2_matrix{4, {1, 2, 4, 8}}); }).first == rule::gf2_bits_mismatch);
  CHECK(error_of([] { make_gf2_linear(16, 0, gf2_matrix{4, {1, 2, 4, 16}}); }).first == rule::gf2_column_out_of_range);
  CHECK(error_of([] { make_gf2_linear(16, 0, gf2_matrix{4, {1, 2, 3, 8}}); }).first == rule::gf2_not_invertible);  // 3 = 1 XOR 2
  gf2_linear t = make_gf2_linear(16, 0, gf2_matrix{4, {5, 10, 1, 2}});
  t.inverse.col[0] ^= 1;
  CHECK(t.check().what == rule::gf2_not_invertible);
}

TEST_CASE("gf2_linear: a huge keep is a rule violation, not an overflow") {
  CHECK(error_of([] { make_gf2_linear(16, 2147483647, gf2_matrix{4, {1, 2, 4, 8}}); }).first == rule::gf2_bits_mismatch);
}
