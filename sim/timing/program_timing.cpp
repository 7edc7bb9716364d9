// tilesim/sim/timing/program_timing.cpp: the event loop of program_timing.hpp.
#include "sim/timing/program_timing.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tilesim::sim {

namespace {
constexpr int pipe_count = 2;

struct wave_state {
  std::size_t next = 0;           // next step
  double ready = 0;               // earliest time the next step may issue
  double outstanding_until = 0;   // completion of everything issued so far
  double loads_until = 0;         // completion of every load issued so far
  bool at_barrier = false;
};
}  // namespace

timing_result time_workgroup(const std::vector<std::vector<timed_step>>& waves, const timing_params& params) {
  const std::size_t n = waves.size();
  std::vector<std::size_t> barriers(n, 0);
  for (std::size_t w = 0; w < n; ++w)
    barriers[w] = static_cast<std::size_t>(std::count_if(waves[w].begin(), waves[w].end(), [](const timed_step& s) { return s.barrier; }));
  for (std::size_t w = 1; w < n; ++w)
    if (barriers[w] != barriers[0])
      throw std::invalid_argument("time_workgroup: wave " + std::to_string(w) + " reaches " + std::to_string(barriers[w]) +
                                  " barriers but wave 0 reaches " + std::to_string(barriers[0]));

  timing_result r;
  r.waves.resize(n);
  for (std::size_t w = 0; w < n; ++w) r.waves[w].resize(waves[w].size());
  r.pipe_busy.assign(pipe_count, 0);
  std::vector<double> pipe_free(pipe_count, 0);
  std::vector<wave_state> state(n);

  for (;;) {
    // The oldest-ready wave that has a non-barrier step to issue.
    std::size_t pick = n;
    double best = std::numeric_limits<double>::infinity();
    bool any_left = false;
    for (std::size_t w = 0; w < n; ++w) {
      if (state[w].next >= waves[w].size()) continue;
      any_left = true;
      if (state[w].at_barrier) continue;
      if (waves[w][state[w].next].barrier) {
        // Arrive: the arrival counts once everything the wave issued has completed (waitcnt).
        step_times& t = r.waves[w][state[w].next];
        t.issue = std::max(state[w].ready, state[w].outstanding_until);
        state[w].at_barrier = true;
        continue;
      }
      const timed_step& next = waves[w][state[w].next];
      const double ready = next.waits_for_loads ? std::max(state[w].ready, state[w].loads_until) : state[w].ready;
      if (ready < best) {
        best = ready;
        pick = w;
      }
    }
    if (!any_left) break;
    if (pick == n) {
      // Every wave with steps left waits at a barrier: release them together.
      double release = 0;
      for (std::size_t w = 0; w < n; ++w)
        if (state[w].at_barrier) release = std::max(release, r.waves[w][state[w].next].issue);
      release += params.barrier_cycles;
      for (std::size_t w = 0; w < n; ++w) {
        if (!state[w].at_barrier) continue;
        step_times& t = r.waves[w][state[w].next];
        t.start = t.complete = release;
        state[w].ready = release;
        state[w].at_barrier = false;
        ++state[w].next;
      }
      continue;
    }
    const timed_step& s = waves[pick][state[pick].next];
    step_times& t = r.waves[pick][state[pick].next];
    const int p = static_cast<int>(s.pipe);
    t.issue = best;
    t.start = std::max(t.issue, pipe_free[p]);
    pipe_free[p] = t.start + s.occupancy;
    r.pipe_busy[p] += s.occupancy;
    t.complete = pipe_free[p] + s.latency;
    state[pick].outstanding_until = std::max(state[pick].outstanding_until, t.complete);
    if (s.is_load) state[pick].loads_until = std::max(state[pick].loads_until, t.complete);
    state[pick].ready = t.issue + params.issue_cycles;
    ++state[pick].next;
  }
  for (std::size_t w = 0; w < n; ++w)
    for (const step_times& t : r.waves[w]) r.total_cycles = std::max(r.total_cycles, t.complete);
  return r;
}

}  // namespace tilesim::sim
