// gpu/calibrate/o3-probe/main.cpp: runs every convolution point of the cross-check catalogue on the run-time
// conv kernel of this variant and checks its output as tilesim-gpu crosscheck does. Exit 0: all pass.
#include <cstdio>

#include "gpu/crosscheck/crosscheck.hpp"
#include "kernel/conv/conv.hpp"

namespace tilesim::gpu {
device_result run_conv_runtime(const examples::conv_params& p, const device_launch& l, std::vector<byte_buffer> b);
}

int main() {
  using namespace tilesim::gpu;
  int failed = 0;
  for (const crosscheck_point& p : catalogue()) {
    if (p.program != "conv_f32") continue;
    const point_inputs in = make_inputs(p, 7);
    const simulated s = simulate(p, in);
    try {
      const device_result r = run_conv_runtime(p.params.as<tilesim::examples::conv_params>(), {p.grid, p.block, s.lds_bytes, false}, in.buffers);
      const output_check c = check_output(p, in, r.buffers, &s);
      std::printf("%-45s %s (%d registers, %lld B local)\n", p.name.c_str(), c.mismatches ? c.first_mismatch.c_str() : "ok",
                  r.registers, r.local_bytes);
      failed += c.mismatches != 0;
    } catch (const std::exception& e) {
      std::printf("%-45s FAILED: %s\n", p.name.c_str(), e.what());
      return 2;  // the context is gone after a trap: stop
    }
  }
  return failed ? 1 : 0;
}
