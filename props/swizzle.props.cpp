// Laws of transforms/swizzle.hpp: CuTe's Swizzle<B, M, S> is an involution permuting aligned blocks.
#include <doctest/doctest.h>

#include "props/generators.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {

// Swizzle<B, M, S> with |S| >= B, S of either sign; prints as CuTe writes it.
struct swizzle_bits {
  int b, m, s;
  int abs_s() const { return s < 0 ? -s : s; }
  index_t block() const { return index_t{1} << (b + m + abs_s()); }
  // The B bits that change: at M for S >= 0, at M + |S| for S < 0 (CuTe's zzz_msk).
  index_t changing_bits() const { return ((index_t{1} << b) - 1) << (m + (s < 0 ? -s : 0)); }
};
void showValue(const swizzle_bits& x, std::ostream& os) { os << "Swizzle<" << x.b << "," << x.m << "," << x.s << ">"; }

rc::Gen<swizzle_bits> gen_swizzle_bits() {
  return gen::exec([] {
    const int b = *gen_pick<int>({0, 1, 2, 3, 4});
    const int m = *gen_pick<int>({0, 1, 2, 3, 4});
    const int abs_s = b + *gen_pick<int>({0, 1, 2, 3});  // blocks of at most 2^15 offsets
    return swizzle_bits{b, m, *gen_pick<int>({1, -1}) * abs_s};
  });
}

// Any offset: mostly within a few blocks of 0 (negative too), now and then far away.
rc::Gen<index_t> gen_offset(index_t block) {
  return gen::weightedOneOf<index_t>(
      {{4, gen::map(gen_index_below(8 * block), [block](index_t x) { return x - 4 * block; })},
       {1, gen::inRange<index_t>(-(index_t{1} << 50), index_t{1} << 50)}});
}

}  // namespace

TEST_SUITE("swizzle") {
  TEST_CASE("a swizzle applied twice is the identity") {
    const auto law = [] {
      const swizzle_bits z = *gen_swizzle_bits();
      RC_TAG(z.s < 0 ? "S < 0" : "S >= 0", z.b == 0 ? "B = 0" : "B > 0");
      const index_t o = *gen_offset(z.block());
      RC_ASSERT(swizzle_offset(z.b, z.m, z.s, swizzle_offset(z.b, z.m, z.s, o)) == o);
    };
    CHECK(rc::check("swizzle_offset(B, M, S, swizzle_offset(B, M, S, o)) == o for every offset o, |S| >= B", law));
  }

  TEST_CASE("a swizzle permutes every aligned block and only moves the B bits it XORs into") {
    const auto law = [] {
      const swizzle_bits z = *gen_swizzle_bits();
      const index_t block = z.block(), first = block * (*gen_index_below(17) - 8);
      std::vector<bool> hit(block, false);
      for (index_t o = first; o < first + block; ++o) {
        const index_t s = swizzle_offset(z.b, z.m, z.s, o);
        const auto at = [&] { return std::to_string(o) + " -> " + std::to_string(s); };
        if (((s ^ o) & ~z.changing_bits()) != 0) RC_FAIL(at() + " changes a bit outside the B bits");
        if (s < first || s >= first + block) RC_FAIL(at() + " leaves the block at " + std::to_string(first));
        if (hit[s - first]) RC_FAIL(at() + " is hit twice");
        hit[s - first] = true;
      }
    };
    CHECK(
        rc::check("swizzle_offset(B, M, S, .) permutes each aligned block [k 2^(B+M+|S|), (k+1) 2^(B+M+|S|)) and "
                  "changes only the B bits at M - min(0, S)",
                  law));
  }

  TEST_CASE("the swizzle transform is swizzle_offset and inverts itself") {
    const auto law = [] {
      const swizzle_bits z = *gen_swizzle_bits();
      const swizzle t = make_swizzle(z.b, z.m, z.s, z.block() * (1 + *gen_index_below(4)));
      const index_t o = *gen_offset(z.block());
      RC_ASSERT(t.lower_index({o})[0] == swizzle_offset(z.b, z.m, z.s, o));
      RC_ASSERT(t.upper_index(t.lower_index({o})).found);
      RC_ASSERT(t.upper_index(t.lower_index({o})).index[0] == o);
    };
    CHECK(rc::check("make_swizzle(B, M, S, L): lower_index(o) == swizzle_offset(B, M, S, o) and upper_index inverts it",
                    law));
  }
}
