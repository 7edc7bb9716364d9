// Laws of adaptor.hpp: transforms wired into a graph of hidden dimensions.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
// The essay's example: a 4x4 row-major matrix (unmerge) read through xor_t(4, 4).
constexpr auto xor_matrix() {
  const auto rows = transform_adaptor(identity_adaptor<1>(), step(make_unmerge({4, 4}), {0}, {0, 1}));
  return transform_adaptor(rows, step(make_xor(4, 4), {0, 1}, {0, 1}));
}

// Whether A offers top_index (only adaptors whose stages are all invertible do).
template <class A>
concept has_top_index = requires(const A& a, multi_index<A::n_bottom> bottom) {
  a.top_index(bottom);
};
}  // namespace

TEST_CASE("unmerge(4, 4) under xor_t(4, 4) maps top (2, 1) to bottom 11 through hidden (11, 2, 3, 2, 1)") {
  constexpr auto a = xor_matrix();
  static_assert(a.bottom_index({2, 1}) == multi_index<1>{11});
  static_assert(decltype(a)::n_hidden == 5 && decltype(a)::n_stages == 2);
  CHECK(a.hidden_index({2, 1}) == multi_index<5>{11, 2, 3, 2, 1});
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(a.bottom_index({r, c}) == multi_index<1>{4 * r + (c ^ r)});
}

TEST_CASE("transform_adaptor wires stages bottom first with fresh ids: unmerge {0} -> {1, 2}, xor {1, 2} -> {3, 4}") {
  const auto a = xor_matrix();
  CHECK(get<0>(a.stages).lower_ids == multi_index<1>{0});
  CHECK(get<0>(a.stages).upper_ids == multi_index<2>{1, 2});
  CHECK(get<1>(a.stages).lower_ids == multi_index<2>{1, 2});
  CHECK(get<1>(a.stages).upper_ids == multi_index<2>{3, 4});
  CHECK(a.top_ids == multi_index<2>{3, 4});
}

TEST_CASE("an adaptor's top lengths come from the stages: (4, 4), 16 elements, bottom length unknown") {
  const auto a = xor_matrix();
  CHECK(a.lengths() == multi_index<2>{4, 4});
  CHECK(a.element_size() == 16);
  CHECK(a.hidden_lengths() == multi_index<5>{unknown, 4, 4, 4, 4});
}

TEST_CASE("an invertible adaptor's top_index inverts bottom_index on all 16 points") {
  const auto a = xor_matrix();
  static_assert(decltype(a)::invertible);
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) {
      const auto back = a.top_index(a.bottom_index({r, c}));
      CHECK(back.found);
      CHECK(back.index == multi_index<2>{r, c});
    }
}

TEST_CASE("top_index reports no preimage for an offset in the gap of embed({2, 2}, {4, 1})") {
  const auto a = transform_adaptor(identity_adaptor<1>(), step(make_embed({2, 2}, {4, 1}), {0}, {0, 1}));
  CHECK_FALSE(a.top_index({2}).found);
  CHECK(a.top_index({5}).found);
  CHECK(a.top_index({5}).index == multi_index<2>{1, 1});
}

TEST_CASE("an adaptor with a non-invertible stage (freeze) offers no top_index") {
  const auto a =
      transform_adaptor(identity_adaptor<2>(), step(make_freeze(1), {0}, {}), step(make_pass_through(4), {1}, {0}));
  static_assert(!decltype(a)::invertible);
  static_assert(!has_top_index<decltype(a)>);
  static_assert(has_top_index<decltype(xor_matrix())>);
  CHECK(a.bottom_index({3}) == multi_index<2>{1, 3});
}

TEST_CASE("the identity adaptor maps top to bottom unchanged and knows no lengths") {
  constexpr auto a = identity_adaptor<3>();
  static_assert(a.bottom_index({4, 5, 6}) == multi_index<3>{4, 5, 6});
  CHECK(a.top_ids == multi_index<3>{0, 1, 2});
  CHECK(a.lengths() == multi_index<3>{unknown, unknown, unknown});
}

TEST_CASE("step positions reorder: pass_throughs from (0, 1) to (1, 0) swap the dims, fresh ids in step order") {
  const auto a = transform_adaptor(identity_adaptor<2>(), step(make_pass_through(3), {0}, {1}),
                                   step(make_pass_through(5), {1}, {0}));
  CHECK(a.lengths() == multi_index<2>{5, 3});
  CHECK(a.top_ids == multi_index<2>{3, 2});
  CHECK(a.bottom_index({4, 2}) == multi_index<2>{2, 4});
}

TEST_CASE("wiring: a lower dim that is not an old top dim throws dim_out_of_range with the full message") {
  const auto [broken, message] = error_of([] {
    (void)transform_adaptor(identity_adaptor<2>(), step(make_pass_through(4), {2}, {0}),
                            step(make_pass_through(4), {1}, {1}));
  });
  CHECK(broken == rule::dim_out_of_range);
  CHECK(message ==
        "tilesim: transform_adaptor: transform step: a lower dimension is not one of the old top dimensions "
        "(dim = 2, old top dims = 2)");
  CHECK(error_of([] {
          (void)transform_adaptor(identity_adaptor<2>(), step(make_pass_through(4), {-1}, {0}),
                                  step(make_pass_through(4), {1}, {1}));
        }).first == rule::dim_out_of_range);
}

TEST_CASE("wiring: an old top dim consumed twice throws dim_consumed_twice with the full message") {
  const auto [broken, message] = error_of([] {
    (void)transform_adaptor(identity_adaptor<2>(), step(make_pass_through(4), {0}, {0}),
                            step(make_pass_through(4), {0}, {1}));
  });
  CHECK(broken == rule::dim_consumed_twice);
  CHECK(message ==
        "tilesim: transform_adaptor: transform step: an old top dimension is consumed by two transforms (dim = 0)");
}

TEST_CASE("wiring: an old top dim that no step consumes throws dim_not_consumed with the full message") {
  const auto [broken, message] =
      error_of([] { (void)transform_adaptor(identity_adaptor<2>(), step(make_pass_through(4), {0}, {0})); });
  CHECK(broken == rule::dim_not_consumed);
  CHECK(message ==
        "tilesim: transform_adaptor: transform step: an old top dimension is consumed by no transform (dim = 1)");
}

TEST_CASE("wiring: an upper dim sent past the new top throws new_dim_out_of_range with the full message") {
  const auto [broken, message] =
      error_of([] { (void)transform_adaptor(identity_adaptor<1>(), step(make_pass_through(4), {0}, {1})); });
  CHECK(broken == rule::new_dim_out_of_range);
  CHECK(message ==
        "tilesim: transform_adaptor: transform step: an upper dimension is not one of the new top positions "
        "(position = 1, new top dims = 1)");
}

TEST_CASE("wiring: two steps claiming one new top position throw new_dim_assigned_twice with the full message") {
  const auto [broken, message] = error_of([] {
    (void)transform_adaptor(identity_adaptor<2>(), step(make_pass_through(4), {0}, {0}),
                            step(make_pass_through(4), {1}, {0}));
  });
  CHECK(broken == rule::new_dim_assigned_twice);
  CHECK(message ==
        "tilesim: transform_adaptor: transform step: two transforms claim the same new top position (position = 0)");
}

TEST_CASE("chain(a, b) evaluates as a after b: unmerge(4, 4) chained with xor_t(4, 4) is the essay's adaptor") {
  const auto a = transform_adaptor(identity_adaptor<1>(), step(make_unmerge({4, 4}), {0}, {0, 1}));
  const auto b = transform_adaptor(identity_adaptor<2>(), step(make_xor(4, 4), {0, 1}, {0, 1}));
  const auto ab = chain(a, b);
  const auto direct = xor_matrix();
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) {
      CHECK(ab.bottom_index({r, c}) == a.bottom_index(b.bottom_index({r, c})));
      CHECK(ab.hidden_index({r, c}) == direct.hidden_index({r, c}));
      CHECK(ab.top_index(ab.bottom_index({r, c})).index == multi_index<2>{r, c});
    }
  CHECK(ab.top_ids == direct.top_ids);
  CHECK(get<1>(ab.stages).lower_ids == multi_index<2>{1, 2});
}

TEST_CASE("chain renames b's bottom dims to a's top dims, also when a's top is reordered") {
  const auto a = transform_adaptor(identity_adaptor<1>(), step(make_unmerge({4, 6}), {0}, {1, 0}));  // top (col, row)
  const auto b = transform_adaptor(identity_adaptor<2>(), step(make_unmerge({2, 3}), {0}, {1, 2}),
                                   step(make_unmerge({2, 2}), {1}, {0, 3}));
  const auto ab = chain(a, b);
  CHECK(ab.lengths() == multi_index<4>{2, 2, 3, 2});
  int mismatches = 0;
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 2; ++j)
      for (index_t k = 0; k < 3; ++k)
        for (index_t l = 0; l < 2; ++l) {
          const multi_index<4> t{i, j, k, l};
          mismatches += ab.bottom_index(t) != a.bottom_index(b.bottom_index(t));
        }
  CHECK(mismatches == 0);
  CHECK(ab.bottom_index({1, 0, 2, 1}) == multi_index<1>{(2 * 1 + 1) * 6 + (3 * 0 + 2)});
}

TEST_CASE("adaptor::check reports the first broken rule of a raw stage: xor_t{{4, 6}}") {
  const auto bad = transform_adaptor(identity_adaptor<2>(), step(xor_t{{4, 6}}, {0, 1}, {0, 1}));
  CHECK(bad.check().what == rule::xor_length_not_power_of_two);
  CHECK(bad.check().values[0].value == 6);
  CHECK(xor_matrix().check().what == rule::none);
}

TEST_CASE("adaptor::cpp lists the stages bottom first with their hidden ids, then the top ids") {
  CHECK(xor_matrix().cpp() ==
        "  stage make_unmerge({4, 4}) lower {0} upper {1, 2}\n"
        "  stage make_xor(4, 4) lower {1, 2} upper {3, 4}\n"
        "  top {3, 4}\n");
}
