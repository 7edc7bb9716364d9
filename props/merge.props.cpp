// Laws of transforms/merge.hpp and transforms/unmerge.hpp: with equal lengths they are inverse maps.
#include <doctest/doctest.h>

#include "props/generators.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {

// Equal lengths for a merge and an unmerge of 1..4 digits; printed as make_merge/make_unmerge calls.
template <int N>
struct merge_pair {
  multi_index<N> lengths;
  merge<N> m() const { return make_merge(lengths); }
  unmerge<N> u() const { return make_unmerge(lengths); }
  index_t size() const { return product(lengths); }
};
template <int N>
void showValue(const merge_pair<N>& p, std::ostream& os) {
  os << p.m().cpp() << " and " << p.u().cpp();
}

template <int N>
rc::Gen<merge_pair<N>> gen_merge_pair() {
  return gen::exec([] {
    merge_pair<N> p{};
    index_t size = 1;
    for (int i = 0; i < N; ++i) {
      const index_t len = *gen::weightedOneOf<index_t>({{4, gen::inRange<index_t>(1, 17)}, {1, gen_length()}});
      p.lengths[i] = size * len <= (index_t{1} << 32) ? len : 1 + len % 16;  // keeps the product <= 2^36
      size *= p.lengths[i];
    }
    return p;
  });
}

// An integer around [0, n): mostly in [-2n, 3n), now and then far outside.
rc::Gen<index_t> gen_integer_around(index_t n) {
  return gen::weightedOneOf<index_t>({{8, gen::map(gen_index_below(5 * n), [n](index_t x) { return x - 2 * n; })},
                                      {1, gen::inRange<index_t>(-(index_t{1} << 50), index_t{1} << 50)}});
}

// Digits for the lengths, each in [-2 len, 3 len): in range and out of range.
template <int N>
multi_index<N> pick_digits(const multi_index<N>& lengths) {
  multi_index<N> l{};
  for (int i = 0; i < N; ++i)
    l[i] = *gen::map(gen_index_below(5 * lengths[i]), [n = lengths[i]](index_t x) { return x - 2 * n; });
  return l;
}

template <int N>
bool lower_digits_in_range(const multi_index<N>& l, const multi_index<N>& lengths) {
  for (int i = 1; i < N; ++i)
    if (l[i] < 0 || l[i] >= lengths[i]) return false;
  return true;
}

template <int N>
void unmerge_undoes_merge() {
  const auto p = *gen_merge_pair<N>();
  const index_t u = *gen_integer_around(p.size());
  const multi_index<N> digits = p.m().lower_index({u});
  RC_ASSERT(lower_digits_in_range(digits, p.lengths));
  RC_ASSERT(p.u().lower_index(digits)[0] == u);
  RC_ASSERT(p.u().upper_index({u}).found);
  RC_ASSERT(p.u().upper_index({u}).index == digits);
}

template <int N>
void merge_undoes_unmerge() {
  const auto p = *gen_merge_pair<N>();
  const multi_index<N> l = pick_digits(p.lengths);
  const index_t v = p.u().lower_index(l)[0];
  const multi_index<N> back = p.m().lower_index({v});
  RC_ASSERT(p.u().lower_index(back)[0] == v);
  RC_ASSERT((back == l) == lower_digits_in_range(l, p.lengths));
  const inverse_result<1> up = p.m().upper_index(l);
  RC_ASSERT(up.found == lower_digits_in_range(l, p.lengths));
  if (up.found) RC_ASSERT(up.index[0] == v);
}


}  // namespace

TEST_SUITE("merge") {
  TEST_CASE("unmerge after merge is the identity on every integer") {
    CHECK(
        rc::check("unmerge(merge(u)) == u for every integer u (also negative and >= the product); merge's digits "
                  "1..N-1 are in range, and unmerge.upper_index(u) finds them",
                  over_counts<unmerge_undoes_merge<1>, unmerge_undoes_merge<2>, unmerge_undoes_merge<3>,
                                    unmerge_undoes_merge<4>>));
  }

  TEST_CASE("merge after unmerge is the identity exactly on in-range lower digits") {
    CHECK(
        rc::check("merge(unmerge(l)) == l iff l_1..l_N-1 are in range (l_0 is any integer); otherwise it is the "
                  "in-range digits of the same value; merge.upper_index(l) is .found exactly then",
                  over_counts<merge_undoes_unmerge<1>, merge_undoes_unmerge<2>, merge_undoes_unmerge<3>,
                                    merge_undoes_unmerge<4>>));
  }
}
