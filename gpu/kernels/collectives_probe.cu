// tilesim/gpu/kernels/collectives_probe.cu: the warp-collective programs as NVIDIA kernels: kernel/warp_scan/warp_scan.hpp
// (shuffles), kernel/ldmatrix_read/ldmatrix_read.hpp (ldmatrix .x4 and .x4.trans), kernel/stmatrix_write/stmatrix_write.hpp
// (stmatrix .x1/.x2/.x4, plain and .trans) and kernel/mma_tile/mma_tile.hpp (mma.sync m16n8k16), compiled to PTX in
// every build with nvcc. The test gpu-collectives-isa (scripts/gpu/isa_check.py) requires one shfl.sync of each kind
// (bfly, up, down, idx), both ldmatrix forms, the stmatrix forms and the mma.sync in it: device_context's
// collectives are the hardware's instructions, not emulations through shared memory. Not in the cross-check catalogue yet (no recording or hand-written twin).
#include "gpu/runtime/device_context.hpp"
#include "kernel/ldmatrix_read/ldmatrix_read.hpp"
#include "kernel/mma_tile/mma_tile.hpp"
#include "kernel/stmatrix_write/stmatrix_write.hpp"
#include "kernel/warp_scan/warp_scan.hpp"

namespace tilesim::gpu {

__global__ void warp_scan_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::warp_scan(ctx, programs::warp_scan_params{}); });
}

__global__ void ldmatrix_read_kernel(kernel_args a, bool trans) {
  run_program(a, [&](device_context& ctx) {
    programs::ldmatrix_read_params p;
    p.trans = trans;
    programs::ldmatrix_read(ctx, p);
  });
}

__global__ void stmatrix_write_kernel(kernel_args a, int count, bool trans, bool whole_tile) {
  run_program(a, [&](device_context& ctx) {
    programs::stmatrix_write_params p;
    p.count = count;
    p.trans = trans;
    p.read = whole_tile ? programs::read_back::whole_tile : programs::read_back::same_layout;
    programs::stmatrix_write(ctx, p);
  });
}

__global__ void mma_tile_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::mma_tile(ctx, programs::mma_tile_params{}); });
}

__global__ void mma_tile_bf16_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) {
    programs::mma_tile_params p;
    p.bf16 = true;
    programs::mma_tile(ctx, p);
  });
}

}  // namespace tilesim::gpu
