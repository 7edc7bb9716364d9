// tilesim/sim/pricing/partial_report.hpp: a slice's priced part as JSON, and the merge of all slices' parts.
//
// DEFINITION. A partial report is what one shard of a sharded run writes (`tilesim run ... --workgroups A:B`):
// the report_part of the sets it priced (exact sums as text, doubles with 17 digits: nothing rounds on the
// way), the plan it priced them with (resident count, the most LDS it saw), which set indices it covered,
// the compact summary of the global bytes its workgroups touched (grid_touches.hpp) and its own races
// between workgroups, plus what the command wants back (`meta`: its command line, header, result check).
// merge_partials checks that the partials describe one run (same command, arch, grid, plan) and cover every
// set exactly once, and returns the report make_program_report would give for the whole grid: the parts
// merge exactly (report_part.hpp). Races between workgroups of different shards cannot name their threads
// without the trace; the merge lists each racing byte range with its workgroups instead (and the report then
// says so); with no such race, the merged report equals the single process's bit for bit.
//
// WORKED EXAMPLE.
//   partial_report a = make_partial(arch, config, sim_of_slice_0, meta), b = ... slice 1;
//   merged m = merge_partials({parse_partial(to_json(a)), parse_partial(to_json(b))});
//   to_json(m.report) == to_json(simulate(whole grid).report)
//
// INVARIANTS: parse_partial(to_json(p)) == p field for field; merge_partials refuses (std::invalid_argument,
// naming the file index and the field) partials of different runs, gaps and overlaps in the sets.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/report/program_report.hpp"
#include "sim/pricing/report_part.hpp"
#include "sim/pricing/stream_report.hpp"

namespace tilesim::sim {

inline constexpr const char* partial_schema = "tilesim.program-partial/1";

struct partial_report {
  std::map<std::string, std::string> meta;  // the command's own fields (strings), compared or summed by it
  std::string arch;
  int grid = 0, block = 0, max_reports = 0, registers = 0;
  std::size_t max_lds_bytes = 0;
  residency res;
  long long total_sets = 0;
  std::vector<std::pair<long long, long long>> sets;  // set indices priced, as [first, last) ranges
  report_part part;
  grid_touch_map touches;
  std::vector<std::string> grid_races;  // races between this slice's workgroups, one line each (listed)
};

// The partial report of a simulation of a slice (or of the whole grid).
partial_report make_partial(const arch_table& arch, const launch& config, int registers, const simulation& s,
                            std::map<std::string, std::string> meta);

// One JSON object (schema "tilesim.program-partial/1"), and its reader (throws std::invalid_argument naming the
// field that is missing, malformed or outside its range; the checks across fields: partial_checks.hpp).
std::string to_json(const partial_report& p);
partial_report parse_partial(const std::string& text);

struct merged_report {
  program_report report;
  std::map<std::string, std::string> meta;  // the first partial's
  std::vector<std::map<std::string, std::string>> metas;  // every partial's, in the order given
  byte_ranges cross_races;  // bytes racing between workgroups of different shards
};

// The whole grid's report from partials of one run that cover every set once (any order); each part passes
// check_partial(arch, part) before anything is sized by it.
merged_report merge_partials(const arch_table& arch, std::vector<partial_report> parts);

}  // namespace tilesim::sim
