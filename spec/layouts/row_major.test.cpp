// Laws of layouts/row_major.hpp: the plain and the padded row-major tile.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("a 4x4 row-major tile with pad 1 starts its rows at 0 5 10 15 and needs 19 elements") {
  constexpr auto d = make_row_major_descriptor(4, 4, 1);
  static_assert(d.calculate_offset({3, 0}) == 15);
  CHECK(d.element_space_size == 19);
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(d.calculate_offset({r, c}) == 5 * r + c);
}

TEST_CASE("a 4x4 row-major tile with pad 0 is packed: offset 4r + c, element space 16") {
  const auto d = make_row_major_descriptor(4, 4);
  CHECK(d.element_space_size == 16);
  CHECK(d.calculate_offset({2, 1}) == 9);
  CHECK(d.calculate_offset({3, 3}) == 15);
}

TEST_CASE("a row-major tile guarantees a vector of a whole row, stride 1, on the column dim") {
  const auto v = make_row_major_descriptor(4, 8, 2).top_vectors();
  CHECK(v[1] == vector_guarantee{8, 1});
  CHECK(v[0] == vector_guarantee{unknown, unknown});
}

TEST_CASE("a negative row pad throws pad_negative naming the pad") {
  const auto [broken, message] = error_of([] { (void)make_row_major_descriptor(4, 4, -1); });
  CHECK(broken == rule::pad_negative);
  CHECK(message == "tilesim: row_major: pad: the left and right padding must be >= 0 (pad = -1)");
}
