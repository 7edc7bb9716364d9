// Laws of transforms/freeze.hpp: a lower dimension pinned to a constant, with no upper dimension.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("freeze(2) always gives lower index 2 and has no upper dimension") {
  constexpr freeze t = make_freeze(2);
  static_assert(t.lower_index({}) == multi_index<1>{2});
  static_assert(freeze::n_upper == 0 && freeze::n_lower == 1);
  CHECK(t.lower_index({}) == multi_index<1>{2});
}

TEST_CASE("freeze moves never change the lower value and return a zero step") {
  const freeze t = make_freeze(2);
  multi_index<1> low = t.lower_index({});
  CHECK(t.update_lower_index({}, {}, low) == multi_index<1>{0});
  CHECK(low == multi_index<1>{2});
}

TEST_CASE("freeze is not invertible and is always valid") {
  static_assert(coordinate_transform<freeze>);
  static_assert(!invertible_transform<freeze>);
  CHECK(make_freeze(-3).is_valid_upper({}));
  CHECK(make_freeze(-3).check().what == rule::none);
}

TEST_CASE("freeze(2) on the row dim of a 4x4 row-major matrix leaves row 2: offsets 8 9 10 11") {
  const auto m = make_naive_descriptor_packed<2>({4, 4});
  const auto row2 = transform_descriptor(m, step(make_freeze(2), {0}, {}), step(make_pass_through(4), {1}, {0}));
  CHECK(row2.lengths() == multi_index<1>{4});
  for (index_t c = 0; c < 4; ++c) CHECK(row2.calculate_offset({c}) == 8 + c);
}

TEST_CASE("freeze prints as make_freeze(2)") { CHECK(make_freeze(2).cpp() == "make_freeze(2)"); }
