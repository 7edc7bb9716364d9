// tilesim/gpu/kernels/programs/copy_fp16.hpp: the compiled kernels of the fp16 copy.
//
// DEFINITION. copy_fp16_shapes is the table of launch shapes gpu/kernels/kernels.cu compiles the program at (sm90,
// wave 32): its built-in points, then the sm90 cases of examples/lds_index_swap, examples/cute_swizzle and
// examples/synthesized. copy_fp16_entry is the program's kernel: its name, what an error calls it, its table and its
// body; copy_fp16_kernel<I> runs copy_fp16_entry::run<copy_fp16_shapes[I]>, and the cross-check's simulator side
// (examples/adapters/copy_fp16.hpp) runs that very instance, so what the GPU ran and what the simulator priced are
// one template instance (gpu/kernels/compiled_shapes.hpp holds the builders and the lookup).
//
// WORKED EXAMPLE. compiled::find_shape(copy_fp16_shapes, copy_fp16_shapes[1]) == 1:
// a point of that shape runs copy_fp16_kernel<1>.
//
// INVARIANTS: no two entries of the table are equal (static_assert below); plain C++, device-safe (nvcc, hipcc, g++).
#pragma once

#include "gpu/kernels/compiled_shapes.hpp"
#include "kernel/copy/copy.hpp"

namespace tilesim::gpu::compiled {

inline constexpr copy_shape copy_fp16_shapes[] = {
    builtin_copy(64, 32, 8, copy_lds_layout::row_major),
    builtin_copy(64, 32, 8, copy_lds_layout::padded),
    builtin_copy(64, 32, 8, copy_lds_layout::ck_xor),
    builtin_copy(64, 32, 8, copy_lds_layout::cute_swizzle),
    builtin_copy(64, 64, 8, copy_lds_layout::row_major),
    builtin_copy(64, 64, 8, copy_lds_layout::ck_xor),
    builtin_copy(64, 64, 8, copy_lds_layout::cute_swizzle),
    lds_index_swap_tile(copy_lds_layout::row_major, ck_lds_order::l_k0_2025),
    lds_index_swap_tile(copy_lds_layout::padded, ck_lds_order::l_k0_2025),
    lds_index_swap_tile(copy_lds_layout::ck_xor, ck_lds_order::k0_l_2024),
    lds_index_swap_tile(copy_lds_layout::ck_xor, ck_lds_order::l_k0_2025),
    cute_swizzle_tile(64, -1),
    cute_swizzle_tile(64, 1),
    cute_swizzle_tile(64, 2),
    cute_swizzle_tile(64, 3),
    cute_swizzle_tile(16, -1),
    cute_swizzle_tile(16, 1),
    cute_swizzle_tile(32, 2),  // (its row-major 8x32 baseline is lds-index-swap's row-major shape, above)
    // examples/synthesized's sm90 cases: lanes_down_rows reads, one workgroup (B < 0: the copy program derives it)
    synthesized_tile(64, 32, copy_lds_layout::cute_swizzle, -1, -1, -1),
    synthesized_tile(64, 32, copy_lds_layout::cute_swizzle, 2, 3, 3),
    synthesized_tile(128, 64, copy_lds_layout::row_major),
    synthesized_tile(128, 64, copy_lds_layout::cute_swizzle, 2, 4, 2),
    synthesized_tile(64, 128, copy_lds_layout::row_major),
    synthesized_tile(64, 128, copy_lds_layout::cute_swizzle, 1, 5, 2),
    // examples/lds_index_swap's sm90 cases read through ldmatrix.x4 itself
    lds_index_swap_tile(copy_lds_layout::row_major, ck_lds_order::l_k0_2025, 16, sm90_wave, copy_read_order::ldmatrix_operand),
    lds_index_swap_tile(copy_lds_layout::padded, ck_lds_order::l_k0_2025, 16, sm90_wave, copy_read_order::ldmatrix_operand),
    lds_index_swap_tile(copy_lds_layout::ck_xor, ck_lds_order::k0_l_2024, 16, sm90_wave, copy_read_order::ldmatrix_operand),
    lds_index_swap_tile(copy_lds_layout::ck_xor, ck_lds_order::l_k0_2025, 16, sm90_wave, copy_read_order::ldmatrix_operand),
};
static_assert(duplicate_shapes(copy_fp16_shapes) == 0, "compiled shapes: an entry of copy_fp16_shapes appears twice");

// AMD (wave 64, gpu/kernels/amd/amd_kernels.hip): fp16 copies: the built-in points (0-6), lds_index_swap's gfx942
// cases (7-10), cute_swizzle's (11-14), and examples/synthesized's gfx942 synth case (15: Swizzle<2,3,3> on the 128
// x 32 MFMA read; its hand-picked CK 2025 case is entry 10).
inline constexpr copy_shape amd_copy_fp16_shapes[] = {
    builtin_copy(64, 32, 8, copy_lds_layout::row_major, amd_wave),
    builtin_copy(64, 32, 8, copy_lds_layout::padded, amd_wave),
    builtin_copy(64, 32, 8, copy_lds_layout::ck_xor, amd_wave),
    builtin_copy(64, 32, 8, copy_lds_layout::cute_swizzle, amd_wave),
    builtin_copy(64, 64, 8, copy_lds_layout::row_major, amd_wave),
    builtin_copy(64, 64, 8, copy_lds_layout::ck_xor, amd_wave),
    builtin_copy(64, 64, 8, copy_lds_layout::cute_swizzle, amd_wave),
    lds_index_swap_tile(copy_lds_layout::row_major, ck_lds_order::l_k0_2025, mfma_lane_rows, amd_wave),
    lds_index_swap_tile(copy_lds_layout::padded, ck_lds_order::l_k0_2025, mfma_lane_rows, amd_wave),
    lds_index_swap_tile(copy_lds_layout::ck_xor, ck_lds_order::k0_l_2024, mfma_lane_rows, amd_wave),
    lds_index_swap_tile(copy_lds_layout::ck_xor, ck_lds_order::l_k0_2025, mfma_lane_rows, amd_wave),
    cute_swizzle_tile(64, -1, mfma_lane_rows, amd_wave),
    cute_swizzle_tile(64, 1, mfma_lane_rows, amd_wave),
    cute_swizzle_tile(64, 2, mfma_lane_rows, amd_wave),
    cute_swizzle_tile(64, 3, mfma_lane_rows, amd_wave),
    cute_swizzle_tile(32, 2, mfma_lane_rows, amd_wave),
};
static_assert(all_wave(amd_copy_fp16_shapes, amd_wave) && duplicate_shapes(amd_copy_fp16_shapes) == 0,
              "compiled shapes: every entry of amd_copy_fp16_shapes runs at wave 64, none twice");

// The kernel of shape copy_fp16_shapes[I]: its name (what Nsight Compute lists), what it is called in an error ("no
// compiled fp16 copy kernel for this shape"), its tables (sm90; AMD, which gpu/kernels/amd/amd_kernels.hip compiles)
// and its body.
struct copy_fp16_entry {
  static constexpr const char* kernel = "copy_fp16_kernel";
  static constexpr const char* title = "fp16 copy";
  static constexpr const auto& shapes = copy_fp16_shapes;
  static constexpr const auto& amd_shapes = amd_copy_fp16_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    programs::copy_tile<std::uint16_t>(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
