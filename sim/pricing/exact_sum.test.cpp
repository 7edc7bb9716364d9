// Laws of exact_sum.hpp: one rounding of the exact sum, whatever the order, grouping or text round trip.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/pricing/exact_sum.hpp"

using tilesim::sim::exact_sum;

namespace {

// Bit-for-bit equality (also tells -0.0 from 0.0 and compares NaNs by pattern).
bool same_bits(double a, double b) {
  std::uint64_t x = 0, y = 0;
  std::memcpy(&x, &a, 8);
  std::memcpy(&y, &b, 8);
  return x == y;
}

// Doubles of every magnitude and sign: subnormals, ordinary values, huge ones.
double random_double(std::mt19937_64& rng) {
  std::uint64_t bits = rng();
  bits &= ~(std::uint64_t{0x7ff} << 52);
  bits |= (rng() % 0x7ff) << 52;  // any exponent but the non-finite one
  double d = 0;
  std::memcpy(&d, &bits, 8);
  return d;
}

}  // namespace

TEST_CASE("exact_sum: two addends give IEEE addition's result (one correct rounding of the exact sum)") {
  // The law: IEEE x + y is the exact sum rounded to nearest-even, which is what value() promises.
  std::mt19937_64 rng(15);
  for (int i = 0; i < 20000; ++i) {
    const double x = random_double(rng), y = i % 3 == 0 ? random_double(rng) : x * std::ldexp(1.0, static_cast<int>(rng() % 120) - 60);
    exact_sum s;
    s.add(x);
    s.add(y);
    const double want = x + y;
    if (std::isinf(want)) continue;  // beyond the largest double: no exact-sum promise
    CHECK_MESSAGE(same_bits(s.value() == 0 ? 0.0 : s.value(), want == 0 ? 0.0 : want), x << " + " << y);
  }
}

TEST_CASE("exact_sum: no intermediate rounding (1e16 + 1 - 1e16 == 1), one addend is itself") {
  exact_sum s;
  s.add(1e16);
  s.add(1.0);
  s.add(-1e16);
  CHECK(s.value() == 1.0);
  for (double x : {0.1, -3.5, 5e-324, 1.7976931348623157e308, -2.2250738585072014e-308}) {
    exact_sum one;
    one.add(x);
    CHECK(same_bits(one.value(), x));
  }
  CHECK(exact_sum().value() == 0.0);
}

TEST_CASE("exact_sum: any order and any grouping into merged parts give the same bits and the same text") {
  // The law the streamed report rests on: the sum depends only on the multiset of addends.
  std::mt19937_64 rng(7);
  std::vector<double> v;
  for (int i = 0; i < 3000; ++i) v.push_back(std::ldexp(static_cast<double>(rng() % 100000) / 7.0, static_cast<int>(rng() % 40) - 20));
  exact_sum in_order;
  for (double x : v) in_order.add(x);
  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(v.begin(), v.end(), rng);
    exact_sum merged, part;
    for (std::size_t i = 0; i < v.size(); ++i) {
      part.add(v[i]);
      if (rng() % 17 == 0) {
        merged.merge(part);
        part = exact_sum();
      }
    }
    merged.merge(part);
    CHECK(same_bits(merged.value(), in_order.value()));
    CHECK(merged.text() == in_order.text());
    CHECK(merged == in_order);
  }
}

TEST_CASE("exact_sum: the text form round-trips exactly; malformed texts are refused naming the text") {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200; ++i) {
    exact_sum s;
    for (int k = 0; k < 5; ++k) s.add(random_double(rng));
    const exact_sum back = exact_sum::parse(s.text());
    CHECK(back == s);
    CHECK(same_bits(back.value(), s.value()));
  }
  exact_sum inf;
  inf.add(std::numeric_limits<double>::infinity());
  inf.add(2.0);
  CHECK(std::isinf(exact_sum::parse(inf.text()).value()));
  CHECK(exact_sum::parse("0").value() == 0.0);
  for (const char* bad : {"", "x", "1:", ":1", "2:1,1:1", "1:0", "1:100000000", "70:1", "1:1,", "1:1;what"})
    CHECK_THROWS_WITH_AS(exact_sum::parse(bad), ("exact sum: '" + std::string(bad) + "' is not an exact sum's text").c_str(),
                         std::invalid_argument);
}
