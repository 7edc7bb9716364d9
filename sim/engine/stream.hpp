// tilesim/sim/engine/stream.hpp: run chosen workgroups on worker threads and hand each one over as it finishes.
//
// DEFINITION. run_stream(config, memory, program, options) runs the workgroups options.order names, in that
// order, on options.jobs worker threads (std::jthread), each with its own workgroup_runner (fibers, LDS, label
// table): a worker takes the next position of the order, runs that workgroup and passes its
// finished_workgroup (record, finding counts) to options.on_finished, on the worker thread, then drops it (with
// one job and no progress callback the calling thread is the worker: there is nothing to wait for).
// Nothing of a workgroup outlives on_finished but a compact summary of the global bytes it touched
// (grid_touch_map, for races between workgroups) and, when asked, its touches inside given byte ranges: what
// the run holds is bounded by the workgroups in flight, not by the grid. With keep_labels = false (the
// default) every workgroup numbers its labels afresh, so a record is the same whichever worker made it.
//
// Workgroups of a grid share global memory but never synchronize; the workers run them concurrently on the
// one `memory`. A program whose workgroups do not conflict (grid_touches.hpp: no byte written by one and
// touched by another) computes the same memory in any order; one that does has a race between workgroups,
// which the summary reveals, and the caller reruns it with jobs = 1 (stream_report.hpp does) for a
// deterministic result and the racing threads.
//
// WHY STD::JTHREAD. The work is one flat list taken in order by an atomic counter, each item a few
// milliseconds to seconds of simulation; nothing is nested or stolen. A pool library (oneTBB) would add a
// dependency and its own threads for what one atomic counter and a join do; jthreads join themselves when
// a run throws.
//
// FAILURES. A workgroup that throws (run_error, or on_finished throwing) stops the run: positions after it are
// not started, the running ones finish, and run_stream rethrows the exception of the first failing position
// of the order (the same one whatever the number of jobs).
//
// EXAMPLE. stream_options o; o.jobs = 2; o.order = {0, 2, 1, 3};
//   o.on_finished = [&](detail::finished_workgroup&& f) { std::lock_guard g(m); blocks.push_back(f.record.block); };
//   stream_result r = run_stream(launch{.grid = 4, .block = 256}, memory, program_ref, o);
//   // blocks holds 0..3 in some order; r.touches.conflicts() is empty for a race-free program.
//
// INVARIANTS: on_finished is called once per position, from worker threads, possibly concurrently; progress is
// called on the calling thread only; kept_touches come in order of position (then thread, access) when jobs = 1.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/engine/grid_touches.hpp"
#include "sim/engine/workgroup_runner.hpp"

namespace tilesim::sim {

struct stream_options {
  int jobs = 1;            // worker threads (>= 1; at most one per workgroup is used)
  std::vector<int> order;  // the workgroups to run, in order
  bool keep_labels = false;
  // Keep the global touches that overlap these ranges (sorted, disjoint); only with jobs = 1.
  const byte_ranges* keep_touches = nullptr;
  std::function<void(detail::finished_workgroup&&)> on_finished = {};  // thread-safe: workers call it concurrently
  std::function<void(long long done, long long total)> progress = {};  // on the calling thread, a few times a second
};

struct stream_result {
  grid_touch_map touches;           // every workgroup's global touches, summarized
  std::vector<touch> kept_touches;  // those overlapping options.keep_touches
  std::vector<std::string> labels;  // what kept_touches' label numbers name (keep_labels, jobs = 1)
};

// Runs options.order's workgroups of `config` on `memory`; throws the first failing position's exception.
stream_result run_stream(const launch& config, global_memory& memory, detail::program_ref program,
                         const stream_options& options);

// How races between workgroups name things: labels, the wave size, "global buffer 1 ('out')".
race_naming global_naming(const std::vector<std::string>& labels, int wave_size, const global_memory& memory);

}  // namespace tilesim::sim
