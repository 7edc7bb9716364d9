// Laws of transforms/slice.hpp: a sub-range [begin, end) of one dimension.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("slice(8, 2, 6) maps 0 1 2 3 to 2 3 4 5 and has upper length 4") {
  constexpr slice t = make_slice(8, 2, 6);
  static_assert(t.upper_lengths() == multi_index<1>{4});
  static_assert(t.lower_index({3}) == multi_index<1>{5});
  for (index_t u = 0; u < 4; ++u) CHECK(t.lower_index({u}) == multi_index<1>{u + 2});
}

TEST_CASE("slice moves are linear and it does no range check: update_lower_index agrees with lower_index") {
  const slice t = make_slice(8, 2, 6);
  CHECK(t.is_valid_upper({7}));
  for (index_t u = -2; u < 7; ++u)
    for (index_t d = -3; d <= 3; ++d) {
      multi_index<1> low = t.lower_index({u});
      CHECK(t.update_lower_index({d}, {u + d}, low) == multi_index<1>{d});
      CHECK(low == t.lower_index({u + d}));
    }
}

TEST_CASE("slice inverts: upper_index(5) == 3") {
  const slice t = make_slice(8, 2, 6);
  CHECK(t.upper_index({5}).found);
  CHECK(t.upper_index({5}).index == multi_index<1>{3});
  for (index_t u = 0; u < 4; ++u) CHECK(t.upper_index(t.lower_index({u})).index == multi_index<1>{u});
}

TEST_CASE("slice keeps a lower vector V as gcd(V, begin): 8 from 2 gives 2, from 4 gives 4, from 0 stays 8") {
  const vector_guarantees<1> v8{{{8, 1}}};
  CHECK(make_slice(16, 2, 6).upper_vectors(v8)[0] == vector_guarantee{2, 1});
  CHECK(make_slice(16, 4, 16).upper_vectors(v8)[0] == vector_guarantee{4, 1});
  CHECK(make_slice(16, 0, 8).upper_vectors(v8)[0] == vector_guarantee{8, 1});
}

TEST_CASE("slice prints as make_slice(8, 2, 6)") { CHECK(make_slice(8, 2, 6).cpp() == "make_slice(8, 2, 6)"); }

TEST_CASE("make_slice with begin >= end or end > length throws slice_out_of_range naming the bounds") {
  const auto [broken, message] = error_of([] { (void)make_slice(8, 6, 2); });
  CHECK(broken == rule::slice_out_of_range);
  CHECK(message ==
        "tilesim: slice: the bounds must satisfy 0 <= begin < end <= length (length = 8, begin = 6, end = 2)");
  CHECK(error_of([] { (void)make_slice(8, 2, 9); }).first == rule::slice_out_of_range);
  CHECK(error_of([] { (void)make_slice(8, -1, 2); }).first == rule::slice_out_of_range);
  CHECK(error_of([] { (void)make_slice(8, 2, 2); }).first == rule::slice_out_of_range);
}
