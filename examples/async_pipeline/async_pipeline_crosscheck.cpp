// tilesim/examples/async_pipeline/async_pipeline_crosscheck.cpp: the cp.async pipeline cross-checked on a GPU in one call.
//
//   async-pipeline-crosscheck [--report FILE] [--no-counters] [--seed N]
// Runs examples/async_pipeline/async_pipeline.hpp (16 workgroups, each 8 tiles of 16 x 256 floats staged with
// cp.async into two LDS buffers) through tilesim::gpu::crosscheck (gpu/user/user_crosscheck.hpp): outputs bit for
// bit, Nsight Compute's counters and per-label source counters against the simulator's, cycles per block, and the
// price tag against the hand-written twin (gpu/reference/user_twins.hpp). Exit codes: 0 all agreed; 1 a result,
// counter or twin differed; 2 bad arguments; 77 no GPU (skipped, after the simulator's side).
#include <vector>

#include "examples/async_pipeline/async_pipeline.hpp"
#include "examples/user_program/example_crosscheck.hpp"
#include "gpu/reference/user_twins.hpp"

int main(int argc, char** argv) {
  using namespace tilesim;
  examples::example_args a;
  if (const int code = examples::parse_example_args(argc, argv, "async-pipeline-crosscheck", a); code >= 0) return code;
  gpu::user_buffers buffers;
  const int src = buffers.input<float>("in", examples::async_pipeline_inputs(16 * 8 * 16 * 256, a.seed));
  const int dst = buffers.output<float>("out", 16 * 256, -1.0f);
  gpu::crosscheck_options o;
  o.name = "async pipeline";
  o.counters = a.counters;
  o.seed = a.seed;
  o.twin = gpu::launch_async_pipeline_twin;
  const gpu::user_report r =
      gpu::crosscheck(examples::async_pipeline_8{src, dst}, {.grid = 16, .block = 256}, buffers, o);
  std::fputs(r.text.c_str(), stdout);
  return examples::finish_example({r}, a);
}
