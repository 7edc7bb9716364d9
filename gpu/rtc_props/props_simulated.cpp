// tilesim/gpu/rtc_props/props_simulated.cpp: the simulator standing in for the GPU (test only, props_internal.hpp).
//
// DEFINITION. simulated_backend() runs each device case (its fault included) on the simulator where the real
// backend launches the NVRTC-compiled kernel: outputs from the simulator's memory, one "clock64" span per block
// equal to the predicted cycles per workgroup, counters from the simulator's totals; compute-sanitizer is "not
// run". It exists so that CPU tests drive run_props end to end (verdicts, shrinking, report, replay); a report
// made with it names the device "simulated device (test only)", and it proves nothing about hardware.
//
// WORKED EXAMPLE. run_props({"--cases", "20", "--sanitize-cases", "0"}, "...", simulated_backend()) == 0.
//
// INVARIANTS: the stand-in never sees a clean case differently from the simulator side; with --fault it sees
// the faulty case, as the GPU would.
#include <cmath>

#include "gpu/rtc_props/props_internal.hpp"
#include "gpu/rtc_props/props_sim.hpp"

namespace tilesim::gpu::props {

device_backend simulated_backend() {
  device_backend b;
  b.describe = [] {
    device_description d;
    d.name = "simulated device (test only: the simulator runs the device side)";
    d.driver = "none";
    d.warp_size = 32;
    return d;
  };
  b.run = [](const props_case& c, const std::string&, const std::string&, const device_launch& l,
             std::vector<byte_buffer> buffers) {
    case_inputs in;
    in.buffers = std::move(buffers);
    const case_simulation s = simulate_case(c, in);
    device_result r;
    r.buffers = s.buffers;
    if (l.timed) r.block_cycles.assign(static_cast<std::size_t>(l.grid), std::llround(s.cycles_per_workgroup));
    return r;
  };
  b.count = [](const std::vector<props_case>& cases, const options&) {
    std::vector<counters> out;
    for (const props_case& c : cases) out.push_back(simulate_case(c, make_case_inputs(c, 1)).predicted);
    return out;
  };
  b.sanitize = [](const std::vector<props_case>&, const options&, const std::string&) {
    return std::string("not run: simulated device");
  };
  return b;
}

}  // namespace tilesim::gpu::props
