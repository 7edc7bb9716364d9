// Laws of transforms/insert.hpp: a new upper dimension that the lower side ignores.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("insert(3) adds an upper dim of length 3 and no lower dim") {
  constexpr insert t = make_insert(3);
  static_assert(t.upper_lengths() == multi_index<1>{3});
  static_assert(insert::n_lower == 0 && insert::n_upper == 1);
  CHECK(t.upper_lengths() == multi_index<1>{3});
  multi_index<0> low = t.lower_index({2});
  CHECK(t.update_lower_index({1}, {3}, low) == multi_index<0>{});
}

TEST_CASE("insert(3) views a length-4 vector as 3x4 whose rows alias: offsets 0 1 2 3 in every row") {
  const auto v = make_naive_descriptor_packed<1>({4});
  const auto b = transform_descriptor(v, step(make_insert(3), {}, {0}), step(make_pass_through(4), {0}, {1}));
  CHECK(b.lengths() == multi_index<2>{3, 4});
  for (index_t r = 0; r < 3; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(b.calculate_offset({r, c}) == c);
  auto coord = b.make_coordinate({0, 1});
  CHECK(b.move(coord, {2, 0}) == 0);  // moving along the inserted dim does not move the offset
  CHECK(coord.offset() == 1);
}

TEST_CASE("insert is not invertible and gives the new dim no vector guarantee") {
  static_assert(!invertible_transform<insert>);
  CHECK(make_insert(4).upper_vectors({})[0] == vector_guarantee{unknown, unknown});
}

TEST_CASE("insert prints as make_insert(3); make_insert(0) throws length_not_positive") {
  CHECK(make_insert(3).cpp() == "make_insert(3)");
  const auto [broken, message] = error_of([] { (void)make_insert(0); });
  CHECK(broken == rule::length_not_positive);
  CHECK(message == "tilesim: insert: every length must be >= 1 (dim = 0, length = 0)");
}
