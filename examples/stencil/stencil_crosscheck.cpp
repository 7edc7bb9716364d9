// tilesim/examples/stencil/stencil_crosscheck.cpp: the stencil cross-checked on a GPU in one call per pitch.
//
//   stencil-crosscheck [--report FILE] [--no-counters] [--seed N]
// Runs examples/stencil/stencil.hpp (a 4 x 4 grid of 32 x 32 tiles, halo pitch 34 and 36) through
// tilesim::gpu::crosscheck (gpu/user/user_crosscheck.hpp): the simulator and the GPU on the same inputs (integers
// from the seed, so the sums are exact), outputs compared bit for bit (the simulator's equal the host's stencil:
// stencil.test.cpp), Nsight Compute's counters and per-label source counters against the simulator's, cycles per
// block against the prediction, and the price tag against the hand-written twin (gpu/reference/user_twins.hpp).
// --report writes both points as one tilesim.crosscheck/1 document. Exit codes: 0 all agreed; 1 a result, counter
// or twin differed; 2 bad arguments; 77 no GPU (skipped, after the simulator's side).
#include <vector>

#include "examples/stencil/stencil.hpp"
#include "examples/user_program/example_crosscheck.hpp"
#include "gpu/reference/user_twins.hpp"

namespace {

using namespace tilesim;

// One pitch's point: the cross-check against its twin, its text printed.
template <class Program, int Pitch>
gpu::user_report check(const char* name, const examples::example_args& a) {
  gpu::user_buffers buffers;
  const int src = buffers.input<float>("in", examples::stencil_inputs(4, a.seed));
  const int dst = buffers.output<float>("out", 128 * 128, -1.0f);
  gpu::crosscheck_options o;
  o.name = name;
  o.counters = a.counters;
  o.seed = a.seed;
  o.twin = [](const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) { return gpu::launch_stencil_twin(Pitch, l, std::move(b)); };
  gpu::user_report r = gpu::crosscheck(Program{src, dst}, {.grid = 16, .block = 256}, buffers, o);
  std::fputs(r.text.c_str(), stdout);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  examples::example_args a;
  if (const int code = examples::parse_example_args(argc, argv, "stencil-crosscheck", a); code >= 0) return code;
  const std::vector<gpu::user_report> reports = {check<examples::stencil_packed, 34>("stencil, pitch 34", a),
                                                 check<examples::stencil_padded, 36>("stencil, pitch 36", a)};
  return examples::finish_example(reports, a);
}
