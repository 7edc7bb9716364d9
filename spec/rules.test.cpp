// Laws of rules.hpp: a broken parameter is reported with the transform, the rule and the values.
#include <doctest/doctest.h>

#include <string>

#include "spec/spec.hpp"

using namespace tilesim;

TEST_CASE("a run-time violation throws spec_error naming the transform, the parameter and its value") {
  try {
    (void)make_xor(4, 6);
    FAIL("make_xor(4, 6) must throw");
  } catch (const spec_error& e) {
    CHECK(std::string(e.what()) == "tilesim: xor_t: the second length L1 must be a power of two (L1 = 6)");
    CHECK(e.broken == rule::xor_length_not_power_of_two);
  }
}

TEST_CASE("the message names where the rule broke when the rule text does not") {
  try {
    (void)make_merge<2>({4, 0});
    FAIL("make_merge({4, 0}) must throw");
  } catch (const spec_error& e) {
    CHECK(std::string(e.what()) == "tilesim: merge: every length must be >= 1 (dim = 1, length = 0)");
  }
}

TEST_CASE("fixed<> accepts valid compile-time parameters and folds them") {
  constexpr auto t = fixed<xor_t{{4, 8}}>;
  static_assert(t.lower_index({3, 1}) == multi_index<2>{3, 2});
  CHECK(t.lower_index({3, 1})[1] == 2);
}
