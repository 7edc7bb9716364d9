// Laws of transforms/unmerge.hpp: N upper digits packed row-major into one lower index.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("unmerge(4, 4) packs (2, 1) into 9 and unmerge(2, 3, 4) packs (1, 2, 3) into 23") {
  constexpr unmerge<2> t = make_unmerge({4, 4});
  static_assert(t.lower_index({2, 1}) == multi_index<1>{9});
  static_assert(make_unmerge({2, 3, 4}).lower_index({1, 2, 3}) == multi_index<1>{23});
  CHECK(t.upper_lengths() == multi_index<2>{4, 4});
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(t.lower_index({r, c}) == multi_index<1>{4 * r + c});
}

TEST_CASE("unmerge moves add the packed step: update_lower_index agrees with lower_index") {
  const unmerge<3> t = make_unmerge({2, 3, 4});
  for (index_t a = -1; a < 3; ++a)
    for (index_t c = 0; c < 4; ++c) {
      const multi_index<3> up{a, 1, c}, d{1, -1, 2};
      multi_index<1> low = t.lower_index(up);
      CHECK(t.update_lower_index(d, up + d, low) == multi_index<1>{12 - 4 + 2});
      CHECK(low == t.lower_index(up + d));
    }
}

TEST_CASE("unmerge is a bijection of the box onto [0, 24) and its inverse decodes every offset") {
  const unmerge<3> t = make_unmerge({2, 3, 4});
  bool seen[24] = {};
  for (index_t a = 0; a < 2; ++a)
    for (index_t b = 0; b < 3; ++b)
      for (index_t c = 0; c < 4; ++c) {
        const index_t l = t.lower_index({a, b, c})[0];
        REQUIRE(l >= 0);
        REQUIRE(l < 24);
        CHECK_FALSE(seen[l]);
        seen[l] = true;
        const auto r = t.upper_index({l});
        CHECK(r.found);
        CHECK(r.index == multi_index<3>{a, b, c});
      }
}

TEST_CASE("unmerge's inverse always finds a preimage: the top digit takes what is left, -1 -> (-1, 2, 3)") {
  const unmerge<3> t = make_unmerge({2, 3, 4});
  CHECK(t.upper_index({-1}).found);
  CHECK(t.upper_index({-1}).index == multi_index<3>{-1, 2, 3});
  CHECK(t.upper_index({30}).index == multi_index<3>{2, 1, 2});
  CHECK(t.lower_index({-1, 2, 3}) == multi_index<1>{-1});
}

TEST_CASE("unmerge of (4768, 389632) over (3, 2^20) is 5'000'000'000, beyond 2^31") {
  constexpr unmerge<2> t = make_unmerge({3, index_t{1} << 20});
  static_assert(t.lower_index({4768, 389632}) == multi_index<1>{5'000'000'000});
  CHECK(t.upper_index({5'000'000'000}).index == multi_index<2>{4768, 389632});
}

TEST_CASE("unmerge gives only the last upper dim a vector, cut to gcd(V, len_last)") {
  const auto v46 = make_unmerge({4, 6}).upper_vectors({{{8, 1}}});
  CHECK(v46[0] == vector_guarantee{unknown, unknown});
  CHECK(v46[1] == vector_guarantee{2, 1});
  CHECK(make_unmerge({4, 8}).upper_vectors({{{8, 1}}})[1] == vector_guarantee{8, 1});
  CHECK(make_unmerge({4, 16}).upper_vectors({{{8, 2}}})[1] == vector_guarantee{8, 2});
  CHECK(make_unmerge({4, 8}).upper_vectors({})[1] == vector_guarantee{unknown, unknown});
}

TEST_CASE("unmerge prints as make_unmerge({4, 4})") { CHECK(make_unmerge({4, 4}).cpp() == "make_unmerge({4, 4})"); }

TEST_CASE("make_unmerge with a product of lengths above 2^40 throws extent_too_large") {
  const auto [broken, message] = error_of([] { (void)make_unmerge({index_t{1} << 30, index_t{1} << 11}); });
  CHECK(broken == rule::extent_too_large);
  CHECK(message ==
        "tilesim: unmerge: a length, a product of lengths or an element space exceeds 2^40 "
        "(product up to dim = 1, product = 2199023255552)");
}
