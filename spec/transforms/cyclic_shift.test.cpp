// Laws of transforms/cyclic_shift.hpp: a rotation of one dimension keyed by another, and its inverse.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("cyclic_shift(4, 4) stores column c of row r at (c + r) mod 4: rows 0123 / 1230 / 2301 / 3012") {
  constexpr cyclic_shift t = make_cyclic_shift(4, 4);
  static_assert(t.lower_index({1, 3}) == multi_index<2>{1, 0});
  const index_t table[4][4] = {{0, 1, 2, 3}, {1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2}};
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(t.lower_index({r, c}) == multi_index<2>{r, table[r][c]});
}

TEST_CASE("inverse_cyclic_shift(4, 4) maps (1, 0) to (1, 3) and (2, 1) to (2, 3)") {
  constexpr inverse_cyclic_shift t = make_inverse_cyclic_shift(4, 4);
  static_assert(t.lower_index({1, 0}) == multi_index<2>{1, 3});
  CHECK(t.lower_index({2, 1}) == multi_index<2>{2, 3});
}

TEST_CASE("cyclic_shift and inverse_cyclic_shift undo each other, also for L1 = 3 (no power of two needed)") {
  const cyclic_shift f = make_cyclic_shift(5, 3);
  const inverse_cyclic_shift g = make_inverse_cyclic_shift(5, 3);
  bool seen[5][3] = {};
  for (index_t r = 0; r < 5; ++r)
    for (index_t c = 0; c < 3; ++c) {
      const multi_index<2> l = f.lower_index({r, c});
      REQUIRE(l[1] >= 0);
      REQUIRE(l[1] < 3);
      CHECK_FALSE(seen[l[0]][l[1]]);
      seen[l[0]][l[1]] = true;
      CHECK(g.lower_index(l) == multi_index<2>{r, c});
      CHECK(f.lower_index(g.lower_index({r, c})) == multi_index<2>{r, c});
      CHECK(f.upper_index(l).found);
      CHECK(f.upper_index(l).index == multi_index<2>{r, c});
      CHECK(g.upper_index({r, c}).index == f.lower_index({r, c}));
    }
}

TEST_CASE("a lower column outside [0, L1) has no preimage under either rotation, since both always land inside") {
  const cyclic_shift f = make_cyclic_shift(4, 6);
  const inverse_cyclic_shift g = make_inverse_cyclic_shift(4, 6);
  for (const multi_index<2> low : {multi_index<2>{0, -6}, multi_index<2>{1, 6}, multi_index<2>{3, -1}}) {
    CHECK_FALSE(f.upper_index(low).found);
    CHECK_FALSE(g.upper_index(low).found);
  }
  CHECK(f.upper_index({3, 5}).found);
  CHECK(f.upper_index({3, 5}).index == multi_index<2>{3, 2});
}

TEST_CASE("cyclic_shift moves recompute: update_lower_index agrees with lower_index, both directions") {
  const cyclic_shift f = make_cyclic_shift(5, 3);
  const inverse_cyclic_shift g = make_inverse_cyclic_shift(5, 3);
  for (index_t r = 0; r < 5; ++r)
    for (index_t c = 0; c < 3; ++c)
      for (const multi_index<2> d : {multi_index<2>{1, 0}, multi_index<2>{0, 2}, multi_index<2>{-2, 1}}) {
        const multi_index<2> up{r, c};
        multi_index<2> lf = f.lower_index(up), lg = g.lower_index(up);
        const multi_index<2> bf = lf, bg = lg;
        CHECK(f.update_lower_index(d, up + d, lf) == f.lower_index(up + d) - bf);
        CHECK(lf == f.lower_index(up + d));
        CHECK(g.update_lower_index(d, up + d, lg) == g.lower_index(up + d) - bg);
        CHECK(lg == g.lower_index(up + d));
      }
}

TEST_CASE("cyclic shifts give no vector guarantee") {
  const auto up = make_cyclic_shift(4, 8).upper_vectors({{{8, 1}, {8, 1}}});
  CHECK(up[0] == vector_guarantee{unknown, unknown});
  CHECK(up[1] == vector_guarantee{unknown, unknown});
  CHECK(make_inverse_cyclic_shift(4, 8).upper_vectors({{{8, 1}, {8, 1}}})[1] == vector_guarantee{unknown, unknown});
}

TEST_CASE("cyclic shifts print as make_cyclic_shift(4, 4) and make_inverse_cyclic_shift(4, 4)") {
  CHECK(make_cyclic_shift(4, 4).cpp() == "make_cyclic_shift(4, 4)");
  CHECK(make_inverse_cyclic_shift(4, 4).cpp() == "make_inverse_cyclic_shift(4, 4)");
}

TEST_CASE("a zero length throws length_not_positive naming which rotation") {
  CHECK(error_of([] { (void)make_cyclic_shift(4, 0); }).second ==
        "tilesim: cyclic_shift: every length must be >= 1 (dim = 1, length = 0)");
  CHECK(error_of([] { (void)make_inverse_cyclic_shift(0, 4); }).second ==
        "tilesim: inverse_cyclic_shift: every length must be >= 1 (dim = 0, length = 0)");
}
