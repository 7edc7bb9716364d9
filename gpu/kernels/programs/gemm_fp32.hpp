// tilesim/gpu/kernels/programs/gemm_fp32.hpp: the fp32 tile GEMM (kernel/gemm_tile: gemm_tile) as compiled kernels.
//
// DEFINITION. gemm_shapes is the table of launch shapes gpu/kernels/kernels.cu compiles the program at (sm90, wave
// 32): its built-in points, then examples/gemm's sm90 cases. gemm_fp32_entry is the program's kernel: its name, what
// an error calls it, its table and its body; gemm_f32_kernel<I> runs gemm_fp32_entry::run<gemm_shapes[I]>, and the
// cross-check's simulator side (examples/adapters/gemm_fp32.hpp) runs that very instance, so what the GPU ran and
// what the simulator priced are one template instance (gpu/kernels/compiled_shapes.hpp holds the builders and the
// lookup).
//
// WORKED EXAMPLE. compiled::find_shape(gemm_shapes, gemm_shapes[1]) == 1:
// a point of that shape runs gemm_f32_kernel<1>.
//
// INVARIANTS: no two entries of the table are equal (static_assert below); plain C++, device-safe (nvcc, hipcc, g++).
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

// AMD (wave 64, gpu/kernels/amd/amd_kernels.hip): GEMMs: the built-in points (0-4), examples/gemm's gfx942 cases
// (5-7).
inline constexpr gemm_shape amd_gemm_shapes[] = {
    builtin_gemm(128, 64, gemm_lds_layout::row_major, amd_wave),
    builtin_gemm(128, 64, gemm_lds_layout::padded, amd_wave),
    builtin_gemm(128, 64, gemm_lds_layout::ck_xor, amd_wave),
    builtin_gemm(256, 128, gemm_lds_layout::row_major, amd_wave),
    builtin_gemm(256, 128, gemm_lds_layout::ck_xor, amd_wave),
    gemm_example(gemm_lds_layout::row_major, amd_wave),
    gemm_example(gemm_lds_layout::padded, amd_wave),
    gemm_example(gemm_lds_layout::ck_xor, amd_wave),
};
static_assert(all_wave(amd_gemm_shapes, amd_wave) && duplicate_shapes(amd_gemm_shapes) == 0,
              "compiled shapes: every entry of amd_gemm_shapes runs at wave 64, none twice");

// The kernel of shape gemm_shapes[I]: its name (what Nsight Compute lists), what it is called in an error ("no
// compiled GEMM kernel for this shape"), its tables (sm90; AMD, which gpu/kernels/amd/amd_kernels.hip compiles) and
// its body.
struct gemm_fp32_entry {
  static constexpr const char* kernel = "gemm_f32_kernel";
  static constexpr const char* title = "GEMM";
  static constexpr const auto& shapes = gemm_shapes;
  static constexpr const auto& amd_shapes = amd_gemm_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    programs::gemm_tile(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
