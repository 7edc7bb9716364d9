// tilesim/gpu/kernels/amd/amd_kernels.hip: the programs as AMD kernels, one per compiled AMD launch shape (compile-only).
//
// DEFINITION. Exactly gpu/kernels/kernels.cu's kernels, over each program's wave-64 table instead of its sm90 one:
// every program's file in gpu/kernels/programs/ holds both (copy_fp16.hpp: copy_fp16_shapes and
// amd_copy_fp16_shapes, its entry's shapes and amd_shapes). A program is one TILESIM_AMD_KERNEL line below:
// copy_fp16_kernel<I> runs the program's entry (copy_fp16_entry::run, the body the sm90 kernel and the simulator run)
// on constant<amd_copy_fp16_shapes[I]> through run_program (gpu/runtime/device_context.hpp, whose wave size on AMD is
// __AMDGCN_WAVEFRONT_SIZE = 64), so every encoding, descriptor and window folds to constants and each lane vector is
// one ds_/global_ instruction of its width (gpu/runtime/vector_access.hpp). There is no AMD GPU here and no host
// runner: hipcc compiles this file for gfx90a and gfx940 (gpu/kernels/amd/meson.build), and
// examples/amd_kernels.test.cpp reads the device assembly. Each kernel is emitted because its line takes its address
// (the way a launch would) into emitted_kernels(), which instantiates it in the host and the device pass alike; the
// list is never called.
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

#include "gpu/kernels/programs/conv_f32.hpp"
#include "gpu/kernels/programs/copy_fp16.hpp"
#include "gpu/kernels/programs/copy_fp32.hpp"
#include "gpu/kernels/programs/gemm_fp32.hpp"
#include "gpu/kernels/programs/lds_sweep_u32.hpp"
#include "gpu/kernels/programs/morton_f32.hpp"
#include "gpu/kernels/programs/transpose_f32.hpp"
#include "gpu/runtime/device_context.hpp"

namespace tilesim::gpu::amd {

namespace {

// The address of every AMD kernel, in the order of the lines below (never called: taking the addresses emits them).
std::vector<const void*>& emitted_kernels() {
  static std::vector<const void*> all;
  return all;
}

// Appends the address of kernel<I> for every entry I of `table` to emitted_kernels(): instantiates each one.
template <auto& Table, class Kernel>
bool emit_all(Kernel&& address_of) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (emitted_kernels().push_back(address_of.template operator()<I>()), ...);
  }(std::make_integer_sequence<int, static_cast<int>(std::size(Table))>{});
  return true;
}

}  // namespace

// NAME<I>(kernel_args): Entry::run on constant<Table[I]>, emitted for every entry of Table. Table is Entry::amd_shapes
// by its namespace-scope name (a constexpr variable the device pass may read; a class's static member it may not).
#define TILESIM_AMD_KERNEL(NAME, Entry, Table)                                                                   \
  static_assert(&Entry::amd_shapes == &Table, #Table " must be " #Entry "::amd_shapes");                        \
  template <int I>                                                                                              \
  __global__ __launch_bounds__(Table[I].threads) void NAME(kernel_args a) {                                     \
    run_program(a, [&](device_context& ctx) { Entry::template run<Table[I]>(ctx); });                           \
  }                                                                                                             \
  namespace {                                                                                                   \
  const bool NAME##_emitted = emit_all<Table>([]<int I>() { return reinterpret_cast<const void*>(&NAME<I>); }); \
  }

// The same with one run-time argument (NAME(index_t argument, kernel_args)), passed to Entry::run.
#define TILESIM_AMD_KERNEL_WITH_ARGUMENT(NAME, Entry, Table)                                                     \
  static_assert(&Entry::amd_shapes == &Table, #Table " must be " #Entry "::amd_shapes");                        \
  template <int I>                                                                                              \
  __global__ __launch_bounds__(Table[I].threads) void NAME(index_t argument, kernel_args a) {                   \
    run_program(a, [&](device_context& ctx) { Entry::template run<Table[I]>(ctx, argument); });                 \
  }                                                                                                             \
  namespace {                                                                                                   \
  const bool NAME##_emitted = emit_all<Table>([]<int I>() { return reinterpret_cast<const void*>(&NAME<I>); }); \
  }

TILESIM_AMD_KERNEL(copy_fp16_kernel, compiled::copy_fp16_entry, compiled::amd_copy_fp16_shapes)
TILESIM_AMD_KERNEL(copy_fp32_kernel, compiled::copy_fp32_entry, compiled::amd_copy_fp32_shapes)
TILESIM_AMD_KERNEL(gemm_f32_kernel, compiled::gemm_fp32_entry, compiled::amd_gemm_shapes)
TILESIM_AMD_KERNEL_WITH_ARGUMENT(lds_sweep_u32_kernel, compiled::lds_sweep_u32_entry, compiled::amd_lds_sweep_shapes)
TILESIM_AMD_KERNEL(transpose_f32_kernel, compiled::transpose_f32_entry, compiled::amd_transpose_shapes)
TILESIM_AMD_KERNEL(morton_f32_kernel, compiled::morton_f32_entry, compiled::amd_morton_shapes)
TILESIM_AMD_KERNEL(conv_f32_kernel, compiled::conv_f32_entry, compiled::amd_conv_shapes)

#undef TILESIM_AMD_KERNEL
#undef TILESIM_AMD_KERNEL_WITH_ARGUMENT

}  // namespace tilesim::gpu::amd
