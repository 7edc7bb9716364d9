// tilesim/sim/pricing/partial_checks.hpp: what a partial report may claim, checked before anything is allocated.
//
// DEFINITION. A partial report (partial_report.hpp) travels between machines and comes back as text anyone
// could have written. Its numbers are only believed when they agree with each other and with the arch:
//   grid in [1, max_partial_grid], block in [1, 1024], registers in [0, 255], max_reports in [0, 2^20];
//   residency.workgroups in [1, grid], residency.processors in [1, the arch's processors];
//   total_sets = the number of sets plan_sets(arch, grid, residency) makes (computed, not allocated);
//   every 'sets' range inside [0, total_sets), the ranges disjoint; 'workgroups' = the workgroups of those
//   sets, one 'workgroup_cycles' entry each; waves_per_workgroup = ceil(block / wave size);
//   the worst LDS access: a width the arch issues (1, 2, 4, 8, 16), one address per lane of its wave.
// A partial that passes cannot make the merge allocate more than its grid's worth (at most max_partial_grid
// set owners); every other size is the file's own (ranges, rows, cycles: one per item it spells out).
//
// WORKED EXAMPLE. A 4-workgroup copy on sm90 (132 SMs, 1 resident): total_sets must be 4; a file saying
// "total_sets": 1000000000 is refused with "'total_sets': 1000000000, but grid 4 on sm90 with 1 resident
// workgroup(s) per SM makes 4 sets".
//
// INVARIANTS: check_partial and integer_in throw std::invalid_argument naming the field (dotted path) and the
// value; they allocate nothing proportional to a number read from the file.
#pragma once

#include <cstdint>
#include <string>

#include "sim/arch/arch.hpp"
#include "util/json.hpp"

namespace tilesim::sim {

struct partial_report;

// The largest grid a partial may describe (tilesim run's largest is 4096 workgroups).
inline constexpr std::int64_t max_partial_grid = std::int64_t{1} << 20;

// v.integer() when it lies in [lo, hi]: integer_in(v["grid"], "grid", 1, 64); else "'grid': -5 is outside [1, 64]".
std::int64_t integer_in(const util::json_value& v, const std::string& field, std::int64_t lo, std::int64_t hi);

// The number of sets plan_sets(arch, grid, resident) makes, without making them: 4 for grid 4 on sm90, 1 resident.
long long set_count(const arch_table& arch, long long grid, int resident);

// The arch table a partial names: arch_of(p) == arch_named(p.arch), or "'arch': unknown architecture ...".
const arch_table& arch_of(const partial_report& p);

// The cross-field checks of the essay on a parsed partial, against `arch` (the table p.arch names, or a test's
// own table of that name): parse_partial checks each field alone; merge_partials calls this for every part.
void check_partial(const arch_table& arch, const partial_report& p);

}  // namespace tilesim::sim
