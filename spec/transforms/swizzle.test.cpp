// Laws of transforms/swizzle.hpp: CuTe's Swizzle<B, M, S> on one dimension.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("swizzle_offset(3, 3, 3, 72) == 72 ^ ((72 & 0x1c0) >> 3) == 64") {
  static_assert(swizzle_offset(3, 3, 3, 72) == 64);
  CHECK(swizzle_offset(3, 3, 3, 72) == 64);
  CHECK(swizzle_offset(3, 3, 3, 7) == 7);  // the low M bits and row 0 never move
}

TEST_CASE("Swizzle<2,0,2> on 16 offsets gives 0 1 2 3 | 5 4 7 6 | 10 11 8 9 | 15 14 13 12") {
  constexpr swizzle t = make_swizzle(2, 0, 2, 16);
  static_assert(t.lower_index({4}) == multi_index<1>{5});
  const index_t expected[16] = {0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9, 15, 14, 13, 12};
  for (index_t u = 0; u < 16; ++u) CHECK(t.lower_index({u}) == multi_index<1>{expected[u]});
}

TEST_CASE("Swizzle<2,0,-2> mirrors it: the low bits key the high ones, 4r + c -> 4(r ^ c) + c") {
  const swizzle t = make_swizzle(2, 0, -2, 16);
  const index_t expected[16] = {0, 5, 10, 15, 4, 1, 14, 11, 8, 13, 2, 7, 12, 9, 6, 3};
  for (index_t u = 0; u < 16; ++u) CHECK(t.lower_index({u}) == multi_index<1>{expected[u]});
  CHECK(swizzle_offset(3, 3, -3, 8) == 8 + 64);  // chunk bit 3 is XOR-ed into bit 6
}

TEST_CASE("a swizzle with |S| >= B is an involution and permutes each aligned block, negative S too") {
  for (const swizzle t : {make_swizzle(3, 3, 3, 1024), make_swizzle(3, 3, -3, 1024), make_swizzle(2, 1, 4, 1024),
                          make_swizzle(2, 1, -2, 1024), make_swizzle(0, 4, 0, 1024)}) {
    CAPTURE(t.cpp());
    const index_t block = t.block();
    for (index_t u = 0; u < 1024; ++u) {
      const index_t l = t.lower_index({u})[0];
      CHECK(t.lower_index({l})[0] == u);
      CHECK(t.upper_index({l}).found);
      CHECK(t.upper_index({l}).index == multi_index<1>{u});
      CHECK(l / block == u / block);
    }
  }
}

TEST_CASE("swizzle moves recompute: update_lower_index agrees with lower_index") {
  const swizzle t = make_swizzle(3, 3, 3, 512);
  for (index_t u = 0; u < 512; u += 5)
    for (index_t d : {-70, -8, -1, 1, 8, 64, 65}) {
      multi_index<1> low = t.lower_index({u});
      const multi_index<1> before = low;
      CHECK(t.update_lower_index({d}, {u + d}, low) == t.lower_index({u + d}) - before);
      CHECK(low == t.lower_index({u + d}));
    }
}

TEST_CASE("a swizzle keeps a lower vector V as gcd(V, 2^M): 512 with M 3 gives 8, 4 with M 3 stays 4") {
  CHECK(make_swizzle(3, 3, 3, 512).upper_vectors({{{512, 1}}})[0] == vector_guarantee{8, 1});
  CHECK(make_swizzle(3, 3, 3, 512).upper_vectors({{{4, 1}}})[0] == vector_guarantee{4, 1});
  CHECK(make_swizzle(2, 0, 2, 16).upper_vectors({{{16, 1}}})[0] == vector_guarantee{1, 1});
}

TEST_CASE("Swizzle<3,3,3> has block 512, prints as make_swizzle(3, 3, 3, 512) and is named Swizzle<3,3,3>") {
  const swizzle t = make_swizzle(3, 3, 3, 512);
  CHECK(t.block() == 512);
  CHECK(make_swizzle(2, 0, -2, 16).block() == 16);
  CHECK(t.cpp() == "make_swizzle(3, 3, 3, 512)");
  CHECK(t.cute_name() == "Swizzle<3,3,3>");
  CHECK(make_swizzle(2, 0, -2, 16).cute_name() == "Swizzle<2,0,-2>");
}

TEST_CASE("make_swizzle rejects |S| < B, negative B or M, and lengths that are not whole blocks") {
  const auto [broken, message] = error_of([] { (void)make_swizzle(3, 3, 2, 512); });
  CHECK(broken == rule::swizzle_shift_smaller_than_bits);
  CHECK(message == "tilesim: swizzle: |S| must be >= B (B = 3, S = 2)");
  CHECK(error_of([] { (void)make_swizzle(3, 3, -2, 512); }).first == rule::swizzle_shift_smaller_than_bits);
  CHECK(error_of([] { (void)make_swizzle(-1, 3, 3, 512); }).second ==
        "tilesim: swizzle: B and M must be >= 0 (B = -1, M = 3)");
  CHECK(error_of([] { (void)make_swizzle(3, 3, 3, 500); }).second ==
        "tilesim: swizzle: the length must be a multiple of the block 2^(B+M+|S|) (length = 500, block = 512)");
  CHECK(error_of([] { (void)make_swizzle(20, 10, 20, index_t{1} << 40); }).first == rule::extent_too_large);
}
