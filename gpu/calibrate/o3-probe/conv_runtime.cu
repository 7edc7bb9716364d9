// gpu/calibrate/o3-probe/conv_runtime.cu: the convolution in its RUN-TIME form (conv_params as a kernel
// argument, encodings and windows built at run time), as gpu/kernels_o1.cu had it until 2026-11-24, compiled at
// NVVM -O3 in variants that put back, one at a time, the old device code the issue's §4 suspected
// (docs/design/zero-overhead-device-code.md): scripts/calibrate/o3_probe_build.sh says which macros make which variant.
#include "kernel/conv/conv.hpp"
#include "gpu/runtime/kernel_launch.hpp"

namespace tilesim::gpu {

__global__ void conv_runtime_kernel(examples::conv_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { examples::conv(ctx, p); });
}

device_result run_conv_runtime(const examples::conv_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch(conv_runtime_kernel, p, l, std::move(b));
}

}  // namespace tilesim::gpu
