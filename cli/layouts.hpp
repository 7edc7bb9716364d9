// tilesim/cli/layouts.hpp: the built-in 2-D layouts that `tilesim layout NAME` can print.
//
// Each entry names a layout, lists its own options with defaults (the worked examples of spec/layouts/*.hpp),
// and builds a layout_grid: the spec/ descriptor evaluated at every top index (row, col), row-major, plus the
// words for the header. The descriptors come from spec/ unchanged; the cli never re-derives an offset.
//
//   row-major     make_row_major_descriptor(rows, cols)           4 x 4
//   padded        make_row_major_descriptor(rows, cols, pad)      4 x 4, pad 1 (rows start at 0 5 10 15)
//   ck-xor        make_ck_lds_xor_descriptor({M, K, KPack, ...})  128 x 32, KPack 8 (m=2: 72 64 88 80)
//   cute-swizzle  make_cute_swizzle_descriptor(B, M, S, R, C)     Swizzle<3,3,3> o 8 x 64
//   morton        make_morton_descriptor(rows, cols)              4 x 4
//
// A grid is limited to max_cells = 2^20 cells; larger requests are a usage_error, not a long wait.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/args.hpp"
#include "spec/config.hpp"

namespace tilesim::cli {

inline constexpr index_t max_cells = index_t{1} << 20;

// One layout evaluated on its whole (rows x cols) top space.
struct layout_grid {
  std::string name;                // "ck-xor"
  std::vector<std::string> about;  // header lines: what it is, its parameters, its formula
  std::string row_name, col_name;  // "m", "k"
  index_t rows = 0, cols = 0;
  index_t element_space = 0;     // the descriptor's element space size
  std::vector<index_t> offsets;  // offsets[r * cols + c]

  index_t at(index_t r, index_t c) const { return offsets[static_cast<std::size_t>(r * cols + c)]; }
};

struct layout_entry {
  std::string name;
  std::string summary;              // one line for --help
  std::vector<option_spec> params;  // its own options; the common ones are added by the caller
  // Builds the grid; spec/ rejections propagate as tilesim::spec_error, size limits as usage_error.
  std::function<layout_grid(const options&)> build;
};

// Every built-in layout, in the order `tilesim layouts` prints them.
const std::vector<layout_entry>& layouts();

// The entry named `name`, or nullptr.
const layout_entry* find_layout(std::string_view name);

// "row-major padded ck-xor cute-swizzle morton"
std::string layout_names();

}  // namespace tilesim::cli
