// tilesim/gpu/crosscheck/accuracy.hpp: how well the simulator's cycles predict a recorded GPU run.
//
// DEFINITION. A recording (data/recordings/*.json, `tilesim-gpu crosscheck --report`) holds, per catalogue
// point, the GPU's median clock64 cycles per block. accuracy_of re-simulates every point on the CPU and
// compares: error = (predicted - measured) / measured. It also pairs each conflict-free variant with the
// conflicted variant of the same algorithm (same program, launch, global sectors and LDS instruction counts;
// the one with the most excess LDS wavefronts is the conflicted one) and compares the speed-up the simulator
// predicts (conflicted cycles / conflict-free cycles) with the measured one: speed-up error = predicted /
// measured - 1. Per pair it also says whether the simulator names the faster side correctly, counted over the
// pairs whose measured speed-up differs from 1 by more than 5 %.
//
// WORKED EXAMPLE. "gemm fp32 128x128x64 row_major" measured 21548, predicted 20732: error -3.8 %. Paired
// with "... ck_xor" (measured 6871, predicted 5386): measured speed-up 3.14, predicted 3.85, error +22.7 %.
//
// INVARIANTS: one row per recorded point, in the recording's order; median and worst are over |error|;
// every pair's conflict-free side has no excess LDS wavefront and its conflicted side has some.
#pragma once

#include <string>
#include <vector>

#include "util/json.hpp"

namespace tilesim::gpu {

struct accuracy_row {
  std::string name, program;
  double predicted = 0, measured = 0, error = 0;
  std::string verdict;  // the simulator's bottleneck verdict
};

struct speedup_row {
  std::string conflicted, conflict_free;
  double predicted = 0, measured = 0, error = 0;
  bool faster_named = false;  // the simulator names the faster side the GPU measured faster (both speed-ups > 1 or both < 1)
};

struct accuracy {
  std::vector<accuracy_row> points;
  std::vector<speedup_row> speedups;
  double median_abs_error = 0, worst_abs_error = 0;
  double median_abs_speedup_error = 0, worst_abs_speedup_error = 0;
  // The verdict a user wants of a pair (issue 33): which side is faster, over the pairs whose measured cycles differ
  // by more than 5 % (a smaller difference is within the GPU's own noise).
  int pairs_differing = 0, pairs_faster_named = 0;
};

// Re-simulates every point of `recording` (a parsed crosscheck report); throws util::json_error for a malformed one.
accuracy accuracy_of(const util::json_value& recording);

// The two tables and the summary as Markdown (docs/accuracy.md holds this output).
std::string accuracy_markdown(const accuracy& a);

}  // namespace tilesim::gpu
