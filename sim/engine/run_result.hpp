// tilesim/sim/engine/run_result.hpp: what a simulated launch produced: instructions per wave, findings, memory.
//
// DEFINITION. For each workgroup: its waves, each with the ordered list of wave-level instructions it
// issued (a sim::wave_access plus the barrier interval it belongs to and its position in that interval),
// the LDS allocations, and the findings of that workgroup (races, bounds errors, misaligned accesses,
// ambiguities, divergences, barrier mismatches; see diagnostics.hpp). Races between workgroups (global
// memory only) are listed once for the grid. `memory` is the global memory after the run: the program's
// results.
//
// WORKED EXAMPLE. 64 threads, wave 64, each thread stores 4 bytes to LDS[t] under label "st":
//   workgroups[0].waves[0].instructions == { {{"st", store, lds, 4, {0, 4, 8, ..., 252}}, interval 0, position 0} }
//
// INVARIANTS (what a timing model replays): instructions are in issue order, sorted by (interval, position);
// every instruction's address list has exactly launch::wave_size entries (lanes beyond the workgroup are
// no_address); interval i lies between barrier i-1 and barrier i; a wave of workgroup b has intervals
// 0 .. workgroups[b].intervals - 1, with possibly no instruction in some of them.
#pragma once

#include <cstddef>
#include <vector>

#include "sim/engine/diagnostics.hpp"
#include "sim/engine/global_memory.hpp"
#include "sim/engine/lane_access.hpp"
#include "sim/engine/launch.hpp"
#include "sim/wave_access.hpp"

namespace tilesim::sim {

struct wave_instruction {
  wave_access access;  // label, kind, space, width, one address per lane
  int interval = 0;    // barriers the wave had passed
  int position = 0;    // its index among the wave's instructions of that interval
  int buffer = 0;      // global slot or LDS allocation of the first active lane; -1 when lanes differ
  bool atomic = false; // an add (read-modify-write)
  bool matrix_access = false;  // ldmatrix rows (Nsight Compute: op_ldsm) or stmatrix rows (a store)
  bool guarded = false;      // a tile store whose guard (a pad's validity) the kernel checks at run time
  bool async_copy = false;   // a cp.async's global read, or its LDS write landing at a wait (sm90: one LDGSTS)
  alu_work alu_before; // arithmetic before it: the most any of its lanes stated since their previous access
};

struct wave_record {
  int wave = 0;
  int lanes = 0;  // threads of the workgroup in this wave (the last wave may be partial)
  std::vector<wave_instruction> instructions;
  std::vector<alu_work> alu_tail;  // per interval: arithmetic after its last instruction (the most of any lane)
};

struct lds_allocation {
  int index = 0;
  std::string type_name;
  std::size_t element_bytes = 0;
  index_t count = 0;
  address_t offset = 0;  // from the LDS base, a multiple of 16
  index_t bytes() const { return count * static_cast<index_t>(element_bytes); }
};

struct workgroup_record {
  int block = 0;
  int intervals = 1;  // barriers + 1
  std::vector<lds_allocation> lds;
  std::size_t lds_bytes = 0;   // the end of the last allocation
  std::size_t stack_used = 0;  // the deepest fiber stack use in bytes (launch::measure_stack only)
  std::vector<wave_record> waves;
  std::vector<race> races;
  std::vector<bounds_error> bounds_errors;
  std::vector<misaligned_access> misaligned;
  std::vector<ambiguity> ambiguities;
  std::vector<divergence> divergences;
  std::vector<barrier_mismatch> barrier_mismatches;
};

struct run_result {
  launch config;
  std::vector<workgroup_record> workgroups;
  std::vector<race> grid_races;  // between workgroups, in global memory
  diagnostic_counts found;       // all findings, including those past max_reports
  global_memory memory;          // after the run

  // No correctness finding: no race, bounds error, misaligned access or barrier mismatch.
  bool clean() const {
    return found.races == 0 && found.bounds_errors == 0 && found.misaligned == 0 && found.barrier_mismatches == 0;
  }
  // Every instruction is exactly what each lane did: no divergence and no ambiguity in the grouping.
  bool uniform() const { return found.ambiguities == 0 && found.divergences == 0; }
  // Instructions of all waves of all workgroups: the copy program's 256-thread block at 64 lanes makes 4 * 4.
  std::size_t instruction_count() const {
    std::size_t n = 0;
    for (const workgroup_record& w : workgroups)
      for (const wave_record& v : w.waves) n += v.instructions.size();
    return n;
  }
};

}  // namespace tilesim::sim
