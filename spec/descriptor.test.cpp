// Laws of descriptor.hpp: an adaptor whose bottom is one memory offset, with validity and vector guarantees.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
// A 6x6 row-major matrix tiled into 2x2 blocks: top (block_row, block_col, in_row, in_col).
constexpr auto tiled_6x6() {
  const auto m = make_naive_descriptor_packed<2>({6, 6});
  return transform_descriptor(m, step(make_unmerge({3, 2}), {0}, {0, 2}), step(make_unmerge({3, 2}), {1}, {1, 3}));
}

// 3x3 windows over a 6x6 row-major image as embeds: top (out_row, out_col, win_row, win_col).
constexpr auto windows_6x6() {
  const auto image = make_naive_descriptor_packed<2>({6, 6});
  return transform_descriptor(image, step(make_embed({4, 3}, {1, 1}), {0}, {0, 2}),
                              step(make_embed({4, 3}, {1, 1}), {1}, {1, 3}));
}

// im2col: the two output dims merged into the row, the two window dims into the column.
template <class D>
constexpr auto im2col(const D& windows) {
  return transform_descriptor(windows, step(make_merge({4, 4}), {0, 1}, {0}), step(make_merge({3, 3}), {2, 3}, {1}));
}

// How many (point, dim) pairs of the box `lengths` see an offset step other than strides[dim] for a +1 step.
template <class D>
int stride_mismatches(const D& d, const multi_index<4>& strides) {
  const multi_index<4> len = d.lengths();
  int bad = 0;
  for (index_t a = 0; a < len[0]; ++a)
    for (index_t b = 0; b < len[1]; ++b)
      for (index_t c = 0; c < len[2]; ++c)
        for (index_t e = 0; e < len[3]; ++e)
          for (int dim = 0; dim < 4; ++dim) {
            const multi_index<4> u{a, b, c, e};
            multi_index<4> s{};
            s[dim] = 1;
            bad += d.calculate_offset(u + s) - d.calculate_offset(u) != strides[dim];
            auto coord = d.make_coordinate(u);
            bad += d.move(coord, s) != strides[dim];
          }
  return bad;
}
}  // namespace

TEST_CASE("a 6x6 row-major matrix tiled into 2x2 blocks has shape (3, 3, 2, 2) and strides (12, 2, 6, 1)") {
  constexpr auto d = tiled_6x6();
  static_assert(d.lengths() == multi_index<4>{3, 3, 2, 2});
  static_assert(d.calculate_offset({1, 0, 0, 0}) == 12 && d.calculate_offset({0, 1, 0, 0}) == 2);
  static_assert(d.calculate_offset({0, 0, 1, 0}) == 6 && d.calculate_offset({0, 0, 0, 1}) == 1);
  CHECK(d.lengths() == multi_index<4>{3, 3, 2, 2});
  CHECK(stride_mismatches(d, {12, 2, 6, 1}) == 0);
  CHECK(d.calculate_offset({2, 2, 1, 1}) == 35);
  CHECK(d.element_space_size == 36);
}

TEST_CASE("3x3 windows over a 6x6 image have shape (4, 4, 3, 3) and strides (6, 1, 6, 1), naive or embedded") {
  constexpr auto naive = make_naive_descriptor<4>({4, 4, 3, 3}, {6, 1, 6, 1});
  constexpr auto embedded = windows_6x6();
  static_assert(naive.calculate_offset({1, 1, 2, 2}) == 21 && embedded.calculate_offset({1, 1, 2, 2}) == 21);
  CHECK(naive.lengths() == multi_index<4>{4, 4, 3, 3});
  CHECK(embedded.lengths() == multi_index<4>{4, 4, 3, 3});
  CHECK(naive.element_space_size == 36);
  CHECK(stride_mismatches(naive, {6, 1, 6, 1}) == 0);
  CHECK(stride_mismatches(embedded, {6, 1, 6, 1}) == 0);
}

TEST_CASE("im2col of 3x3 windows over 6x6 is 16x9 and row 5 (output (1, 1)) reads 7 8 9 13 14 15 19 20 21") {
  constexpr auto a = im2col(make_naive_descriptor<4>({4, 4, 3, 3}, {6, 1, 6, 1}));
  constexpr auto b = im2col(windows_6x6());
  static_assert(a.lengths() == multi_index<2>{16, 9});
  static_assert(b.calculate_offset({5, 8}) == 21);
  CHECK(b.lengths() == multi_index<2>{16, 9});
  const index_t row5[9] = {7, 8, 9, 13, 14, 15, 19, 20, 21};
  for (index_t j = 0; j < 9; ++j) {
    CHECK(a.calculate_offset({5, j}) == row5[j]);
    CHECK(b.calculate_offset({5, j}) == row5[j]);
  }
  CHECK(b.calculate_offset({0, 4}) == 7);
  CHECK(b.calculate_offset({15, 8}) == 35);
}

TEST_CASE("element_space_size: naive 1 + sum (len-1)*stride, packed the product; aligned({3, 5}, 4) strides (8, 1)") {
  CHECK(make_naive_descriptor<2>({4, 4}, {4, 1}).element_space_size == 16);
  CHECK(make_naive_descriptor<2>({3, 5}, {10, 2}).element_space_size == 29);
  CHECK(make_naive_descriptor_packed<3>({2, 3, 4}).element_space_size == 24);
  const auto al = make_naive_descriptor_aligned<2>({3, 5}, 4);
  CHECK(al.calculate_offset({1, 0}) == 8);
  CHECK(al.calculate_offset({0, 1}) == 1);
  CHECK(al.element_space_size == 21);
  const auto al3 = make_naive_descriptor_aligned<3>({2, 3, 5}, 4);
  CHECK(al3.calculate_offset({1, 0, 0}) == 24);
  CHECK(al3.calculate_offset({0, 1, 0}) == 8);
  CHECK(al3.element_space_size == 45);
  CHECK(make_naive_descriptor_aligned<2>({3, 8}, 4).calculate_offset({1, 0}) == 8);
}

TEST_CASE("make_naive_descriptor_aligned with alignment 0 throws alignment_not_positive") {
  const auto [broken, message] = error_of([] { (void)make_naive_descriptor_aligned<2>({3, 5}, 0); });
  CHECK(broken == rule::alignment_not_positive);
  CHECK(message == "tilesim: make_naive_descriptor_aligned: the alignment must be >= 1 (alignment = 0)");
}

TEST_CASE("top_vectors: naive {4, 8} with GL 8, GS 1 gives (8, 1) on the last dim; without GL nothing") {
  const auto v = make_naive_descriptor<2>({4, 8}, {8, 1}, 8, 1).top_vectors();
  CHECK(v[1] == vector_guarantee{8, 1});
  CHECK(v[0] == vector_guarantee{unknown, unknown});
  CHECK(make_naive_descriptor<2>({4, 8}, {8, 1}).top_vectors()[1] == vector_guarantee{unknown, unknown});
  CHECK(make_naive_descriptor<2>({4, 8}, {16, 2}, 4, 2).top_vectors()[1] == vector_guarantee{4, 2});
}

TEST_CASE("top_vectors: packed {4, 8} with GL 8 gives (8, 1) on the last dim; without GL the length is unknown") {
  CHECK(make_naive_descriptor_packed<2>({4, 8}, 8).top_vectors()[1] == vector_guarantee{8, 1});
  CHECK(make_naive_descriptor_packed<2>({4, 8}).top_vectors()[1].length == unknown);
}

TEST_CASE("top_vectors propagate through later stages: a right pad keeps (8, 1), a left pad of 2 cuts it to (2, 1)") {
  const auto base = make_naive_descriptor<2>({4, 16}, {16, 1}, 8, 1);
  const auto right =
      transform_descriptor(base, step(make_pass_through(4), {0}, {0}), step(make_right_pad(16, 3), {1}, {1}));
  const auto left =
      transform_descriptor(base, step(make_pass_through(4), {0}, {0}), step(make_left_pad(16, 2), {1}, {1}));
  CHECK(right.top_vectors()[1] == vector_guarantee{8, 1});
  CHECK(left.top_vectors()[1] == vector_guarantee{2, 1});
  CHECK(left.top_vectors()[0] == vector_guarantee{unknown, unknown});
}

TEST_CASE("top_vectors of the CK LDS layout: the k dim keeps length 8 stride 1") {
  CHECK(make_ck_lds_xor_descriptor({128, 32, 8}).top_vectors()[1] == vector_guarantee{8, 1});
}

TEST_CASE("validity on a padded descriptor: is_valid is the pad predicate, in_bounds adds the top lengths") {
  const auto base = make_naive_descriptor_packed<2>({4, 10});
  const auto d = transform_descriptor(base, step(make_pass_through(4), {0}, {0}), step(make_pad(10, 2, 3), {1}, {1}));
  CHECK(d.lengths() == multi_index<2>{4, 15});
  const index_t cols[6] = {0, 1, 2, 11, 12, 14};
  const bool valid[6] = {false, false, true, true, false, false};
  for (int i = 0; i < 6; ++i) {
    const auto c = d.make_coordinate({1, cols[i]});
    CHECK(d.is_valid(c) == valid[i]);
    CHECK(d.in_bounds(c) == valid[i]);
    CHECK(d.in_range(c) == valid[i]);
  }
  const auto below = d.make_coordinate({4, 5});  // row 4 is outside the 4 rows, but no pad says so
  CHECK(d.is_valid(below));
  CHECK_FALSE(d.in_bounds(below));
  CHECK_FALSE(d.in_range(below));
  CHECK(d.calculate_offset({1, 2}) == 10);
  CHECK(d.calculate_offset({1, 0}) == 8);  // no bounds check: the pad's -2 lands in row 0
}

TEST_CASE("CK misbehaviour: merge(2, 3, 4) fed 30 gives offset 30; in_range and in_bounds report it, is_valid not") {
  const auto d =
      transform_descriptor(make_naive_descriptor_packed<3>({2, 3, 4}), step(make_merge({2, 3, 4}), {0, 1, 2}, {0}));
  const auto c = d.make_coordinate({30});
  CHECK(c.hidden == multi_index<5>{30, 2, 1, 2, 30});
  CHECK(c.offset() == 30);
  CHECK(d.is_valid(c));
  CHECK_FALSE(d.in_bounds(c));
  CHECK_FALSE(d.in_range(c));
  CHECK(d.in_range(d.make_coordinate({23})));
}

TEST_CASE("in_range reports an offset stage that leaves the buffer although the top index is in bounds") {
  const auto d = transform_descriptor(make_naive_descriptor_packed<1>({8}), step(make_offset(4, 6), {0}, {0}));
  const auto inside = d.make_coordinate({1}), outside = d.make_coordinate({2});
  CHECK(outside.offset() == 8);
  CHECK(d.in_bounds(outside));
  CHECK_FALSE(d.in_range(outside));
  CHECK(d.in_range(inside));
}

TEST_CASE("make_descriptor keeps the given element space and states no vector guarantee") {
  const auto g = transform_adaptor(identity_adaptor<1>(), step(make_unmerge({4, 4}), {0}, {0, 1}));
  const auto d = make_descriptor(g, 20);
  CHECK(d.element_space_size == 20);
  CHECK(d.calculate_offset({3, 3}) == 15);
  CHECK(d.top_vectors()[1] == vector_guarantee{unknown, unknown});
}

TEST_CASE("make_descriptor rejects an element space of 0 and one above 2^40") {
  const auto g = transform_adaptor(identity_adaptor<1>(), step(make_unmerge({4, 4}), {0}, {0, 1}));
  const auto [broken, message] = error_of([&] { (void)make_descriptor(g, 0); });
  CHECK(broken == rule::length_not_positive);
  CHECK(message == "tilesim: descriptor: every length must be >= 1 (element space size = 0)");
  CHECK(error_of([&] { (void)make_descriptor(g, (index_t{1} << 40) + 1); }).second ==
        "tilesim: descriptor: a length, a product of lengths or an element space exceeds 2^40 "
        "(element space size = 1099511627777)");
}

TEST_CASE("descriptor::cpp prints the element space and the stages") {
  CHECK(make_naive_descriptor_packed<2>({4, 4}).cpp() ==
        "descriptor (element space 16):\n"
        "  stage make_unmerge({4, 4}) lower {0} upper {1, 2}\n"
        "  top {1, 2}\n");
}
