// tilesim/sim/pricing/reused_loads.hpp: which LDS loads a compiler leaves out because it already holds the data.
//
// DEFINITION. A shared-memory load that is not volatile may be served from a register: when a thread loads the
// same bytes it loaded earlier, with no barrier and no store of its own to shared memory in between, and the compiler
// can prove the two addresses equal, it keeps the first load's result and issues no second one. A stencil whose
// offsets wrap onto the same elements (offsets -1 and +1 of a tile 2 rows high read the same row) is the common case.
// The compiler proves equality on expressions, not values: a read of the same window at the same origin again, or of
// elements whose wrapped index folds to a constant, is reused; a read that meets an earlier one only for the values
// at hand (a window one row down, whose element y is the earlier element y + 1 in every lane) is not. The rule works
// on what the simulator sees, per wave, on BLOCKS: runs of consecutive plain LDS loads (not an ldmatrix, not a cp.async
// landing, not an atomic) with no arithmetic stated between them, which is what one window load of a tile records.
// A block is reused, wholly, when its loads are an earlier block's of the same barrier interval in some order (each
// of its loads equal, width and every lane's address and which lanes take part, to a different one of that block's),
// with no LDS store, atomic or stmatrix of the wave since. Applied where the arch says its compiler does it
// (arch_table::codegen.reuses_lds_loads).
//
// WORKED EXAMPLE. Four lanes, a 2x4 tile of 4-byte words, lane l in column l, row r at 16 r + 4 l; a stencil reads
// offsets (0,0), (-1,0), (+1,0) from row 0, one block each (arithmetic between them): rows 0, 1, 1 (modulo 2):
//   block 0: load {0, 4, 8, 12}        issued
//   block 1: load {16, 20, 24, 28}     issued
//   block 2: load {16, 20, 24, 28}     reused (block 1's registers)
// With a store {0, 4, 8, 12} of the same wave between blocks 1 and 2, block 2 is issued. A block {16..28}, {0..12}
// after the block {0..12}, {16..28} is reused (the same loads, in another order); a block {16..28}, {32..44} is not
// (only part of it was loaded).
//
// INVARIANTS: the first block of an interval is never reused; a reused block has the length of the earlier block it
// matches; barriers (a new interval) and the wave's LDS writes forget every earlier block; global accesses change
// nothing (they cannot alias shared memory). Misses what nvcc also does (measured, not modelled): a narrower load
// served from part of a wider one, and a part of a block (some elements fold, others do not).
// Measured: data/recordings/props-h200-kinds-seed20261201.json (sim/arch/sm90.cpp, codegen).
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "sim/engine/run_result.hpp"

namespace tilesim::sim {

// reused[i]: the wave's instruction i is an LDS load the compiler serves from an earlier one's registers.
inline std::vector<bool> reused_lds_loads(const wave_record& wave) {
  const std::vector<wave_instruction>& ins = wave.instructions;
  std::vector<bool> reused(ins.size(), false);
  auto plain_load = [&](std::size_t n) {
    const wave_instruction& i = ins[n];
    return i.access.space == memory_space::lds && i.access.kind == access_kind::load && !i.atomic && !i.matrix_access &&
           !i.async_copy;
  };
  auto same = [&](std::size_t a, std::size_t b) {
    return ins[a].access.width == ins[b].access.width && ins[a].access.address == ins[b].access.address;
  };
  std::vector<std::pair<std::size_t, std::size_t>> held;  // this interval's issued blocks [first, end) since an LDS write
  int interval = -1;
  for (std::size_t n = 0; n < ins.size();) {
    const wave_instruction& i = ins[n];
    if (i.interval != interval) held.clear(), interval = i.interval;
    if (!plain_load(n)) {
      if (i.access.space == memory_space::lds && (i.access.kind == access_kind::store || i.atomic)) held.clear();
      ++n;
      continue;
    }
    std::size_t end = n + 1;  // the block: loads up to the next stated arithmetic, other access or barrier
    while (end < ins.size() && plain_load(end) && ins[end].interval == interval && ins[end].alu_before.empty()) ++end;
    bool found = false;  // the block is an earlier block's loads, in any order (each matched once)
    for (const auto& [first, last] : held) {
      if (last - first != end - n) continue;
      std::vector<bool> used(last - first, false);
      found = true;
      for (std::size_t k = n; k < end && found; ++k) {
        found = false;
        for (std::size_t j = first; j < last && !found; ++j)
          if (!used[j - first] && same(j, k)) used[j - first] = true, found = true;
      }
      if (found) break;
    }
    if (found) std::fill(reused.begin() + static_cast<std::ptrdiff_t>(n), reused.begin() + static_cast<std::ptrdiff_t>(end), true);
    else held.emplace_back(n, end);
    n = end;
  }
  return reused;
}

}  // namespace tilesim::sim
