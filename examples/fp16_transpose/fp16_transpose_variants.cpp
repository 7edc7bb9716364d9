// tilesim/examples/fp16_transpose/fp16_transpose_variants.cpp: see fp16_transpose_variants.hpp.
#include "examples/fp16_transpose/fp16_transpose_variants.hpp"

#include <cstdint>

#include "examples/fp16_transpose/fp16_transpose.hpp"

namespace tilesim::examples {

namespace {

template <class Program>
outcome run_transpose() {
  const std::vector<std::uint16_t> in = transpose_inputs(4, 20261129);
  sim::global_memory m;
  const int src = m.add<std::uint16_t>("in", in);
  const int dst = m.add<std::uint16_t>("out", static_cast<index_t>(in.size()), std::uint16_t{0xffff});
  const Program program{src, dst};
  outcome o;
  o.run = sim::run(launch_on("sm90", 16, 256), std::move(m), [&](sim::thread_context& ctx) { program(ctx); });
  check_output(o, o.run.memory.get<std::uint16_t>(1), transpose_reference(4, in), "out == in transposed (bits)");
  return o;
}

}  // namespace

std::vector<variant> fp16_transpose_variants() {
  return {{"fp16-transpose", "row-major 64x64", "sm90", run_transpose<transpose_row_major>},
          {"fp16-transpose", "padded 72", "sm90", run_transpose<transpose_padded>},
          {"fp16-transpose", "Swizzle<3,3,6>", "sm90", run_transpose<transpose_swizzled>}};
}

}  // namespace tilesim::examples
