// tilesim/sim/timing/residency.hpp: which workgroups share an SM / CU, and what limits how many.
//
// DEFINITION. plan_residency(arch, grid, block, lds_bytes, registers) is the resident count: the least of the
// grid spread over the arch's processors, its threads, workgroups, LDS and register limits per processor (its
// occupancy table), with the limit that binds named. plan_sets(arch, grid, res) splits workgroups 0 .. grid-1 into
// the sets that share one processor, in pricing order: by processor (block % P), then in groups of the resident
// count in block order. The timing model runs one set on one clock (program_timing.hpp).
//
// WORKED EXAMPLE. An arch of 2 processors, 2 resident per processor, a grid of 4: plan_sets gives {0, 2} and {1, 3};
// 8 workgroups: {0, 2}, {4, 6}, {1, 3}, {5, 7}.
//
// INVARIANTS: res.workgroups >= 1 and res.processors >= 1; every workgroup 0 .. grid-1 is in exactly one set; a
// set holds at most res.workgroups workgroups, all on one processor.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"

namespace tilesim::sim {

// Which workgroups share an SM / CU and what limits them.
struct residency {
  int workgroups = 1;   // resident per SM / CU
  int processors = 1;   // SMs / CUs the grid runs on
  std::string limit;    // "the grid (...)", "threads (...)", "LDS (...)", ...
};

// The resident count for `grid` workgroups of `block` threads using `lds_bytes` of LDS (the most any uses)
// and `registers_per_thread` (0: unknown) on `arch`.
residency plan_residency(const arch_table& arch, int grid, int block, std::size_t lds_bytes, int registers_per_thread);

// The sets of workgroups 0 .. grid-1 that share one SM, in pricing order: by processor (block % P), then in
// groups of res.workgroups in block order.
std::vector<std::vector<int>> plan_sets(const arch_table& arch, int grid, const residency& res);

}  // namespace tilesim::sim
