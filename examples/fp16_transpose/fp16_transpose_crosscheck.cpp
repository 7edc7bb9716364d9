// tilesim/examples/fp16_transpose/fp16_transpose_crosscheck.cpp: the fp16 transpose cross-checked, one call a layout.
//
//   fp16-transpose-crosscheck [--report FILE] [--no-counters] [--seed N]
// Runs examples/fp16_transpose/fp16_transpose.hpp (256 x 256 fp16 bits in 64 x 64 tiles, 16 workgroups; LDS
// row-major, padded 72, Swizzle<3,3,6>) through tilesim::gpu::crosscheck (gpu/user/user_crosscheck.hpp): outputs
// bit for bit, Nsight Compute's counters and per-label source counters against the simulator's, cycles per
// block, and the price tag against the hand-written twin (gpu/reference/user_twins.hpp). Exit codes: 0 all
// agreed; 1 a result, counter or twin differed; 2 bad arguments; 77 no GPU (skipped, after the simulator's side).
#include <cstdint>
#include <vector>

#include "examples/fp16_transpose/fp16_transpose.hpp"
#include "examples/user_program/example_crosscheck.hpp"
#include "gpu/reference/user_twins.hpp"

namespace {

using namespace tilesim;

// One layout's point: the cross-check against its twin, its text printed.
template <class Program, int Layout>
gpu::user_report check(const char* name, const examples::example_args& a) {
  gpu::user_buffers buffers;
  const int src = buffers.input<std::uint16_t>("in", examples::transpose_inputs(4, a.seed));
  const int dst = buffers.output<std::uint16_t>("out", 256 * 256, std::uint16_t{0xffff});
  gpu::crosscheck_options o;
  o.name = name;
  o.counters = a.counters;
  o.seed = a.seed;
  o.twin = [](const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) { return gpu::launch_transpose_twin(Layout, l, std::move(b)); };
  gpu::user_report r = gpu::crosscheck(Program{src, dst}, {.grid = 16, .block = 256}, buffers, o);
  std::fputs(r.text.c_str(), stdout);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  examples::example_args a;
  if (const int code = examples::parse_example_args(argc, argv, "fp16-transpose-crosscheck", a); code >= 0) return code;
  const std::vector<gpu::user_report> reports = {
      check<examples::transpose_row_major, 0>("fp16 transpose, row-major", a),
      check<examples::transpose_padded, 1>("fp16 transpose, padded 72", a),
      check<examples::transpose_swizzled, 2>("fp16 transpose, Swizzle<3,3,6>", a)};
  return examples::finish_example(reports, a);
}
