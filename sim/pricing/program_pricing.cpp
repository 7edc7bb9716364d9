// tilesim/sim/pricing/program_pricing.cpp: a run priced into its program report: report parts merged, findings
// added, the finished report and its bottleneck verdict (residency and sets: sim/timing/residency.cpp; pricing one
// set: set_pricing.cpp; output: sim/report/program_report_output.cpp).
#include "sim/report/program_report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

#include "sim/pricing/report_part.hpp"

namespace tilesim::sim {

namespace {

template <class List>
void add_findings(std::vector<std::string>& out, const List& list) {
  for (const auto& f : list) out.push_back(describe(f));
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f %%", 100 * fraction);
  return buf;
}

}  // namespace

std::string bottleneck_verdict(const program_report& r) {
  const std::pair<double, std::string> units[] = {
      {r.issue_busy, "issue-bound: the busiest scheduler issues " + percent(r.issue_busy) + " of the cycles"},
      {r.lds_busy, "LDS-bound: the LDS pipe is busy " + percent(r.lds_busy) + " of the cycles" +
                       (r.excess > 0 ? " (" + std::to_string(r.excess) + " of " + std::to_string(r.wavefronts) +
                                           " wavefronts are bank conflicts)"
                                     : " (no bank conflict)")},
      {r.global_load_busy, "global-load-bound: the SM's load path is busy " + percent(r.global_load_busy) + " of the cycles"},
      {r.global_store_busy, "global-store-bound: the SM's store path is busy " + percent(r.global_store_busy) + " of the cycles"}};
  const auto* busiest = &units[0];
  for (const auto& u : units)
    if (u.first > busiest->first) busiest = &u;
  if (busiest->first >= 0.6) return busiest->second;
  double issue = 0, lds = 0, global = 0, barrier = 0;
  for (const instruction_report& i : r.instructions) {
    issue += i.issue_cycles * i.instances;
    lds += i.lds_cycles * i.instances;
    global += i.global_cycles * i.instances;
  }
  for (const barrier_report& b : r.barriers) {
    barrier += b.wait * b.instances;
    issue += b.issue_cycles * b.instances;
  }
  const double all = std::max(issue + lds + global + barrier, 1e-9);
  const std::pair<double, std::string> waits[] = {
      {global, "global memory (load latency and the path to L2)"}, {lds, "LDS (latency and queueing)"},
      {barrier, "barriers (waves waiting for the slowest wave)"}, {issue, "issue (arithmetic and scheduler turns)"}};
  const auto* most = &waits[0];
  for (const auto& w : waits)
    if (w.first > most->first) most = &w;
  return "latency-bound: no unit is busy more than " + percent(busiest->first) + " of the cycles; " +
         percent(most->first / all) + " of the waves' time goes to " + most->second;
}

void report_part::merge(report_part&& o, int max_reports) {
  for (auto& [key, orow] : o.rows) {
    auto [it, fresh] = rows.try_emplace(key, std::move(orow));
    if (fresh) continue;
    part_row& r = it->second;
    if (orow.first < r.first) {  // the other part met it first: its first instance describes the row
      r.first = orow.first;
      r.interval = orow.interval;
      r.position = orow.position;
      r.kind = orow.kind;
      r.space = orow.space;
      r.width = orow.width;
      r.matrix_access = orow.matrix_access;
      r.async_copy = orow.async_copy;
    }
    r.instances += orow.instances;
    r.wavefronts += orow.wavefronts;
    r.ideal += orow.ideal;
    r.excess += orow.excess;
    r.sectors += orow.sectors;
    r.ideal_sectors += orow.ideal_sectors;
    r.l1_hit_sectors += orow.l1_hit_sectors;
    r.max_ways = std::max(r.max_ways, orow.max_ways);
    for (int op = 0; op < alu_op_count; ++op) r.alu[op] += orow.alu[op];
    r.issue.merge(orow.issue);
    r.lds.merge(orow.lds);
    r.global.merge(orow.global);
    r.wait.merge(orow.wait);
  }
  workgroup_cycles.insert(workgroup_cycles.end(), o.workgroup_cycles.begin(), o.workgroup_cycles.end());
  workgroups += o.workgroups;
  waves_per_workgroup = std::max(waves_per_workgroup, o.waves_per_workgroup);
  if (o.slowest_cycles > slowest_cycles || (o.slowest_cycles == slowest_cycles && o.slowest_set < slowest_set)) {
    slowest_cycles = o.slowest_cycles;
    slowest_set = o.slowest_set;
    issue_busy = o.issue_busy;
    lds_busy = o.lds_busy;
    global_load_busy = o.global_load_busy;
    global_store_busy = o.global_store_busy;
  }
  if (o.worst_excess > worst_excess || (o.worst_excess == worst_excess && o.worst_excess >= 0 && o.worst_at < worst_at)) {
    worst_excess = o.worst_excess;
    worst_at = o.worst_at;
    worst_lds = std::move(o.worst_lds);
  }
  for (auto& [block, lists] : o.findings) findings[block] = std::move(lists);
  found.races += o.found.races;
  found.bounds_errors += o.found.bounds_errors;
  found.misaligned += o.found.misaligned;
  found.ambiguities += o.found.ambiguities;
  found.divergences += o.found.divergences;
  found.barrier_mismatches += o.found.barrier_mismatches;
  trim_findings(max_reports);
}

void report_part::trim_findings(int max_reports) {
  std::array<std::size_t, finding_kinds> listed{};
  for (auto it = findings.begin(); it != findings.end();) {
    bool any = false;
    for (int k = 0; k < finding_kinds; ++k) {
      std::vector<std::string>& list = it->second[static_cast<std::size_t>(k)];
      const std::size_t room = static_cast<std::size_t>(std::max(0, max_reports)) - std::min<std::size_t>(listed[static_cast<std::size_t>(k)], static_cast<std::size_t>(std::max(0, max_reports)));
      if (list.size() > room) list.resize(room);
      listed[static_cast<std::size_t>(k)] += list.size();
      any = any || !list.empty();
    }
    it = any ? std::next(it) : findings.erase(it);
  }
}

void add_workgroup_findings(report_part& part, const workgroup_record& wg, const diagnostic_counts& found) {
  std::array<std::vector<std::string>, finding_kinds> lists;
  add_findings(lists[static_cast<int>(finding_kind::race)], wg.races);
  add_findings(lists[static_cast<int>(finding_kind::bounds)], wg.bounds_errors);
  add_findings(lists[static_cast<int>(finding_kind::misaligned)], wg.misaligned);
  add_findings(lists[static_cast<int>(finding_kind::ambiguity)], wg.ambiguities);
  add_findings(lists[static_cast<int>(finding_kind::divergence)], wg.divergences);
  add_findings(lists[static_cast<int>(finding_kind::barrier_mismatch)], wg.barrier_mismatches);
  bool any = false;
  for (const auto& l : lists) any = any || !l.empty();
  if (any) part.findings[wg.block] = std::move(lists);
  part.found.races += found.races;
  part.found.bounds_errors += found.bounds_errors;
  part.found.misaligned += found.misaligned;
  part.found.ambiguities += found.ambiguities;
  part.found.divergences += found.divergences;
  part.found.barrier_mismatches += found.barrier_mismatches;
}

program_report finish_report(const arch_table& arch, const residency& res, report_part&& part,
                             const std::vector<race>& grid_races, int max_reports) {
  program_report r;
  r.arch = std::string(arch.name);
  r.workgroups = part.workgroups;
  r.waves_per_workgroup = part.waves_per_workgroup;
  r.resident_workgroups = res.workgroups;
  r.active_processors = res.processors;
  r.resident_limit = res.limit;
  if (part.slowest_set >= 0) {
    r.issue_busy = part.issue_busy;
    r.lds_busy = part.lds_busy;
    r.global_load_busy = part.global_load_busy;
    r.global_store_busy = part.global_store_busy;
  }
  if (part.worst_excess >= 0) {
    r.has_worst_lds = true;
    r.worst_lds = std::move(part.worst_lds);
  }
  part.trim_findings(max_reports);
  for (auto& [block, lists] : part.findings)
    for (auto& list : lists)
      for (std::string& f : list) r.findings.push_back(std::move(f));
  add_findings(r.findings, grid_races);
  const diagnostic_counts& f = part.found;
  r.finding_count = static_cast<long long>(f.races + f.bounds_errors + f.misaligned + f.ambiguities + f.divergences +
                                           f.barrier_mismatches);
  if (!part.workgroup_cycles.empty()) {
    std::vector<double>& sorted = part.workgroup_cycles;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    r.cycles_per_workgroup = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    r.slowest_workgroup_cycles = sorted.back();
  }

  // Rows in the order they were first met (what one pass over the sets in order creates), then by first issue.
  std::vector<const part_row*> met;
  for (const auto& [key, row] : part.rows) met.push_back(&row);
  std::sort(met.begin(), met.end(), [](const part_row* a, const part_row* b) { return a->first < b->first; });
  std::sort(met.begin(), met.end(), [](const part_row* a, const part_row* b) {
    return std::tie(a->interval, a->position) < std::tie(b->interval, b->position);
  });
  for (const part_row* pr : met) {
    const double n = pr->instances ? static_cast<double>(pr->instances) : 1;
    if (pr->barrier) {
      r.barriers.push_back({pr->label, pr->interval, static_cast<int>(pr->instances), pr->wait.value() / n,
                            pr->issue.value() / n, pr->alu});
      continue;
    }
    instruction_report ir;
    ir.label = pr->label;
    ir.kind = pr->kind;
    ir.space = pr->space;
    ir.width = pr->width;
    ir.matrix_access = pr->matrix_access;
    ir.async_copy = pr->async_copy;
    ir.interval = pr->interval;
    ir.position = pr->position;
    ir.instances = static_cast<int>(pr->instances);
    ir.wavefronts = pr->wavefronts;
    ir.ideal = pr->ideal;
    ir.excess = pr->excess;
    ir.max_ways = pr->max_ways;
    ir.sectors = pr->sectors;
    ir.ideal_sectors = pr->ideal_sectors;
    ir.alu = pr->alu;
    ir.l1_hit_sectors = pr->l1_hit_sectors;
    ir.issue_cycles = pr->issue.value() / n;
    ir.lds_cycles = pr->lds.value() / n;
    ir.global_cycles = pr->global.value() / n;
    ir.cycles = ir.issue_cycles + ir.lds_cycles + ir.global_cycles;
    r.wavefronts += ir.wavefronts;
    r.ideal += ir.ideal;
    r.excess += ir.excess;
    r.sectors += ir.sectors;
    r.ideal_sectors += ir.ideal_sectors;
    r.instructions.push_back(std::move(ir));
  }
  r.verdict = bottleneck_verdict(r);
  return r;
}

program_report make_program_report(const arch_table& arch, const run_result& run, int registers_per_thread) {
  std::size_t lds = 0;
  for (const workgroup_record& wg : run.workgroups) lds = std::max(lds, wg.lds_bytes);
  const residency res = plan_residency(arch, run.config.grid, run.config.block, lds, registers_per_thread);
  // Sets by processor (block % P), then in groups of the resident count, over the records as they are.
  std::vector<std::vector<const workgroup_record*>> sets;
  {
    std::map<long long, std::vector<const workgroup_record*>> by_processor;
    for (const workgroup_record& wg : run.workgroups) by_processor[wg.block % arch.occupancy.processors].push_back(&wg);
    const auto per = static_cast<std::size_t>(res.workgroups);
    for (auto& [proc, list] : by_processor)
      for (std::size_t at = 0; at < list.size(); at += per)
        sets.emplace_back(list.begin() + static_cast<std::ptrdiff_t>(at),
                          list.begin() + static_cast<std::ptrdiff_t>(std::min(list.size(), at + per)));
  }
  report_part all;
  for (std::size_t k = 0; k < sets.size(); ++k)
    all.merge(price_set(arch, res, static_cast<long long>(k), sets[k]), run.config.max_reports);
  for (const workgroup_record& wg : run.workgroups) add_workgroup_findings(all, wg, {});
  all.found = run.found;
  return finish_report(arch, res, std::move(all), run.grid_races, run.config.max_reports);
}

}  // namespace tilesim::sim
