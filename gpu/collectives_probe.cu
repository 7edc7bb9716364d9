// tilesim/gpu/collectives_probe.cu: the warp-shuffle program (sim/programs/warp_scan.hpp) as an NVIDIA kernel,
// compiled to PTX in every build with nvcc; the test gpu-shuffle-isa (gpu/isa_check.py) requires one
// shfl.sync of each kind (bfly, up, down, idx) in it: device_context::shuffle is the hardware's SHFL, not an
// emulation through shared memory. Not in the cross-check catalogue yet (no recording or hand-written twin).
#include "gpu/device_context.hpp"
#include "sim/programs/warp_scan.hpp"

namespace tilesim::gpu {

__global__ void warp_scan_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::warp_scan(ctx, programs::warp_scan_params{}); });
}

}  // namespace tilesim::gpu
