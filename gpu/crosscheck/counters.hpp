// tilesim/gpu/crosscheck/counters.hpp: what Nsight Compute counts for one kernel launch, and the simulator's prediction.
//
// DEFINITION. counters holds fourteen exact counts of one launch: shared-memory wavefronts and instructions
// (loads, stores, and ldmatrix apart, as Nsight's op_ldsm; cp.async's LDGSTS apart, as op_ldgsts), global sectors and instructions (loads, stores) and
// local-memory sectors (spills; the simulator's are 0). counter_metrics() names the Nsight Compute metric of
// each field in field order; predicted_counters(report) totals a simulator report the same way (an LDS row's
// wavefronts and instances, a global row's sectors and instances). Both `tilesim-gpu crosscheck` and a user's
// tilesim::gpu::crosscheck (gpu/user/) compare the two field by field.
//
// WORKED EXAMPLE. The fp16 64x32 copy, row-major LDS, grid 64: predicted_counters(report).lds_wavefronts_ld ==
// 8192 on sm90 (8-way reads), and Nsight's smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum is 8192.
//
// INVARIANTS: to_json and counters_from_json round-trip every field; a recording made before local memory (or
// ldmatrix, or cp.async) was counted reads those fields as 0.
#pragma once

#include <string>
#include <vector>

#include "util/json.hpp"
#include "sim/engine/run_result.hpp"
#include "sim/report/program_report.hpp"

namespace tilesim::gpu {

struct counters {
  long long lds_wavefronts_ld = 0, lds_wavefronts_st = 0;
  long long lds_instructions_ld = 0, lds_instructions_st = 0;
  long long global_sectors_ld = 0, global_sectors_st = 0;
  long long global_instructions_ld = 0, global_instructions_st = 0;
  long long local_sectors_ld = 0, local_sectors_st = 0;  // local memory: the simulator models none (always 0)
  long long lds_wavefronts_ldsm = 0, lds_instructions_ldsm = 0;  // ldmatrix (op_ldsm; not in the ld fields)
  // cp.async (op_ldgsts: one LDGSTS each, its LDS wavefronts; its global sectors are in global_sectors_ld)
  long long lds_wavefronts_ldgsts = 0, instructions_ldgsts = 0;
  bool operator==(const counters&) const = default;
};

// What Nsight Compute counts, predicted from a report: the LDS rows' wavefronts and instances (ldmatrix apart),
// the global rows' sectors and instances; local memory 0.
counters predicted_counters(const sim::program_report& report);
// The dynamic shared memory a launch of the run needs: its largest workgroup's allocations (16-byte granules).
std::size_t lds_bytes_of(const sim::run_result& run);
util::json_value to_json(const counters& c);
counters counters_from_json(const util::json_value& v);
// The Nsight Compute metric behind each field, in field order (for `ncu --metrics`).
const std::vector<std::string>& counter_metrics();
// Sets the field of `metric` (one of counter_metrics()); false when it is not one of them.
bool set_counter(counters& c, const std::string& metric, double value);
// Now, UTC, ISO 8601: "2026-11-24T19:48:06Z" (the reports' "date").
std::string utc_now();
// The median (the mean of the middle two for an even count; 0 for none): median({3, 1, 2}) == 2.
double median(std::vector<double> v);

}  // namespace tilesim::gpu
