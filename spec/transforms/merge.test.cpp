// Laws of transforms/merge.hpp: one upper dimension split into mixed-radix lower digits.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("merge(2, 3, 4) splits 23 into (1, 2, 3) and merge(4, 4) splits 9 into (2, 1)") {
  constexpr merge<3> t = make_merge({2, 3, 4});
  static_assert(t.lower_index({23}) == multi_index<3>{1, 2, 3});
  static_assert(make_merge({4, 4}).lower_index({9}) == multi_index<2>{2, 1});
  CHECK(t.upper_lengths() == multi_index<1>{24});
  CHECK(t.lower_index({0}) == multi_index<3>{0, 0, 0});
  CHECK(t.lower_index({13}) == multi_index<3>{1, 0, 1});
}

TEST_CASE("merge(2, 3) walks 0..5 through (0,0) (0,1) (0,2) (1,0) (1,1) (1,2)") {
  const merge<2> t = make_merge({2, 3});
  const multi_index<2> expected[6] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
  for (index_t u = 0; u < 6; ++u) CHECK(t.lower_index({u}) == expected[u]);
}

TEST_CASE("merge moves recompute: update_lower_index agrees with lower_index, out of range too") {
  const merge<3> t = make_merge({2, 3, 4});
  for (index_t u = -30; u < 60; u += 7)
    for (index_t d : {-25, -13, -1, 1, 4, 12, 29}) {
      multi_index<3> low = t.lower_index({u});
      const multi_index<3> before = low;
      const multi_index<3> step = t.update_lower_index({d}, {u + d}, low);
      CHECK(low == t.lower_index({u + d}));
      CHECK(step == low - before);
    }
}

TEST_CASE("merge inverts on the box: upper_index(lower_index(u)) == u for u in [0, 24)") {
  const merge<3> t = make_merge({2, 3, 4});
  for (index_t u = 0; u < 24; ++u) {
    const auto r = t.upper_index(t.lower_index({u}));
    CHECK(r.found);
    CHECK(r.index == multi_index<1>{u});
  }
}

TEST_CASE("merge's inverse finds no preimage when a lower digit other than the top one is out of range") {
  const merge<3> t = make_merge({2, 3, 4});
  CHECK_FALSE(t.upper_index({0, 3, 0}).found);
  CHECK_FALSE(t.upper_index({0, 0, -1}).found);
  CHECK(t.upper_index({2, 1, 2}).found);  // the top digit is not range-checked: it carries the overflow
  CHECK(t.upper_index({2, 1, 2}).index == multi_index<1>{30});
}

TEST_CASE("CK misbehaviour: merge(2, 3, 4) of 30 leaves the top digit unwrapped, l_0 = 2 >= len_0") {
  const merge<3> t = make_merge({2, 3, 4});
  CHECK(t.lower_index({30}) == multi_index<3>{2, 1, 2});
  CHECK(t.lower_index({-1}) == multi_index<3>{-1, 2, 3});
  CHECK(t.lower_index({24}) == multi_index<3>{2, 0, 0});
}

TEST_CASE("CK misbehaviour: unmerge(merge(u)) == u for every integer u, negative and far out of range") {
  const merge<3> m = make_merge({2, 3, 4});
  const unmerge<3> um = make_unmerge({2, 3, 4});
  for (index_t u : {index_t{-1000000000007}, index_t{-25}, index_t{-1}, index_t{0}, index_t{23}, index_t{30},
                    index_t{1} << 31, index_t{5'000'000'000}, (index_t{1} << 40) + 3})
    CHECK(um.lower_index(m.lower_index({u})) == multi_index<1>{u});
}

TEST_CASE("CK misbehaviour: merge(3, 2^20) of 5'000'000'000 is (4768, 389632) exactly, beyond 2^31") {
  constexpr merge<2> t = make_merge({3, index_t{1} << 20});
  static_assert(t.lower_index({5'000'000'000}) == multi_index<2>{4768, 389632});
  CHECK(t.lower_index({5'000'000'000}) == multi_index<2>{4768, 389632});
  CHECK(t.lower_index({index_t{1} << 31}) == multi_index<2>{2048, 0});
  CHECK(t.lower_index({(index_t{1} << 31) + 5}) == multi_index<2>{2048, 5});
  CHECK(make_unmerge({3, index_t{1} << 20}).lower_index({4768, 389632}) == multi_index<1>{5'000'000'000});
}

TEST_CASE("CK misbehaviour: merge(3, 2^20) of -5 is (-1, 1048571), exact floor division for negatives") {
  const merge<2> t = make_merge({3, index_t{1} << 20});
  CHECK(t.lower_index({-5}) == multi_index<2>{-1, 1048571});
  CHECK(t.lower_index({-(index_t{1} << 20)}) == multi_index<2>{-1, 0});
  CHECK(t.lower_index({-(index_t{1} << 20) - 1}) == multi_index<2>{-2, 1048575});
}

TEST_CASE("merge gives the upper dim the last digit's vector cut to gcd(V, len_last)") {
  CHECK(make_merge({4, 8}).upper_vectors({{{unknown, unknown}, {8, 1}}})[0] == vector_guarantee{8, 1});
  CHECK(make_merge({4, 6}).upper_vectors({{{unknown, unknown}, {4, 1}}})[0] == vector_guarantee{2, 1});
  CHECK(make_merge({4, 8}).upper_vectors({{{8, 1}, {unknown, unknown}}})[0] == vector_guarantee{unknown, unknown});
}

TEST_CASE("merge prints as make_merge({2, 3, 4})") { CHECK(make_merge({2, 3, 4}).cpp() == "make_merge({2, 3, 4})"); }

TEST_CASE("make_merge with a zero length throws length_not_positive naming the dim") {
  const auto [broken, message] = error_of([] { (void)make_merge({2, 0, 4}); });
  CHECK(broken == rule::length_not_positive);
  CHECK(message == "tilesim: merge: every length must be >= 1 (dim = 1, length = 0)");
  CHECK(error_of([] { (void)make_merge({index_t{1} << 21, index_t{1} << 20}); }).first == rule::extent_too_large);
}
