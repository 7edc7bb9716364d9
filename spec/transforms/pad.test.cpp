// Laws of transforms/pad.hpp: padding, the only transforms with invalid upper points.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("pad(4, 1, 1) maps 0..5 to -1..4 and is valid exactly on 1..4") {
  constexpr pad t = make_pad(4, 1, 1);
  static_assert(t.upper_lengths() == multi_index<1>{6});
  static_assert(t.lower_index({0}) == multi_index<1>{-1});
  const bool valid[6] = {false, true, true, true, true, false};
  for (index_t u = 0; u < 6; ++u) {
    CHECK(t.lower_index({u}) == multi_index<1>{u - 1});
    CHECK(t.is_valid_upper({u}) == valid[u]);
  }
}

TEST_CASE("pad(10, 2, 3) at 0 1 2 11 12 14 gives -2 -1 0 9 10 12, valid only at 2 and 11") {
  const pad t = make_pad(10, 2, 3);
  CHECK(t.upper_lengths() == multi_index<1>{15});
  const index_t ups[6] = {0, 1, 2, 11, 12, 14};
  const index_t lows[6] = {-2, -1, 0, 9, 10, 12};
  const bool valid[6] = {false, false, true, true, false, false};
  for (int i = 0; i < 6; ++i) {
    CHECK(t.lower_index({ups[i]}) == multi_index<1>{lows[i]});
    CHECK(t.is_valid_upper({ups[i]}) == valid[i]);
  }
  static_assert(!pad::always_valid);
}

TEST_CASE("left_pad(4, 2) is valid on [2, 6) and right_pad(4, 2) on [0, 4), both of upper length 6") {
  const pad l = make_left_pad(4, 2), r = make_right_pad(4, 2);
  CHECK(l.upper_lengths() == multi_index<1>{6});
  CHECK(r.upper_lengths() == multi_index<1>{6});
  for (index_t u = -1; u <= 6; ++u) {
    CHECK(l.is_valid_upper({u}) == (u >= 2 && u < 6));
    CHECK(r.is_valid_upper({u}) == (u >= 0 && u < 4));
    CHECK(l.lower_index({u}) == multi_index<1>{u - 2});
    CHECK(r.lower_index({u}) == multi_index<1>{u});
  }
}

TEST_CASE("pad moves are linear, also across the padding: update_lower_index agrees with lower_index") {
  const pad t = make_pad(10, 2, 3);
  for (index_t u = -3; u < 18; ++u)
    for (index_t d = -5; d <= 5; ++d) {
      multi_index<1> low = t.lower_index({u});
      CHECK(t.update_lower_index({d}, {u + d}, low) == multi_index<1>{d});
      CHECK(low == t.lower_index({u + d}));
    }
}

TEST_CASE("pad inverts on the valid points: upper_index(lower_index(u)) == u and upper_index(0) == lp") {
  const pad t = make_pad(10, 2, 3);
  for (index_t u = 2; u < 12; ++u) {
    const auto r = t.upper_index(t.lower_index({u}));
    CHECK(r.found);
    CHECK(r.index == multi_index<1>{u});
  }
  CHECK(t.upper_index({0}).index == multi_index<1>{2});
}

TEST_CASE("a pad keeps a lower vector V as gcd(V, lp): 8 with lp 2 gives 2, with lp 0 or 8 stays 8") {
  const vector_guarantees<1> v8{{{8, 1}}};
  CHECK(make_pad(16, 2, 3).upper_vectors(v8)[0] == vector_guarantee{2, 1});
  CHECK(make_right_pad(16, 3).upper_vectors(v8)[0] == vector_guarantee{8, 1});
  CHECK(make_left_pad(16, 8).upper_vectors(v8)[0] == vector_guarantee{8, 1});
  CHECK(make_left_pad(16, 12).upper_vectors(v8)[0] == vector_guarantee{4, 1});
  CHECK(make_pad(16, 2, 3).upper_vectors({})[0] == vector_guarantee{unknown, unknown});
}

TEST_CASE("pads print as make_pad(L, lp, rp), the one-sided ones too") {
  CHECK(make_pad(10, 2, 3).cpp() == "make_pad(10, 2, 3)");
  CHECK(make_left_pad(4, 2).cpp() == "make_pad(4, 2, 0)");
  CHECK(make_right_pad(4, 2).cpp() == "make_pad(4, 0, 2)");
}

TEST_CASE("make_pad(4, -1, 0) throws pad_negative naming both pads") {
  const auto [broken, message] = error_of([] { (void)make_pad(4, -1, 0); });
  CHECK(broken == rule::pad_negative);
  CHECK(message == "tilesim: pad: the left and right padding must be >= 0 (left = -1, right = 0)");
  CHECK(error_of([] { (void)make_right_pad(0, 1); }).first == rule::length_not_positive);
}
