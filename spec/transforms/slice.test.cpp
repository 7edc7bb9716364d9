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

TEST_CASE("slice passes no vector guarantee, as CK: even slice(16, 0, 8) over an 8-vector gives none") {
  // CK: coordinate_transform.hpp, slice has no calculate_upper_dimension_safe_vector_length_strides, so
  // base_transform's returns -1 (no guarantee) in 2024-10, 2025 and rocm-libraries' newest. spec/'s former
  // gcd(V, begin) was sound, but CK's kernel then loads scalars, and the simulator must issue what it issues.
  const vector_guarantees<1> v8{{{8, 1}}};
  for (index_t begin : {0, 2, 4, 8})
    CHECK(make_slice(16, begin, 16).upper_vectors(v8)[0] == vector_guarantee{unknown, unknown});
  // Seen through a descriptor: a packed 4 x 16 tensor with an 8-vector on dim 1, dim 1 sliced to [0, 8):
  // CK's get_top_dimension_safe_vector_length_strides gives (-1, -1) on the sliced dim.
  const auto d = transform_descriptor(make_naive_descriptor_packed<2>({4, 16}, 8), step(make_pass_through(4), {0}, {0}),
                                      step(make_slice(16, 0, 8), {1}, {1}));
  CHECK(d.top_vectors()[1] == vector_guarantee{unknown, unknown});
  CHECK(d.ck_top_vectors()[1] == vector_guarantee{unknown, unknown});
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
