// tilesim/examples/fp16_transpose/fp16_transpose_variants.cpp: see fp16_transpose_variants.hpp.
#include "examples/fp16_transpose/fp16_transpose_variants.hpp"

#include <cstdint>
#include <string>

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
  const std::vector<std::uint16_t> want = transpose_reference(4, in), got = o.run.memory.get<std::uint16_t>(1);
  o.passed = got == want;
  o.check = "out == in transposed (bits)";
  for (std::size_t i = 0; i < want.size() && !o.passed; ++i)
    if (got[i] != want[i]) {
      o.check = "out[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", expected " + std::to_string(want[i]);
      break;
    }
  return o;
}

}  // namespace

std::vector<variant> fp16_transpose_variants() {
  return {{"fp16-transpose", "row-major 64x64", "sm90", run_transpose<transpose_row_major>},
          {"fp16-transpose", "padded 72", "sm90", run_transpose<transpose_padded>},
          {"fp16-transpose", "Swizzle<3,3,6>", "sm90", run_transpose<transpose_swizzled>}};
}

}  // namespace tilesim::examples
