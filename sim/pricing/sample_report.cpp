// tilesim/sim/pricing/sample_report.cpp: strata of SM sets, the sample, stratified expansion and its error.
#include "sim/pricing/sample_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace tilesim::sim {

namespace {

// What extrapolation estimates per row, in one place.
struct row_sums {
  double instances = 0, wavefronts = 0, ideal = 0, excess = 0, sectors = 0, ideal_sectors = 0, l1 = 0;
  double alu[alu_op_count] = {};
  double issue = 0, lds = 0, global = 0, wait = 0;
  void add(const part_row& r, double w) {
    instances += w * static_cast<double>(r.instances);
    wavefronts += w * static_cast<double>(r.wavefronts);
    ideal += w * static_cast<double>(r.ideal);
    excess += w * static_cast<double>(r.excess);
    sectors += w * static_cast<double>(r.sectors);
    ideal_sectors += w * static_cast<double>(r.ideal_sectors);
    l1 += w * static_cast<double>(r.l1_hit_sectors);
    for (int op = 0; op < alu_op_count; ++op) alu[op] += w * r.alu[op];
    issue += w * r.issue.value();
    lds += w * r.lds.value();
    global += w * r.global.value();
    wait += w * r.wait.value();
  }
};

long long rounded(double v) { return std::llround(v); }

// Sample variance of `v` (0 for fewer than two values).
double variance(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double s = 0;
  for (double x : v) s += (x - mean) * (x - mean);
  return s / static_cast<double>(v.size() - 1);
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace

sample_plan choose_sample(const std::vector<std::vector<int>>& sets, long long k, const std::function<int(int)>& behaviour) {
  sample_plan p;
  p.selected.assign(sets.size(), 0);
  p.stratum.assign(sets.size(), 0);
  std::map<std::pair<std::size_t, std::vector<int>>, int> strata;
  std::vector<std::vector<std::size_t>> members;
  std::vector<long long> size_of;
  long long grid = 0;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    std::vector<int> classes;
    for (int b : sets[s]) classes.push_back(behaviour ? behaviour(b) : 0);
    const auto [it, fresh] = strata.try_emplace({sets[s].size(), classes}, static_cast<int>(members.size()));
    if (fresh) {
      members.emplace_back();
      size_of.push_back(static_cast<long long>(sets[s].size()));
    }
    p.stratum[s] = it->second;
    members[static_cast<std::size_t>(it->second)].push_back(s);
    grid += static_cast<long long>(sets[s].size());
  }
  const std::size_t h_count = members.size();
  p.sets_in.resize(h_count);
  p.chosen_in.resize(h_count);
  long long used = 0;
  for (std::size_t h = 0; h < h_count; ++h) {
    p.sets_in[h] = static_cast<long long>(members[h].size());
    p.chosen_in[h] = k >= grid ? p.sets_in[h] : std::min<long long>(p.sets_in[h], 2);
    used += p.chosen_in[h] * size_of[h];
  }
  const long long rest = std::max<long long>(0, k - used);
  for (std::size_t h = 0; h < h_count && k < grid; ++h) {
    const long long share = rest * p.sets_in[h] * size_of[h] / std::max<long long>(1, grid) / size_of[h];
    p.chosen_in[h] = std::min(p.sets_in[h], p.chosen_in[h] + share);
  }
  for (std::size_t h = 0; h < h_count; ++h) {
    const long long n = p.chosen_in[h], all = p.sets_in[h];
    for (long long i = 0; i < n; ++i) {
      const std::size_t s = members[h][static_cast<std::size_t>((2 * i + 1) * all / (2 * n))];
      p.selected[s] = 1;
      p.workgroups += static_cast<long long>(sets[s].size());
    }
  }
  return p;
}

program_report extrapolate(const arch_table& arch, const residency& res, const sample_plan& plan,
                           const std::vector<report_part>& parts, const std::vector<long long>& part_set, int grid,
                           int max_reports, sample_summary& summary) {
  const std::size_t strata = plan.sets_in.size();
  auto weight = [&](long long set) {
    const auto h = static_cast<std::size_t>(plan.stratum[static_cast<std::size_t>(set)]);
    return static_cast<double>(plan.sets_in[h]) / static_cast<double>(plan.chosen_in[h]);
  };
  report_part merged;
  std::map<std::string, row_sums> totals;
  std::vector<std::vector<double>> wavefronts(strata), sectors(strata), cycles(strata);
  std::vector<std::pair<double, double>> weighted;  // (workgroup cycles, weight)
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const long long s = part_set[i];
    const double w = weight(s);
    const auto h = static_cast<std::size_t>(plan.stratum[static_cast<std::size_t>(s)]);
    double wf = 0, sc = 0;
    for (const auto& [key, row] : parts[i].rows) {
      totals[key].add(row, w);
      if (!row.barrier) {
        wf += static_cast<double>(row.wavefronts);
        sc += static_cast<double>(row.sectors);
      }
    }
    wavefronts[h].push_back(wf);
    sectors[h].push_back(sc);
    double set_cycles = 0;  // the set's mean workgroup: sets, not workgroups, are what the sample draws
    for (double c : parts[i].workgroup_cycles) {
      set_cycles += c;
      weighted.emplace_back(c, w);
    }
    if (!parts[i].workgroup_cycles.empty()) cycles[h].push_back(set_cycles / static_cast<double>(parts[i].workgroup_cycles.size()));
    report_part copy = parts[i];
    merged.merge(std::move(copy), max_reports);
  }
  program_report r = finish_report(arch, res, std::move(merged), {}, max_reports);
  r.workgroups = grid;
  r.wavefronts = r.ideal = r.excess = r.sectors = r.ideal_sectors = 0;
  for (instruction_report& ir : r.instructions) {
    const row_sums& t = totals[ir.label];
    const double n = t.instances > 0 ? t.instances : 1;
    ir.instances = static_cast<int>(rounded(t.instances));
    ir.wavefronts = rounded(t.wavefronts);
    ir.ideal = rounded(t.ideal);
    ir.excess = rounded(t.excess);
    ir.sectors = rounded(t.sectors);
    ir.ideal_sectors = rounded(t.ideal_sectors);
    ir.l1_hit_sectors = rounded(t.l1);
    for (int op = 0; op < alu_op_count; ++op) ir.alu[op] = static_cast<std::uint32_t>(rounded(t.alu[op]));
    ir.issue_cycles = t.issue / n;
    ir.lds_cycles = t.lds / n;
    ir.global_cycles = t.global / n;
    ir.cycles = ir.issue_cycles + ir.lds_cycles + ir.global_cycles;
    r.wavefronts += ir.wavefronts;
    r.ideal += ir.ideal;
    r.excess += ir.excess;
    r.sectors += ir.sectors;
    r.ideal_sectors += ir.ideal_sectors;
  }
  for (barrier_report& b : r.barriers) {
    const row_sums& t = totals["\x01" + b.label];
    const double n = t.instances > 0 ? t.instances : 1;
    b.instances = static_cast<int>(rounded(t.instances));
    b.wait = t.wait / n;
    b.issue_cycles = t.issue / n;
    for (int op = 0; op < alu_op_count; ++op) b.alu[op] = static_cast<std::uint32_t>(rounded(t.alu[op]));
  }
  // The weighted median workgroup: the first whose cumulative weight reaches half of all.
  std::sort(weighted.begin(), weighted.end());
  double all = 0, run = 0;
  for (const auto& [c, w] : weighted) all += w;
  for (const auto& [c, w] : weighted) {
    run += w;
    if (run >= all / 2) {
      r.cycles_per_workgroup = c;
      break;
    }
  }
  r.verdict = bottleneck_verdict(r);

  summary = {};
  summary.grid = grid;
  summary.behaviours = static_cast<int>(strata);
  double var_wf = 0, var_sc = 0, var_mean = 0;
  for (std::size_t h = 0; h < strata; ++h) {
    const double big = static_cast<double>(plan.sets_in[h]), small = static_cast<double>(plan.chosen_in[h]);
    summary.sets += plan.chosen_in[h];
    summary.total_sets += plan.sets_in[h];
    const double fpc = 1 - small / big;
    var_wf += big * big * fpc * variance(wavefronts[h]) / small;
    var_sc += big * big * fpc * variance(sectors[h]) / small;
    long long m = 0;  // workgroups sampled in the stratum
    for (std::size_t i = 0; i < parts.size(); ++i)
      if (plan.stratum[static_cast<std::size_t>(part_set[i])] == static_cast<int>(h)) m += static_cast<long long>(parts[i].workgroup_cycles.size());
    const double share = static_cast<double>(m) * big / small / std::max(1, grid);  // its share of the grid's workgroups
    var_mean += share * share * fpc * variance(cycles[h]) / small;  // the mean over its sets' means
    summary.workgroups += m;
  }
  summary.wavefronts_error = 1.96 * std::sqrt(var_wf);
  summary.sectors_error = 1.96 * std::sqrt(var_sc);
  summary.cycles_error = 1.96 * std::sqrt(var_mean);
  return r;
}

std::string describe(const sample_summary& s) {
  return "sample: " + std::to_string(s.workgroups) + " of " + std::to_string(s.grid) + " workgroups (" +
         std::to_string(s.sets) + " of " + std::to_string(s.total_sets) + " SM sets, " + std::to_string(s.behaviours) +
         (s.behaviours == 1 ? " behaviour" : " behaviours") +
         ") priced, the rest extrapolated; 95 % error: LDS wavefronts +- " + number(s.wavefronts_error) +
         ", global sectors +- " + number(s.sectors_error) + ", cycles per workgroup +- " + number(s.cycles_error);
}

std::string to_json(const program_report& r, const sample_summary& s) {
  std::string j = to_json(r);
  const std::string from = "tilesim.program-report/1", to = "tilesim.program-sample/1";
  if (const std::size_t at = j.find(from); at != std::string::npos) j.replace(at, from.size(), to);
  const std::size_t end = j.rfind("\n}");
  j.insert(end, ",\n  \"sample\": {\"workgroups\": " + std::to_string(s.workgroups) + ", \"grid\": " + std::to_string(s.grid) +
                    ", \"sets\": " + std::to_string(s.sets) + ", \"total_sets\": " + std::to_string(s.total_sets) +
                    ", \"behaviours\": " + std::to_string(s.behaviours) + ", \"error95\": {\"wavefronts\": " +
                    number(s.wavefronts_error) + ", \"sectors\": " + number(s.sectors_error) +
                    ", \"cycles_per_workgroup\": " + number(s.cycles_error) + "}}");
  return j;
}

}  // namespace tilesim::sim
