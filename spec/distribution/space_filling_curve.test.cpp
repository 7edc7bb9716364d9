// Laws and worked examples of space_filling_curve.hpp (ck-tile-semantics.md §4.3).
#include <doctest/doctest.h>

#include <string>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
std::string order_of(const space_filling_curve<3>& c) {
  std::string s;
  for (index_t i = 0; i < c.size(); ++i) {
    const auto y = c.index(i);
    s += (i ? " " : "") + std::to_string(y[0]) + std::to_string(y[1]) + std::to_string(y[2]);
  }
  return s;
}
}  // namespace

TEST_CASE("snake order over [2,3,4] with vector 2 on the last dim is CK's worked example") {
  const auto c = make_space_filling_curve<3>({2, 3, 4}, {1, 1, 2}, true);
  CHECK(c.size() == 12);
  CHECK(order_of(c) == "000 002 012 010 020 022 122 120 110 112 102 100");
}

TEST_CASE("linear order over [2,3,4] with vector 2 on the last dim is row-major over the access grid") {
  const auto c = make_space_filling_curve<3>({2, 3, 4}, {1, 1, 2}, false);
  CHECK(order_of(c) == "000 002 010 012 020 022 100 102 110 112 120 122");
}

TEST_CASE("snake: consecutive accesses differ by one access step in exactly one dimension") {
  const auto c = make_space_filling_curve<3>({4, 3, 8}, {1, 1, 4}, true);
  for (index_t i = 0; i + 1 < c.size(); ++i) {
    const auto s = c.forward_step(i);
    int moved = 0;
    for (int k = 0; k < 3; ++k)
      if (s[k] != 0) {
        ++moved;
        CHECK((s[k] == c.scalars_per_access[k] || s[k] == -c.scalars_per_access[k]));
      }
    CHECK(moved == 1);
  }
}

TEST_CASE("a dim order visits the first listed dim slowest") {
  space_filling_curve<2> c{{2, 3}, {1, 1}, {1, 0}, false};
  CHECK(c.index(1) == multi_index<2>{1, 0});
  CHECK(c.index(2) == multi_index<2>{0, 1});
}

TEST_CASE("a vector length that does not divide its dim is rejected with the values") {
  auto [r, m] = error_of([] { (void)make_space_filling_curve<2>({3, 6}, {1, 4}, true); });
  CHECK(r == rule::sfc_vector_not_dividing);
  CHECK(m == "tilesim: space_filling_curve: a vector length must divide its dimension's length (dim = 1, length = 6, scalars = 4)");
}

TEST_CASE("a dim order that is no permutation is rejected, naming the dim") {
  auto [r, m] = error_of([] { (void)make_space_filling_curve<3>({2, 3, 4}, {1, 1, 1}, false, {0, 0, 2}); });
  CHECK(r == rule::sfc_order_not_permutation);
  CHECK(m == "tilesim: space_filling_curve: the dim order must name every dim exactly once (dim = 0, times named = 2)");
}

TEST_CASE("snake in dim order {2, 0, 1}: dim 2 is slowest and dim 1 runs back on odd rows") {
  const auto c = make_space_filling_curve<3>({2, 2, 2}, {1, 1, 1}, true, {2, 0, 1});
  CHECK(order_of(c) == "000 010 110 100 101 111 011 001");
}
