// tilesim/gpu/crosscheck/accuracy.cpp: see accuracy.hpp.
#include "gpu/crosscheck/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "gpu/crosscheck/crosscheck.hpp"

namespace tilesim::gpu {

using util::json_value;
using util::read_u64;

namespace {


std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string signed_percent(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.1f %%", 100 * v);
  return buf;
}

}  // namespace

accuracy accuracy_of(const json_value& recording) {
  accuracy a;
  // The same algorithm with another LDS layout: program, example, tile (copies: a 128 x 64 and a 64 x 128 tile
  // move the same bytes), launch, global sectors, LDS instruction counts.
  using family_key = std::tuple<std::string, std::string, index_t, index_t, double, double, double, double, double, double>;
  struct member {
    std::size_t row;
    long long excess;
  };
  std::map<family_key, std::vector<member>> families;
  for (const json_value& p : recording["points"].elements()) {
    const crosscheck_point point = point_from_json(p);
    const point_inputs in = make_inputs(point, read_u64(p["seed"], "seed of " + point.name));
    const simulated s = simulate(point, in);
    accuracy_row row;
    row.name = point.name;
    row.program = p["program"].string();
    row.predicted = s.cycles_per_workgroup;
    row.measured = p["hardware"]["cycles_per_block_median"].number();
    row.error = (row.predicted - row.measured) / row.measured;
    row.verdict = s.report.verdict;
    const json_value& c = p["simulator"]["counters"];
    const std::string example = row.name.rfind("example ", 0) == 0 ? row.name.substr(0, row.name.find(':')) : "";
    const json_value params = to_json(point)["params"];  // the tile a copy-shaped point moves (rows x cols), else 0 x 0
    auto tile = [&](const char* key) { return params.get(key) ? static_cast<index_t>((*params.get(key)).number()) : 0; };
    families[{row.program, example, tile("rows"), tile("cols"), p["launch"]["grid"].number(), p["launch"]["block"].number(), c["global_sectors_ld"].number(),
              c["global_sectors_st"].number(), c["lds_instructions_ld"].number(), c["lds_instructions_st"].number()}]
        .push_back({a.points.size(), s.report.excess});
    a.points.push_back(std::move(row));
  }
  std::vector<double> errors, speedup_errors;
  for (const accuracy_row& r : a.points) errors.push_back(std::fabs(r.error));
  for (const auto& entry : families) {
    const std::vector<member>& m = entry.second;
    const auto worst = std::max_element(m.begin(), m.end(), [](const member& x, const member& y) { return x.excess < y.excess; });
    if (worst->excess == 0) continue;
    for (const member& v : m) {
      if (v.excess != 0) continue;
      const accuracy_row &slow = a.points[worst->row], &fast = a.points[v.row];
      speedup_row s{slow.name, fast.name, slow.predicted / fast.predicted, slow.measured / fast.measured, 0};
      s.error = s.predicted / s.measured - 1;
      s.faster_named = (s.predicted > 1) == (s.measured > 1);
      if (std::fabs(s.measured - 1) > 0.05) {
        ++a.pairs_differing;
        a.pairs_faster_named += s.faster_named;
      }
      speedup_errors.push_back(std::fabs(s.error));
      a.speedups.push_back(std::move(s));
    }
  }
  a.median_abs_error = median(errors);
  a.worst_abs_error = errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end());
  a.median_abs_speedup_error = median(speedup_errors);
  a.worst_abs_speedup_error = speedup_errors.empty() ? 0 : *std::max_element(speedup_errors.begin(), speedup_errors.end());
  return a;
}

std::string accuracy_markdown(const accuracy& a) {
  std::string s = "| point | measured cycles | predicted | error | simulator's verdict |\n| --- | --- | --- | --- | --- |\n";
  for (const accuracy_row& r : a.points)
    s += "| " + r.name + " | " + fixed(r.measured, 0) + " | " + fixed(r.predicted, 0) + " | " + signed_percent(r.error) +
         " | " + r.verdict + " |\n";
  s += "\n| conflicted | conflict-free | measured speed-up | predicted | error |\n| --- | --- | --- | --- | --- |\n";
  for (const speedup_row& r : a.speedups)
    s += "| " + r.conflicted + " | " + r.conflict_free + " | " + fixed(r.measured, 2) + " | " + fixed(r.predicted, 2) +
         " | " + signed_percent(r.error) + " |\n";
  s += "\nblock cycles: median |error| " + fixed(100 * a.median_abs_error, 1) + " %, worst " +
       fixed(100 * a.worst_abs_error, 1) + " % over " + std::to_string(a.points.size()) +
       " points; conflict-free speed-ups: median |error| " + fixed(100 * a.median_abs_speedup_error, 1) + " %, worst " +
       fixed(100 * a.worst_abs_speedup_error, 1) + " % over " + std::to_string(a.speedups.size()) +
       " pairs; the faster side named correctly in " + std::to_string(a.pairs_faster_named) + " of " +
       std::to_string(a.pairs_differing) + " pairs measured more than 5 % apart\n";
  return s;
}

}  // namespace tilesim::gpu
