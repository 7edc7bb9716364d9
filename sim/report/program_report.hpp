// tilesim/sim/report/program_report.hpp: what a simulated run cost, instruction by instruction.
//
// DEFINITION. The engine (sim/engine) says what every wave did; the models price each wave-level
// instruction (LDS: sim/models/lds_banks + lds_timing; global: sim/models/global_coalescing) and the clock
// (sim/timing) puts every workgroup's waves on one timeline. A program instruction is one label the program
// gave (ctx.label): the wave instructions of all waves, workgroups and loop iterations that carry it are its
// instances, and its report sums them:
//   lds:    wavefronts (serialized passes), ideal, excess (= bank conflicts), max N-way
//   global: sectors touched, ideal sectors
//   cycles: mean cycles per instance from when program order let its wave go on to its completion, split
//           into issue (its stated arithmetic, scheduler turns, its slot), LDS and global (waiting for data of
//           earlier loads, its pipe's queue, service, latency)
// Barriers get rows of their own (program_report::barriers: the mean wait of a wave there). The totals add
// every instance. Time: the waves of the workgroups that share one SM / CU (occupancy: the arch's thread,
// workgroup, LDS and, when known, register limits, and the grid spread over its SMs) run on one clock; each
// instruction is preceded by the arithmetic the program stated (alu()); a wave's global loads issue ahead of
// its LDS accesses and arithmetic but not of an earlier global store; global loads that hit sectors the SM
// loaded in an earlier interval cost L1 latency, sectors another wave asked for in the same interval ride on
// that request, and a sector not loaded yet costs the first-touch latency, or (sm90) the L2-hit latency when an
// earlier interval loaded from its region; cycles_per_workgroup is the median workgroup's, as the GPU's clock64 spans are compared
// (gpu/crosscheck); `verdict` names the bottleneck.
//
// WORKED EXAMPLE. The copy program (64x32 fp16, 256 threads) on gfx942 with a row-major LDS tile and lanes
// going down rows: 4 instructions x 4 waves; "lds load" has 4 instances, each 8 phases of ds_read_b128 in
// which pairs of lanes hit the same banks: 16 wavefronts per instance (ideal 8), 2-way; CK's XOR preshuffle
// brings it to 8, 1-way, while the ds_write_b128 stores are conflict-free either way (the ROCm blog's
// numbers for this tile, lds-banks-and-swizzles.md §2.7).
//
// INVARIANTS: ideal <= wavefronts and ideal_sectors <= sectors for every instruction and the totals;
// the totals are the sums over instructions; cycles == issue_cycles + lds_cycles + global_cycles for every
// instruction; the slowest workgroup's cycles >= the busiest pipe's service time in its set.
#pragma once

#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/engine/lane_access.hpp"
#include "sim/engine/run_result.hpp"
#include "sim/models/lds_banks.hpp"

namespace tilesim::sim {

struct instruction_report {
  std::string label;
  access_kind kind = access_kind::load;
  memory_space space = memory_space::lds;
  int width = 0;
  bool matrix_access = false;      // ldmatrix rows (Nsight Compute counts them as op_ldsm), or stmatrix rows (a store)
  bool async_copy = false;         // cp.async (LDGSTS): its global read, or its LDS landing (Nsight: op_ldgsts)
  int interval = 0, position = 0;  // where its first instance was issued
  int instances = 0;
  long long wavefronts = 0, ideal = 0, excess = 0;  // lds
  int max_ways = 0;                                 // lds
  long long sectors = 0, ideal_sectors = 0;         // global
  double cycles = 0;                                // mean cycles per instance: issue + lds + global (below)
  // Where an instance's cycles went, means per instance (they add up to the time from when program order
  // allowed the wave to go on to when the instruction completed): issue = its arithmetic (alu_before) and
  // its own issue slot, with any wait for a busy scheduler; lds / global = waiting for data of earlier LDS /
  // global loads, its own pipe's queue, service and latency.
  double issue_cycles = 0, lds_cycles = 0, global_cycles = 0;
  alu_work alu;                                     // arithmetic issued before it, summed over instances
  long long l1_hit_sectors = 0;                     // global loads: sectors this SM had already loaded
};

// Barrier N (N from 1) of the program: where waves waited for the other waves of their workgroup.
struct barrier_report {
  std::string label;          // "barrier 1"
  int interval = 0;           // it ends this interval
  int instances = 0;          // waves x workgroups that passed it
  double wait = 0;            // mean cycles from a wave's arrival (everything it issued complete) to the release
  double issue_cycles = 0;    // mean cycles of arithmetic the program stated after the interval's last access
  alu_work alu;               // that arithmetic, summed
};

struct program_report {
  std::string arch;
  std::vector<instruction_report> instructions;  // in the order of first issue (interval, position)
  std::vector<barrier_report> barriers;          // in program order
  long long wavefronts = 0, ideal = 0, excess = 0, sectors = 0, ideal_sectors = 0;
  double cycles_per_workgroup = 0;      // the median workgroup's cycles (what the GPU's median block shows)
  double slowest_workgroup_cycles = 0;  // the slowest workgroup's
  int workgroups = 0, waves_per_workgroup = 0;
  int resident_workgroups = 1;          // workgroups that share one SM / CU (occupancy)
  int active_processors = 1;            // SMs / CUs the grid runs on
  std::string resident_limit;           // what limits resident_workgroups: "the grid", "threads", "LDS", ...
  // Busy fraction of the slowest set of co-resident workgroups: the busiest scheduler, the LDS pipe, the
  // global load and store paths (busy cycles / that set's cycles), and the one-line verdict they give.
  double issue_busy = 0, lds_busy = 0, global_load_busy = 0, global_store_busy = 0;
  std::string verdict;
  // The LDS instance with the most excess wavefronts (ties: the first): for the bank heat map.
  bool has_worst_lds = false;
  wave_access worst_lds;
  std::vector<std::string> findings;  // races, bounds errors, divergences, ... one line each
  long long finding_count = 0;
};

// Prices and times every instruction of `run` on `arch`: workgroups b, b + P, b + 2P, ... (P = the arch's
// SMs / CUs) share one SM in groups of resident_workgroups, each group timed on one clock (sim/timing).
// `registers_per_thread`: the compiled kernel's, when known (ptxas, a recording), for the register limit on
// resident workgroups; 0: unknown, no register limit (the simulator cannot see a kernel's registers).
program_report make_program_report(const arch_table& arch, const run_result& run, int registers_per_thread = 0);

// The report as JSON (one object; strings escaped).
std::string to_json(const program_report& report);

// An SVG heat map of one LDS instruction: phases down, banks across, each cell the distinct 4-byte words
// that bank serves in that phase (white 0, green 1, then warmer colours to red for the phase's worst).
std::string bank_heat_map_svg(const arch_table& arch, const wave_access& access);

}  // namespace tilesim::sim
