// tilesim/gpu/rtc_props/counters_pass.hpp: the Nsight Compute pass of `tilesim-gpu props`, in batches, on a budget.
//
// DEFINITION. One ncu process over 500 kernels ran past a 10-minute device call (data/recordings/props-h100.log),
// and a killed ncu leaves nothing. So the pass runs in batches:
//   count_in_batches(cases, o, backend) splits the cases into slices of o.counters_batch (default 50) and runs
//   backend.count over each, one ncu process per slice; before each slice it stops when o.counters_deadline has
//   passed or the slice would not fit in the time left (judged by the slowest slice so far), and the real
//   backend stops a slice's ncu at the deadline (timeout: TERM, then KILL 5 s later). What it measured is kept; the rest stays
//   unmeasured (counters null) for `tilesim-gpu props --counters-only --report FILE` to finish later.
//   measure_batch(cases, o) is the real backend's count: `ncu --csv --clock-control none --cache-control none
//   --metrics M props-pass --counting ...` with M = props_counter_metrics(), the eight metrics the counters
//   property compares (shared-memory wavefronts and instructions, global sectors and instructions, loads and
//   stores), all collected in one replay pass set: no local-memory metrics (ptxas's 0-byte stack frame and the
//   driver's local bytes per thread show local memory absent) and no ldmatrix (props kernels have none; the
//   simulator's prediction of both is checked to be 0 by counters_equal, since the unmeasured fields are 0).
//   The report's "gpu"."counters" holds those eight fields only (props_report.hpp's measured_json).
//   summarize_counters(report, measuring) sets the summary's counters fields from the report's rows: measured,
//   pending (ran on the GPU, not yet measured; 0 when not measuring: --no-counters), differ, and counters_equal (false when one differs; true when every
//   case that ran is measured and equal; else null).
//   counters_only(o, backend) is `--counters-only`: reads the report o.report names, compiles (cache) and counts
//   the cases that ran on the GPU and have no counters yet, merges them in, recomputes the summary and writes the
//   report back (valid against docs/schema/gpu-props.schema.json). Exit 0 when every case is measured and
//   equal, 1 otherwise (some differ, or some are still pending: run it again).
//
// WORKED EXAMPLE. With 500 cases and --counters-batch 50 --counters-seconds 300, ten ncu processes run until
// the 300 s are spent; say 350 cases are measured: summary.counters_pending == 150, and
// `tilesim-gpu props --counters-only --report props-h100.json` in the next call measures the other 150.
//
// INVARIANTS: a case's counters come from the ncu run that launched its kernel (checked by kernel name and
// count); a slice that fails or is killed measures nothing and leaves its cases pending, never half-filled.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpu/rtc_props/props_internal.hpp"

namespace tilesim::gpu::props {

const std::vector<std::string>& props_counter_metrics();

struct batched_counters {
  std::vector<std::optional<counters>> measured;  // one per case; nullopt: not measured
  int batches = 0;                                // slices whose ncu run finished
  double seconds = 0;                             // wall time of the pass
  std::string stopped;                            // why it stopped early ("" when every slice ran)
};

batched_counters count_in_batches(const std::vector<props_case>& cases, const options& o, const device_backend& backend);
std::vector<counters> measure_batch(const std::vector<props_case>& cases, const options& o);
void summarize_counters(util::json_value& report, bool measuring = true);
int counters_only(const options& o, const device_backend& backend);

}  // namespace tilesim::gpu::props
