// Laws of coordinate.hpp: a moved coordinate is the coordinate made afresh at the new index.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "props/generators.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

TEST_SUITE("move") {
  TEST_CASE("moves agree with fresh evaluations over random chains of every transform kind") {
    const auto law = [] {
      const any_descriptor d = *gen_descriptor(family::any);
      const point lengths = d.lengths();
      const point start = *gen::weightedOneOf<point>({{3, gen_point_in(lengths)}, {1, gen_point_around(lengths)}});
      const auto steps = *gen::resize(4, gen::nonEmpty(gen::container<std::vector<point>>(gen_step(lengths))));
      const walk_result moved = d.walk(start, steps);
      point at = start;
      for (std::size_t k = 0; k < steps.size(); ++k) {
        const point next = at + steps[k];
        RC_ASSERT(moved.offset_steps[k] == d.offset(next) - d.offset(at));
        at = next;
      }
      RC_ASSERT(moved.hidden == d.hidden(at));
    };
    CHECK(rc::check(
        "move(make(i), s) == make(i + s) on every hidden component, and move returns offset(i + s) - offset(i)", law));
  }

  TEST_CASE("the random chains of family::any cover every transform kind") {
    std::map<std::string, int> chains_with;
    const int samples = 2000;
    for (int k = 0; k < samples; ++k) {
      const any_descriptor d = gen_descriptor(family::any)(rc::Random(k), k % 101).value();
      std::set<std::string> kinds(d.kinds().begin(), d.kinds().end());
      for (const std::string& kind : kinds) ++chains_with[kind];
    }
    for (const char* kind :
         {"pass_through", "pad", "slice", "offset", "modulo", "swizzle", "xor_t", "cyclic_shift",
          "inverse_cyclic_shift", "merge", "unmerge", "morton", "embed", "freeze", "insert", "replicate"}) {
      INFO(std::string(kind), " is in ", chains_with[kind], " of ", samples, " chains");
      CHECK(chains_with[kind] >= samples / 50);
    }
  }
}
