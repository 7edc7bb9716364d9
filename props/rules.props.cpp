// Laws of rules.hpp as the factories apply them: a parameter set is rejected exactly when it breaks a rule,
// also for values near the 2^40 limit and beyond 64-bit sums (no overflow may let a bad length through).
#include <doctest/doctest.h>

#include <climits>

#include "props/generators.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {

// A length or pad amount: small, around 2^40, up to 2^62, sometimes 0 or negative.
rc::Gen<index_t> gen_extent() {
  return gen::weightedOneOf<index_t>({{3, gen::inRange<index_t>(1, 17)},
                                      {3, gen::map(gen::inRange(0, 63), [](int k) { return index_t{1} << k; })},
                                      {2, gen::map(gen::inRange(-2, 3), [](int d) { return max_extent + d; })},
                                      {1, gen::inRange<index_t>(0, LLONG_MAX)},
                                      {1, gen::inRange<index_t>(-3, 1)}});
}

// Whether the call threw spec_error, and with which rule.
template <class F>
std::optional<rule> rule_broken_by(F&& make) {
  try {
    make();
    return std::nullopt;
  } catch (const spec_error& e) {
    return e.broken;
  }
}

__extension__ typedef __int128 wide;  // exact sums and products of 64-bit values

}  // namespace

TEST_SUITE("rules") {
  TEST_CASE("length lists are rejected exactly when a length or their product leaves [1, 2^40]") {
    const auto law = [] {
      const auto lengths = *gen::container<std::vector<index_t>>(3, gen_extent());
      wide product = 1;
      bool each_ok = true;
      for (index_t l : lengths) {
        each_ok = each_ok && l >= 1 && l <= max_extent;
        product = each_ok ? product * l : product;
      }
      const bool ok = each_ok && product <= max_extent;
      const std::optional<rule> broken = rule_broken_by([&] {
        (void)make_unmerge<3>({lengths[0], lengths[1], lengths[2]});
      });
      RC_CLASSIFY(ok, "accepted");
      RC_ASSERT(broken.has_value() == !ok);
      if (broken) RC_ASSERT((*broken == rule::length_not_positive || *broken == rule::extent_too_large));
    };
    CHECK(rc::check("make_unmerge({l0, l1, l2}) throws iff some l_i is outside [1, 2^40] or l0 * l1 * l2 > 2^40", law));
  }

  TEST_CASE("pads are rejected exactly when a pad is negative or the padded length leaves [1, 2^40]") {
    const auto law = [] {
      const index_t length = *gen_extent(), left = *gen_extent(), right = *gen_extent();
      const bool ok =
          length >= 1 && length <= max_extent && left >= 0 && right >= 0 && wide{left} + length + right <= max_extent;
      RC_CLASSIFY(ok, "accepted");
      RC_ASSERT(rule_broken_by([&] { (void)make_pad(length, left, right); }).has_value() == !ok);
    };
    CHECK(
        rc::check("make_pad(L, lp, rp) throws iff L is outside [1, 2^40], lp < 0, rp < 0 or lp + L + rp > 2^40", law));
  }

  TEST_CASE("swizzle parameters are rejected exactly when they break a swizzle rule") {
    const auto law = [] {
      const auto bits_value = gen::weightedOneOf<int>(
          {{6, gen::inRange(-1, 10)}, {1, gen::element(INT_MIN, INT_MIN + 1, INT_MAX - 1, INT_MAX)}});
      const int b = *bits_value, m = *bits_value, s = *bits_value;
      const wide abs_s = s < 0 ? -wide{s} : wide{s};
      const bool bits_ok = b >= 0 && m >= 0 && abs_s >= b && wide{b} + m + abs_s <= 40;
      const index_t block = bits_ok ? index_t{1} << (b + m + abs_s) : 1;
      const index_t length = *gen::weightedOneOf<index_t>(
          {{1, gen_extent()}, {1, gen::map(gen::inRange<index_t>(1, 5), [block](index_t k) { return k * block; })}});
      const bool ok = bits_ok && length >= 1 && length <= max_extent && length % block == 0;
      RC_CLASSIFY(ok, "accepted");
      RC_ASSERT(rule_broken_by([&] { (void)make_swizzle(b, m, s, length); }).has_value() == !ok);
    };
    CHECK(
        rc::check("make_swizzle(B, M, S, L) throws iff B < 0, M < 0, |S| < B, B + M + |S| > 40, or L is not a whole "
                  "number of 2^(B+M+|S|) blocks in [1, 2^40]",
                  law));
  }
}
