// Laws of layouts/cute_swizzle.hpp: a row-major tile whose element offsets go through CuTe's Swizzle.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("Swizzle<3,3,3> on 8x64 fp16: element c of row r lands in row r, 16-byte chunk (c/8) XOR r, slot c mod 8") {
  const auto d = make_cute_swizzle_descriptor(3, 3, 3, 8, 64);
  CHECK(d.lengths() == multi_index<2>{8, 64});
  CHECK(d.element_space_size == 512);
  int mismatches = 0;
  for (index_t r = 0; r < 8; ++r)
    for (index_t chunk = 0; chunk < 8; ++chunk)
      for (index_t e = 0; e < 8; ++e)
        mismatches += d.calculate_offset({r, 8 * chunk + e}) != r * 64 + (chunk ^ r) * 8 + e;
  CHECK(mismatches == 0);
}

TEST_CASE("Swizzle<3,3,3> on 8x64: row 1 chunk 0 is stored at 72..79 and row 3 chunk 2 at 200..207") {
  constexpr auto d = make_cute_swizzle_descriptor(3, 3, 3, 8, 64);
  static_assert(d.calculate_offset({1, 0}) == 72);
  static_assert(d.calculate_offset({3, 16}) == 200);
  for (index_t e = 0; e < 8; ++e) {
    CHECK(d.calculate_offset({1, e}) == 72 + e);
    CHECK(d.calculate_offset({3, 16 + e}) == 200 + e);
  }
}

TEST_CASE("Swizzle<3,3,3> on 8x64 is a bijection onto [0, 512) and inverts through top_index") {
  const auto d = make_cute_swizzle_descriptor(3, 3, 3, 8, 64);
  std::vector<int> hits(512, 0);
  int not_inverted = 0;
  for (index_t r = 0; r < 8; ++r)
    for (index_t c = 0; c < 64; ++c) {
      const index_t o = d.calculate_offset({r, c});
      REQUIRE(o >= 0);
      REQUIRE(o < 512);
      ++hits[o];
      const auto back = d.graph.top_index({o});
      not_inverted += !(back.found && back.index == multi_index<2>{r, c});
    }
  CHECK(std::count(hits.begin(), hits.end(), 1) == 512);
  CHECK(not_inverted == 0);
}

TEST_CASE("Swizzle<3,3,-3> on 8x64 swaps the roles: chunk c of row r lands in row r XOR c, same chunk") {
  const auto d = make_cute_swizzle_descriptor(3, 3, -3, 8, 64);
  int mismatches = 0;
  for (index_t r = 0; r < 8; ++r)
    for (index_t c = 0; c < 64; ++c) mismatches += d.calculate_offset({r, c}) != (r ^ (c / 8)) * 64 + c;
  CHECK(mismatches == 0);
}

TEST_CASE("the swizzled tile keeps a vector of 2^M elements with stride 1 on the column dim") {
  const auto v = make_cute_swizzle_descriptor(3, 3, 3, 8, 64).top_vectors();
  CHECK(v[1] == vector_guarantee{8, 1});
  CHECK(v[0] == vector_guarantee{unknown, unknown});
  CHECK(make_cute_swizzle_descriptor(2, 2, 3, 8, 32).top_vectors()[1] == vector_guarantee{4, 1});
}

TEST_CASE("a tile that is not a whole number of swizzle blocks is rejected: 4x64 under Swizzle<3,3,3>") {
  const auto [broken, message] = error_of([] { (void)make_cute_swizzle_descriptor(3, 3, 3, 4, 64); });
  CHECK(broken == rule::swizzle_length_not_whole_blocks);
  CHECK(message ==
        "tilesim: swizzle: the length must be a multiple of the block 2^(B+M+|S|) (length = 256, block = 512)");
}
