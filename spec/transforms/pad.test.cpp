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

TEST_CASE("left_pad(4, 2) checks only u >= 2 and right_pad(4, 2) only u < 4, as CK; both have upper length 6") {
  // CK: coordinate_transform.hpp, left_pad::is_valid_upper_index_mapped_to_valid_lower_index is
  // `idx_up >= left_pad_length_`, right_pad's is `idx_up < low_length_` (ROCm/composable_kernel and
  // rocm-libraries' newest alike): no check on the other side.
  const left_pad l = make_left_pad(4, 2);
  const right_pad r = make_right_pad(4, 2);
  CHECK(l.upper_lengths() == multi_index<1>{6});
  CHECK(r.upper_lengths() == multi_index<1>{6});
  for (index_t u = -3; u <= 9; ++u) {
    CHECK(l.is_valid_upper({u}) == (u >= 2));
    CHECK(r.is_valid_upper({u}) == (u < 4));
    CHECK(l.beyond_unchecked_side({u}) == (u >= 6));  // valid, yet past the lower length 4
    CHECK(r.beyond_unchecked_side({u}) == (u < 0));   // valid, yet before lower index 0
    CHECK(l.lower_index({u}) == multi_index<1>{u - 2});
    CHECK(r.lower_index({u}) == multi_index<1>{u});
  }
}

TEST_CASE("right_pad(4, 1) at upper -1: CK's value is valid (lower -1), the two-sided pad(4, 0, 1) says invalid") {
  CHECK(make_right_pad(4, 1).is_valid_upper({-1}));        // CK right_pad: -1 < 4
  CHECK(make_right_pad(4, 1).lower_index({-1}) == multi_index<1>{-1});
  CHECK_FALSE(make_pad(4, 0, 1).is_valid_upper({-1}));     // CK pad: 0 <= -1 fails
  CHECK(make_left_pad(4, 1).is_valid_upper({5}));          // CK left_pad: 5 >= 1 (past the length 4 + 1)
  CHECK_FALSE(make_pad(4, 1, 0).is_valid_upper({5}));
}

TEST_CASE("a descriptor with a right pad is valid at (2, -1), as CK's is_valid; the strict predicate names it") {
  // 4x4 packed, dim 1 right-padded by 1 (CK: transform_tensor_descriptor(desc, make_tuple(pass_through(4),
  // right_pad(4, 1)), ...), then coordinate_has_valid_offset_assuming_top_index_is_valid at (2, -1): true).
  const auto d = transform_descriptor(make_naive_descriptor_packed<2>({4, 4}), step(make_pass_through(4), {0}, {0}),
                                      step(make_right_pad(4, 1), {1}, {1}));
  const auto c = d.make_coordinate({2, -1});
  CHECK(d.is_valid(c));
  CHECK(c.offset() == 7);  // 2*4 - 1: the last element of row 1, as CK reads it
  CHECK(d.beyond_unchecked_pad_side(c));
  CHECK_FALSE(d.in_bounds(c));
  CHECK_FALSE(d.beyond_unchecked_pad_side(d.make_coordinate({2, 4})));  // the checked side: invalid instead
  CHECK_FALSE(d.is_valid(d.make_coordinate({2, 4})));
  const auto two_sided = transform_descriptor(make_naive_descriptor_packed<2>({4, 4}), step(make_pass_through(4), {0}, {0}),
                                              step(make_pad(4, 0, 1), {1}, {1}));
  CHECK_FALSE(two_sided.is_valid(two_sided.make_coordinate({2, -1})));
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

TEST_CASE("CK passes a pad's vector through unchanged (ck_upper_vectors), also where lp breaks alignment") {
  // CK: left_pad / right_pad::calculate_upper_dimension_safe_vector_length_strides return the lower arrays
  // ("TODO: ... the padding length should be multiple of vector length"); rocm-libraries' newest pad too.
  const vector_guarantees<1> v8{{{8, 1}}};
  CHECK(make_pad(16, 2, 3).ck_upper_vectors(v8)[0] == vector_guarantee{8, 1});
  CHECK(make_left_pad(16, 12).ck_upper_vectors(v8)[0] == vector_guarantee{8, 1});
}

TEST_CASE("pads print as the factory that made them") {
  CHECK(make_pad(10, 2, 3).cpp() == "make_pad(10, 2, 3)");
  CHECK(make_left_pad(4, 2).cpp() == "make_left_pad(4, 2)");
  CHECK(make_right_pad(4, 2).cpp() == "make_right_pad(4, 2)");
}

TEST_CASE("make_pad(4, -1, 0) throws pad_negative naming both pads") {
  const auto [broken, message] = error_of([] { (void)make_pad(4, -1, 0); });
  CHECK(broken == rule::pad_negative);
  CHECK(message == "tilesim: pad: the left and right padding must be >= 0 (left = -1, right = 0)");
  CHECK(error_of([] { (void)make_right_pad(0, 1); }).first == rule::length_not_positive);
  CHECK(error_of([] { (void)make_left_pad(4, -2); }).second == "tilesim: pad: the left and right padding must be >= 0 (left = -2)");
}
