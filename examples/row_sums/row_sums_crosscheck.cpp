// tilesim/examples/row_sums/row_sums_crosscheck.cpp: the row reduction cross-checked on a GPU in one call.
//
//   row-sums-crosscheck [--report FILE] [--no-counters] [--seed N]
// Runs examples/row_sums/row_sums.hpp (128 rows of 256 floats, 16 workgroups) through tilesim::gpu::crosscheck
// (gpu/user/user_crosscheck.hpp): outputs bit for bit, Nsight Compute's counters and per-label source counters
// (a page without shared-memory columns: the program has no LDS) against the simulator's, cycles per block, and
// the price tag against the hand-written twin (gpu/reference/user_twins.hpp). Exit codes: 0 all agreed; 1 a
// result, counter or twin differed; 2 bad arguments; 77 no GPU (skipped, after the simulator's side).
#include <vector>

#include "examples/row_sums/row_sums.hpp"
#include "examples/user_program/example_crosscheck.hpp"
#include "gpu/reference/user_twins.hpp"

int main(int argc, char** argv) {
  using namespace tilesim;
  examples::example_args a;
  if (const int code = examples::parse_example_args(argc, argv, "row-sums-crosscheck", a); code >= 0) return code;
  gpu::user_buffers buffers;
  const int src = buffers.input<float>("in", examples::row_sums_inputs(128, a.seed));
  const int dst = buffers.output<float>("out", 128, -1.0f);
  gpu::crosscheck_options o;
  o.name = "row sums";
  o.counters = a.counters;
  o.seed = a.seed;
  o.twin = gpu::launch_row_sums_twin;
  const gpu::user_report r = gpu::crosscheck(examples::row_sums_128{src, dst}, {.grid = 16, .block = 256}, buffers, o);
  std::fputs(r.text.c_str(), stdout);
  return examples::finish_example({r}, a);
}
