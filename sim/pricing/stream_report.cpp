// tilesim/sim/pricing/stream_report.cpp: the streamed run: plan, passes, sets priced as they complete, reruns.
#include "sim/pricing/stream_report.hpp"

#include <sched.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "sim/engine/stream.hpp"

namespace tilesim::sim {

int usable_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::vector<int> run_order(const std::vector<std::vector<int>>& sets) {
  std::vector<int> order;
  for (const std::vector<int>& s : sets) order.insert(order.end(), s.begin(), s.end());
  return order;
}

namespace detail {

namespace {

// The sets of one pass being filled: a set is priced by the worker that brings its last workgroup.
class set_collector {
 public:
  set_collector(const arch_table& arch, const residency& res, const std::vector<std::vector<int>>& sets,
                const std::vector<char>& selected, int grid, int max_reports, bool keep_each)
      : arch_(arch), res_(res), max_reports_(max_reports), keep_each_(keep_each), set_of_(static_cast<std::size_t>(grid), -1),
        slot_of_(static_cast<std::size_t>(grid), 0), pending_(sets.size()), missing_(sets.size(), 0) {
    for (std::size_t s = 0; s < sets.size(); ++s) {
      if (!selected[s]) continue;
      pending_[s].resize(sets[s].size());
      missing_[s] = sets[s].size();
      for (std::size_t k = 0; k < sets[s].size(); ++k) {
        set_of_[static_cast<std::size_t>(sets[s][k])] = static_cast<long long>(s);
        slot_of_[static_cast<std::size_t>(sets[s][k])] = k;
      }
    }
  }

  // A workgroup finished (any worker): keep it; price its set when it was the last one.
  void finished(finished_workgroup&& f) {
    std::vector<std::optional<finished_workgroup>> items;
    long long s = -1;
    {
      std::lock_guard<std::mutex> lock(m_);
      max_lds_ = std::max(max_lds_, f.record.lds_bytes);
      s = set_of_[static_cast<std::size_t>(f.record.block)];
      if (s < 0) return;  // run only for the plan (workgroup 0 of another slice)
      const std::size_t slot = slot_of_[static_cast<std::size_t>(f.record.block)];
      pending_[static_cast<std::size_t>(s)][slot] = std::move(f);
      if (--missing_[static_cast<std::size_t>(s)] > 0) return;
      items = std::move(pending_[static_cast<std::size_t>(s)]);
      pending_[static_cast<std::size_t>(s)] = {};
    }
    std::vector<const workgroup_record*> set;
    for (const auto& item : items) set.push_back(&item->record);
    report_part part = price_set(arch_, res_, s, set);
    for (const auto& item : items) add_workgroup_findings(part, item->record, item->found);
    items.clear();
    std::lock_guard<std::mutex> lock(m_);
    if (keep_each_) {
      each_.push_back(std::move(part));
      each_set_.push_back(s);
    } else {
      total_.merge(std::move(part), max_reports_);
    }
  }

  // With keep_each: every set's own part, and its set index.
  std::vector<report_part>& each() { return each_; }
  const std::vector<long long>& each_set() const { return each_set_; }

  std::size_t max_lds() const { return max_lds_; }
  report_part take() { return std::move(total_); }

 private:
  const arch_table& arch_;
  residency res_;
  int max_reports_;
  bool keep_each_;  // keep every set's part apart (a sample's variance needs them)
  std::vector<report_part> each_;
  std::vector<long long> each_set_;
  std::vector<long long> set_of_;    // per block: its set, -1 when not priced in this pass
  std::vector<std::size_t> slot_of_;  // per block: its place in its set
  std::vector<std::vector<std::optional<finished_workgroup>>> pending_;
  std::vector<std::size_t> missing_;
  std::mutex m_;
  std::size_t max_lds_ = 0;
  report_part total_;
};

bool same_plan(const residency& a, const residency& b) {
  return a.workgroups == b.workgroups && a.processors == b.processors && a.limit == b.limit;
}

}  // namespace

simulation simulate_program(const arch_table& arch, const launch& config, global_memory memory, program_ref program,
                            const simulate_options& options) {
  if (const std::string bad = config.check(); !bad.empty())
    throw run_error(run_error::reason::bad_launch, -1, {}, "tilesim: launch: " + bad);
  if (!program.call) throw run_error(run_error::reason::bad_launch, -1, {}, "tilesim: launch: no program");
  const long long grid = config.grid;
  const long long last = options.last < 0 ? grid : options.last;
  if (options.sample > 0 && (options.first != 0 || last != grid))
    throw std::invalid_argument("simulate: a sample prices the whole grid's behaviours; it cannot be a slice");
  if (options.first < 0 || options.first >= last || last > grid)
    throw std::invalid_argument("simulate: the slice [" + std::to_string(options.first) + ", " + std::to_string(last) +
                                ") must be a non-empty part of the grid's workgroups [0, " + std::to_string(grid) + ")");
  int jobs = options.jobs > 0 ? options.jobs : usable_cores();

  std::optional<global_memory> initial;  // for a second pass
  if (grid > 1) initial = memory;
  std::optional<std::size_t> lds_hint;   // unknown until workgroup 0 ran
  std::optional<byte_ranges> racing;     // bytes whose touches a rerun keeps
  simulation out;
  long long grid_found = 0;  // races between workgroups, listed or not
  for (int pass = 1;; ++pass) {
    if (pass > 1) memory = *initial;
    stream_options so;
    so.jobs = jobs;
    so.keep_labels = racing.has_value();
    so.keep_touches = racing ? &*racing : nullptr;
    long long done_before = 0, pass_total = 0;
    if (options.progress)
      so.progress = [&](long long d, long long) { options.progress(done_before + d, pass_total); };

    std::optional<finished_workgroup> first_run;
    grid_touch_map first_touches;
    if (!lds_hint) {  // workgroup 0 fixes the plan: it runs first, alone
      stream_options first = so;
      first.jobs = 1;
      first.keep_touches = nullptr;
      first.order = {0};
      first.on_finished = [&](finished_workgroup&& f) { first_run = std::move(f); };
      pass_total = grid;
      first_touches = run_stream(config, memory, program, first).touches;
      lds_hint = first_run->record.lds_bytes;
      done_before = 1;
    }
    const residency res = plan_residency(arch, config.grid, config.block, *lds_hint, options.registers_per_thread);
    const std::vector<std::vector<int>> sets = plan_sets(arch, config.grid, res);
    std::vector<char> selected(sets.size(), 0);
    std::optional<sample_plan> sampled;
    if (options.sample > 0 && options.sample < grid) sampled = choose_sample(sets, options.sample, options.behaviour);
    std::vector<int> order;
    long long position = 0, chosen = 0;
    for (std::size_t s = 0; s < sets.size(); ++s) {
      if (sampled ? sampled->selected[s] != 0 : position >= options.first && position < last) {
        selected[s] = 1;
        ++chosen;
        for (int b : sets[s])
          if (!(first_run && b == 0)) order.push_back(b);
      }
      position += static_cast<long long>(sets[s].size());
    }
    set_collector collector(arch, res, sets, selected, config.grid, config.max_reports, sampled.has_value());
    if (first_run) collector.finished(std::move(*first_run));
    const bool priced_first = !sets.empty() && selected[0];
    pass_total = done_before + static_cast<long long>(order.size());
    so.order = order;
    so.on_finished = [&](finished_workgroup&& f) { collector.finished(std::move(f)); };
    stream_result sr = order.empty() ? stream_result{} : run_stream(config, memory, program, so);
    if (first_touches.runs() > 0 && priced_first) sr.touches.merge(first_touches);

    const std::size_t max_lds = std::max(collector.max_lds(), *lds_hint);
    const residency true_res = plan_residency(arch, config.grid, config.block, max_lds, options.registers_per_thread);
    if (!same_plan(res, true_res) && pass < 6) {  // a later workgroup allocated more LDS: plan again
      lds_hint = max_lds;
      continue;
    }
    const byte_ranges conflicts = sr.touches.conflicts();
    bool covered = true;  // every racing byte's touches were kept
    if (!conflicts.empty()) {
      covered = racing && std::all_of(conflicts.begin(), conflicts.end(), [&](const auto& c) {
        return std::any_of(racing->begin(), racing->end(), [&](const auto& r) { return r.first <= c.first && c.second <= r.second; });
      });
    }
    if (!covered && pass < 6) {  // races between workgroups: once more on one thread, keeping their touches
      racing = conflicts;
      jobs = 1;
      lds_hint = max_lds;
      continue;
    }

    if (sampled) {  // the sets' parts one by one to the extrapolation, and merged for the findings below
      sample_summary summary;
      out.report = extrapolate(arch, res, *sampled, collector.each(), collector.each_set(), config.grid,
                               config.max_reports, summary);
      out.sample = summary;
      for (report_part& p : collector.each()) out.part.merge(std::move(p), config.max_reports);
    } else {
      out.part = collector.take();
    }
    out.res = res;
    out.max_lds_bytes = max_lds;
    out.touches = std::move(sr.touches);
    out.runs = pass;
    out.total_sets = static_cast<long long>(sets.size());
    out.sets = chosen;
    for (std::size_t s = 0; s < sets.size(); ++s)
      if (selected[s]) {
        out.blocks.insert(out.blocks.end(), sets[s].begin(), sets[s].end());
        out.set_indices.push_back(static_cast<long long>(s));
      }
    // Races between workgroups from the kept touches, in block order as run() finds them.
    out.part.trim_findings(config.max_reports);
    std::size_t listed = 0;
    for (const auto& [block, lists] : out.part.findings) listed += lists[static_cast<int>(finding_kind::race)].size();
    if (!sr.kept_touches.empty()) {
      std::stable_sort(sr.kept_touches.begin(), sr.kept_touches.end(),
                       [](const touch& a, const touch& b) { return a.block < b.block; });
      for (race& r : find_races(std::move(sr.kept_touches), race_scope::across_workgroups,
                                global_naming(sr.labels, config.wave_size, memory))) {
        ++out.part.found.races;
        ++grid_found;
        if (listed < static_cast<std::size_t>(config.max_reports)) {
          ++listed;
          out.grid_races.push_back(std::move(r));
        }
      }
    }
    break;
  }
  out.memory = std::move(memory);
  if (!out.sample) {
    report_part copy = out.part;
    out.report = finish_report(arch, out.res, std::move(copy), out.grid_races, config.max_reports);
  } else {
    for (const race& r : out.grid_races) out.report.findings.push_back(describe(r));
    out.report.finding_count += grid_found;
  }
  return out;
}

}  // namespace detail

}  // namespace tilesim::sim
