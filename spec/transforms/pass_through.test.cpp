// Laws of transforms/pass_through.hpp: the identity on one dimension.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("pass_through(4) maps 0 1 2 3 to 0 1 2 3 and has upper length 4") {
  constexpr pass_through t = make_pass_through(4);
  static_assert(t.lower_index({3}) == multi_index<1>{3});
  CHECK(t.upper_lengths() == multi_index<1>{4});
  for (index_t u = 0; u < 4; ++u) CHECK(t.lower_index({u}) == multi_index<1>{u});
}

TEST_CASE("pass_through moves add the step: from 1 by 2 the lower index is 3 and the step is 2") {
  const pass_through t = make_pass_through(4);
  multi_index<1> low = t.lower_index({1});
  CHECK(t.update_lower_index({2}, {3}, low) == multi_index<1>{2});
  CHECK(low == t.lower_index({3}));
  low = t.lower_index({3});
  CHECK(t.update_lower_index({-3}, {0}, low) == multi_index<1>{-3});
  CHECK(low == multi_index<1>{0});
}

TEST_CASE("pass_through inverts itself: upper_index(3) == 3, found") {
  const pass_through t = make_pass_through(4);
  static_assert(invertible_transform<pass_through>);
  const auto r = t.upper_index({3});
  CHECK(r.found);
  CHECK(r.index == multi_index<1>{3});
}

TEST_CASE("pass_through passes a vector guarantee through unchanged") {
  const pass_through t = make_pass_through(16);
  CHECK(t.upper_vectors({{{8, 1}}})[0] == vector_guarantee{8, 1});
  CHECK(t.upper_vectors({{{4, 2}}})[0] == vector_guarantee{4, 2});
  CHECK(t.upper_vectors({})[0] == vector_guarantee{unknown, unknown});
}

TEST_CASE("pass_through is always valid and prints as make_pass_through(4)") {
  const pass_through t = make_pass_through(4);
  static_assert(pass_through::always_valid);
  CHECK(t.is_valid_upper({-1}));
  CHECK(t.cpp() == "make_pass_through(4)");
}

TEST_CASE("make_pass_through(0) throws length_not_positive naming the length") {
  const auto [broken, message] = error_of([] { (void)make_pass_through(0); });
  CHECK(broken == rule::length_not_positive);
  CHECK(message == "tilesim: pass_through: every length must be >= 1 (dim = 0, length = 0)");
}
