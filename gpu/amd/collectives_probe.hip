// tilesim/gpu/amd/collectives_probe.hip: the warp-shuffle program (sim/programs/warp_scan.hpp) as an AMD kernel
// (wave 64), compiled to gfx940 assembly with hipcc; the test amd-shuffle-isa (gpu/isa_check.py) requires a
// cross-lane instruction (ds_bpermute_b32, or DPP / ds_swizzle where the backend chooses it) and no LDS
// allocation for the exchange. Not in the AMD shape tables (amd_kernels.hip), whose test holds those to the
// simulator's LDS widths.
#include "gpu/device_context.hpp"
#include "sim/programs/warp_scan.hpp"

namespace tilesim::gpu::amd {

__global__ void warp_scan_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::warp_scan(ctx, programs::warp_scan_params{}); });
}

}  // namespace tilesim::gpu::amd
