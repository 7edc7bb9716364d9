// tilesim/examples/stencil/stencil_variants.cpp: see stencil_variants.hpp.
#include "examples/stencil/stencil_variants.hpp"

#include <string>

#include "examples/stencil/stencil.hpp"

namespace tilesim::examples {

namespace {

template <class Program>
outcome run_stencil() {
  const std::vector<float> in = stencil_inputs(4, 20261129);
  sim::global_memory m;
  const int src = m.add<float>("in", in);
  const int dst = m.add<float>("out", 128 * 128, -1.0f);
  const Program program{src, dst};
  outcome o;
  o.run = sim::run(launch_on("sm90", 16, 256), std::move(m), [&](sim::thread_context& ctx) { program(ctx); });
  const std::vector<float> want = stencil_reference(4, in), got = o.run.memory.get<float>(1);
  o.passed = got == want;
  o.check = "out == 5-point stencil";
  for (std::size_t i = 0; i < want.size() && !o.passed; ++i)
    if (got[i] != want[i]) {
      o.check = "out[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", expected " + std::to_string(want[i]);
      break;
    }
  return o;
}

}  // namespace

std::vector<variant> stencil_variants() {
  return {{"stencil", "pitch 34, rows packed", "sm90", run_stencil<stencil_packed>},
          {"stencil", "pitch 36, padded", "sm90", run_stencil<stencil_padded>}};
}

}  // namespace tilesim::examples
