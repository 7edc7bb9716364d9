// tilesim/sim/engine/grid_touches.hpp: which workgroups read and wrote each global byte, as a compact summary.
//
// DEFINITION. Workgroups never synchronize, so two of them race on a global byte when one writes it and
// the other touches it, unless both only add atomically (races.hpp, across_workgroups). Deciding that needs,
// per byte and per kind of touch (read, write, atomic add), only whether no workgroup, exactly one (which) or
// several made it: a block_summary. A grid_touch_map keeps that summary for runs of bytes that share it (an
// interval map: a key starts a run that lasts until the next key), so its size is the number of distinct
// runs, not of accesses: a 2048^3 GEMM's 1024 workgroups leave about 70 thousand runs (C's tile rows; A and B
// rows read by whole block rows), where the trace held billions of lane accesses. conflicts() lists the byte
// ranges where some two workgroups race: exactly the bytes find_races(across_workgroups) would report, so a
// streamed run knows without the trace whether the grid has such a race, and where to look for its threads.
//
// WORKED EXAMPLE. Workgroup 0 writes bytes [0, 64), workgroup 1 reads [32, 96), workgroup 2 adds atomically
// to [200, 208) and so does workgroup 3:
//   runs: [0, 32) write {0}; [32, 64) write {0}, read {1}; [64, 96) read {1}; [200, 208) atomic {2, 3}
//   conflicts() == {[32, 64)}; written() == {[0, 64), [200, 208)}
//
// INVARIANTS: adding workgroups or merging maps in any order gives the same map (block sets are unions);
// conflicts() and written() are sorted, disjoint and coalesced; parse(text()) is the same map.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/races.hpp"

namespace tilesim::sim {

// The workgroups that made one kind of touch: none (first < 0), one (first), or several (many; first the least).
struct block_summary {
  int first = -1;
  bool many = false;
  bool empty() const { return first < 0; }
  // Some workgroup in it other than `block`.
  bool other_than(int block) const { return many || (first >= 0 && first != block); }
  void add(const block_summary& s);
  bool operator==(const block_summary&) const = default;
};

// The summary of one run of bytes.
struct touch_cell {
  block_summary read, write, atomic;
  bool empty() const { return read.empty() && write.empty() && atomic.empty(); }
  // Two different workgroups race here: one writes, the other touches, not both atomically.
  bool conflict() const;
  bool operator==(const touch_cell&) const = default;
};

using byte_ranges = std::vector<std::pair<address_t, address_t>>;

class grid_touch_map {
 public:
  // Adds the global touches of workgroup `block` (any order; each touch's own block is ignored).
  void add_workgroup(int block, const std::vector<touch>& touches);
  // Adds every run of `other`.
  void merge(const grid_touch_map& other);
  // Byte ranges where two workgroups race (see above), and every byte some workgroup wrote or added to.
  byte_ranges conflicts() const;
  byte_ranges written() const;
  // Runs held (the map's size).
  std::size_t runs() const { return runs_.size(); }
  bool operator==(const grid_touch_map&) const = default;

  // "BEGIN:R/W/A;..." with each summary "-", "B" or "B+" (several, the least B); parse throws
  // std::invalid_argument naming the first bad run.
  std::string text() const;
  static grid_touch_map parse(const std::string& text);

 private:
  std::map<address_t, touch_cell> runs_;  // a key starts a run lasting to the next key; the last run is empty
  // Puts a run boundary at x (the run that held x is split in two, same summary).
  void split(address_t x);
  // Adds `what` to the summaries of kind `kind` (0 read, 1 write, 2 atomic) over [begin, end).
  void add(address_t begin, address_t end, int kind, const block_summary& what);
  // Joins neighbouring runs with equal summaries around [begin, end].
  void coalesce(address_t begin, address_t end);
};

}  // namespace tilesim::sim
