// tilesim/gpu/user/gpu_kernel.hpp: a user's tile program as a GPU kernel: what plain C++ sees of it.
//
// DEFINITION. A user program is a copyable functor with `template <class Ctx> TILESIM_HOST_DEVICE void
// operator()(Ctx& ctx) const` (its parameters are its members: they travel to the kernel by value). Two lines
// make it a kernel the cross-check can launch:
//   in a header both sides include:  TILESIM_DECLARE_GPU_KERNEL(my::column_sums);   (this file; global scope)
//   in one .cu file nvcc compiles:   TILESIM_GPU_KERNEL(my::column_sums)            (gpu/user/user_kernel.cuh)
// The first declares gpu_kernel_of<P>: launch(program, launch, buffers) copies the buffers in, runs
// user_kernel<P> (gpu/user/user_kernel.cuh: run_program over device_context, as the built-in kernels) and
// copies them back; device() describes the GPU; kernel_name() is what Nsight Compute filters on. The second
// defines them. Plain C++ (the simulator, the comparison, the report) never sees a vendor header.
//
// WORKED EXAMPLE.
//   struct column_sums { int in = 0, out = 1; template <class Ctx> TILESIM_HOST_DEVICE void operator()(Ctx&) const; };
//   TILESIM_DECLARE_GPU_KERNEL(column_sums);
//   gpu_kernel_of<column_sums>::launch(column_sums{}, {.grid = 4, .block = 256, .lds_bytes = 16640}, buffers)
//
// INVARIANTS: one TILESIM_GPU_KERNEL per declared program in the whole executable (else the link fails naming
// gpu_kernel_of<P>::launch); the program's functor is trivially copyable (a kernel argument).
#pragma once

#include <type_traits>
#include <vector>

#include "gpu/runtime/device_types.hpp"

namespace tilesim::gpu {

// Specialized by TILESIM_DECLARE_GPU_KERNEL(Program) for each user program.
template <class Program>
struct gpu_kernel_of;

}  // namespace tilesim::gpu

// Declares gpu_kernel_of<Program> (use at global scope, in a header the .cu file and the host code share).
#define TILESIM_DECLARE_GPU_KERNEL(Program)                                                                          \
  template <>                                                                                                         \
  struct tilesim::gpu::gpu_kernel_of<Program> {                                                                       \
    static_assert(std::is_trivially_copyable_v<Program>, "a kernel's program is passed by value: trivially copyable"); \
    static ::tilesim::gpu::device_result launch(const Program& program, const ::tilesim::gpu::device_launch& l,        \
                                                std::vector<::tilesim::gpu::byte_buffer> buffers);                    \
    static ::tilesim::gpu::device_description device();                                                               \
    static const char* kernel_name();                                                                                 \
  }
