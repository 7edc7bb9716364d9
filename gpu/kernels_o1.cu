// tilesim/gpu/kernels_o1.cu: the GEMM and the convolution as kernels, compiled with NVVM's optimizer at -O1.
//
// WHY A SECOND FILE. Under nvcc 13.0 at -O3 these two kernels fail their own encoding checks on an H200
// (2026-11-22, driver 580.159.04): every thread of the convolution's im2col mode reports an encoding with
// no H component (spec/rules.hpp prints it), and the GEMM did the same while spec's rule report was out of
// line. The same source is clean on the simulator (ASan, UBSan, valgrind) and at -Xcicc -O1 on the GPU, so
// gpu/meson.build compiles this file with `-Xcicc -O1` (ptxas still optimizes). The cost is cycles only:
// these kernels were already far from the simulator's cycles (their encodings and windows live in local
// memory; gpu/recordings/README.md); the instructions the counters see are the same one-per-vector ones.
// The copies, the LDS sweep (whose loop cycles the cross-check holds to 15 %) and the Morton read stay at
// -O3 in kernels.cu. AMD (gpu/amd) compiles both files with the same flags as each other.
#include "gpu/kernel_launch.hpp"

namespace tilesim::gpu {

__global__ void gemm_f32_kernel(programs::gemm_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::gemm_tile(ctx, p); });
}

__global__ void conv_f32_kernel(examples::conv_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { examples::conv(ctx, p); });
}

device_result run_gemm_on_device(const programs::gemm_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch(gemm_f32_kernel, p, l, std::move(b));
}

device_result run_conv_on_device(const examples::conv_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch(conv_f32_kernel, p, l, std::move(b));
}

}  // namespace tilesim::gpu
