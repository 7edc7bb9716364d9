// Laws and worked examples of load_store_traits.hpp (ck-tile-semantics.md §3.3, §3.4, §4.2).
#include <doctest/doctest.h>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;

namespace {
// The docs' 4x4: H0 = <2,2>, H1 = <2,2>; P0 -> H0[0], P1 -> H1[0]; Y0 -> H0[1], Y1 -> H1[1].
const tile_distribution_encoding docs_4x4 = make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});
// Warp-raked 64x32, vector 8 (§3.4).
const tile_distribution_encoding warp_raked =
    make_encoding({1}, {{4, 1, 16}, {4, 8}}, {{{1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}});

vector_guarantees<2> guarantee_last(index_t length, index_t stride) {
  vector_guarantees<2> g{};
  g[1] = {length, stride};
  return g;
}
}  // namespace

TEST_CASE("docs 4x4 with a {4, 1} guarantee on X1: Y1 gets gcd(4, 2) = 2 scalars, 2 accesses (§3.3)") {
  const auto t = make_load_store_traits(docs_4x4, guarantee_last(4, 1));
  CHECK(t.vector_dim_y == 1);
  CHECK(t.scalars_per_vector == 2);
  CHECK(t.num_access == 2);
  CHECK(t.first_y(0)[0] == 0);
  CHECK(t.first_y(1)[0] == 1);
  CHECK(t.first_y(1)[1] == 0);
}

TEST_CASE("docs 4x4 over a packed view with no stated guarantee: scalar, 4 accesses (§3.3)") {
  const auto desc = make_naive_descriptor_packed<2>({4, 4});
  const auto t = make_load_store_traits(docs_4x4, desc.top_vectors());
  CHECK(t.scalars_per_vector == 1);
  CHECK(t.num_access == 4);
}

TEST_CASE("warp-raked 64x32 with an 8-wide guarantee: one 8-scalar access along Y1 (§3.4)") {
  const auto desc = make_naive_descriptor<2>({64, 32}, {32, 1}, 8, 1);
  const auto t = make_load_store_traits(warp_raked, desc.top_vectors());
  CHECK(t.vector_dim_y == 1);
  CHECK(t.scalars_per_vector == 8);
  CHECK(t.num_access == 1);
}

TEST_CASE("a Y that is not the last H component of its X is never a vector dim") {
  // Y0 -> H1[0] (length 4, not last), Y1 -> H0[0]; P takes H1[1] and H0[1].
  const auto e = make_encoding({}, {{2, 2}, {4, 2}}, {{{1, 1}}, {{2, 1}}}, {{2, 0}, {1, 0}});
  const auto t = make_load_store_traits(e, guarantee_last(8, 1));
  CHECK(t.scalars_per_vector == 1);
  CHECK(t.num_access == 8);
}

TEST_CASE("an X guarantee with stride other than 1 vectorizes nothing") {
  const auto t = make_load_store_traits(docs_4x4, guarantee_last(4, 2));
  CHECK(t.scalars_per_vector == 1);
}

TEST_CASE("the longest vector wins and ties keep the first Y") {
  // Y0 -> H0[1] (length 4), Y1 -> H1[1] (length 4); both X guarantee {4, 1}.
  const auto e = make_encoding({}, {{2, 4}, {2, 4}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});
  vector_guarantees<2> both{};
  both[0] = {4, 1};
  both[1] = {4, 1};
  CHECK(make_load_store_traits(e, both).vector_dim_y == 0);
  both[0] = {2, 1};
  const auto t = make_load_store_traits(e, both);
  CHECK(t.vector_dim_y == 1);
  CHECK(t.scalars_per_vector == 4);
}

TEST_CASE("num_access * scalars_per_vector == elements per thread, in linear and snake order") {
  for (auto visit : {access_order::linear, access_order::snake}) {
    const auto t = make_load_store_traits(docs_4x4, guarantee_last(2, 1), visit);
    CHECK(t.num_access * t.scalars_per_vector == docs_4x4.elements_per_thread());
  }
}
