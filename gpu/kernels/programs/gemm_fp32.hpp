// tilesim/gpu/kernels/programs/gemm_fp32.hpp: the fp32 tile GEMM as compiled kernels: its shapes and its kernel body.
//
// DEFINITION. gemm_shapes lists the launch shapes gpu/kernels/kernels.cu compiles the fp32 tile GEMM (gemm_tile): the built-in points, then examples/gemm's sm90 cases
// (sm90, wave 32); gemm_fp32_entry says what each kernel runs: gemm_f32_kernel<I> runs
// gemm_fp32_entry::run<gemm_shapes[I]>, and so does the cross-check's simulator side (examples/adapters/gemm_fp32.hpp),
// so what the GPU ran and what the simulator priced are one template instance (compiled_shapes.hpp).
//
// WORKED EXAMPLE. compiled::find_shape(gemm_shapes, gemm_shapes[1]) == 1: gemm_f32_kernel<1> runs that shape.
//
// INVARIANTS: no two entries are equal (static_assert below); plain C++ and device-safe (nvcc, hipcc, g++).
#pragma once

#include "gpu/kernels/compiled_shapes.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"

namespace tilesim::gpu::compiled {

inline constexpr gemm_shape gemm_shapes[] = {
    builtin_gemm(128, 64, gemm_lds_layout::row_major),
    builtin_gemm(128, 64, gemm_lds_layout::padded),
    builtin_gemm(128, 64, gemm_lds_layout::ck_xor),
    builtin_gemm(256, 128, gemm_lds_layout::row_major),
    builtin_gemm(256, 128, gemm_lds_layout::ck_xor),
    gemm_example(gemm_lds_layout::row_major),
    gemm_example(gemm_lds_layout::padded),
    gemm_example(gemm_lds_layout::ck_xor),
};
static_assert(duplicate_shapes(gemm_shapes) == 0, "compiled shapes: an entry of gemm_shapes appears twice");

// The kernel of shape gemm_shapes[I]: its name (what Nsight Compute lists), what it is called in an error
// ("no compiled GEMM kernel for this shape"), its table and its body.
struct gemm_fp32_entry {
  static constexpr const char* kernel = "gemm_f32_kernel";
  static constexpr const char* title = "GEMM";
  static constexpr const auto& shapes = gemm_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    programs::gemm_tile(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
