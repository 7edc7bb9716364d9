// Laws of transforms/embed.hpp: an affine map from N upper dims to one lower dim.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("embed({2, 3}, {3, 1}) maps (i, j) to 3i + j: (1, 2) -> 5") {
  constexpr embed<2> t = make_embed({2, 3}, {3, 1});
  static_assert(t.lower_index({1, 2}) == multi_index<1>{5});
  CHECK(t.upper_lengths() == multi_index<2>{2, 3});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) CHECK(t.lower_index({i, j}) == multi_index<1>{3 * i + j});
}

TEST_CASE("embed with aliasing coefficients (1, 1) maps both (0, 1) and (1, 0) to 1") {
  const embed<2> t = make_embed({2, 3}, {1, 1});
  CHECK(t.lower_index({0, 1}) == multi_index<1>{1});
  CHECK(t.lower_index({1, 0}) == multi_index<1>{1});
  CHECK(t.lower_index({1, 2}) == multi_index<1>{3});
}

TEST_CASE("embed moves add the dotted step: update_lower_index agrees with lower_index") {
  const embed<3> t = make_embed({3, 4, 5}, {20, 5, 1});
  for (index_t a = 0; a < 3; ++a)
    for (index_t b = 0; b < 4; ++b) {
      const multi_index<3> up{a, b, 2}, d{1, -2, 3};
      multi_index<1> low = t.lower_index(up);
      CHECK(t.update_lower_index(d, up + d, low) == multi_index<1>{20 - 10 + 3});
      CHECK(low == t.lower_index(up + d));
    }
}

TEST_CASE("embed without aliasing inverts exactly: upper_index(lower_index(u)) == u on the whole box") {
  const embed<2> t = make_embed({2, 3}, {3, 1});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) {
      const auto r = t.upper_index(t.lower_index({i, j}));
      CHECK(r.found);
      CHECK(r.index == multi_index<2>{i, j});
    }
}

TEST_CASE("embed({3, 2}, {2, 3}), injective but not a mixed radix, inverts exactly: 4 -> (2, 0), 3 -> (0, 1)") {
  const embed<2> t = make_embed({3, 2}, {2, 3});
  for (index_t a = 0; a < 3; ++a)
    for (index_t b = 0; b < 2; ++b) {
      const auto r = t.upper_index(t.lower_index({a, b}));
      CHECK(r.found);
      CHECK(r.index == multi_index<2>{a, b});
    }
  CHECK(t.upper_index({4}).index == multi_index<2>{2, 0});
  CHECK_FALSE(t.upper_index({1}).found);
  CHECK_FALSE(t.upper_index({6}).found);
}

TEST_CASE("embed({2, 2}, {4, 1}) has no preimage for the gap offsets 2, 3 and 6 nor for -1") {
  const embed<2> t = make_embed({2, 2}, {4, 1});
  for (index_t low : {2, 3, 6, 7, -1}) CHECK_FALSE(t.upper_index({low}).found);
  CHECK(t.upper_index({5}).index == multi_index<2>{1, 1});
  CHECK(t.upper_index({5}).found);
}

TEST_CASE("embed with aliasing coefficients reports one preimage that maps back: 1 -> (1, 0)") {
  const embed<2> t = make_embed({2, 3}, {1, 1});
  const auto r = t.upper_index({1});
  CHECK(r.found);
  CHECK(r.index == multi_index<2>{1, 0});
  CHECK(t.lower_index(r.index) == multi_index<1>{1});
}

TEST_CASE("embed with a zero coefficient leaves that dim at 0 in the inverse: ({3, 4}, {0, 1}) 2 -> (0, 2)") {
  const embed<2> t = make_embed({3, 4}, {0, 1});
  CHECK(t.upper_index({2}).found);
  CHECK(t.upper_index({2}).index == multi_index<2>{0, 2});
}

TEST_CASE("embed states no vector guarantee, not even from a guaranteed lower vector") {
  const embed<2> t = make_embed({4, 8}, {8, 1});
  const auto up = t.upper_vectors({{{8, 1}}});
  CHECK(up[0] == vector_guarantee{unknown, unknown});
  CHECK(up[1] == vector_guarantee{unknown, unknown});
}

TEST_CASE("embed prints as make_embed({2, 3}, {3, 1})") {
  CHECK(make_embed({2, 3}, {3, 1}).cpp() == "make_embed({2, 3}, {3, 1})");
}

TEST_CASE("embed((3, 4), (-4, 1)) at (2, 1) gives -7, CK's value: a flipped traversal of the rows") {
  // CK: coordinate_transform.hpp, embed::calculate_lower_index sums idx_up[i] * coefficients_[i] with no sign
  // rule, and make_embed_transform accepts any coefficients: (2, 1) -> 2 * -4 + 1 = -7.
  constexpr embed<2> t = make_embed({3, 4}, {-4, 1});
  static_assert(t.lower_index({2, 1}) == multi_index<1>{-7});
  for (index_t r = 0; r < 3; ++r)
    for (index_t c = 0; c < 4; ++c) CHECK(t.lower_index({r, c}) == multi_index<1>{-4 * r + c});
  // Moves stay linear: from (2, 1) by (-1, 2) is -7 + 4 + 2 = -1 == lower_index(1, 3).
  multi_index<1> low = t.lower_index({2, 1});
  CHECK(t.update_lower_index({-1, 2}, {1, 3}, low) == multi_index<1>{6});
  CHECK(low == t.lower_index({1, 3}));
  CHECK(t.is_valid_upper({2, 1}));  // embed has no invalid points, in CK or here
  CHECK(t.upper_vectors({{{4, 1}}})[0] == vector_guarantee{unknown, unknown});  // as CK: base_transform's -1
}

TEST_CASE("embed with negative coefficients inverts exactly: every lower in the range has its one preimage") {
  const embed<2> t = make_embed({3, 4}, {-4, 1});
  for (index_t low = -9; low <= 4; ++low) {
    const auto r = t.upper_index({low});
    const bool exists = low >= -8 && low <= 3;  // rows 0..2 at -4r, columns 0..3
    CHECK(r.found == exists);
    if (exists) CHECK(t.lower_index(r.index) == multi_index<1>{low});
  }
  CHECK(t.upper_index({-7}).index == multi_index<2>{2, 1});
  // Mixed signs that overlap: (3, 3) : (2, -3) hits -6..4; 1 = 2*2 - 3*1 only.
  const embed<2> m = make_embed({3, 3}, {2, -3});
  for (index_t low = -8; low <= 6; ++low) {
    bool exists = false;
    for (index_t a = 0; a < 3; ++a)
      for (index_t b = 0; b < 3; ++b) exists = exists || 2 * a - 3 * b == low;
    const auto r = m.upper_index({low});
    CHECK(r.found == exists);
    if (exists) CHECK(m.lower_index(r.index) == multi_index<1>{low});
  }
}

TEST_CASE("a naive descriptor with a negative stride keeps CK's element space 1 + Σ (len - 1) * stride") {
  // CK: make_naive_tensor_descriptor computes element_space_size as 1 + Σ (len_i - 1) * stride_i.
  const auto d = make_naive_descriptor<2>({3, 4}, {4, -1});
  CHECK(d.element_space_size == 6);
  CHECK(d.calculate_offset({0, 3}) == -3);
  CHECK(d.calculate_offset({2, 0}) == 8);
  // ({3, 4}, {-4, 1}) gives CK's space -4: refused, naming it.
  CHECK_THROWS_WITH_AS((void)make_naive_descriptor<2>({3, 4}, {-4, 1}),
                       "tilesim: descriptor: every length must be >= 1 (element space size = -4)", spec_error);
}

TEST_CASE("embed rejects a term (length - 1) * coefficient beyond 2^40, before any offset can overflow") {
  CHECK_THROWS_WITH_AS((void)make_embed<2>({4, 3}, {index_t{1} << 62, 1}),
                       "tilesim: embed: a length, a product of lengths or an element space exceeds 2^40 "
                       "(dim = 0, length = 4, coefficient = 4611686018427387904)",
                       spec_error);
  CHECK_THROWS_AS((void)make_naive_descriptor<2>({4, 3}, {index_t{1} << 62, 1}), spec_error);
  CHECK_NOTHROW((void)make_embed<2>({2, 3}, {index_t{1} << 39, 1}));
  CHECK_NOTHROW((void)make_embed<2>({2, 3}, {-(index_t{1} << 39), 1}));
  CHECK_THROWS_AS((void)make_embed<2>({4, 3}, {-(index_t{1} << 40), 1}), spec_error);  // |term| 3 * 2^40
  CHECK_THROWS_AS((void)make_embed<2>({1, 3}, {INT64_MIN, 1}), spec_error);            // |c| not representable
}
