// tilesim/gpu/crosscheck/source_match.hpp: Nsight Compute's per-SASS-instruction counters matched to a program's labels.
//
// DEFINITION. The simulator knows a program by its labels (ctx.label): every wave instruction carries one, with its
// class (lds or global, load / store / atomic, bytes per lane, ldmatrix). The GPU knows it by SASS instructions
// (source_counters.hpp). compare_source_counters matches the two so that each label's counts stand beside what
// Nsight Compute counted for its SASS instructions:
//   1. simulator side: per (label, class), the instances (wave instructions), wavefronts and sectors (the models:
//      lds_instruction_cost, global_instruction_cost), the first issue (interval, position) and the barrier
//      intervals it occurs in. Labels of one class that share an interval form one group: nothing orders their
//      SASS (the compiler may interleave them), so they are compared together and the row says so.
//   2. GPU side: the SASS rows of each class that executed with a lane predicated on (executed > 0 and not
//      predicated_off: a branch the launch never took, e.g. the other layout, has 0; a loop's guarded prologue
//      load may run with every lane off, touching nothing), in address order.
//   3. per class, in program order, each group takes the next SASS instructions until their executed counts add
//      up to its instances (a straight-line kernel: one SASS instruction per instance per warp; a loop: fewer
//      SASS instructions, each executed more often). When they overshoot, that group and the rest of its class
//      are "unmatched" (not compared: the alignment is lost, and the table says where); SASS instructions
//      left over are one "unmatched" row of their own.
//   A matched group is "equal" when Nsight's wavefronts and sectors equal the simulator's, else "DIFFER".
//   4. predication is not divergence: where nvcc predicates a guarded access instead of branching around it, every
//      warp of a block executes the SASS instruction as often as the block's busiest warp, the others with every
//      lane predicated off (the simulator issues nothing for them). A group whose SASS executed exactly its
//      instances plus those slots (per workgroup, waves x the busiest wave's instances - the waves' instances)
//      matches, and, where the page has "Predicated-On Thread Instructions Executed", only when Nsight's
//      predicated-on threads equal the simulator's active lanes; the row says how many executions ran all-off.
//
// WORKED EXAMPLE. Column sums, row-major (examples/user_program, 4 blocks x 8 warps of 32; the H100 page
// data/recordings/h100-user-program-source-0.csv): "column read" is 16 lds loads of 4 B per warp, 512 instances;
// nvcc made it a loop unrolled by 4, whose 4 LDS execute 128 times each (its 3 guarded remainder LDS run with
// every lane off), so the label takes those 4 (4 x 128 = 512) and compares 2048 wavefronts (4 per instruction,
// 4-way) with Nsight's 4 x 512; "final read" then takes the next 4 LDS (8 executions each, 1 wavefront each).
//
// INVARIANTS: every executed SASS memory instruction is in exactly one row; a row is compared only when its
// executed counts equal the simulator's instances; all_equal means every row is "equal" and none unmatched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/json.hpp"
#include "gpu/crosscheck/source_counters.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/run_result.hpp"

namespace tilesim::gpu {

struct source_row {
  std::vector<std::string> labels;  // one label; several when a group (see the top); none for leftover SASS
  sass_class cls;
  long long sim_instances = 0, gpu_executed = 0;
  long long sim_wavefronts = 0, gpu_wavefronts = 0;
  int sim_max_ways = 0;             // lds: the simulator's N-way (the worst phase of the worst instance)
  long long sim_sectors = 0, gpu_sectors = 0;
  long long sim_lanes = 0;          // active lanes summed over instances
  long long gpu_threads_on = -1;    // Nsight's predicated-on threads summed (-1: not on the page)
  long long predicated_off_slots = 0;   // the warp slots a predicating GPU adds (4. above)
  long long gpu_all_off = 0;        // executions Nsight counted with every lane predicated off (matched by 4.)
  int sass_instructions = 0;        // SASS instructions it took
  std::uint64_t first_offset = 0;   // the first one's address, from the kernel's first instruction
  std::vector<std::string> program_lines;  // its SASS instructions' program lines (sass_lines.hpp), when known
  std::string status;               // "equal", "DIFFER" or "unmatched"
  std::string note;                 // why unmatched, or that a group was compared together
  std::string name() const;         // the labels joined by " + ", or "(no label)"
};

struct source_comparison {
  std::string origin;             // where Nsight's counters came from (a file, or "live: BASE.csv")
  std::vector<source_row> rows;   // in program order (first issue), leftover SASS last
  int predicated_off = 0;         // SASS memory instructions executed only with every lane off (not compared)
  bool all_equal = false;
};

// Matches `sass` (one launch of the kernel the run simulates) to the run's labels; `arch` prices the run.
source_comparison compare_source_counters(const sim::arch_table& arch, const sim::run_result& run,
                                          const std::vector<sass_row>& sass, const std::string& origin);

// The table: label | class | instances sim / Nsight | SASS | N-way (sim) | wavefronts per instruction sim /
// Nsight | sectors sim / Nsight | agree | program lines (when the page has them); each line starts with `indent`.
std::string source_table(const source_comparison& c, const std::string& indent);

util::json_value to_json(const source_comparison& c);

}  // namespace tilesim::gpu
