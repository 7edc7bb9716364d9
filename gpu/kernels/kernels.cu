// tilesim/gpu/kernels/kernels.cu: the programs as kernels, and the host runner that launches them.
//
// Every program is compiled per launch shape: copy_fp16_kernel<I> runs copy_tile on
// constant<compiled::copy_fp16_shapes[I]> (gpu/kernels/compiled_shapes.hpp), so its encodings, descriptors and windows
// fold to constants (0 bytes of stack; spec/window/static_tile_window.hpp); likewise the LDS sweep, the GEMM,
// the matrix-core GEMM, the scalar transpose, the Morton reads and the convolutions. run_*_on_device finds a point's shape in its
// table and launches that instance; a shape with no entry is a device_error naming it. Every kernel is
// compiled by NVVM at -O3 and capped at 128 registers (TILESIM_COMPILED_KERNEL). A launch is timed (two
// barriers and a clock64() store per block around the program) when it passes a cycles buffer, untimed
// (what Nsight Compute counts) when not; launch_kernel() is gpu/runtime/kernel_launch.hpp.
#include <cstdint>
#include <cstdio>

#include "gpu/kernels/compiled_shapes.hpp"
#include "gpu/runtime/device_describe.cuh"
#include "gpu/kernels/device_run.hpp"  // the run_*_on_device declarations this file defines
#include "gpu/runtime/kernel_launch.hpp"

namespace tilesim::gpu {

// A compiled kernel's register budget: at most 128 per thread (2048 threads of 64K registers per SM need
// <= 32; 128 lets two 256-thread blocks share one SM), as __launch_bounds__(threads, blocks per SM).
#define TILESIM_COMPILED_KERNEL(threads) __global__ __launch_bounds__((threads), 65536 / ((threads) * 128))

template <int I>
TILESIM_COMPILED_KERNEL(compiled::copy_fp16_shapes[I].threads) void copy_fp16_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::copy_tile<std::uint16_t>(ctx, constant<compiled::copy_fp16_shapes[I]>{}); });
}

template <int I>
TILESIM_COMPILED_KERNEL(compiled::copy_fp32_shapes[I].threads) void copy_fp32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::copy_tile<float>(ctx, constant<compiled::copy_fp32_shapes[I]>{}); });
}

template <int I>
TILESIM_COMPILED_KERNEL(compiled::gemm_shapes[I].threads) void gemm_f32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::gemm_tile(ctx, constant<compiled::gemm_shapes[I]>{}); });
}

template <int I>
TILESIM_COMPILED_KERNEL(compiled::mma_gemm_shapes[I].threads) void mma_gemm_f16_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::mma_gemm(ctx, constant<compiled::mma_gemm_shapes[I]>{}); });
}

template <int I>
TILESIM_COMPILED_KERNEL(compiled::lds_sweep_shapes[I].threads) void lds_sweep_u32_kernel(index_t iterations, kernel_args a) {
  run_program(a, [&](device_context& ctx) {
    programs::lds_sweep<std::uint32_t, 4>(ctx, constant<compiled::lds_sweep_shapes[I]>{}, iterations);
  });
}

template <int I>
TILESIM_COMPILED_KERNEL(compiled::transpose_shapes[I].threads) void transpose_f32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::transpose(ctx, constant<compiled::transpose_shapes[I]>{}); });
}

template <int I>
TILESIM_COMPILED_KERNEL(compiled::morton_shapes[I].threads) void morton_f32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { examples::morton_read<float>(ctx, constant<compiled::morton_shapes[I]>{}); });
}

template <int I>
TILESIM_COMPILED_KERNEL(compiled::conv_shapes[I].threads) void conv_f32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { examples::conv(ctx, constant<compiled::conv_shapes[I]>{}); });
}

namespace {

[[noreturn]] void no_compiled_kernel(const char* program, const device_launch& l) {
  throw device_error(std::string("no compiled ") + program + " kernel for this shape (grid " + std::to_string(l.grid) +
                     ", block " + std::to_string(l.block) + "): add it to gpu/kernels/compiled_shapes.hpp");
}

}  // namespace

device_description describe_device() { return detail::describe_device_now(); }

device_result run_copy_on_device(const programs::copy_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  device_result r;
  const programs::copy_shape shape{p, l.block, compiled::sm90_wave, l.grid};
  if (!compiled::with_compiled_shape<compiled::copy_fp16_shapes>(
          shape, [&]<int I>() { r = detail::launch_kernel(copy_fp16_kernel<I>, l, std::move(b)); }))
    no_compiled_kernel("fp16 copy", l);
  return r;
}

device_result run_copy_f32_on_device(const programs::copy_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  device_result r;
  const programs::copy_shape shape{p, l.block, compiled::sm90_wave, l.grid};
  if (!compiled::with_compiled_shape<compiled::copy_fp32_shapes>(
          shape, [&]<int I>() { r = detail::launch_kernel(copy_fp32_kernel<I>, l, std::move(b)); }))
    no_compiled_kernel("fp32 copy", l);
  return r;
}

device_result run_gemm_on_device(const programs::gemm_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  device_result r;
  const programs::gemm_shape shape{p, l.block, compiled::sm90_wave};
  if (!compiled::with_compiled_shape<compiled::gemm_shapes>(
          shape, [&]<int I>() { r = detail::launch_kernel(gemm_f32_kernel<I>, l, std::move(b)); }))
    no_compiled_kernel("GEMM", l);
  return r;
}

device_result run_mma_gemm_on_device(const programs::mma_gemm_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  device_result r;
  const programs::mma_gemm_shape shape{p, l.block, compiled::sm90_wave};
  if (!compiled::with_compiled_shape<compiled::mma_gemm_shapes>(
          shape, [&]<int I>() { r = detail::launch_kernel(mma_gemm_f16_kernel<I>, l, std::move(b)); }))
    no_compiled_kernel("matrix-core GEMM", l);
  return r;
}

device_result run_lds_sweep_on_device(const programs::lds_sweep_params& p, const device_launch& l,
                                      std::vector<byte_buffer> b) {
  device_result r;
  const programs::copy_shape shape{p.tile, l.block, compiled::sm90_wave, l.grid};
  if (!compiled::with_compiled_shape<compiled::lds_sweep_shapes>(shape, [&]<int I>() {
        r = detail::launch_kernel(lds_sweep_u32_kernel<I>, l, std::move(b), p.iterations);
      }))
    no_compiled_kernel("LDS sweep", l);
  return r;
}

device_result run_transpose_on_device(const programs::transpose_params& p, const device_launch& l,
                                      std::vector<byte_buffer> b) {
  device_result r;
  const programs::transpose_shape shape{p, l.block, compiled::sm90_wave};
  if (!compiled::with_compiled_shape<compiled::transpose_shapes>(
          shape, [&]<int I>() { r = detail::launch_kernel(transpose_f32_kernel<I>, l, std::move(b)); }))
    no_compiled_kernel("transpose", l);
  return r;
}

device_result run_morton_on_device(const examples::morton_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  device_result r;
  const examples::morton_shape shape{p, l.block, compiled::sm90_wave, l.grid};
  if (!compiled::with_compiled_shape<compiled::morton_shapes>(
          shape, [&]<int I>() { r = detail::launch_kernel(morton_f32_kernel<I>, l, std::move(b)); }))
    no_compiled_kernel("Morton read", l);
  return r;
}

device_result run_conv_on_device(const examples::conv_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  device_result r;
  const examples::conv_shape shape{p, l.block, compiled::sm90_wave, l.grid};
  if (!compiled::with_compiled_shape<compiled::conv_shapes>(
          shape, [&]<int I>() { r = detail::launch_kernel(conv_f32_kernel<I>, l, std::move(b)); }))
    no_compiled_kernel("convolution", l);
  return r;
}

}  // namespace tilesim::gpu
