// Laws of transforms/xor.hpp: xor_t permutes its box exactly when L1 is a power of two.
#include <doctest/doctest.h>

#include <set>

#include "props/generators.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {

// The raw aggregate (make_xor rejects a non-power-of-two L1); prints as the C++ that builds it.
struct raw_xor {
  index_t l0, l1;
  xor_t t() const { return xor_t{{l0, l1}}; }
};
void showValue(const raw_xor& x, std::ostream& os) { os << "xor_t{{" << x.l0 << ", " << x.l1 << "}}"; }

// L1 in 1..64 (powers of two a third of the time), L0 in 1..80.
rc::Gen<raw_xor> gen_raw_xor() {
  return gen::exec([] {
    const index_t l1 = *gen::weightedOneOf<index_t>(
        {{2, gen::inRange<index_t>(1, 65)}, {1, gen::map(gen::inRange(0, 7), [](int k) { return index_t{1} << k; })}});
    return raw_xor{1 + *gen_index_below(80), l1};
  });
}

// Whether lower_index maps [0, L0) x [0, L1) one-to-one onto itself.
bool permutes_its_box(const xor_t& t) {
  std::set<std::pair<index_t, index_t>> seen;
  for (index_t u0 = 0; u0 < t.lengths[0]; ++u0)
    for (index_t u1 = 0; u1 < t.lengths[1]; ++u1) {
      const multi_index<2> low = t.lower_index({u0, u1});
      if (low[0] != u0 || low[1] < 0 || low[1] >= t.lengths[1]) return false;
      if (!seen.insert({low[0], low[1]}).second) return false;
    }
  return true;
}

}  // namespace

TEST_SUITE("xor") {
  TEST_CASE("xor_t is a bijection of its box iff L1 is a power of two") {
    const auto law = [] {
      const raw_xor x = *gen_raw_xor();
      const bool permutes = permutes_its_box(x.t());
      RC_CLASSIFY(is_power_of_two(x.l1), "L1 power of two");
      if (is_power_of_two(x.l1)) RC_ASSERT(permutes);
      if (x.l0 >= x.l1) RC_ASSERT(permutes == is_power_of_two(x.l1));  // every key 0..L1-1 occurs
    };
    CHECK(
        rc::check("xor_t{{L0, L1}} permutes [0, L0) x [0, L1) when L1 is a power of two, and (for L0 >= L1, where "
                  "every key occurs) only then",
                  law));
  }

  TEST_CASE("make_xor throws exactly for a non-power-of-two L1") {
    const auto law = [] {
      const index_t l0 = 1 + *gen_index_below(1 << 12);
      const index_t l1 =
          *gen::weightedOneOf<index_t>({{1, gen::map(gen::inRange(0, 21), [](int k) { return index_t{1} << k; })},
                                        {1, gen::inRange<index_t>(1, 1 << 20)}});
      bool threw = false;
      try {
        RC_ASSERT(make_xor(l0, l1).lengths == (multi_index<2>{l0, l1}));
      } catch (const spec_error& e) {
        threw = true;
        RC_ASSERT(e.broken == rule::xor_length_not_power_of_two);
      }
      RC_ASSERT(threw == !is_power_of_two(l1));
    };
    CHECK(
        rc::check("make_xor(L0, L1) throws spec_error(xor_length_not_power_of_two) iff L1 is not a power of two", law));
  }

  TEST_CASE("xor_t undoes itself for any L1") {
    const auto law = [] {
      const raw_xor x = *gen_raw_xor();
      const multi_index<2> up{*gen_index_below(4 * x.l0) - 2 * x.l0, *gen_index_below(4 * x.l1) - 2 * x.l1};
      const inverse_result<2> back = x.t().upper_index(x.t().lower_index(up));
      RC_ASSERT(back.found);
      RC_ASSERT(back.index == up);
    };
    CHECK(rc::check("xor_t{{L0, L1}}.upper_index(lower_index(u)) == u, .found, for every integer u and any L1", law));
  }
}
