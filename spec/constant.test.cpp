// Laws of constant.hpp: derive keeps the form, value_of undoes constant<>, static_for and for_range visit 0..N-1.
#include "spec/constant.hpp"

#include <doctest/doctest.h>

#include <type_traits>
#include <vector>

using namespace tilesim;

namespace {
struct tile_launch {
  index_t rows = 4, cols = 4;
};
constexpr auto area = [](const tile_launch& l) { return l.rows * l.cols; };
}  // namespace

TEST_CASE("derive: a run-time value in, a run-time value out; constant<V> in, constant<f(V)> out") {
  const tile_launch run_time{3, 5};
  CHECK(derive(run_time, area) == 15);
  static_assert(std::is_same_v<decltype(derive(run_time, area)), index_t>);
  constexpr auto fixed = derive(constant<tile_launch{}>{}, area);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(fixed)>, constant<index_t{16}>>);
  static_assert(value_of(fixed) == 16);
  CHECK(value_of(run_time).cols == 5);
  static_assert(is_constant_v<constant<1>> && !is_constant_v<index_t>);
}

TEST_CASE("static_for<N> calls f with constants 0 .. N-1 in order; for_range loops the same for a number") {
  std::vector<index_t> seen;
  static_for<4>([&](auto i) {
    static_assert(is_constant_v<decltype(i)>);
    seen.push_back(2 * i);
  });
  CHECK(seen == std::vector<index_t>{0, 2, 4, 6});
  std::vector<index_t> fixed, loop;
  for_range(constant<index_t{3}>{}, [&](auto i) { fixed.push_back(i); });
  for_range(index_t{3}, [&](auto i) { loop.push_back(i); });
  CHECK(fixed == loop);
  CHECK(loop == std::vector<index_t>{0, 1, 2});
  int calls = 0;
  static_for<0>([&](auto) { ++calls; });
  CHECK(calls == 0);
}
