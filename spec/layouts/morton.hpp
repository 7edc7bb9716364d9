// tilesim/spec/layouts/morton.hpp: a tile stored in Morton (Z) order, built two ways.
//
// make_morton_descriptor(R, C) uses the bit-interleaving transform (transforms/morton.hpp).
// make_morton_descriptor_from_digits<Bits>() builds the square 2^Bits x 2^Bits case from CK's vocabulary
// alone: unmerge(2, ..., 2) of the offset into the 2*Bits bits (r_top, c_top, ..., r_0, c_0), then
// merge(2, ..., 2) of the row bits into the row and of the column bits into the column.
//
// WORKED EXAMPLE (4x4, both ways):   0  1  4  5 /  2  3  6  7 /  8  9 12 13 / 10 11 14 15
#pragma once

#include "spec/descriptor.hpp"
#include "spec/transforms/merge.hpp"
#include "spec/transforms/morton.hpp"
#include "spec/transforms/unmerge.hpp"

namespace tilesim {

// make_morton_descriptor(4, 4): top (row, col) -> Z-order offset.
TILESIM_HOST_DEVICE constexpr auto make_morton_descriptor(index_t rows, index_t cols) {
  auto flat = make_naive_descriptor_packed<1>({rows * cols});
  return transform_descriptor(flat, step(make_morton(rows, cols), {0}, {0, 1}));
}

// The same square layout from unmerge + merge; Bits = log2 of the side.
template <int Bits>
TILESIM_HOST_DEVICE constexpr auto make_morton_descriptor_from_digits() {
  static_assert(Bits >= 1 && Bits <= 10, "make_morton_descriptor_from_digits: Bits must be in [1, 10]");
  constexpr index_t side = index_t{1} << Bits;
  auto flat = make_naive_descriptor_packed<1>({side * side});
  // Offset bits, most significant first: r_{Bits-1}, c_{Bits-1}, ..., r_0, c_0.
  auto bits = transform_descriptor(flat, step(make_unmerge(multi_index<2 * Bits>::filled(2)), {0}, iota<2 * Bits>()));
  multi_index<Bits> row_bits{}, col_bits{};
  for (int k = 0; k < Bits; ++k) {
    row_bits[k] = 2 * k;
    col_bits[k] = 2 * k + 1;
  }
  return transform_descriptor(bits, step(make_merge(multi_index<Bits>::filled(2)), row_bits, {0}),
                              step(make_merge(multi_index<Bits>::filled(2)), col_bits, {1}));
}

}  // namespace tilesim
