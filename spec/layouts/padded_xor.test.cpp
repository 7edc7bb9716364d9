// Laws of layouts/padded_xor.hpp: padded rows whose columns are XOR-ed with a row-linear key, as `tilesim synth`
// realises its padded-xor answers.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

TEST_CASE("padded_xor worked example: 4 x 4, pad 1, keys {1, 2}: rows at 0 5 10 15, column c of row r at c XOR r") {
  constexpr auto d = make_padded_xor_descriptor(4, 4, 1, 0, row_xor_keys{2, {1, 2}});
  static_assert(d.calculate_offset({3, 1}) == 17);
  const index_t table[4][4] = {{0, 1, 2, 3}, {6, 5, 8, 7}, {12, 13, 10, 11}, {18, 17, 16, 15}};
  int wrong = 0;
  for (index_t r = 0; r < 4; ++r)
    for (index_t c = 0; c < 4; ++c) wrong += d.calculate_offset({r, c}) != table[r][c];
  CHECK(wrong == 0);
  CHECK(d.element_space_size == 19);
}

TEST_CASE("padded_xor: row r fills exactly its own cols slots (a bijection onto the footprint); vectors of 2^base stay whole") {
  // 16 x 64 fp16, 8-element chunks (base 3), pad 8, f(r) = keys over 4 row bits into the 3 chunk bits.
  const row_xor_keys keys{4, {3, 5, 6, 7}};
  const auto d = make_padded_xor_descriptor(16, 64, 8, 3, keys);
  int outside_row = 0, split = 0;
  std::vector<int> hits(16 * 72, 0);
  for (index_t r = 0; r < 16; ++r)
    for (index_t c = 0; c < 64; ++c) {
      const index_t o = d.calculate_offset({r, c});
      outside_row += o < r * 72 || o >= r * 72 + 64;
      ++hits[static_cast<std::size_t>(o)];
      if (c % 8) split += o != d.calculate_offset({r, c - 1}) + 1;
    }
  CHECK(outside_row == 0);
  CHECK(std::count(hits.begin(), hits.end(), 1) == 16 * 64);
  CHECK(split == 0);
  CHECK(d.top_vectors()[1].length == 8);
}

TEST_CASE("padded_xor rejects a key that would leave the row, and a negative pad") {
  CHECK(error_of([] { make_padded_xor_descriptor(4, 4, 1, 0, row_xor_keys{2, {1, 4}}); }).first == rule::padded_xor_key_out_of_range);
  CHECK(error_of([] { make_padded_xor_descriptor(4, 12, 1, 1, row_xor_keys{1, {2}}); }).first == rule::padded_xor_key_out_of_range);  // 12 = 4 * 3: span 4
  CHECK(error_of([] { make_padded_xor_descriptor(4, 4, -1, 0, row_xor_keys{1, {1}}); }).first == rule::pad_negative);
}

TEST_CASE("padded_xor: a huge base is a rule violation, not an overflow; a zero key is always allowed") {
  CHECK(error_of([] { make_row_linear_xor(4, 64, 39, row_xor_keys{1, {1}}); }).first == rule::padded_xor_key_out_of_range);
  CHECK(error_of([] { make_row_linear_xor(4, 4, 3, row_xor_keys{1, {0}}); }).first == rule::none);  // a zero key moves nothing
}
