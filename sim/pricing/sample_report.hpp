// tilesim/sim/pricing/sample_report.hpp: price a few SM sets of each behaviour and extrapolate the grid's report.
//
// DEFINITION. A full run prices every set of co-resident workgroups (plan_sets). A sample prices some sets of
// each *behaviour* and scales them up. Sets behave alike when they have the same number of workgroups (a
// set of 3 shares its CU less than a set of 4) and their workgroups have the same classes, which the caller
// names per workgroup (`tilesim run gemm`: block tiles in the first or last block row or column are edge
// tiles, the others interior; without a class function every workgroup is alike). choose_sample gives each
// behaviour (stratum) at least 2 sets (all when it has fewer), shares the rest of the budget of K
// workgroups in proportion to the behaviours' workgroups, and takes a stratum's sets evenly spread over it.
// extrapolate estimates every count of the report by stratified expansion (a stratum's sampled sum times
// N_h / n_h), every mean as a ratio of estimated totals, the median workgroup as the weighted median, and
// states a 95 % error for the totals: 1.96 standard errors of the stratified estimate, with the finite
// population correction (sets of a stratum not sampled are what is uncertain; a fully sampled stratum adds
// nothing).
//
// WORKED EXAMPLE. A 2048^3 GEMM on gfx942: 1024 workgroups on 304 CUs make 112 sets of 4 and 192 of 3; with the
// tile classes, sets differ by their edge tiles. `--sample 64` prices about 64 workgroups in a few dozen sets
// and prints the report of all 1024 with "sample: ..." giving the sets it priced and the error of each total.
//
// INVARIANTS: a stratum whose sampled sets price alike contributes its exact total and no error; the sample
// covers every behaviour; asking for at least the whole grid is the full run (no sampling).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/report/program_report.hpp"
#include "sim/pricing/report_part.hpp"

namespace tilesim::sim {

struct sample_plan {
  std::vector<char> selected;        // per set: priced
  std::vector<int> stratum;          // per set: its behaviour
  std::vector<long long> sets_in;    // per stratum: N_h
  std::vector<long long> chosen_in;  // per stratum: n_h
  long long workgroups = 0;          // workgroups of the chosen sets
};

// The sets to price for a sample of about `k` workgroups (see above); `behaviour` classes a workgroup (empty: all
// alike).
sample_plan choose_sample(const std::vector<std::vector<int>>& sets, long long k, const std::function<int(int)>& behaviour);

// What a sample says about its own precision: 95 % errors of the extrapolated totals.
struct sample_summary {
  long long workgroups = 0, grid = 0;   // priced, in the grid
  long long sets = 0, total_sets = 0;   // priced, in the grid
  int behaviours = 0;
  double wavefronts_error = 0, sectors_error = 0, cycles_error = 0;  // LDS wavefronts, global sectors, cycles per workgroup
};

// The grid's report estimated from the priced sets' parts (parts[s] for every selected set s), and its summary.
program_report extrapolate(const arch_table& arch, const residency& res, const sample_plan& plan,
                           const std::vector<report_part>& parts, const std::vector<long long>& part_set,
                           int grid, int max_reports, sample_summary& summary);

// "sample: 72 of 1024 workgroups (20 of 304 SM sets, 4 behaviours) priced, the rest extrapolated; 95 % error:
// LDS wavefronts +- 0, global sectors +- 0, cycles per workgroup +- 1234"
std::string describe(const sample_summary& s);

// The report as JSON: to_json's object with schema "tilesim.program-sample/1" and a "sample" member.
std::string to_json(const program_report& r, const sample_summary& s);

}  // namespace tilesim::sim
