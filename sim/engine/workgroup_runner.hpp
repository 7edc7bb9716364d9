// tilesim/sim/engine/workgroup_runner.hpp: (engine-internal) runs one workgroup at a time and hands back its record.
//
// DEFINITION. A workgroup_runner owns what one OS thread needs to simulate workgroups: a fiber per thread of
// the workgroup, the LDS storage, the label table. run(b) runs workgroup b to the end (engine.hpp's schedule:
// rounds of fibers between barriers, shuffles exchanged wave by wave), groups its lane accesses into wave
// instructions and searches them for races, and returns a finished_workgroup: its workgroup_record, with at most
// launch::max_reports findings of each kind listed and every finding counted in `found`, and (when asked) its
// touches of global memory, for races between workgroups. Lane accesses are dropped when it returns: what a
// runner holds is bounded by one workgroup. run() (engine.cpp) drives one runner over the grid; the streamed
// run (stream.hpp) one runner per worker thread.
//
// EXAMPLE. workgroup_runner w(config, memory, program, {});   finished_workgroup f = w.run(3);
//   f.record.block == 3; f.record.waves[0].instructions: what wave 0 issued; f.found.races: races found in it.
//
// INVARIANTS: a runner is used by one OS thread at a time; run() of the same block on the same memory gives the
// same record; with keep_labels = false label numbers restart for every workgroup (the same numbers whichever
// runner ran it), with true they are the run's (the order of first use over the workgroups this runner ran).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/engine/engine.hpp"
#include "sim/engine/races.hpp"

namespace tilesim::sim::detail {

struct runner_options {
  bool keep_labels = true;      // one label table over all workgroups (false: a fresh one per workgroup)
  bool global_touches = false;  // return each workgroup's global touches
};

struct finished_workgroup {
  workgroup_record record;
  diagnostic_counts found;            // every finding of this workgroup; the record lists max_reports of each kind
  std::vector<touch> global_touches;  // with runner_options::global_touches
};

class block_runner;

class workgroup_runner {
 public:
  workgroup_runner(const launch& config, global_memory& memory, program_ref program, const runner_options& options);
  ~workgroup_runner();
  workgroup_runner(const workgroup_runner&) = delete;
  workgroup_runner& operator=(const workgroup_runner&) = delete;

  // Runs workgroup `block`; throws run_error (engine.hpp's FAILURES).
  finished_workgroup run(int block);
  // Label names by number, and how races name things (labels, wave size, buffers).
  const std::vector<std::string>& labels() const;
  race_naming naming();

 private:
  std::unique_ptr<block_runner> impl_;
};

}  // namespace tilesim::sim::detail
