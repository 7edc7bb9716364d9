// tilesim/sim/report/program_report.hpp: what a simulated run cost, instruction by instruction.
//
// DEFINITION. The engine (sim/engine) says what every wave did; the models price each wave-level
// instruction (LDS: sim/models/lds_banks + lds_timing; global: sim/models/global_coalescing) and the clock
// (sim/timing) puts every workgroup's waves on one timeline. A program instruction is one label the program
// gave (ctx.label): the wave instructions of all waves, workgroups and loop iterations that carry it are its
// instances, and its report sums them:
//   lds:    wavefronts (serialized passes), ideal, excess (= bank conflicts), max N-way
//   global: sectors touched, ideal sectors
//   cycles: mean cycles from issue to completion per instance (pipe wait + service + latency)
// The totals add every instance; cycles_per_workgroup is the slowest workgroup's timeline.
//
// WORKED EXAMPLE. The copy program (64x32 fp16, 256 threads) on gfx942 with a row-major LDS tile and lanes
// going down rows: 4 instructions x 4 waves; "lds load" has 4 instances, each 8 phases of ds_read_b128 in
// which pairs of lanes hit the same banks: 16 wavefronts per instance (ideal 8), 2-way; CK's XOR preshuffle
// brings it to 8, 1-way, while the ds_write_b128 stores are conflict-free either way (the ROCm blog's
// numbers for this tile, lds-banks-and-swizzles.md §2.7).
//
// INVARIANTS: ideal <= wavefronts and ideal_sectors <= sectors for every instruction and the totals;
// the totals are the sums over instructions; cycles_per_workgroup >= the busiest pipe's total service time.
#pragma once

#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/engine/run_result.hpp"
#include "sim/models/lds_banks.hpp"

namespace tilesim::sim {

// Global-memory timing, which the measured tables do not cover yet: assumed figures (see the .cpp).
struct global_timing {
  double sectors_per_clock = 4;  // L1 returns 128 B/clk = four 32-byte sectors (reference §1.7)
  double latency_cycles = 500;   // assumed, not measured
};

struct instruction_report {
  std::string label;
  access_kind kind = access_kind::load;
  memory_space space = memory_space::lds;
  int width = 0;
  int interval = 0, position = 0;  // where its first instance was issued
  int instances = 0;
  long long wavefronts = 0, ideal = 0, excess = 0;  // lds
  int max_ways = 0;                                 // lds
  long long sectors = 0, ideal_sectors = 0;         // global
  double cycles = 0;                                // mean issue-to-completion cycles per instance
};

struct program_report {
  std::string arch;
  std::vector<instruction_report> instructions;  // in the order of first issue (interval, position)
  long long wavefronts = 0, ideal = 0, excess = 0, sectors = 0, ideal_sectors = 0;
  double cycles_per_workgroup = 0;
  int workgroups = 0, waves_per_workgroup = 0;
  // The LDS instance with the most excess wavefronts (ties: the first): for the bank heat map.
  bool has_worst_lds = false;
  wave_access worst_lds;
  std::vector<std::string> findings;  // races, bounds errors, divergences, ... one line each
  long long finding_count = 0;
};

// Prices and times every instruction of `run` on `arch`.
program_report make_program_report(const arch_table& arch, const run_result& run, const global_timing& global = {});

// The report as JSON (one object; strings escaped).
std::string to_json(const program_report& report);

// An SVG heat map of one LDS instruction: phases down, banks across, each cell the distinct 4-byte words
// that bank serves in that phase (white 0, green 1, then warmer colours to red for the phase's worst).
std::string bank_heat_map_svg(const arch_table& arch, const wave_access& access);

}  // namespace tilesim::sim
