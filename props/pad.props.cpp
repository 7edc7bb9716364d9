// Laws of transforms/pad.hpp and descriptor::is_valid: pads are injective on valid points, and every point
// in a pad is reported invalid.
#include <doctest/doctest.h>

#include "props/chain.hpp"
#include "props/generators.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {

// A packed l0 x l1 tensor with both dims padded, top dims perhaps swapped; the oracle below is computed from
// these parameters alone.
struct padded_tensor {
  index_t length[2], left[2], right[2];
  index_t swap;  // 1: top dim 0 is padded dim 1
  any_descriptor d;

  // Padded dim k of a top index.
  index_t padded(const point& top, int k) const { return top[k == 0 ? swap : 1 - swap]; }
  bool valid(const point& top) const {
    for (int k : {0, 1})
      if (padded(top, k) < left[k] || padded(top, k) >= left[k] + length[k]) return false;
    return true;
  }
  // Row-major offset of the unpadded point.
  index_t unpadded_offset(const point& top) const {
    return (padded(top, 0) - left[0]) * length[1] + (padded(top, 1) - left[1]);
  }
};
void showValue(const padded_tensor& p, std::ostream& os) { os << "\n" << p.d.cpp(); }

rc::Gen<index_t> gen_pad_amount(index_t length) {
  return gen::weightedOneOf<index_t>({{2, gen::just<index_t>(0)},
                                      {2, gen::inRange<index_t>(1, 5)},
                                      {1, gen::map(gen_index_below(length), [](index_t x) { return x + 1; })}});
}

rc::Gen<padded_tensor> gen_padded_tensor() {
  return gen::exec([] {
    const index_t l0 = *gen_length(), l1 = *gen_length();
    const index_t lp0 = *gen_pad_amount(l0), rp0 = *gen_pad_amount(l0), lp1 = *gen_pad_amount(l1),
                  rp1 = *gen_pad_amount(l1);
    const index_t swap = *gen_pick<index_t>({0, 1});
    const index_t p0 = lp0 + l0 + rp0, p1 = lp1 + l1 + rp1;
    const any_descriptor d =
        start_chain(make_naive_descriptor_packed<2>({l0, l1}),
                    "make_naive_descriptor_packed<2>({" + std::to_string(l0) + ", " + std::to_string(l1) + "})",
                    "unmerge")
            .then("pad", step(make_pad(l0, lp0, rp0), {0}, {0}), step(make_pad(l1, lp1, rp1), {1}, {1}))
            .then("pass_through", step(make_pass_through(p0), {0}, {swap}),
                  step(make_pass_through(p1), {1}, {1 - swap}))
            .done();
    return padded_tensor{{l0, l1}, {lp0, lp1}, {rp0, rp1}, swap, d};
  });
}

}  // namespace

TEST_SUITE("pad") {
  TEST_CASE("a point is valid exactly when it lies inside every pad's window") {
    const auto law = [] {
      const padded_tensor p = *gen_padded_tensor();
      const point top =
          *gen::weightedOneOf<point>({{3, gen_point_in(p.d.lengths())}, {1, gen_point_around(p.d.lengths())}});
      RC_CLASSIFY(p.valid(top), "valid");
      RC_ASSERT(p.d.is_valid(top) == p.valid(top));
    };
    CHECK(
        rc::check("is_valid(make(i)) iff left_k <= u_k < left_k + length_k for each padded dim k, for i inside, "
                  "beside and below the box",
                  law));
  }

  TEST_CASE("valid points of a padded tensor map one-to-one onto the unpadded tensor") {
    const auto law = [] {
      const padded_tensor p = *gen_padded_tensor();
      const index_t n = p.length[0] * p.length[1];
      const point lengths = p.d.lengths();
      const bool exhaustive = volume(lengths) <= index_t{1} << 16;
      std::vector<bool> hit(exhaustive ? n : 0, false);
      index_t valid_points = 0;
      for (const point& top : points_to_check(lengths)) {
        if (!p.valid(top)) continue;
        ++valid_points;
        const index_t o = p.d.offset(top);
        if (o != p.unpadded_offset(top))
          RC_FAIL(top.cpp() + " -> " + std::to_string(o) + ", not the unpadded offset " +
                  std::to_string(p.unpadded_offset(top)));
        if (exhaustive) {
          if (hit[o]) RC_FAIL(top.cpp() + " -> " + std::to_string(o) + ", hit twice");
          hit[o] = true;
        }
      }
      if (exhaustive) RC_ASSERT(valid_points == n);
    };
    CHECK(
        rc::check("pads are injective on valid points: valid i maps to the unpadded offset of u - left, and the valid "
                  "points hit each of the l0 * l1 offsets once (exhaustive up to 2^16 points)",
                  law));
  }

  TEST_CASE("over random chains, is_valid is the AND of the pad windows") {
    const auto law = [] {
      const any_descriptor d = *gen_descriptor(family::any);
      const point top =
          *gen::weightedOneOf<point>({{3, gen_point_in(d.lengths())}, {1, gen_point_around(d.lengths())}});
      const std::vector<pad_window> windows = d.pad_windows(top);
      bool inside_all = true;
      for (const pad_window& w : windows) inside_all = inside_all && w.contains_upper();
      RC_CLASSIFY(!windows.empty(), "has pads");
      RC_ASSERT(d.is_valid(top) == inside_all);
    };
    CHECK(rc::check("is_valid(make(i)) is false exactly when some pad's upper index is outside [left, left + length)",
                    law));
  }
}
