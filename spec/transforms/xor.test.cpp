// Laws of transforms/xor.hpp: CK Tile's XOR permutation of one dimension keyed by another.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("xor_t(4, 4) stores column c of row r at c XOR r: rows 0123 / 1032 / 2301 / 3210") {
  constexpr xor_t t = make_xor(4, 4);
  static_assert(t.lower_index({2, 1}) == multi_index<2>{2, 3});
  const index_t table[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(t.lower_index({r, c}) == multi_index<2>{r, table[r][c]});
}

TEST_CASE("xor_t(8, 4) keys row r by r mod 4: row 5 stores column 2 at 3") {
  const xor_t t = make_xor(8, 4);
  CHECK(t.lower_index({5, 2}) == multi_index<2>{5, 3});
  CHECK(t.lower_index({4, 2}) == multi_index<2>{4, 2});
}

TEST_CASE("xor_t with a power-of-two L1 is a bijection of the box, and its own inverse") {
  const xor_t t = make_xor(8, 4);
  bool seen[8][4] = {};
  for (index_t r = 0; r < 8; ++r)
    for (index_t c = 0; c < 4; ++c) {
      const multi_index<2> l = t.lower_index({r, c});
      REQUIRE(l[1] >= 0);
      REQUIRE(l[1] < 4);
      CHECK_FALSE(seen[l[0]][l[1]]);
      seen[l[0]][l[1]] = true;
      CHECK(t.upper_index(l).found);
      CHECK(t.upper_index(l).index == multi_index<2>{r, c});
      CHECK(t.lower_index(l) == multi_index<2>{r, c});
    }
}

TEST_CASE("xor_t moves recompute: update_lower_index agrees with lower_index") {
  const xor_t t = make_xor(8, 4);
  for (index_t r = 0; r < 8; ++r)
    for (index_t c = 0; c < 4; ++c)
      for (const multi_index<2> d :
           {multi_index<2>{1, 0}, multi_index<2>{0, 1}, multi_index<2>{-3, 2}, multi_index<2>{5, -1}}) {
        const multi_index<2> up{r, c};
        multi_index<2> low = t.lower_index(up);
        const multi_index<2> before = low;
        const multi_index<2> step = t.update_lower_index(d, up + d, low);
        CHECK(low == t.lower_index(up + d));
        CHECK(step == low - before);
      }
}

TEST_CASE("xor_t gives no vector guarantee although CK passes both through (row 1 stores 0 1 as 1 0)") {
  const xor_t t = make_xor(4, 4);
  const auto up = t.upper_vectors({{{4, 1}, {4, 1}}});
  CHECK(up[0] == vector_guarantee{unknown, unknown});
  CHECK(up[1] == vector_guarantee{unknown, unknown});
  CHECK(t.lower_index({1, 1})[1] - t.lower_index({1, 0})[1] == -1);
}

TEST_CASE("xor_t prints as make_xor(4, 4)") { CHECK(make_xor(4, 4).cpp() == "make_xor(4, 4)"); }

TEST_CASE("CK misbehaviour: raw xor_t{{4, 6}} leaves [0, 6) (3, 5) -> (3, 6); make_xor(4, 6) throws naming L1 = 6") {
  const xor_t raw{{4, 6}};
  CHECK(raw.lower_index({3, 5}) == multi_index<2>{3, 6});
  CHECK(raw.check().what == rule::xor_length_not_power_of_two);
  const auto [broken, message] = error_of([] { (void)make_xor(4, 6); });
  CHECK(broken == rule::xor_length_not_power_of_two);
  CHECK(message == "tilesim: xor_t: the second length L1 must be a power of two (L1 = 6)");
  CHECK(error_of([] { (void)make_xor(16, 12); }).first == rule::xor_length_not_power_of_two);
}
