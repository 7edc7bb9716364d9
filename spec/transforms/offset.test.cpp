// Laws of transforms/offset.hpp: a constant added to one dimension.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("offset(4, 10) maps 0 1 2 3 to 10 11 12 13") {
  constexpr offset t = make_offset(4, 10);
  static_assert(t.lower_index({0}) == multi_index<1>{10});
  CHECK(t.upper_lengths() == multi_index<1>{4});
  for (index_t u = 0; u < 4; ++u) CHECK(t.lower_index({u}) == multi_index<1>{u + 10});
}

TEST_CASE("offset moves are linear: update_lower_index agrees with lower_index") {
  const offset t = make_offset(4, 10);
  for (index_t u = -2; u < 6; ++u)
    for (index_t d = -3; d <= 3; ++d) {
      multi_index<1> low = t.lower_index({u});
      CHECK(t.update_lower_index({d}, {u + d}, low) == multi_index<1>{d});
      CHECK(low == t.lower_index({u + d}));
    }
}

TEST_CASE("offset inverts: upper_index(13) == 3") {
  const offset t = make_offset(4, 10);
  CHECK(t.upper_index({13}).found);
  CHECK(t.upper_index({13}).index == multi_index<1>{3});
}

TEST_CASE("offset passes no vector guarantee, as CK: even offset(4, 16) over an 8-vector gives none") {
  // CK: coordinate_transform.hpp, offset has no calculate_upper_dimension_safe_vector_length_strides, so
  // base_transform's returns -1 in every version read; spec/'s former gcd(V, o) let the simulator issue
  // wider accesses than CK's kernel.
  const vector_guarantees<1> v8{{{8, 1}}};
  for (index_t o : {0, 10, 12, 16}) CHECK(make_offset(4, o).upper_vectors(v8)[0] == vector_guarantee{unknown, unknown});
}

TEST_CASE("offset prints as make_offset(4, 10); make_offset(0, 10) throws length_not_positive") {
  CHECK(make_offset(4, 10).cpp() == "make_offset(4, 10)");
  const auto [broken, message] = error_of([] { (void)make_offset(0, 10); });
  CHECK(broken == rule::length_not_positive);
  CHECK(message == "tilesim: offset: every length must be >= 1 (dim = 0, length = 0)");
}
