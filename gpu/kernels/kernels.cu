// tilesim/gpu/kernels/kernels.cu: the catalogue's programs as kernels, and the host runner that launches them.
//
// Every program is compiled per launch shape: copy_fp16_kernel<I> runs copy_fp16_entry::run on
// constant<copy_fp16_shapes[I]> (gpu/kernels/programs/copy_fp16.hpp), so its encodings, descriptors and windows
// fold to constants (0 bytes of stack; spec/window/static_tile_window.hpp); likewise every program of
// gpu/kernels/programs/. A program is one TILESIM_CATALOGUE_KERNEL line below (its kernel template, named as the
// program's entry says, and its launcher, which run_compiled_kernel finds by that name). Every kernel is compiled
// by NVVM at -O3 and capped at 128 registers (TILESIM_COMPILED_KERNEL). A launch is timed (two barriers and a
// clock64() store per block around the program) when it passes a cycles buffer, untimed (what Nsight Compute
// counts) when not; launch_kernel() is gpu/runtime/kernel_launch.hpp.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "gpu/kernels/device_run.hpp"  // the declarations this file defines
#include "gpu/kernels/programs/conv_f32.hpp"
#include "gpu/kernels/programs/copy_fp16.hpp"
#include "gpu/kernels/programs/copy_fp32.hpp"
#include "gpu/kernels/programs/gemm_fp32.hpp"
#include "gpu/kernels/programs/lds_sweep_u32.hpp"
#include "gpu/kernels/programs/mma_gemm_f16.hpp"
#include "gpu/kernels/programs/morton_f32.hpp"
#include "gpu/kernels/programs/transpose_f32.hpp"
#include "gpu/runtime/device_describe.cuh"
#include "gpu/runtime/kernel_launch.hpp"

namespace tilesim::gpu {

// A compiled kernel's register budget: at most 128 per thread (2048 threads of 64K registers per SM need
// <= 32; 128 lets two 256-thread blocks share one SM), as __launch_bounds__(threads, blocks per SM).
#define TILESIM_COMPILED_KERNEL(threads) __global__ __launch_bounds__((threads), 65536 / ((threads) * 128))

namespace {

// Launches kernel<shape index>(launch arguments..., kernel_args) on the launch: one per program.
using kernel_launcher = device_result (*)(int shape_index, const device_launch& l, std::vector<byte_buffer> b,
                                          index_t argument);

// Every program's launcher by its kernel's name (filled before main by the TILESIM_CATALOGUE_KERNEL lines).
std::map<std::string, kernel_launcher>& launchers() {
  static std::map<std::string, kernel_launcher> m;
  return m;
}

// Calls launch.template operator()<I>() for I == at (0 <= at < n).
template <int N, class F>
device_result at_index(int at, F&& launch) {
  device_result r;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((at == I ? (r = launch.template operator()<I>(), true) : false), ...);
  }(std::make_integer_sequence<int, N>{});
  return r;
}

template <class Entry>
constexpr int table_size = static_cast<int>(sizeof(Entry::shapes) / sizeof(Entry::shapes[0]));

}  // namespace

// NAME<I>(kernel_args): Entry::run on constant<Table[I]>, and its launcher under Entry::kernel. Table is
// Entry::shapes by its namespace-scope name (a constexpr variable the device pass may read; a class's static
// member it may not).
#define TILESIM_CATALOGUE_KERNEL(NAME, Entry, Table)                                                           \
  static_assert(&Entry::shapes == &Table, #Table " must be " #Entry "::shapes");                                \
  template <int I>                                                                                              \
  TILESIM_COMPILED_KERNEL(Table[I].threads) void NAME(kernel_args a) {                                          \
    run_program(a, [&](device_context& ctx) { Entry::template run<Table[I]>(ctx); });                           \
  }                                                                                                             \
  namespace {                                                                                                   \
  const bool NAME##_registered = launchers().emplace(Entry::kernel, [](int at, const device_launch& l,          \
                                                                       std::vector<byte_buffer> b, index_t) {   \
    return at_index<table_size<Entry>>(at, [&]<int I>() { return detail::launch_kernel(NAME<I>, l, std::move(b)); }); \
  }).second;                                                                                                    \
  }

// The same with one run-time argument (index_t NAME(index_t argument, kernel_args)), passed to Entry::run.
#define TILESIM_CATALOGUE_KERNEL_WITH_ARGUMENT(NAME, Entry, Table)                                             \
  static_assert(&Entry::shapes == &Table, #Table " must be " #Entry "::shapes");                                \
  template <int I>                                                                                              \
  TILESIM_COMPILED_KERNEL(Table[I].threads) void NAME(index_t argument, kernel_args a) {                        \
    run_program(a, [&](device_context& ctx) { Entry::template run<Table[I]>(ctx, argument); });                 \
  }                                                                                                             \
  namespace {                                                                                                   \
  const bool NAME##_registered = launchers().emplace(Entry::kernel, [](int at, const device_launch& l,          \
                                                                       std::vector<byte_buffer> b,              \
                                                                       index_t argument) {                      \
    return at_index<table_size<Entry>>(at, [&]<int I>() {                                                       \
      return detail::launch_kernel(NAME<I>, l, std::move(b), argument);                                         \
    });                                                                                                         \
  }).second;                                                                                                    \
  }

// The catalogue's kernels: one line per program (the kernel names are the recordings' and Nsight's).
TILESIM_CATALOGUE_KERNEL(copy_fp16_kernel, compiled::copy_fp16_entry, compiled::copy_fp16_shapes)
TILESIM_CATALOGUE_KERNEL(copy_fp32_kernel, compiled::copy_fp32_entry, compiled::copy_fp32_shapes)
TILESIM_CATALOGUE_KERNEL(gemm_f32_kernel, compiled::gemm_fp32_entry, compiled::gemm_shapes)
TILESIM_CATALOGUE_KERNEL(mma_gemm_f16_kernel, compiled::mma_gemm_f16_entry, compiled::mma_gemm_shapes)
TILESIM_CATALOGUE_KERNEL_WITH_ARGUMENT(lds_sweep_u32_kernel, compiled::lds_sweep_u32_entry, compiled::lds_sweep_shapes)
TILESIM_CATALOGUE_KERNEL(transpose_f32_kernel, compiled::transpose_f32_entry, compiled::transpose_shapes)
TILESIM_CATALOGUE_KERNEL(morton_f32_kernel, compiled::morton_f32_entry, compiled::morton_shapes)
TILESIM_CATALOGUE_KERNEL(conv_f32_kernel, compiled::conv_f32_entry, compiled::conv_shapes)

device_description describe_device() { return detail::describe_device_now(); }

device_result run_compiled_kernel(const std::string& kernel, int shape_index, const device_launch& l,
                                  std::vector<byte_buffer> buffers, index_t argument) {
  const auto found = launchers().find(kernel);
  if (found == launchers().end()) throw device_error("no catalogue kernel named " + kernel + " in gpu/kernels/kernels.cu");
  return found->second(shape_index, l, std::move(buffers), argument);
}

}  // namespace tilesim::gpu
