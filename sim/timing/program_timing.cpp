// tilesim/sim/timing/program_timing.cpp: the event loop of program_timing.hpp.
#include "sim/timing/program_timing.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

namespace tilesim::sim {

namespace {

struct wave_state {
  std::size_t next = 0;          // next step
  double ready = 0;              // earliest time the next step may issue (program order)
  double outstanding_until = 0;  // completion of everything issued so far
  double data_until = 0;         // completion of every load and arithmetic result issued so far
  int data_pipe = -1;            // the pipe of the step that sets data_until (-1: arithmetic)
  bool at_barrier = false;
};

}  // namespace

timing_result time_waves(const std::vector<timed_wave>& waves, const timing_params& params) {
  const std::size_t n = waves.size();
  int schedulers = 0, workgroups = 0;
  std::map<int, std::pair<std::size_t, long long>> barriers;  // workgroup -> (first wave, its barrier count)
  for (std::size_t w = 0; w < n; ++w) {
    if (waves[w].scheduler < 0 || waves[w].workgroup < 0)
      throw std::invalid_argument("time_waves: wave " + std::to_string(w) + " has scheduler " +
                                  std::to_string(waves[w].scheduler) + " and workgroup " +
                                  std::to_string(waves[w].workgroup) + "; both must be >= 0");
    schedulers = std::max(schedulers, waves[w].scheduler + 1);
    workgroups = std::max(workgroups, waves[w].workgroup + 1);
    const long long count = std::count_if(waves[w].steps.begin(), waves[w].steps.end(),
                                          [](const timed_step& s) { return s.kind == step_kind::barrier; });
    for (std::size_t k = 0; k < waves[w].steps.size(); ++k)
      if (const int on = waves[w].steps[k].waits_for_step; on >= static_cast<int>(k))
        throw std::invalid_argument("time_waves: wave " + std::to_string(w) + " step " + std::to_string(k) +
                                    " waits for step " + std::to_string(on) + ", which is not an earlier one");
    auto [it, fresh] = barriers.emplace(waves[w].workgroup, std::make_pair(w, count));
    if (!fresh && it->second.second != count)
      throw std::invalid_argument("time_waves: wave " + std::to_string(w) + " reaches " + std::to_string(count) +
                                  " barriers but wave " + std::to_string(it->second.first) + " of workgroup " +
                                  std::to_string(waves[w].workgroup) + " reaches " + std::to_string(it->second.second));
  }

  timing_result r;
  r.waves.resize(n);
  for (std::size_t w = 0; w < n; ++w) r.waves[w].resize(waves[w].steps.size());
  r.pipe_busy.assign(pipe_count, 0);
  r.scheduler_busy.assign(static_cast<std::size_t>(schedulers), 0);
  r.workgroup_cycles.assign(static_cast<std::size_t>(workgroups), params.start_cycles);
  std::vector<double> pipe_free(pipe_count, 0), scheduler_free(static_cast<std::size_t>(schedulers), 0);
  std::vector<wave_state> state(n);
  for (wave_state& s : state) s.ready = params.start_cycles;

  // Waves of each workgroup, to release a barrier as soon as the last of them arrives.
  std::vector<std::vector<std::size_t>> members(static_cast<std::size_t>(workgroups));
  for (std::size_t w = 0; w < n; ++w) members[static_cast<std::size_t>(waves[w].workgroup)].push_back(w);
  for (;;) {
    bool progressed = false;
    // Arrivals: a wave whose next step is a barrier arrives once everything it issued has completed.
    for (std::size_t w = 0; w < n; ++w) {
      wave_state& s = state[w];
      if (s.at_barrier || s.next >= waves[w].steps.size() || waves[w].steps[s.next].kind != step_kind::barrier) continue;
      step_times& t = r.waves[w][s.next];
      t.ready = s.ready;
      t.issue = std::max(s.ready, s.outstanding_until);
      s.at_barrier = true;
      progressed = true;
    }
    // Releases: a workgroup whose waves with steps left all wait at a barrier goes on together.
    for (const std::vector<std::size_t>& group : members) {
      double release = -1;
      bool all = false;
      for (std::size_t w : group) {
        if (state[w].next >= waves[w].steps.size()) continue;
        if (!state[w].at_barrier) {
          all = false;
          break;
        }
        all = true;
        release = std::max(release, r.waves[w][state[w].next].issue);
      }
      if (!all) continue;
      for (std::size_t w : group) {
        if (state[w].next >= waves[w].steps.size()) continue;
        step_times& t = r.waves[w][state[w].next];
        t.start = t.complete = release + params.barrier_cycles;
        state[w].ready = t.complete;
        state[w].at_barrier = false;
        ++state[w].next;
        progressed = true;
      }
    }
    // The wave whose next step can issue first (oldest ready, ties by wave number).
    std::size_t pick = n;
    double best = std::numeric_limits<double>::infinity();
    bool any_left = false;
    for (std::size_t w = 0; w < n; ++w) {
      const wave_state& s = state[w];
      if (s.next >= waves[w].steps.size()) continue;
      any_left = true;
      const timed_step& next = waves[w].steps[s.next];
      if (s.at_barrier || next.kind == step_kind::barrier) continue;
      double data = next.waits_for_data ? s.data_until : 0;
      if (next.waits_for_step >= 0) data = std::max(data, r.waves[w][static_cast<std::size_t>(next.waits_for_step)].complete);
      const double when = std::max({s.ready, data, scheduler_free[static_cast<std::size_t>(waves[w].scheduler)]});
      if (when < best) {
        best = when;
        pick = w;
      }
    }
    if (!any_left) break;
    if (pick == n) {  // a barrier was just reached or released: look again
      if (!progressed) throw std::logic_error("time_waves: every wave waits at a barrier that cannot release");
      continue;
    }
    wave_state& s = state[pick];
    const timed_step& step = waves[pick].steps[s.next];
    step_times& t = r.waves[pick][s.next];
    const auto sched = static_cast<std::size_t>(waves[pick].scheduler);
    t.ready = s.ready;
    t.data_ready = step.waits_for_data ? std::max(s.ready, s.data_until) : s.ready;
    if (step.waits_for_data && s.data_until > s.ready) t.waited_on = s.data_pipe;
    if (step.waits_for_step >= 0) {  // a cp.async's landing waits for its own global read
      const step_times& read = r.waves[pick][static_cast<std::size_t>(step.waits_for_step)];
      if (read.complete > t.data_ready) {
        t.data_ready = read.complete;
        t.waited_on = static_cast<int>(waves[pick].steps[static_cast<std::size_t>(step.waits_for_step)].pipe);
      }
    }
    t.issue = best;
    scheduler_free[sched] = t.issue + step.issue_slots;
    r.scheduler_busy[sched] += step.issue_slots;
    if (step.kind == step_kind::alu) {
      t.start = t.issue;
      t.complete = t.issue + step.issue_slots + step.latency;
    } else {
      const int p = static_cast<int>(step.pipe);
      t.start = std::max(t.issue, pipe_free[static_cast<std::size_t>(p)]);
      if (step.datapath > 0) {
        const auto l = static_cast<std::size_t>(pipe_id::lds);
        t.start = std::max(t.start, pipe_free[l]);
        pipe_free[l] = t.start + step.datapath;
        r.pipe_busy[l] += step.datapath;
      }
      pipe_free[static_cast<std::size_t>(p)] = t.start + step.occupancy;
      r.pipe_busy[static_cast<std::size_t>(p)] += step.occupancy;
      t.complete = t.start + step.occupancy + step.latency;
    }
    if (!step.detached) s.outstanding_until = std::max(s.outstanding_until, t.complete);
    if (step.produces_data && t.complete >= s.data_until) {
      s.data_until = t.complete;
      s.data_pipe = step.kind == step_kind::alu ? -1 : static_cast<int>(step.pipe);
    }
    s.ready = step.feeds_next ? t.complete : t.issue + step.issue_slots;
    ++s.next;
  }
  for (std::size_t w = 0; w < n; ++w)
    for (const step_times& t : r.waves[w]) {
      double& g = r.workgroup_cycles[static_cast<std::size_t>(waves[w].workgroup)];
      g = std::max(g, t.complete);
      r.total_cycles = std::max(r.total_cycles, t.complete);
    }
  return r;
}

}  // namespace tilesim::sim
