// tilesim/gpu/kernels/amd/amd_kernels.hip: the programs as AMD kernels, one per compiled AMD launch shape (compile-only).
//
// DEFINITION. Exactly gpu/kernels/kernels.cu's kernels, over gpu/kernels/amd/amd_shapes.hpp's wave-64 tables instead of the
// sm90 ones: copy_fp16_kernel<I> runs the program's entry (gpu/kernels/programs/copy_fp16.hpp: copy_fp16_entry::run,
// the body the sm90 kernel and the simulator run) on constant<amd_copy_fp16_shapes[I]> through run_program (gpu/runtime/device_context.hpp, whose wave size on AMD is __AMDGCN_WAVEFRONT_SIZE = 64), so
// every encoding, descriptor and window folds to constants and each lane vector is one ds_/global_
// instruction of its width (gpu/runtime/vector_access.hpp). There is no AMD GPU here and no host runner: hipcc
// compiles this file for gfx90a and gfx940 (gpu/kernels/amd/meson.build), and examples/amd_kernels.test.cpp reads the
// device assembly. Each kernel is emitted because kernel_addresses() takes its address (the way a launch would),
// which instantiates it in the host and the device pass alike; the table is never called.
//
// WORKED EXAMPLE. amd_copy_fp16_shapes[10] is examples/lds_index_swap's "ck-xor 2025, mfma read": the symbol
// _ZN7tilesim3gpu3amd16copy_fp16_kernelILi10EEEvNS0_11kernel_argsE (copy_fp16_kernel<10>) in
// amd_kernels-hip-amdgcn-amd-amdhsa-gfx940.s, with .amdhsa_private_segment_fixed_size 0 and, as LDS
// instructions, ds_write_b128 and ds_read_b128 only (the 16-byte vectors the simulator prices).
//
// INVARIANTS: one kernel per table entry, named <program>_kernel<I> for entry I; __launch_bounds__ is the
// shape's workgroup size (the backend's register budget follows from it; no min-waves hint, whose meaning
// differs from CUDA's); only compiled with hipcc.
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "gpu/kernels/amd/amd_shapes.hpp"
#include "gpu/kernels/programs/conv_f32.hpp"
#include "gpu/kernels/programs/copy_fp16.hpp"
#include "gpu/kernels/programs/copy_fp32.hpp"
#include "gpu/kernels/programs/gemm_fp32.hpp"
#include "gpu/kernels/programs/lds_sweep_u32.hpp"
#include "gpu/kernels/programs/morton_f32.hpp"
#include "gpu/kernels/programs/transpose_f32.hpp"
#include "gpu/runtime/device_context.hpp"

namespace tilesim::gpu::amd {

template <int I>
__global__ __launch_bounds__(amd_copy_fp16_shapes[I].threads) void copy_fp16_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { compiled::copy_fp16_entry::run<amd_copy_fp16_shapes[I]>(ctx); });
}

template <int I>
__global__ __launch_bounds__(amd_copy_fp32_shapes[I].threads) void copy_fp32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { compiled::copy_fp32_entry::run<amd_copy_fp32_shapes[I]>(ctx); });
}

template <int I>
__global__ __launch_bounds__(amd_gemm_shapes[I].threads) void gemm_f32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { compiled::gemm_fp32_entry::run<amd_gemm_shapes[I]>(ctx); });
}

template <int I>
__global__ __launch_bounds__(amd_lds_sweep_shapes[I].threads) void lds_sweep_u32_kernel(index_t iterations, kernel_args a) {
  run_program(a, [&](device_context& ctx) {
    compiled::lds_sweep_u32_entry::run<amd_lds_sweep_shapes[I]>(ctx, iterations);
  });
}

template <int I>
__global__ __launch_bounds__(amd_transpose_shapes[I].threads) void transpose_f32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { compiled::transpose_f32_entry::run<amd_transpose_shapes[I]>(ctx); });
}

template <int I>
__global__ __launch_bounds__(amd_morton_shapes[I].threads) void morton_f32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { compiled::morton_f32_entry::run<amd_morton_shapes[I]>(ctx); });
}

template <int I>
__global__ __launch_bounds__(amd_conv_shapes[I].threads) void conv_f32_kernel(kernel_args a) {
  run_program(a, [&](device_context& ctx) { compiled::conv_f32_entry::run<amd_conv_shapes[I]>(ctx); });
}

// Appends the address of kernel<I> for every entry I of `table` to `out`: instantiates (so emits) each one.
#define TILESIM_AMD_KERNELS(out, kernel, table)                                        \
  [&]<int... I>(std::integer_sequence<int, I...>) {                                   \
    (out.push_back(reinterpret_cast<const void*>(&kernel<I>)), ...);                   \
  }(std::make_integer_sequence<int, static_cast<int>(std::size(table))>{})

// Every AMD kernel, table by table in this file's order (never called: taking the addresses emits the kernels).
std::vector<const void*> kernel_addresses() {
  std::vector<const void*> out;
  TILESIM_AMD_KERNELS(out, copy_fp16_kernel, amd_copy_fp16_shapes);
  TILESIM_AMD_KERNELS(out, copy_fp32_kernel, amd_copy_fp32_shapes);
  TILESIM_AMD_KERNELS(out, gemm_f32_kernel, amd_gemm_shapes);
  TILESIM_AMD_KERNELS(out, lds_sweep_u32_kernel, amd_lds_sweep_shapes);
  TILESIM_AMD_KERNELS(out, transpose_f32_kernel, amd_transpose_shapes);
  TILESIM_AMD_KERNELS(out, morton_f32_kernel, amd_morton_shapes);
  TILESIM_AMD_KERNELS(out, conv_f32_kernel, amd_conv_shapes);
  return out;
}

#undef TILESIM_AMD_KERNELS

}  // namespace tilesim::gpu::amd
