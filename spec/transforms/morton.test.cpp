// Laws of transforms/morton.hpp: Morton (Z-order) bit interleaving of a 2-D index.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("morton(4, 4) puts col bit k at z bit 2k, row bit k at 2k+1: 0 1 4 5 / 2 3 6 7 / 8 9 12 13 / 10 11 14 15") {
  constexpr morton t = make_morton(4, 4);
  static_assert(t.lower_index({1, 2}) == multi_index<1>{6});
  const index_t table[4][4] = {{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}};
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(t.lower_index({r, c}) == multi_index<1>{table[r][c]});
}

TEST_CASE("morton de-interleaves: upper_index of 0..15 gives back (row, col), 6 -> (1, 2)") {
  const morton t = make_morton(4, 4);
  CHECK(t.upper_index({6}).index == multi_index<2>{1, 2});
  for (index_t z = 0; z < 16; ++z) {
    const auto r = t.upper_index({z});
    CHECK(r.found);
    CHECK(t.lower_index(r.index) == multi_index<1>{z});
  }
  CHECK_FALSE(t.upper_index({16}).found);
  CHECK_FALSE(t.upper_index({-1}).found);
}

TEST_CASE("morton(2, 8) puts the longer side's extra bits on top: rows 0 1 4 5 8 9 12 13 / 2 3 6 7 10 11 14 15") {
  const morton t = make_morton(2, 8);
  const index_t table[2][8] = {{0, 1, 4, 5, 8, 9, 12, 13}, {2, 3, 6, 7, 10, 11, 14, 15}};
  for (index_t r = 0; r < 2; ++r)
    for (index_t c = 0; c < 8; ++c) {
      CHECK(t.lower_index({r, c}) == multi_index<1>{table[r][c]});
      CHECK(t.upper_index({table[r][c]}).index == multi_index<2>{r, c});
    }
}

TEST_CASE("morton(8, 2) is the transposed case: column 0 holds 0 2 4 .. 14 and column 1 holds 1 3 .. 15") {
  const morton t = make_morton(8, 2);
  for (index_t r = 0; r < 8; ++r)
    for (index_t c = 0; c < 2; ++c) {
      CHECK(t.lower_index({r, c}) == multi_index<1>{2 * r + c});
      CHECK(t.upper_index({2 * r + c}).index == multi_index<2>{r, c});
    }
}

TEST_CASE("morton moves recompute: update_lower_index agrees with lower_index") {
  const morton t = make_morton(4, 8);
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 8; ++c)
      for (const multi_index<2> d : {multi_index<2>{0, 1}, multi_index<2>{1, 0}, multi_index<2>{-1, 3}}) {
        const multi_index<2> up{r, c};
        multi_index<1> low = t.lower_index(up);
        const multi_index<1> before = low;
        CHECK(t.update_lower_index(d, up + d, low) == t.lower_index(up + d) - before);
        CHECK(low == t.lower_index(up + d));
      }
}

TEST_CASE("morton keeps gcd(V, 2) on the col dim (V when R == 1) and V on the row dim only when C == 1") {
  const vector_guarantees<1> v8{{{8, 1}}};
  const auto square = make_morton(4, 4).upper_vectors(v8);
  CHECK(square[0] == vector_guarantee{unknown, unknown});
  CHECK(square[1] == vector_guarantee{2, 1});
  CHECK(make_morton(1, 8).upper_vectors(v8)[1] == vector_guarantee{8, 1});
  CHECK(make_morton(8, 1).upper_vectors(v8)[0] == vector_guarantee{8, 1});
}

TEST_CASE("morton prints as make_morton(4, 4); make_morton(4, 6) throws morton_length_not_power_of_two") {
  CHECK(make_morton(4, 4).cpp() == "make_morton(4, 4)");
  const auto [broken, message] = error_of([] { (void)make_morton(4, 6); });
  CHECK(broken == rule::morton_length_not_power_of_two);
  CHECK(message == "tilesim: morton: both lengths must be powers of two (rows = 4, cols = 6)");
}
