// Laws of descriptor::top_vectors: a guaranteed vector (V, S) really is V offsets S apart.
#include <doctest/doctest.h>

#include "props/generators.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {

// The first index of every V-aligned vector along `dim` inside the box, or a drawn sample when there are many.
std::vector<point> vector_starts(const point& lengths, int dim, index_t v) {
  point starts_box = lengths;
  starts_box[dim] = lengths[dim] / v;  // whole vectors only
  std::vector<point> starts = points_to_check(starts_box, index_t{1} << 12);
  for (point& p : starts) p[dim] *= v;
  return starts;
}

// The longest guarantee that fits inside its top dim (1 when there is none).
index_t longest_guarantee(const any_descriptor& d) {
  const std::vector<vector_guarantee> g = d.top_vectors();
  index_t longest = 1;
  for (int dim = 0; dim < d.n_top(); ++dim)
    if (g[dim].length != unknown && g[dim].length <= d.lengths()[dim]) longest = std::max(longest, g[dim].length);
  return longest;
}

}  // namespace

TEST_SUITE("vectors") {
  TEST_CASE("a guaranteed vector is V consecutive offsets S apart") {
    const auto law = [] {
      const any_descriptor d = *gen::suchThat(gen_descriptor(family::vectors),
                                              [](const any_descriptor& x) { return longest_guarantee(x) > 1; });
      const point lengths = d.lengths();
      const std::vector<vector_guarantee> g = d.top_vectors();
      for (int dim = 0; dim < d.n_top(); ++dim) {
        const index_t v = g[dim].length, s = g[dim].stride;
        if (v == unknown || v > lengths[dim]) continue;
        for (const point& start : vector_starts(lengths, dim, v)) {
          const index_t first = d.offset(start);
          point at = start;
          for (index_t j = 1; j < v; ++j) {
            at[dim] = start[dim] + j;
            if (d.offset(at) != first + j * s)
              RC_FAIL("dim " + std::to_string(dim) + " guarantees (" + std::to_string(v) + ", " + std::to_string(s) +
                      "), but " + start.cpp() + " -> " + std::to_string(first) + " and " + at.cpp() + " -> " +
                      std::to_string(d.offset(at)));
          }
        }
      }
      RC_TAG(longest_guarantee(d) >= 8 ? "longest guarantee >= 8" : "longest guarantee 2..7");
    };
    CHECK(
        rc::check("top_vectors()[d] == {V, S}, V != unknown: the V top indices from any multiple of V along d map to "
                  "off, off + S, ..., off + (V-1) S",
                  law));
  }
}
