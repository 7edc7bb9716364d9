// Laws of coordinate.hpp: a remembered evaluation that can be moved cheaply.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
// A pass_through that counts its incremental updates, to see which stages a move runs.
struct counted_pass_through {
  index_t length;
  int* updates;

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = true, invertible = false;

  multi_index<1> upper_lengths() const { return {length}; }
  multi_index<1> lower_index(multi_index<1> up) const { return up; }
  multi_index<1> update_lower_index(multi_index<1> dup, multi_index<1>, multi_index<1>& low) const {
    ++*updates;
    low += dup;
    return dup;
  }
  bool is_valid_upper(multi_index<1>) const { return true; }
  vector_guarantees<1> upper_vectors(vector_guarantees<1> low) const { return low; }
  violation check() const { return {}; }
  std::string cpp() const { return "counted_pass_through(" + std::to_string(length) + ")"; }
};
static_assert(coordinate_transform<counted_pass_through>);

// Moves a fresh coordinate of `from` by `s` in a constant expression and returns its offset.
constexpr index_t moved_offset(multi_index<2> from, multi_index<2> s) {
  const auto d = make_naive_descriptor_packed<2>({4, 4});
  auto c = make_coordinate(d.graph, from);
  move_coordinate(d.graph, c, s);
  return c.offset();
}
}  // namespace

TEST_CASE("4x4 row-major: coordinate (1, 2) has offset 6; steps (0, 1) and (1, 0) return bottom steps 1 and 4") {
  const auto d = make_naive_descriptor_packed<2>({4, 4});
  auto c = make_coordinate(d.graph, {1, 2});
  CHECK(c.offset() == 6);
  CHECK(c.bottom() == multi_index<1>{6});
  CHECK(move_coordinate(d.graph, c, {0, 1}) == multi_index<1>{1});
  CHECK(c.offset() == 7);
  CHECK(move_coordinate(d.graph, c, {1, 0}) == multi_index<1>{4});
  CHECK(c.offset() == 11);
  CHECK(top_index_of(d.graph, c) == multi_index<2>{2, 3});
  CHECK(move_coordinate(d.graph, c, {0, 0}) == multi_index<1>{0});
  CHECK(c.offset() == 11);
}

TEST_CASE("coordinate moves fold at compile time: (1, 2) moved by (2, -1) has offset 13") {
  static_assert(moved_offset({1, 2}, {2, -1}) == 13);
  CHECK(moved_offset({1, 2}, {2, -1}) == 13);
}

TEST_CASE("move_coordinate runs a stage only when one of its upper dims changed") {
  int a = 0, b = 0, top = 0;
  const auto lower = transform_adaptor(identity_adaptor<2>(), step(counted_pass_through{8, &a}, {0}, {0}),
                                       step(counted_pass_through{8, &b}, {1}, {1}));
  const auto g =
      transform_adaptor(lower, step(counted_pass_through{8, &top}, {0}, {0}), step(make_pass_through(8), {1}, {1}));
  auto c = make_coordinate(g, {1, 1});
  CHECK(move_coordinate(g, c, {0, 0}) == multi_index<2>{0, 0});
  CHECK((a == 0 && b == 0 && top == 0));
  CHECK(move_coordinate(g, c, {0, 2}) == multi_index<2>{0, 2});
  CHECK((a == 0 && b == 1 && top == 0));
  CHECK(move_coordinate(g, c, {3, 0}) == multi_index<2>{3, 0});
  CHECK((a == 1 && b == 1 && top == 1));
  CHECK(c.bottom() == multi_index<2>{4, 3});
}

TEST_CASE("a freeze-containing descriptor (row 2 of 4x4) moves through its pass_through and keeps the frozen row") {
  const auto m = make_naive_descriptor_packed<2>({4, 4});
  const auto row2 = transform_descriptor(m, step(make_freeze(2), {0}, {}), step(make_pass_through(4), {1}, {0}));
  auto c = row2.make_coordinate({1});
  CHECK(c.offset() == 9);
  CHECK(row2.move(c, {2}) == 2);
  CHECK(c.offset() == 11);
  CHECK(c == row2.make_coordinate({3}));
  CHECK(row2.top_index(c) == multi_index<1>{3});
}

TEST_CASE("move(make(i), s) == make(i + s) on every hidden component of the CK LDS layout, for all i and several s") {
  const auto d = make_ck_lds_xor_descriptor({128, 32, 8});
  int mismatches = 0, wrong_steps = 0;
  for (index_t m = 0; m < 128; m += 3)
    for (index_t k = 0; k < 32; ++k)
      for (const multi_index<2> s : {multi_index<2>{0, 1}, multi_index<2>{1, 0}, multi_index<2>{0, 8},
                                     multi_index<2>{2, -3}, multi_index<2>{-5, 17}, multi_index<2>{64, 0}}) {
        auto c = d.make_coordinate({m, k});
        const index_t step_offset = d.move(c, s);
        const auto fresh = d.make_coordinate(multi_index<2>{m, k} + s);
        mismatches += !(c == fresh);
        wrong_steps += step_offset != fresh.offset() - d.calculate_offset({m, k});
      }
  CHECK(mismatches == 0);
  CHECK(wrong_steps == 0);
}

TEST_CASE("a merge coordinate moved out of range and back equals the fresh one: 20 -> 30 -> -1 -> 5") {
  const auto d =
      transform_descriptor(make_naive_descriptor_packed<3>({2, 3, 4}), step(make_merge({2, 3, 4}), {0, 1, 2}, {0}));
  auto c = d.make_coordinate({20});
  CHECK(d.move(c, {10}) == 10);
  CHECK(c == d.make_coordinate({30}));
  CHECK(d.move(c, {-31}) == -31);
  CHECK(c == d.make_coordinate({-1}));
  CHECK(d.move(c, {6}) == 6);
  CHECK(c == d.make_coordinate({5}));
  CHECK(c.offset() == 5);
}

TEST_CASE("a move on two bottom dims returns a two-dim step: xor_t(4, 4) from (1, 1) by (1, 0) gives (1, 3)") {
  const auto g = transform_adaptor(identity_adaptor<2>(), step(make_xor(4, 4), {0, 1}, {0, 1}));
  auto c = make_coordinate(g, {1, 1});
  CHECK(c.bottom() == multi_index<2>{1, 0});
  CHECK(move_coordinate(g, c, {1, 0}) == multi_index<2>{1, 3});
  CHECK(c.bottom() == multi_index<2>{2, 3});
}
