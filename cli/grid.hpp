// tilesim/cli/grid.hpp: printing a layout_grid as offset and bank grids, CuTe print_layout style.
//
// OUTPUT (tilesim layout morton --elem-bytes 4 --banks 8):
//
//   layout morton: Morton (Z-order) tile, 4 x 4 (make_morton_descriptor(4, 4))
//     offset bits interleave column bit i -> bit 2i and row bit i -> bit 2i+1; ...
//     top (r, c) in 4 x 4; element space 16; bijection onto [0, 16): yes
//   offsets:
//   r\c |  0  1  2  3
//   ----+------------
//     0 |  0  1  4  5
//     ...
//   banks: 4 B elements, 8 banks x 4 B; bank = (offset*4/4) mod 8
//   r\c | 0 1 2 3
//   ----+--------
//     0 | 0 1 4 5
//     ...
//   column-read conflicts: N = 2 (ideal 2) for the one group of 4 columns: conflict-free
//     (N = most distinct 4-byte words in one bank when all 4 rows read the same 4 columns ...)
//
// BANK MODEL (lds-banks-and-swizzles.md §0): banks are 4 bytes wide, bank = (byte_addr / 4) mod banks, and
// byte_addr = offset * elem_bytes. Elements narrower than 4 bytes share a word (fp16 offsets 2w and 2w+1 are
// both in word w); wider ones cover several words, and the grid shows the bank of the first.
//
// COLUMN-READ CONFLICT DEGREE, per column group (--group columns, default 16 bytes' worth): suppose every
// row of the tile reads the group's columns at the same time. N = the largest number of *distinct* 4-byte
// words that fall into one bank (the same word twice is a broadcast and costs nothing); ideal =
// ceil(distinct words / banks), the least any layout could reach. N == ideal means conflict-free for that
// read. It is a layout property, not a hardware model: no wave size, lane-to-row mapping or phase split
// (see lds-banks-and-swizzles.md §1.2, §2.3 for those) is applied.
#pragma once

#include <iosfwd>
#include <string>

#include "cli/layouts.hpp"

namespace tilesim::cli {

struct bank_model {
  index_t elem_bytes = 2;
  index_t banks = 32;
  // The bank of an element's first byte: bank_of(3) with 2 B elements and 32 banks is (6 / 4) mod 32 = 1.
  index_t bank_of(index_t offset) const;
};

struct view_options {
  bool show_offsets = true, show_banks = true;
  index_t max_rows = 0, max_cols = 0;  // 0: all
  index_t group = 0;                   // columns per column-read group; 0: 16 bytes' worth
  bank_model banks;
};

// "yes", or "no: ..." with the reason (injective but not onto, an offset hit twice, an offset outside).
std::string bijection_summary(const layout_grid& g);

// The one-line column-read conflict summary described above, starting "column-read conflicts: ".
std::string column_read_summary(const layout_grid& g, const bank_model& m, index_t group);

// The full `tilesim layout` output: header, offset grid, bank grid and summary, as `v` selects.
void print_layout(std::ostream& out, const layout_grid& g, const view_options& v);

}  // namespace tilesim::cli
