// CK Tile conformance: docs/programming-guide.md's table ("Where CK Tile misbehaves") is this file's list, row for
// row, and every row's verdict is checked here. Verdicts: "as CK", "as CK, strict mode reports `kind`" (CK's
// behaviour is followed although it is wrong), "stricter than CK, reported in strict mode (`kind`)" (tilesim keeps
// a sounder rule and names where CK computes otherwise), or "refused: why". CK sources are ROCm/composable_kernel
// include/ck_tile/core/algorithm/{coordinate_transform,static_encoding_pattern}.hpp and its rocm-libraries
// successor (ck-tile-semantics.md §0).
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {

struct conformance_row {
  const char* construct;
  const char* verdict;
  const char* detail;  // what tilesim does, and CK's value or source
  std::function<void()> check;
};

const vector_guarantees<1> v8{{{8, 1}}};
const vector_guarantee none{unknown, unknown};

// A 4 x 8 packed tensor with an 8-vector on dim 1, then `t` on dim 1.
template <class T>
auto over_row(const T& t) {
  return transform_descriptor(make_naive_descriptor_packed<2>({4, 8}, 8), step(make_pass_through(4), {0}, {0}),
                              step(t, {1}, {1}));
}

const std::vector<conformance_row>& rows() {
  static const std::vector<conformance_row> r = {
      {"pass_through, unmerge, freeze, insert, replicate", "as CK",
       "offsets, moves; vectors passed (pass_through) or cut to gcd(V, last length) (unmerge)",
       [] {
         CHECK(make_pass_through(8).upper_vectors(v8)[0] == v8[0]);
         CHECK(make_unmerge<2>({4, 4}).upper_vectors(v8)[1] == vector_guarantee{4, 1});
         CHECK(make_unmerge<2>({4, 4}).lower_index({2, 1}) == multi_index<1>{9});
       }},
      {"pad (two-sided): offsets, moves, validity", "as CK", "valid iff lp <= u < lp + L (`pad`)",
       [] {
         CHECK_FALSE(make_pad(4, 1, 1).is_valid_upper({0}));
         CHECK(make_pad(4, 1, 1).is_valid_upper({4}));
         CHECK_FALSE(make_pad(4, 1, 1).is_valid_upper({5}));
       }},
      {"left_pad / right_pad validity", "as CK, strict mode reports `unchecked_pad_side`",
       "one side checked: u >= lp (`left_pad`), u < L (`right_pad`); right_pad(4, 1) at -1 is valid",
       [] {
         CHECK(make_right_pad(4, 1).is_valid_upper({-1}));
         CHECK(make_right_pad(4, 1).beyond_unchecked_side({-1}));
         CHECK(make_left_pad(4, 1).is_valid_upper({5}));
         CHECK(make_left_pad(4, 1).beyond_unchecked_side({5}));
       }},
      {"right_pad vectors", "as CK", "V passed through", [] { CHECK(make_right_pad(8, 3).upper_vectors(v8)[0] == v8[0]); }},
      {"pad / left_pad vectors", "stricter than CK, reported in strict mode (`vector_differs`)",
       "gcd(V, lp); CK passes V (left_pad always, pad in rocm-libraries' newest; 2024-10/2025 pad: none)",
       [] {
         CHECK(over_row(make_left_pad(8, 2)).top_vectors()[1] == vector_guarantee{2, 1});
         CHECK(over_row(make_left_pad(8, 2)).ck_top_vectors()[1] == v8[0]);
         CHECK(over_row(make_pad(8, 4, 4)).ck_top_vectors()[1] == v8[0]);
       }},
      {"embed, any coefficient sign", "as CK",
       "offset Σ u_i c_i, linear moves, no invalid points, no vector (`embed`): embed((3, 4), (-4, 1)) at (2, 1) = -7",
       [] {
         CHECK(make_embed({3, 4}, {-4, 1}).lower_index({2, 1}) == multi_index<1>{-7});
         CHECK(make_embed({3, 4}, {-4, 1}).upper_vectors(v8)[0] == none);
       }},
      {"embed term abs(c) (len - 1) > 2^40", "refused: extent_too_large",
       "offsets must stay exact in 64 bits (CK's 32-bit index overflows long before)",
       [] { CHECK(error_of([] { (void)make_embed<2>({4, 3}, {-(index_t{1} << 40), 1}); }).first == rule::extent_too_large); }},
      {"naive descriptor, negative stride", "as CK", "element space 1 + Σ (len - 1) stride: ({3, 4}, {4, -1}) has 6",
       [] { CHECK(make_naive_descriptor<2>({3, 4}, {4, -1}).element_space_size == 6); }},
      {"naive descriptor with element space < 1", "refused: length_not_positive",
       "CK's formula gives ({3, 4}, {-4, 1}) the space -4: no buffer has it",
       [] { CHECK(error_of([] { (void)make_naive_descriptor<2>({3, 4}, {-4, 1}); }).first == rule::length_not_positive); }},
      {"merge, u >= 0", "as CK", "mixed-radix digits, top digit not wrapped; descriptor::in_range reports u >= Π lengths",
       [] { CHECK(make_merge({4, 4}).lower_index({17}) == multi_index<2>{4, 1}); }},
      {"merge of a negative u", "stricter than CK, reported in strict mode (`ck_index_differs`)",
       "exact floor division: -2 -> (-1, 2); CK's magic division (`merge_v2_magic_division`) is undefined there",
       [] {
         CHECK(make_merge({4, 4}).lower_index({-2}) == multi_index<2>{-1, 2});
         CHECK(make_merge({4, 4}).ck_index_differs({-2}));
       }},
      {"merge vectors", "stricter than CK, reported in strict mode (`vector_differs`)",
       "gcd(V, last length); CK passes the last digit's V uncut, so a longer vector crosses digits",
       [] {
         const vector_guarantees<2> low{{{unknown, unknown}, {8, 1}}};
         CHECK(make_merge({4, 4}).upper_vectors(low)[0] == vector_guarantee{4, 1});
         CHECK(make_merge({4, 4}).ck_upper_vectors(low)[0] == vector_guarantee{8, 1});
       }},
      {"slice, offset, modulo vectors", "as CK", "none (base_transform's -1 in every version); was gcd(V, begin / offset / m)",
       [] {
         CHECK(over_row(make_slice(8, 0, 8)).top_vectors()[1] == none);
         CHECK(make_offset(8, 16).upper_vectors(v8)[0] == none);
         CHECK(make_modulo(4, 8).upper_vectors(v8)[0] == none);
       }},
      {"slice, offset: offsets, moves", "as CK", "u + b, u + o, no range check",
       [] { CHECK(make_slice(8, 2, 6).lower_index({5}) == multi_index<1>{7}); }},
      {"modulo of a negative u", "stricter than CK, reported in strict mode (`ck_index_differs`)",
       "floor mod (-1 mod 3 = 2); CK's C++ % gives -1",
       [] { CHECK(make_modulo(3, 6).ck_index_differs({-1})); }},
      {"modulo moves", "stricter than CK, reported in strict mode (`ck_index_differs`)",
       "recomputed, so move == make; CK's `modulo::update_lower_index` counts the step twice (strict mode follows "
       "one load's or store's walk)",
       [] { CHECK(make_modulo(4, 8).ck_move_differs({5}, {1})); }},
      {"xor_t with L1 a power of two", "as CK", "offsets and moves (`xor_t`)",
       [] { CHECK(make_xor(4, 4).lower_index({2, 1}) == multi_index<2>{2, 3}); }},
      {"xor_t with L1 not a power of two", "refused: xor_length_not_power_of_two",
       "CK's leaves [0, L1): L1 = 6, 5 XOR 3 = 6",
       [] { CHECK(error_of([] { (void)make_xor(4, 6); }).first == rule::xor_length_not_power_of_two); }},
      {"xor_t, cyclic shifts of a negative key", "stricter than CK, reported in strict mode (`ck_index_differs`)",
       "floor mod of the key; CK's C++ % truncates",
       [] {
         CHECK(make_xor(4, 4).ck_index_differs({-1, 0}));
         CHECK(make_cyclic_shift(4, 4).ck_index_differs({-1, 0}));
       }},
      {"xor_t, cyclic shift vectors", "stricter than CK, reported in strict mode (`vector_differs`)",
       "none; CK passes both guarantees, wrong where the key has low bits (row 1 stores columns 0 1 as 1 0)",
       [] {
         const vector_guarantees<2> low{{{unknown, unknown}, {8, 1}}};
         CHECK(make_xor(4, 8).upper_vectors(low)[1] == none);
         CHECK(make_xor(4, 8).ck_upper_vectors(low)[1] == vector_guarantee{8, 1});
       }},
      {"raked patterns, X1 = min(VecSize, rows*cols/threads)", "as CK",
       "CK 2025 `static_encoding_pattern.hpp`: warp-raked 256 threads, 16 x 32, VecSize 8 builds X1 = 2",
       [] { CHECK((raked_pattern{raking::warp, 256, 64, 16, 32, 8}.x1() == 2)); }},
      {"raked pattern with X1 not dividing cols, or X1 = 0", "refused: pattern_not_dividing",
       "CK 2025 covers X0 * X1 < cols columns silently (64 threads, 16 x 22, VecSize 11), or divides by zero",
       [] {
         CHECK(error_of([] { (void)make_warp_raked_encoding(64, 64, 16, 22, 11); }).first == rule::pattern_not_dividing);
         CHECK(error_of([] { (void)make_warp_raked_encoding(256, 64, 4, 32, 8); }).first == rule::pattern_not_dividing);
       }},
      {"raked pattern with cols/X1 > warp size", "refused: pattern_not_dividing",
       "rocm-libraries' newest adds a column iteration X2 (not modelled); CK 2025 refuses too",
       [] { CHECK(error_of([] { (void)make_warp_raked_encoding(64, 64, 64, 256, 2); }).first == rule::pattern_not_dividing); }},
      {"tile window validity", "as CK, strict mode reports `validity_differs`",
       "pads only, at each vector's first element; a straddling vector is all-or-nothing", [] {
         const auto d = over_row(make_right_pad(8, 2));
         CHECK(d.is_valid(d.make_coordinate({0, 7})));
         CHECK_FALSE(d.is_valid(d.make_coordinate({0, 8})));
       }},
      {"tile window bounds", "as CK, strict mode reports `outside_window`, `outside_tensor`, `outside_buffer`",
       "extra lanes unmasked, a column past a row wraps; only the buffer range protects memory",
       [] { CHECK(make_naive_descriptor<2>({4, 8}, {8, 1}).calculate_offset({0, 9}) == 9); }},
  };
  return r;
}

// One markdown line per row: "| construct | verdict | detail |".
std::string table() {
  std::string s = "| construct | verdict | what tilesim does; CK's value or source |\n| --- | --- | --- |\n";
  for (const conformance_row& r : rows()) s += std::string("| ") + r.construct + " | " + r.verdict + " | " + r.detail + " |\n";
  return s;
}

}  // namespace

TEST_CASE("every row of the conformance table holds") {
  for (const conformance_row& r : rows()) {
    CAPTURE(r.construct);
    r.check();
  }
}

TEST_CASE("docs/programming-guide.md's conformance table is this file's list, row for row") {
  const std::string page = "docs/programming-guide.md";
  std::ifstream in(page);  // meson runs spec_unit in the repository root
  REQUIRE_MESSAGE(in.good(), "run spec_unit from the repository root (it reads " << page << ")");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string readme = ss.str(), begin = "<!-- ck-conformance:begin -->\n", end = "<!-- ck-conformance:end -->";
  const std::size_t a = readme.find(begin), b = readme.find(end);
  REQUIRE_MESSAGE(a != std::string::npos, page << " has no " << begin);
  REQUIRE_MESSAGE(b != std::string::npos, page << " has no " << end);
  const std::string shown = readme.substr(a + begin.size(), b - a - begin.size());
  if (shown != table()) MESSAGE("paste between the markers:\n" << table());
  CHECK(shown == table());
}
