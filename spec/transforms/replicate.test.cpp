// Laws of transforms/replicate.hpp: N upper dimensions that the lower side ignores (the R dims).
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("replicate({2, 3}) has upper lengths (2, 3) and no lower dim") {
  constexpr replicate<2> t = make_replicate({2, 3});
  static_assert(t.upper_lengths() == multi_index<2>{2, 3});
  static_assert(replicate<2>::n_lower == 0);
  multi_index<0> low = t.lower_index({1, 2});
  CHECK(t.update_lower_index({1, 1}, {2, 3}, low) == multi_index<0>{});
}

TEST_CASE("replicate(2): warps r = 0 and r = 1 both see offsets 0 1 2 3 of a 4-element tile") {
  const auto tile = make_naive_descriptor_packed<1>({4});
  const auto rep = transform_descriptor(tile, step(make_replicate({2}), {}, {0}), step(make_pass_through(4), {0}, {1}));
  CHECK(rep.lengths() == multi_index<2>{2, 4});
  CHECK(rep.element_size() == 8);
  CHECK(rep.element_space_size == 4);
  for (index_t r = 0; r < 2; ++r)
    for (index_t i = 0; i < 4; ++i) CHECK(rep.calculate_offset({r, i}) == i);
}

TEST_CASE("replicate is not invertible and gives no vector guarantee") {
  static_assert(!invertible_transform<replicate<1>>);
  const auto v = make_replicate({2, 3}).upper_vectors({});
  CHECK(v[0] == vector_guarantee{unknown, unknown});
  CHECK(v[1] == vector_guarantee{unknown, unknown});
}

TEST_CASE("replicate prints as make_replicate({2, 3}); a zero length throws length_not_positive") {
  CHECK(make_replicate({2, 3}).cpp() == "make_replicate({2, 3})");
  CHECK(make_replicate({2}).cpp() == "make_replicate({2})");
  const auto [broken, message] = error_of([] { (void)make_replicate({2, 0}); });
  CHECK(broken == rule::length_not_positive);
  CHECK(message == "tilesim: replicate: every length must be >= 1 (dim = 1, length = 0)");
}
