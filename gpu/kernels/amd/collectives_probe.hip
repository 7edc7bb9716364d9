// tilesim/gpu/kernels/amd/collectives_probe.hip: the warp-shuffle program (kernel/warp_scan/warp_scan.hpp) and the MFMA
// programs (kernel/mfma_tile/mfma_tile.hpp, both shapes) as AMD kernels (wave 64), compiled to gfx940 assembly with
// hipcc; the test amd-shuffle-isa (scripts/gpu/isa_check.py) requires a cross-lane instruction (ds_bpermute_b32, or DPP /
// ds_swizzle where the backend chooses it) and no LDS allocation for the exchange, amd-mfma-isa the two
// v_mfma_f32_*_f16 instructions. Not in the AMD shape tables (amd_kernels.hip), whose test holds those to the
// simulator's LDS widths.
#include "gpu/runtime/device_context.hpp"
#include "kernel/mfma_tile/mfma_tile.hpp"
#include "kernel/warp_scan/warp_scan.hpp"

namespace tilesim::gpu::amd {

__global__ void warp_scan_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::warp_scan(ctx, programs::warp_scan_params{}); });
}

__global__ void mfma_32x32x8_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::mfma_tile<mfma_shape::f32_32x32x8_f16>(ctx, {}); });
}

__global__ void mfma_16x16x16_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::mfma_tile<mfma_shape::f32_16x16x16_f16>(ctx, {}); });
}

}  // namespace tilesim::gpu::amd
