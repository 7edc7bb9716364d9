// tilesim/sim/models/global_coalescing.hpp: the 32-byte sectors and 128-byte lines one global access touches.
//
//   const arch_table& sm90 = arch_named("sm90");
//   wave_access row{"row", access_kind::load, memory_space::global, 4, {0, 4, 8, ..., 124}};  // 32 lanes
//   global_cost g = global_instruction_cost(sm90, row);   // g.sectors == 4, g.lines == 1, g.ideal_sectors == 4
//
// DEFINITION. Addresses are byte offsets from a base aligned to 256 bytes (any alignment that is a multiple
// of the line size gives the same counts). Each active lane touches the bytes [addr, addr + width).
//   sectors        distinct `sector_bytes` blocks touched (what Nsight Compute counts per instruction in
//                  l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st} on sm90: 40 measured lines agree,
//                  data/calibration/h200-global-probe.truth.tsv)
//   lines          distinct `line_bytes` blocks touched
//   bytes          distinct bytes touched (lanes reading the same byte count it once)
//   ideal_sectors  ceil(bytes / sector_bytes): the fewest sectors that could hold those bytes
//   ideal_lines    ceil(bytes / line_bytes)
//
// WORKED EXAMPLES (32 lanes, sm90): 4 bytes at 4*i: 4 sectors, 1 line; at 32*i: 32 sectors, 8 lines, ideal
// 4; 16 bytes at 16*i: 16 sectors, 4 lines; 4 bytes at 4 + 4*i: 5 sectors (one extra for the misaligned
// start), ideal 4; every lane at 0: 1 sector.
//
// INVARIANTS: ideal_sectors <= sectors; ideal_lines <= lines <= sectors; a wave with no active lane touches
// nothing (all zero). Address count != wave size, a width outside 1..16, or an address whose last byte
// overflows 64 bits throw std::invalid_argument. No allocation.
#pragma once

#include <cstdint>

#include "sim/arch/arch.hpp"
#include "sim/wave_access.hpp"

namespace tilesim::sim {

struct global_cost {
  int sectors = 0;
  int lines = 0;
  std::int64_t bytes = 0;
  int ideal_sectors = 0;
  int ideal_lines = 0;
};

// Sectors and lines of one global instruction: 4 bytes at 32*i on 32 lanes -> {32, 8, 128, 4, 1}.
global_cost global_instruction_cost(const arch_table& arch, const wave_access& access);

}  // namespace tilesim::sim
