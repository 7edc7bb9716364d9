// tilesim/sim/synth/tile_access.hpp: how one LDS tile is written and read, in logical (row, col) coordinates.
//
// DEFINITION. Swizzle synthesis (synth.hpp) asks which LDS layout makes both sides of a tile conflict-free, so
// it needs each side's accesses BEFORE any layout is chosen: a `tile_side` is the list of wave-level
// instructions one side issues, each lane naming the logical tile element (row, col) where its vector of
// `elems` elements starts (the vector runs along the row: (row, col .. col+elems-1)), or no element (an
// inactive lane). A layout turns a side into `sim::wave_access` records (byte addresses) that the bank model
// prices (price_side in synth.hpp). A side comes from
//   an encoding      side_from_encoding: CK's tile distribution encoding, the window's own access order
//                    (load_store_traits over a view whose columns guarantee `vector` elements at stride 1):
//                    the k-th access of every lane of wave w is instruction (w, k)
//   a built-in name  named_side: warp-raked / thread-raked / block-raked (CK's raked patterns, the copy
//                    program's write), down-rows (lanes go down a column strip), mfma (the MFMA 32x32x8 A
//                    operand read, R = 32 rows per lane group, wave 64), mfma16 (R = 16, wave 64),
//                    ldmatrix (ldmatrix.x4 rows, R = 16, wave 32): kernel/copy/copy.hpp's patterns
//   a pattern file   side_from_patterns: `tilesim bank`'s format (sim/patterns/pattern_file.hpp) whose byte
//                    offsets are read as a ROW-MAJOR tile: element = offset / elem_bytes, (row, col) =
//                    (element / cols, element % cols); WIDTH / elem_bytes is the vector
//
// WORKED EXAMPLE (4 x 4 fp32 tile, a toy wave of 4 lanes, one element each). The writer stores row r with
// lane l at (r, l): 4 instructions {(r,0) (r,1) (r,2) (r,3)}; the reader loads column c with lane l at
// (l, c): 4 instructions {(0,c) (1,c) (2,c) (3,c)}. Row-major, reader column 0 is bytes 0 16 32 48: banks
// 0 4 8 12 of 16 banks, conflict-free; on 4 banks all four lanes hit bank 0 (4-way).
//
// INVARIANTS (check_side): every instruction has wave-size lanes and a weight of 0 to 10^6; an active lane's vector lies inside the
// tile and starts at a multiple of `elems` (the hardware's natural alignment under any vector-keeping
// layout); elems * elem_bytes is 1, 2, 4, 8 or 16 bytes.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/wave_access.hpp"
#include "spec/distribution/encoding.hpp"

namespace tilesim::synth {

// The tile both sides address: rows x cols elements of elem_bytes, rows and cols contiguous in row-major.
struct tile_shape {
  index_t rows = 0, cols = 0;
  int elem_bytes = 2;
  index_t elements() const { return rows * cols; }
};

// Where one lane's vector starts; row < 0 marks an inactive lane.
struct lane_coord {
  index_t row = -1, col = -1;
  bool active() const { return row >= 0; }
};

// One wave-level instruction of a side.
struct tile_instruction {
  std::string label;                 // "w0 a1": wave 0, access 1 (or the pattern file's NAME)
  sim::access_kind kind = sim::access_kind::load;
  int elems = 1;                     // elements per lane
  std::vector<lane_coord> lanes;     // one per lane of the wave
  long long weight = 1;              // how often a kernel issues it: its wavefronts count weight times
};

// One side (the writer or the reader) of a tile.
struct tile_side {
  std::string name;                  // "warp-raked", "encoding", "file x.patterns"
  std::vector<tile_instruction> instructions;
  int max_elems() const;             // the widest vector of the side (1 when empty)
};

// The k-th access of every thread of `e`, wave by wave: threads / wave instructions per access index.
// Throws spec_error when e is invalid or does not cover `threads` exactly, std::invalid_argument when its
// X lengths are not rows x cols.
tile_side side_from_encoding(const tile_distribution_encoding& e, const tile_shape& tile, index_t threads,
                             int wave, index_t vector, sim::access_kind kind, std::string name);

// The built-in side `name` (see the essay) for a block of `threads` on a wave of `wave` lanes; throws
// std::invalid_argument naming the known names, or spec_error for a split the pattern rejects.
tile_side named_side(std::string_view name, const tile_shape& tile, index_t threads, int wave, index_t vector,
                     sim::access_kind kind);

// "warp-raked thread-raked block-raked down-rows mfma mfma16 ldmatrix"
std::string side_names();

// A pattern file read as a row-major tile (see the essay); every line becomes one instruction of `kind`.
// Malformed lines, and offsets that are not whole elements of the tile, are appended to `errors` as
// "line N: ..." and skipped.
tile_side side_from_patterns(std::istream& in, const sim::arch_table& arch, const tile_shape& tile,
                             sim::access_kind kind, std::string name, std::vector<std::string>& errors);

// The first broken invariant of `s` (see the essay) as a sentence naming the values, or nothing.
std::optional<std::string> check_side(const tile_side& s, const tile_shape& tile, int wave);

}  // namespace tilesim::synth
