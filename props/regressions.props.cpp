// Shrunk counterexamples of the props laws, pasted as printed, each with the check its law failed. Every one
// failed before the spec/ fix named in its title.
#include <doctest/doctest.h>

#include "spec/spec.hpp"

using namespace tilesim;

TEST_SUITE("regressions") {
  TEST_CASE("cyclic_shift.hpp: a lower column outside [0, L1) has no top index") {
    // forward(inverse(o)) == o whenever top_index({o}) is .found: o = -3 came back as {0, 0} -> 0.
    auto d0 = make_naive_descriptor_packed<2>({1, 3}, unknown);
    auto d1 = transform_descriptor(d0, step(make_cyclic_shift(3, 1), {1, 0}, {1, 0}));
    auto d = transform_descriptor(d1, step(make_pass_through(1), {0}, {0}), step(make_pass_through(3), {1}, {1}));
    CHECK_FALSE(d.graph.top_index({-3}).found);
  }

  TEST_CASE("embed.hpp: injective coefficients that are no mixed radix still invert") {
    // inverse(forward(i)) == i: {3, 0} -> 6, but top_index found nothing (embed (5, 2) : (9, 10)).
    auto d0 = make_naive_descriptor<2>({13, 5}, {5, 1}, unknown, 1);
    auto d1 = transform_descriptor(d0, step(make_pad(13, 0, 13), {0}, {0}), step(make_pad(5, 0, 5), {1}, {1}));
    auto d2 = transform_descriptor(d1, step(make_merge({10, 26}), {1, 0}, {0}));
    auto d = transform_descriptor(d2, step(make_embed({5, 2}, {9, 10}), {0}, {0, 1}));
    REQUIRE(d.calculate_offset({3, 0}) == 6);
    CHECK(d.graph.top_index({6}).found);
    CHECK(d.graph.top_index({6}).index == multi_index<2>{3, 0});
  }

  TEST_CASE("morton.hpp: a single column guarantees no vector of 2") {
    // vector guarantee: dim 1 guaranteed (2, 1), but {1, 0} -> 0 and {1, 1} -> 4.
    auto d0 = make_naive_descriptor_packed<2>({2, 2}, 2);
    auto d1 = transform_descriptor(d0, step(make_merge({2, 2}), {0, 1}, {0}));
    auto d2 = transform_descriptor(d1, step(make_morton(4, 1), {0}, {0, 1}));
    auto d = transform_descriptor(d2, step(make_pad(4, 1, 4), {0}, {0}), step(make_pad(1, 0, 1), {1}, {1}));
    CHECK(d.top_vectors()[1].length == 1);
  }

  TEST_CASE("transform.hpp: lengths whose product passes 2^63 are rejected") {
    // make_unmerge accepted this: 2^80-ish wrapped below 2^40.
    CHECK_THROWS_AS(make_unmerge<3>({1099511627774, 1099511627774, 1}), spec_error);
  }

  TEST_CASE("swizzle.hpp: bits whose sum passes INT_MAX are rejected") {
    CHECK_THROWS_AS(make_swizzle(1, 2147483646, 1, 1099511627774), spec_error);
  }

  TEST_CASE("pad.hpp: pads whose sum passes 2^63 are rejected without overflow") {
    CHECK_THROWS_AS(make_pad(4, index_t{1} << 62, index_t{1} << 62), spec_error);
  }
}
