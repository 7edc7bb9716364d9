// Laws of layouts/morton.hpp: a tile stored in Morton (Z) order, built two ways.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
// The Morton 4x4 table: row r, column c.
constexpr index_t table[4][4] = {{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}};

// True when d reproduces the table (usable in a constant expression).
template <class D>
constexpr bool matches_table(const D& d) {
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c)
      if (d.calculate_offset({r, c}) != table[r][c]) return false;
  return true;
}
}  // namespace

TEST_CASE("make_morton_descriptor(4, 4) stores 0 1 4 5 / 2 3 6 7 / 8 9 12 13 / 10 11 14 15") {
  constexpr auto d = make_morton_descriptor(4, 4);
  static_assert(matches_table(d));
  CHECK(d.lengths() == multi_index<2>{4, 4});
  CHECK(d.element_space_size == 16);
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(d.calculate_offset({r, c}) == table[r][c]);
}

TEST_CASE("make_morton_descriptor_from_digits<2>() (unmerge + merge only) stores the same 4x4 table") {
  constexpr auto d = make_morton_descriptor_from_digits<2>();
  static_assert(matches_table(d));
  CHECK(d.lengths() == multi_index<2>{4, 4});
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(d.calculate_offset({r, c}) == table[r][c]);
}

TEST_CASE("both Morton 4x4 descriptors invert: graph.top_index of each offset gives back (row, col)") {
  const auto a = make_morton_descriptor(4, 4);
  const auto b = make_morton_descriptor_from_digits<2>();
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) {
      const auto ra = a.graph.top_index({table[r][c]}), rb = b.graph.top_index({table[r][c]});
      CHECK(ra.found);
      CHECK(ra.index == multi_index<2>{r, c});
      CHECK(rb.found);
      CHECK(rb.index == multi_index<2>{r, c});
    }
}

TEST_CASE("the two Morton constructions agree on 8x8 (from_digits<3>) at every point") {
  const auto a = make_morton_descriptor(8, 8);
  const auto b = make_morton_descriptor_from_digits<3>();
  for (index_t r = 0; r < 8; ++r)
    for (index_t c = 0; c < 8; ++c) CHECK(a.calculate_offset({r, c}) == b.calculate_offset({r, c}));
  CHECK(a.calculate_offset({7, 7}) == 63);
  CHECK(a.calculate_offset({4, 0}) == 32);
}

TEST_CASE("make_morton_descriptor(2, 8) is a bijection onto [0, 16) with row 1 = 2 3 6 7 10 11 14 15") {
  const auto d = make_morton_descriptor(2, 8);
  bool seen[16] = {};
  for (index_t c = 0; c < 8; ++c) {
    CHECK(d.calculate_offset({1, c}) == 2 + (c % 2) + 4 * (c / 2));
    for (index_t r = 0; r < 2; ++r) {
      const index_t o = d.calculate_offset({r, c});
      REQUIRE(o >= 0);
      REQUIRE(o < 16);
      CHECK_FALSE(seen[o]);
      seen[o] = true;
    }
  }
}

TEST_CASE("make_morton_descriptor(4, 6) throws morton_length_not_power_of_two") {
  CHECK(error_of([] { (void)make_morton_descriptor(4, 6); }).first == rule::morton_length_not_power_of_two);
}
