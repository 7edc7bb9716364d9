// tilesim/sim/timing/program_timing.hpp: cycle-approximate timing of the waves one SM / CU runs at once.
//
// DEFINITION. The functional models price one instruction (LDS wavefronts, global sectors); this model puts
// the instructions of every wave of the workgroups that share one SM / CU on a clock. Each wave is a list of
// steps in program order: a memory instruction on a pipe, a run of arithmetic, or a barrier. The machine:
//   * issue: each wave belongs to one scheduler; a scheduler issues for one wave at a time, oldest-ready wave
//     first (ties by wave number). A step occupies its scheduler for `issue_slots` cycles (a memory
//     instruction 1; n arithmetic instructions n x the class's cycles, sim/arch issue_timing);
//   * pipes (LDS, global loads, global stores): each serves one instruction at a time for `occupancy` cycles
//     (a global instruction also holds the LDS pipe for `datapath` cycles: on sm90 LDS and L1 are one data path);
//     an instruction starts when issued and its pipe is free and completes `latency` cycles after its service
//     (a store's latency is 0: the wave only waits for it to leave, as the hardware's stores do);
//   * data: a step marked `waits_for_data` (arithmetic on loaded values, a store of them) issues only after
//     every earlier load and arithmetic result of its wave is complete (s_waitcnt / the scoreboard); a barrier
//     waits until every wave of its workgroup has arrived with everything it issued complete, then releases
//     them `barrier_cycles` later. Workgroups never wait for each other; they share schedulers and pipes.
// A workgroup's cycles are the time its last step completes, every wave starting at `start_cycles`.
//
// WORKED EXAMPLE. Two waves of one workgroup on two schedulers, each one LDS instruction of occupancy 4,
// latency 10: wave 0 issues at 0, served 0..4, completes 14; wave 1 issues at 0, waits for the pipe, served
// 4..8, completes 18. Total 18: wave 1's 18 = issue 0 + pipe wait 4 + service 4 + latency 10. Add 16 FMAs
// (issue_slots 16) before each LDS instruction on one scheduler: wave 0 issues them 0..16, wave 1 16..32.
//
// INVARIANTS: total >= sum of occupancy on each pipe and of issue slots on each scheduler (each serves one at
// a time); a barrier's release is no earlier than any of its workgroup's waves' arrival; every step's
// ready <= issue <= start <= complete.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilesim::sim {

enum class pipe_id { lds = 0, global_load = 1, global_store = 2 };
inline constexpr int pipe_count = 3;

enum class step_kind { memory, alu, barrier };

// One step of a wave in program order.
struct timed_step {
  step_kind kind = step_kind::memory;
  pipe_id pipe = pipe_id::lds;  // memory: which pipe serves it
  double issue_slots = 1;       // cycles its scheduler is busy issuing it
  double occupancy = 1;         // memory: cycles its pipe is busy with it
  double latency = 0;           // cycles from the end of service (arithmetic: of issue) to completion
  bool produces_data = false;   // its completion releases waits_for_data (loads, arithmetic)
  bool waits_for_data = false;  // issue only after the wave's earlier loads and arithmetic completed
  double datapath = 0;          // global memory: cycles it also holds the LDS pipe (the L1 data path it shares)
  bool feeds_next = false;      // the next step needs its result (an address): it issues once this completes
  int waits_for_step = -1;      // >= 0: issue only after that earlier step of the wave completed (a cp.async's landing)
  bool detached = false;        // a cp.async's global read: a barrier does not wait for it (its landing, at a wait, does)
};

struct timed_wave {
  int workgroup = 0;  // barriers synchronize the waves of one workgroup
  int scheduler = 0;  // which scheduler issues it
  std::vector<timed_step> steps;
};

struct timing_params {
  double barrier_cycles = 0;  // cycles from the last arrival to the release
  double start_cycles = 0;    // when every wave may issue its first step
};

// When one step happened. ready: when program order allowed it (the previous step's issue slots ended, or a
// barrier released); data_ready: when the data it waits for was complete; issue >= both; start: its pipe took
// it; complete: done. Barriers: issue = arrival, start = complete = release. waited_on: the pipe of the load
// whose data it waited for last (-1: an arithmetic result or nothing).
struct step_times {
  double ready = 0, data_ready = 0, issue = 0, start = 0, complete = 0;
  int waited_on = -1;
};

struct timing_result {
  std::vector<std::vector<step_times>> waves;  // per wave, per step
  std::vector<double> workgroup_cycles;        // per workgroup: the completion of its last step
  double total_cycles = 0;                     // the last completion of all
  std::vector<double> pipe_busy;               // cycles each pipe served, by pipe_id
  std::vector<double> scheduler_busy;          // cycles each scheduler issued
};

// Puts the waves' steps on one clock. Throws std::invalid_argument naming the wave when waves of one workgroup disagree on the number of barriers (a
// barrier some wave never reaches would hang a GPU), or a scheduler or workgroup index is negative.
timing_result time_waves(const std::vector<timed_wave>& waves, const timing_params& params);

}  // namespace tilesim::sim
