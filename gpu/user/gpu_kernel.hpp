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
// A program that states `static constexpr index_t block_size = 256;` (the workgroup it is written for) gets a kernel
// compiled for it (launch_bound_of below): without it, nvcc cannot know that `if (s * 256 + t < 1156)` holds for
// every thread in steps 0-3, and branches around each guarded access (examples/stencil: 1.46x its hand-written twin
// on an H200 without it).
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

// The most threads a workgroup of Program has: Program::block_size where the program states it, else 1024 (the
// hardware's limit: no bound). A stated bound is a promise the kernel is compiled on (__launch_bounds__, and every
// thread id below it: nvcc then folds the guards it implies, as a hand-written kernel's __builtin_assume does), so
// crosscheck() refuses a launch of more threads: launch_bound_of<stencil<4, 34>> == 256.
template <class Program>
inline constexpr int launch_bound_of = [] {
  if constexpr (requires { Program::block_size; }) return static_cast<int>(Program::block_size);
  else return 1024;
}();

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
