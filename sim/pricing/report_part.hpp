// tilesim/sim/pricing/report_part.hpp: a program report over some of a grid's SM sets, mergeable exactly.
//
// DEFINITION. make_program_report (program_report.hpp) prices the grid one *set* at a time: the workgroups
// that share one SM / CU (plan_sets: b, b + P, b + 2P, ... in groups of the resident count) are timed on one
// clock together. A report_part is what some of those sets contribute: per program instruction (a label;
// barriers apart) its counts, its summed arithmetic and its cycle sums as exact_sums; every workgroup's
// cycles; the slowest set's busy fractions; the LDS instance with the most excess wavefronts; the findings
// each workgroup listed, by kind. Every field merges without rounding and breaks ties by where it was first
// met (set index, then the order the pricing met it in), so merging the parts of all sets in any order and
// any grouping gives the report a single pass over the sets in order gives. That is how the streaming run
// (stream_report.hpp) prices workgroups as they finish on any number of threads, and how `tilesim merge`
// joins the partial reports of shards.
//
// WORKED EXAMPLE. A grid of 4 workgroups on an arch of 2 SMs, 2 resident: plan_sets gives {0, 2} and {1, 3};
//   report_part a = price_set(arch, plan, 0, {&wg0, &wg2}), b = price_set(arch, plan, 1, {&wg1, &wg3});
//   b.merge(a); finish_report(arch, plan, b, {}, 1000) == make_program_report(arch, run)   // field by field
//
// INVARIANTS: merge is commutative and associative; a row's first_seen is the least of its instances'; the
// findings of a part keep, per kind, at most max_reports entries over its lowest blocks (the rest counted).
#pragma once

#include <array>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/engine/diagnostics.hpp"
#include "sim/engine/lane_access.hpp"
#include "sim/engine/run_result.hpp"
#include "sim/pricing/exact_sum.hpp"
#include "sim/timing/residency.hpp"

namespace tilesim::sim {

// Where a row or an instance was first met: (set index, order within the set's pricing).
using first_seen = std::pair<long long, long long>;

struct part_row {
  std::string label;
  bool barrier = false;
  access_kind kind = access_kind::load;
  memory_space space = memory_space::lds;
  int width = 0;
  bool matrix_access = false;
  bool async_copy = false;  // a cp.async's global read, or (its own row) its LDS landing
  int interval = 0, position = 0;  // of the first instance
  first_seen first{0, 0};
  long long instances = 0, wavefronts = 0, ideal = 0, excess = 0, sectors = 0, ideal_sectors = 0, l1_hit_sectors = 0;
  int max_ways = 0;
  alu_work alu;
  exact_sum issue, lds, global, wait;  // cycle sums over instances (wait: barriers)
};

// Finding kinds in the order a workgroup's findings are listed.
enum class finding_kind { race, bounds, misaligned, ambiguity, divergence, barrier_mismatch };
inline constexpr int finding_kinds = 6;

struct report_part {
  std::map<std::string, part_row> rows;  // by label ("\x01" + label for barriers)
  std::vector<double> workgroup_cycles;  // every workgroup's, any order
  int workgroups = 0, waves_per_workgroup = 0;
  // The slowest set: its total cycles, index, and the busy fractions it gives.
  double slowest_cycles = -1;
  long long slowest_set = -1;
  double issue_busy = 0, lds_busy = 0, global_load_busy = 0, global_store_busy = 0;
  // The LDS instance with the most excess wavefronts (ties: the first met).
  long long worst_excess = -1;
  first_seen worst_at{0, 0};
  wave_access worst_lds;
  // Findings each workgroup listed, by block and kind (one line each), and how many were found in all.
  std::map<int, std::array<std::vector<std::string>, finding_kinds>> findings;
  diagnostic_counts found;

  // Adds `other` (the sets it priced must be disjoint from this one's); keeps max_reports findings per kind.
  void merge(report_part&& other, int max_reports);
  // Drops listed findings beyond the first max_reports of each kind in block order.
  void trim_findings(int max_reports);
};

// Prices and times set `set_index` (the records of its workgroups, in the set's order): report.hpp's model.
report_part price_set(const arch_table& arch, const residency& res, long long set_index,
                      const std::vector<const workgroup_record*>& set);

// The findings a workgroup record lists, as report lines, and `found`, what it found in all.
void add_workgroup_findings(report_part& part, const workgroup_record& wg, const diagnostic_counts& found);

struct program_report;
// One line: the unit busy most of the time (60 % or more), or what the waves wait for when none is.
std::string bottleneck_verdict(const program_report& r);

// The report of a whole grid from the merged parts of all its sets: rows in the order of first issue, means per
// instance, the median workgroup, the verdict; then every workgroup's findings (max_reports per kind in block
// order) and `grid_races` (already listed within the cap), counting part.found.
program_report finish_report(const arch_table& arch, const residency& res, report_part&& part,
                             const std::vector<race>& grid_races, int max_reports);

}  // namespace tilesim::sim
