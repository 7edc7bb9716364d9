// tilesim/gpu/user/user_kernel.cuh: the kernel behind TILESIM_DECLARE_GPU_KERNEL (gpu_kernel.hpp), for nvcc.
//
// DEFINITION. user_kernel<P>(program, args) runs program(ctx) on every thread of the launch over
// device_context (gpu/runtime/device_context.hpp: the same buffers, LDS and collectives the built-in kernels use; a
// timed launch brackets it with clock64()). TILESIM_GPU_KERNEL(P), written once in a .cu file, defines
// gpu_kernel_of<P>'s launch (gpu/runtime/kernel_launch.hpp: buffers in, launch, buffers and cycles back, the kernel's
// registers and local bytes), device() and kernel_name() ("user_kernel", Nsight Compute's filter).
//
// WORKED EXAMPLE (examples/user_program/column_sums_kernel.cu):
//   #include "examples/user_program/column_sums.hpp"   // the program and TILESIM_DECLARE_GPU_KERNEL(...)
//   #include "gpu/user/user_kernel.cuh"
//   TILESIM_GPU_KERNEL(tilesim::examples::column_sums)
//
// INVARIANTS: the kernel is the program's source instantiated on device_context, nothing else: what the
// simulator ran (sim::thread_context) is what the GPU runs.
#pragma once

#include "gpu/runtime/device_describe.cuh"
#include "gpu/runtime/kernel_launch.hpp"
#include "gpu/user/gpu_kernel.hpp"

namespace tilesim::gpu {

template <class Program>
__global__ __launch_bounds__(launch_bound_of<Program>) void user_kernel(Program program, kernel_args args) {
  __builtin_assume(threadIdx.x < static_cast<unsigned>(launch_bound_of<Program>));  // the program's block_size
  run_program(args, [&](device_context& ctx) { program(ctx); });
}

}  // namespace tilesim::gpu

// Defines gpu_kernel_of<Program> (global scope, one .cu file of the executable).
#define TILESIM_GPU_KERNEL(Program)                                                                              \
  ::tilesim::gpu::device_result tilesim::gpu::gpu_kernel_of<Program>::launch(                                   \
      const Program& program, const ::tilesim::gpu::device_launch& l, std::vector<::tilesim::gpu::byte_buffer> b) { \
    return ::tilesim::gpu::detail::launch(::tilesim::gpu::user_kernel<Program>, program, l, std::move(b));      \
  }                                                                                                             \
  ::tilesim::gpu::device_description tilesim::gpu::gpu_kernel_of<Program>::device() {                           \
    return ::tilesim::gpu::detail::describe_device_now();                                                       \
  }                                                                                                             \
  const char* tilesim::gpu::gpu_kernel_of<Program>::kernel_name() { return "user_kernel"; }
