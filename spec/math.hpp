// tilesim/spec/math.hpp: exact integer helpers (floor division, gcd, powers of two).
//
// C++ `/` truncates toward zero; index math needs floor: floor_div(-1, 4) == -1, floor_mod(-1, 4) == 3.
#pragma once

#include "spec/config.hpp"

namespace tilesim {

// floor(a / b) for b > 0: floor_div(7, 2) == 3, floor_div(-7, 2) == -4.
TILESIM_HOST_DEVICE constexpr index_t floor_div(index_t a, index_t b) {
  index_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// a - b * floor(a / b), in [0, b) for b > 0: floor_mod(-1, 4) == 3. Written from the truncated remainder so
// that a compiler which knows a >= 0 and b == 2^n emits one AND (bench/descriptor.cpp).
TILESIM_HOST_DEVICE constexpr index_t floor_mod(index_t a, index_t b) {
  const index_t r = a % b;  // the sign of a
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// gcd(12, 18) == 6; gcd(0, 5) == 5.
TILESIM_HOST_DEVICE constexpr index_t gcd(index_t a, index_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    index_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// is_power_of_two(8) == true; is_power_of_two(6) == false; is_power_of_two(0) == false.
TILESIM_HOST_DEVICE constexpr bool is_power_of_two(index_t x) { return x > 0 && (x & (x - 1)) == 0; }

// log2 of a power of two: log2_exact(8) == 3.
TILESIM_HOST_DEVICE constexpr int log2_exact(index_t x) {
  int n = 0;
  while (x > 1) {
    x >>= 1;
    ++n;
  }
  return n;
}

// Rounds up to a multiple: round_up(10, 8) == 16.
TILESIM_HOST_DEVICE constexpr index_t round_up(index_t x, index_t multiple) {
  return floor_div(x + multiple - 1, multiple) * multiple;
}

// The largest value any descriptor length or element space may reach (2^40): products of lengths stay far
// from 64-bit overflow, and anything larger is certainly a typo, not a tile.
inline constexpr index_t max_extent = index_t{1} << 40;

}  // namespace tilesim
