// tilesim/examples/stencil/stencil_variants.cpp: see stencil_variants.hpp.
#include "examples/stencil/stencil_variants.hpp"

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
  check_output(o, o.run.memory.get<float>(1), stencil_reference(4, in), "out == 5-point stencil");
  return o;
}

}  // namespace

std::vector<variant> stencil_variants() {
  return {{"stencil", "pitch 34, rows packed", "sm90", run_stencil<stencil_packed>},
          {"stencil", "pitch 36, padded", "sm90", run_stencil<stencil_padded>}};
}

}  // namespace tilesim::examples
