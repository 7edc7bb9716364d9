// Laws of adaptor.hpp and descriptor.hpp: chains of bijections are bijections, and top_index inverts them.
#include <doctest/doctest.h>

#include "props/generators.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {
// "{1, 2} -> 7": a point and its offset, for failure messages.
std::string maps(const any_descriptor& d, const point& top) {
  return top.cpp() + " -> " + std::to_string(d.offset(top));
}
}  // namespace

TEST_SUITE("bijection") {
  TEST_CASE("a chain of bijections maps its top box one-to-one onto [0, element size)") {
    const auto law = [] {
      const any_descriptor d = *gen_descriptor(family::bijective);
      const point lengths = d.lengths();
      const index_t n = d.element_size();
      RC_ASSERT(d.element_space_size() == n);
      RC_CLASSIFY(n > index_t{1} << 16, "sampled");
      if (n <= index_t{1} << 16) {  // exhaustive: every offset in range and hit once
        std::vector<bool> hit(n, false);
        for (const point& top : points_to_check(lengths)) {
          const index_t o = d.offset(top);
          if (o < 0 || o >= n || hit[o]) RC_FAIL(maps(d, top) + (o < 0 || o >= n ? ", outside [0, n)" : ", hit twice"));
          hit[o] = true;
        }
      } else {  // sampled: drawn points land in [0, n) and come back; drawn offsets have a preimage in the box
        for (const point& top : points_to_check(lengths)) {
          const index_t o = d.offset(top);
          if (o < 0 || o >= n) RC_FAIL(maps(d, top) + ", outside [0, n)");
          if (!(d.top_index(o) == std::optional<point>(top)))
            RC_FAIL(maps(d, top) + ", but top_index does not give it back");
        }
        for (index_t o : *gen::resize(64, gen::nonEmpty(gen::container<std::vector<index_t>>(gen_index_below(n))))) {
          const std::optional<point> top = d.top_index(o);
          if (!top) RC_FAIL("offset " + std::to_string(o) + " has no top index");
          for (int i = 0; i < top->size; ++i)
            if ((*top)[i] < 0 || (*top)[i] >= lengths[i])
              RC_FAIL("offset " + std::to_string(o) + " <- " + top->cpp() + ", outside the box");
          if (d.offset(*top) != o) RC_FAIL("offset " + std::to_string(o) + " <- " + maps(d, *top));
        }
      }
    };
    CHECK(
        rc::check("a chain of bijective transforms maps [0, lengths) one-to-one onto [0, element size) "
                  "(exhaustive up to 2^16 points, sampled beyond)",
                  law));
  }

  TEST_CASE("top_index inverts calculate_offset on every in-range top index") {
    const auto law = [] {
      const any_descriptor d = *gen_descriptor(family::injective);
      for (const point& top : points_to_check(d.lengths())) {
        if (!d.in_range(top)) continue;  // pads: only valid points have a unique preimage
        const std::optional<point> back = d.top_index(d.offset(top));
        if (!back) RC_FAIL(maps(d, top) + ", but top_index finds nothing");
        if (!(*back == top)) RC_FAIL(maps(d, top) + ", but top_index gives " + back->cpp());
      }
    };
    CHECK(
        rc::check("inverse(forward(i)) == i: graph.top_index({offset(i)}) is .found and equals i for every in-range i "
                  "of an injective chain",
                  law));
  }

  TEST_CASE("a found top index maps back to the offset it was found for") {
    const auto law = [] {
      const any_descriptor d = *gen_descriptor(family::injective);
      const index_t space = d.element_space_size();
      const index_t o = *gen::map(gen_index_below(3 * space), [space](index_t x) { return x - space; });
      if (const std::optional<point> top = d.top_index(o)) RC_ASSERT(d.offset(*top) == o);
    };
    CHECK(rc::check("forward(inverse(o)) == o whenever top_index({o}) is .found, for any integer o", law));
  }

  TEST_CASE("valid top indices stay inside the element space") {
    const auto law = [] {
      const any_descriptor d = *gen_descriptor(family::any);
      for (const point& top : points_to_check(d.lengths())) {
        if (!d.is_valid(top)) continue;
        const index_t o = d.offset(top);
        if (o < 0 || o >= d.element_space_size())
          RC_FAIL(maps(d, top) + ", outside [0, " + std::to_string(d.element_space_size()) + ")");
      }
    };
    CHECK(rc::check("0 <= offset(i) < element_space_size for every valid i in the box", law));
  }
}
