// tilesim/sim/timing/program_timing.hpp: cycle-approximate timing of one workgroup's waves.
//
// DEFINITION. The functional models price one instruction (LDS wavefronts, global sectors); this model puts
// the instructions of every wave of a workgroup on a clock. Each wave is a list of steps in program order:
// a memory instruction on a pipe (LDS or global), or a barrier. The machine it assumes:
//   * issue: a wave issues at most one instruction per `issue_cycles`; waves are picked oldest-ready first
//     (ties by wave number), which interleaves them as a GPU's schedulers do;
//   * pipes: each pipe serves one instruction at a time, for `occupancy` cycles (LDS: max(floor, wavefronts
//     x cycles per wavefront), the steady-state cost the bank model predicts); an instruction starts when it
//     is issued and the pipe is free, and completes `latency` cycles after its service ends;
//   * a load does not block the wave; an instruction marked `waits_for_loads` (a store, which in a tile
//     program stores what earlier loads brought: the s_waitcnt / scoreboard wait) issues only after every
//     earlier load of its wave has completed; no other register dependence is modelled; a barrier waits until
//     every wave has arrived and every instruction it issued before the barrier has completed (the
//     s_waitcnt / __syncthreads contract), then releases all waves `barrier_cycles` later.
// The workgroup's cycles are the time its last step completes.
//
// WORKED EXAMPLE. Two waves, each one LDS instruction of occupancy 4, latency 10, issue 1, no barrier:
//   wave 0 issues at 0, served 0..4, completes 14; wave 1 issues at 0, waits for the pipe, served 4..8,
//   completes 18. Total 18. With 32 waves repeating one instruction N times, total / (32 N) tends to the
//   occupancy: the steady-state cycles per warp access the bank model reports (tested).
//
// INVARIANTS: total >= Σ occupancy on each pipe (a pipe serves one at a time); total >= the longest wave's
// issue time plus its last latency; a barrier's release is no earlier than any wave's arrival.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilesim::sim {

enum class pipe_id { lds = 0, global = 1 };

// One step of a wave in program order.
struct timed_step {
  bool barrier = false;         // true: a barrier; the other fields are unused
  pipe_id pipe = pipe_id::lds;  // which pipe serves the instruction
  double occupancy = 1;         // cycles the pipe is busy with it
  double latency = 0;           // cycles from the end of service to completion
  bool is_load = false;         // its completion releases waits_for_loads
  bool waits_for_loads = false; // issue only after the wave's earlier loads completed
};

struct timing_params {
  double issue_cycles = 1;    // cycles between two issues of one wave
  double barrier_cycles = 0;  // cycles from the last arrival to the release
};

// When one step happened (barriers: issue = arrival, start = release, complete = release).
struct step_times {
  double issue = 0, start = 0, complete = 0;
};

struct timing_result {
  double total_cycles = 0;
  std::vector<std::vector<step_times>> waves;  // per wave, per step
  std::vector<double> pipe_busy;               // cycles each pipe served, by pipe_id
};

// Puts the waves' steps on one clock. Throws std::invalid_argument naming the wave when waves disagree on
// the number of barriers (a barrier some wave never reaches would hang a GPU).
timing_result time_workgroup(const std::vector<std::vector<timed_step>>& waves, const timing_params& params);

}  // namespace tilesim::sim
