// Which LDS accesses pay for their own address (address_arithmetic.hpp). The laws:
//   an affine walk (each address the previous plus one constant for every lane and wave) costs nothing;
//   an XOR swizzle's walk, whose step depends on the lane, costs every access after the first;
//   a step uniform within each wave but different between waves is a per-thread value: it costs too;
//   the verdicts do not depend on the order of the waves.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "sim/pricing/address_arithmetic.hpp"

using namespace tilesim::sim;

namespace {

// Four lanes of wave `wave`; lane l's address for column k of a 4x4 tile of 4-byte words, 64 bytes per wave.
wave_access column_read(int wave, int k, bool xor_swizzle) {
  wave_access a;
  for (int l = 0; l < 4; ++l)
    a.address.push_back(static_cast<address_t>(64 * wave + 16 * l + 4 * (xor_swizzle ? (k ^ l) : k)));
  return a;
}

// needs_address_arithmetic over waves given as lists of accesses.
std::vector<std::vector<bool>> judge(const std::vector<std::vector<wave_access>>& waves) {
  std::vector<std::vector<const wave_access*>> lds;
  for (const auto& w : waves) {
    lds.emplace_back();
    for (const wave_access& a : w) lds.back().push_back(&a);
  }
  return needs_address_arithmetic(lds);
}

}  // namespace

TEST_CASE("uniform_step: one step for every lane active in both, else none") {
  CHECK(uniform_step(column_read(0, 0, false), column_read(0, 1, false)) == address_t{4});
  CHECK_FALSE(uniform_step(column_read(0, 0, true), column_read(0, 1, true)).has_value());  // steps +4, -4, +4, -4
  wave_access idle;
  idle.address.assign(4, no_address);
  CHECK_FALSE(uniform_step(idle, column_read(0, 0, false)).has_value());  // no common lane
}

TEST_CASE("an affine walk is free; an XOR swizzle's walk pays for every access after the first") {
  for (const bool swizzled : {false, true}) {
    std::vector<std::vector<wave_access>> waves(2);
    for (int w = 0; w < 2; ++w)
      for (int k = 0; k < 4; ++k) waves[w].push_back(column_read(w, k, swizzled));
    const auto needs = judge(waves);
    CAPTURE(swizzled);
    for (int w = 0; w < 2; ++w) {
      CHECK_FALSE(needs[w][0]);  // the wave's first address is the prologue's
      for (int k = 1; k < 4; ++k) CHECK(needs[w][k] == swizzled);
    }
  }
}

TEST_CASE("a step uniform in each wave but different between waves is per-thread: it pays") {
  // Wave 0 steps +4 per access, wave 1 steps +8 (as an XOR swizzle whose row bits are constant within a warp).
  std::vector<std::vector<wave_access>> waves(2);
  for (int k = 0; k < 3; ++k) {
    waves[0].push_back(column_read(0, k, false));
    waves[1].push_back(column_read(1, 2 * k, false));
  }
  const auto needs = judge(waves);
  CHECK(needs[0] == std::vector<bool>{false, true, true});
  CHECK(needs[1] == needs[0]);
  // Each wave alone would have been free.
  CHECK(judge({waves[0]})[0] == std::vector<bool>{false, false, false});
}

TEST_CASE("a walk that returns to an address a few accesses back by a constant step is free") {
  // A then B alternate (two tiles): A(k+1) is A(k) + 4 two accesses back, B likewise, while A -> B is not uniform.
  std::vector<std::vector<wave_access>> waves(1);
  for (int k = 0; k < 3; ++k) {
    waves[0].push_back(column_read(0, k, false));
    wave_access b = column_read(0, k, true);
    for (address_t& x : b.address) x += 1024;
    waves[0].push_back(b);
  }
  const auto needs = judge(waves);
  CHECK(needs[0] == std::vector<bool>{false, true, false, true, false, true});  // A free, B (XOR) pays
}

TEST_CASE("the verdicts do not depend on the order of the waves") {
  std::vector<std::vector<wave_access>> waves(3);
  for (int w = 0; w < 3; ++w)
    for (int k = 0; k < 4; ++k) waves[w].push_back(column_read(w, (k * (w + 1)) % 4, w == 1));
  auto forward = judge(waves);
  std::reverse(waves.begin(), waves.end());
  auto backward = judge(waves);
  std::reverse(backward.begin(), backward.end());
  CHECK(forward == backward);
}
