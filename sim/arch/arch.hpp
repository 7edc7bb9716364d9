// tilesim/sim/arch/arch.hpp: what one GPU architecture's memory system looks like, as data.
//
// DEFINITION. An `arch_table` holds the facts the memory models need and nothing they compute: the wave size,
// the LDS (shared memory) banks, and for every LDS instruction class (load or store, 1/2/4/8/16 bytes per
// lane) an `lds_phase_rule`: which lanes the hardware serves together ("phases", explicit lane lists so
// AMD's non-contiguous ds_read_b128 groups are plain data), over how many banks, and which repeated-address
// merging applies. Timing constants (pipe rate, fitted steady-state cycles, latency) and the global-memory
// sector geometry sit beside them, and what the whole-program clock needs (sim/timing, sim/report): how waves
// issue (issue_timing), what global memory costs (global_timing) and how many workgroups share an SM / CU
// (occupancy_limits). Every number carries its source in a comment where it is defined
// (sm90.cpp, gfx90a.cpp, gfx942.cpp, gfx950.cpp); numbers no source gives say "assumed, not measured".
//
// WORKED EXAMPLE.
//   const arch_table& a = arch_named("gfx942");
//   const lds_phase_rule& r = a.lds_rule(access_kind::load, 16);   // ds_read_b128
//   r.phases.size() == 8; r.phases[0] == {0,1,2,3,20,21,22,23}; r.banks == 32
//   arch_named("sm90").lds_rule(access_kind::load, 16).phases[1] == {8..15}; .merge == lds_merge::sm90_pairs
//   arch_named("sm91") throws std::invalid_argument("unknown architecture 'sm91' (known: sm90, gfx90a, ...)")
//
// INVARIANTS (checked by `check_arch_table`, tested for every table): each rule's phases partition the
// lanes [0, wave_size) with no lane twice; every (kind, width) in {load, store} x {1, 2, 4, 8, 16} has a
// rule; a rule's banks are a power of two <= max_banks; a rule with lds_merge::sm90_pairs has an even
// number of phases, each pair (2k, 2k+1) covering an aligned block of lanes, so lane^1 and lane^2 stay
// in the block; sector_bytes and line_bytes are powers of two, line >= sector.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/wave_access.hpp"

namespace tilesim::sim {

// Most banks any table may name (gfx950 has 64); the models size their scratch arrays by it.
inline constexpr int max_banks = 64;
// Most lanes in a wave (AMD wave64).
inline constexpr int max_wave_size = 64;

// How repeated addresses of one instruction change its cost before the phases are charged.
enum class lds_merge {
  none,        // each phase pays max over banks of distinct 4-byte words; that is all
  sm90_pairs,  // sm90 LDS.64/LDS.128 (measured on an H200, data/calibration/README.md): lanes whose partner
               // lane^1 (or, for the whole group, lane^2) reads the same address are served in pairs;
               // see lds_banks.hpp for how the counted wavefronts and the pipe passes each use it
};

// What a phase with no active lane costs the LDS pipe.
enum class lds_empty_phases {
  one_clock_each,     // one clock on top of the passes (assumed on AMD)
  fill_to_phases,     // clocks = max(passes, phases): empty phases only keep the pipe from going faster
                      // (measured on sm90: h200-calibration, e.g. LDS.128 with lanes 0-3 at stride 128 takes
                      // 4 clocks, lanes 0-11 take 12; data/calibration/README.md)
};

// One LDS instruction class of one architecture.
struct lds_phase_rule {
  access_kind kind = access_kind::load;
  int width = 4;                          // bytes per lane this rule covers
  int banks = 32;                         // 4-byte banks one phase is checked over
  std::vector<std::vector<int>> phases;   // lane groups in issue order; together a partition of the lanes
  lds_merge merge = lds_merge::none;
  std::string_view evidence;              // where the phase table comes from ("assumed, not measured: ...")
  lds_empty_phases empty_phases = lds_empty_phases::one_clock_each;
};

// How an 8x8 matrix instruction (ldmatrix, stmatrix: wave_access::matrix_access) is served: each matrix (8 lanes'
// 16-byte rows) its own phase, never merged with another (sim/models/lds_banks.hpp). Empty evidence: the arch has no
// such instruction.
struct matrix_phase_rule {
  std::array<std::string_view, 2> evidence;  // index 0 load (ldmatrix), 1 store (stmatrix)
};

// Steady-state cost of LDS instructions repeated back to back by many waves of one block (lds_timing.hpp).
//   cycles = max(floor[kind], slope[kind] * pipe_slots + intercept[kind] + packed_extra (sm90 paired loads),
//                port cycles (AMD))
// Index 0 is load, 1 is store.
struct lds_timing_constants {
  double wavefronts_per_clock = 1;           // LDS pipe: bank passes per clock per SM / CU
  std::array<double, 2> floor{0, 0};         // cycles per access that no pattern goes below
  std::array<double, 2> slope{1, 1};         // cycles per pipe slot
  std::array<double, 2> intercept{0, 0};
  double packed_extra = 0;                   // extra cycles of a paired (sm90_pairs) load
  // AMD port model (ports == 0: not modelled). Per port: an instruction needs its active lanes'
  // addresses (addresses_per_clock) and its data (bytes_per_clock); a store sends both one after the other,
  // a load overlaps them. Ports work in parallel, so a port's cycles are divided by `ports`.
  int ports = 0;
  double addresses_per_clock = 16;
  std::array<double, 2> port_bytes_per_clock{64, 64};
  double latency_cycles = 0;                 // an isolated access, issue to data (LDS hit)
};

// How waves issue instructions (sim/timing): each wave belongs to one scheduler (wave slot w -> w % schedulers);
// a scheduler issues one instruction per clock; an arithmetic instruction of class c then occupies its wave's
// scheduler for alu_cycles[c] clocks (the rate of its execution unit, in wave instructions per clock, inverted);
// its result is usable alu_latency clocks after its last issue.
struct issue_timing {
  int schedulers = 4;
  std::array<double, 4> alu_cycles{1, 1, 1, 1};  // index: alu_op (fma, integer, shuffle, matrix); clocks per
                                                 // wave instruction on one scheduler
  double alu_latency = 4;                  // dependent-issue latency of an arithmetic result
  std::string_view evidence;
  // Integer instructions per LDS access whose address is none of the wave's recent LDS addresses plus a
  // lane-uniform constant (sim/pricing/address_arithmetic.hpp); 0: such addresses cost nothing extra.
  int address_ops = 0;
  std::string_view address_evidence;
  // A global store whose guard the kernel checks at run time (a tile store through a padded descriptor:
  // lane_access::guarded): guarded_store_ops integer instructions (the guard's compare, the address recomputed in
  // the branch the compiler puts around the store) issue before it, in a dependent chain of guarded_store_depth
  // results, and the store waits for the chain; 0: guarded stores cost what others do.
  int guarded_store_ops = 0;
  int guarded_store_depth = 0;
  // A wave's first guarded global load (a tile load through a padded descriptor) waits for the guard's own chain:
  // guarded_load_depth dependent integer results from the block and thread index (0: it waits for nothing).
  int guarded_load_depth = 0;
  std::string_view guarded_store_evidence;
  // A wave's first run of arithmetic that shuffles completes first_shuffle_latency clocks later than its
  // alu_latency says (once per wave, whatever the butterfly's depth); 0: shuffles cost their issue and alu_latency.
  double first_shuffle_latency = 0;
  std::string_view shuffle_evidence;
};

// Global memory as the timing model prices it (sim/timing, sim/report): a load instruction occupies its SM's
// load path for (sectors from L2) / rate + (sectors hit in L1) / l1_sectors_per_clock (sectors counted per phase
// of load_phase_bytes when that is set) and its data arrives
// `first_touch_latency` (a sector this SM has not loaded in the launch), `l2_hit_latency` (not loaded, but in a
// near_region_bytes region this SM loaded from in an earlier barrier interval) or `l1_load_latency` (every sector
// already loaded by this SM) clocks after its service ends; the per-SM L2 rate is min(sm_load_sectors_per_clock, l2_sectors_per_clock /
// active SMs). A store occupies the store path for sectors / store_sectors_per_clock and, like the hardware's
// fire-and-forget store, releases its wave when it has left.
struct global_timing {
  double first_touch_latency = 500;
  double l1_load_latency = 40;
  double sm_load_sectors_per_clock = 4;
  double l2_sectors_per_clock = 1e9;
  double l1_sectors_per_clock = 4;
  double store_sectors_per_clock = 4;
  double datapath_bytes_per_clock = 0;  // > 0: global data also crosses the LDS pipe at this rate (sm90's
                                        // unified L1 / shared memory data path); 0: it does not
  double prologue_cycles = 0;  // a workgroup's clocks before its first instruction issues (kernel arguments,
                               // the first address arithmetic), see each table
  int load_phase_bytes = 0;  // > 0: the load path serves an instruction in phases of this many bytes of lane data
                             // (128: a quarter warp of 16-byte loads, a whole warp of 4-byte ones) and each phase
                             // pays for every sector it touches, even one an earlier phase touched; 0: each
                             // distinct sector of the instruction once
  double l2_hit_latency = 0;  // > 0: a not-yet-loaded sector in a region this SM loaded from in an earlier interval
                              // arrives this many clocks after service (the data is in L2, the region's page
                              // translated); 0: every sector not loaded costs first_touch_latency
  long long near_region_bytes = 0;  // the regions l2_hit_latency counts in (aligned; a power of two)
  std::string_view evidence;
  std::string_view l2_hit_evidence = "none: every first touch costs first_touch_latency";
};

// A cp.async's global read (LDGSTS: L2 to shared memory, no register) as the timing model prices it: like a load
// (global_timing) but at its own per-SM rate and first-touch latency; 0: the load's. Its L1 hits and later touches
// are priced as a load's.
struct async_copy_timing {
  double sm_sectors_per_clock = 0;
  double first_touch_latency = 0;
  std::string_view evidence = "none: priced as a global load";
};

// How many workgroups share one SM / CU, and how many SMs a grid spreads over (sim/report's occupancy).
struct occupancy_limits {
  int processors = 1;             // SMs / CUs
  int max_threads = 2048;         // resident threads per processor
  int max_workgroups = 32;        // resident workgroups per processor
  long long lds_bytes = 65536;    // LDS per processor that workgroups share
  long long registers = 65536;    // 32-bit registers per processor (the register file all resident threads share)
  std::string_view evidence;
};

// How a program's guarded accesses (a lane whose access is invalid: past a tensor's pad, masked by the program)
// become instructions. The engine records every access with its `valid` flag (lane_access.hpp); these facts say
// which lanes show an address in the wave instruction and whether an instruction no lane takes part in is issued
// (sim/engine/arch_launch.hpp copies them into a launch: apply_guard_rules).
struct guard_rules {
  bool invalid_global_loads_issue = true;  // a lane's invalid global load still shows its address (CK's buffer
                                           // load with the result zeroed); false: the lane is masked like a store
  bool empty_instructions_issue = true;    // a wave instruction with no active lane still counts (is issued)
  // The gfx9 tables keep this default: CK's buffer loads (ck_tile amd_buffer_addressing: an invalid lane's load is
  // issued with an out-of-range offset, so the buffer returns 0) and exec-masked LDS accesses and stores.
  std::string_view evidence = "CK's source (buffer loads of invalid lanes issued, zeroed), not measured";
};

// What the compiler leaves out of a program as written (sim/pricing applies it to the instructions it prices).
struct codegen_rules {
  bool reuses_lds_loads = false;  // a wave's repeated LDS load, no barrier or LDS write between, issues nothing
                                  // (sim/pricing/reused_loads.hpp); false: every load issues
  std::string_view evidence = "not measured: every access issues as written";
};

struct arch_table {
  std::string_view name;         // "sm90"
  std::string_view description;  // "NVIDIA Hopper (H100/H200), 32 lanes, 32 banks x 4 B"
  int wave_size = 32;
  int banks = 32;                // physical 4-byte LDS banks
  int bank_bytes = 4;
  std::vector<lds_phase_rule> lds_rules;
  matrix_phase_rule matrix_phases;
  lds_timing_constants lds_timing;
  int sector_bytes = 32;         // global memory: the unit `tilesim global` counts
  int line_bytes = 128;
  std::string_view global_evidence;
  issue_timing issue;
  global_timing global;
  async_copy_timing async_copy;
  occupancy_limits occupancy;
  guard_rules guards;
  codegen_rules codegen;

  // The rule for (kind, width): lds_rule(access_kind::store, 8). Throws std::invalid_argument for a width
  // that is not 1, 2, 4, 8 or 16.
  const lds_phase_rule& lds_rule(access_kind kind, int width) const;

  // Index into lds_rules per (kind, log2 width); filled by finish_arch_table.
  std::array<int, 10> rule_index{};
};

// The table named `name`: "sm90", "gfx90a", "gfx942", "gfx950". Throws std::invalid_argument naming the
// known architectures for any other name.
const arch_table& arch_named(std::string_view name);

// Every table, in the order above.
const std::vector<const arch_table*>& all_arch_tables();

// "sm90, gfx90a, gfx942, gfx950": for help texts and errors.
std::string arch_names();

// The first broken invariant of `a` as a sentence, or nothing: check_arch_table(arch_named("sm90")) == {}.
std::optional<std::string> check_arch_table(const arch_table& a);

// Helpers the per-arch files build their tables with.
namespace arch_data {
// Lanes [first, last]: lanes(0, 3) == {0, 1, 2, 3}.
std::vector<int> lanes(int first, int last);
// Lanes of several closed ranges: lanes({{0, 3}, {20, 23}}) == {0, 1, 2, 3, 20, 21, 22, 23}.
std::vector<int> lanes(std::initializer_list<std::pair<int, int>> ranges);
// Contiguous phases of `per_phase` lanes: contiguous(32, 8) == {{0..7}, {8..15}, {16..23}, {24..31}}.
std::vector<std::vector<int>> contiguous(int wave_size, int per_phase);
// Fills rule_index and checks the table; a broken table is a bug, reported by std::logic_error.
arch_table finish_arch_table(arch_table a);
}  // namespace arch_data

// The four tables (defined in sm90.cpp, gfx90a.cpp, gfx942.cpp, gfx950.cpp).
const arch_table& sm90_table();
const arch_table& gfx90a_table();
const arch_table& gfx942_table();
const arch_table& gfx950_table();

}  // namespace tilesim::sim
