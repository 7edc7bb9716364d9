// tilesim/gpu/kernels/amd/amd_shapes.hpp: the launch shapes compiled into AMD (wave 64) kernels, one kernel per shape.
//
// DEFINITION. gpu/kernels/programs/ lists the sm90 (wave 32) launch shapes gpu/kernels/kernels.cu compiles; this
// file is the same thing for AMD's CDNA GPUs, whose waves have 64 lanes. Each entry is a program's whole launch
// structure (parameters, workgroup size, wave size 64, and the grid where the program has one) as a
// constexpr value; gpu/kernels/amd/amd_kernels.hip instantiates the program on constant<entry> once per entry
// (amd_copy_fp16_shapes[i] is copy_fp16_kernel<i>), and hipcc compiles every one for gfx90a and gfx940.
// The tables hold:
//   the built-in copy points (fp16 64x32 / 64x64 v8, fp32 64x32 v4: grid 64, 256 threads) and LDS sweep tiles
//   (32x32 u32 v4, grid 8), as gpu/kernels/programs/'s, at wave 64;
//   every gfx942 case of examples/lds_index_swap and examples/cute_swizzle (128 x 32 / 128 x 64 fp16 read as
//   the MFMA 32x32x8 operand, R = 32; their gfx90a cases are the same parameter sets, so no entry of their own);
//   the built-in GEMMs (256 threads) and examples/gemm's gfx942 cases (32x32x8 tiles, one wave of 64);
//   the scalar transpose at the sizes gpu/kernels/programs/transpose_f32.hpp compiles;
//   examples/morton's gfx942 cases (morton_case_table entries 4-7, by morton_case_shape);
//   examples/conv's gfx942 cases (conv_shapes.hpp's conv_example_shape at wave 64: every mode, both problems).
// find_shape and with_compiled_shape (gpu/kernels/compiled_shapes.hpp) work on these tables as on the sm90 ones;
// examples/amd_kernels.test.cpp checks that every gfx90a/gfx942 example case has an entry here.
//
// WORKED EXAMPLE. examples/lds_index_swap's "ck-xor 2025, mfma read" on gfx942 is copy_params{128 x 32, v8,
// ck_xor, gemm_operand, lane_rows 32, (L, K0) order} on one workgroup of 256: find_shape(amd_copy_fp16_shapes,
// copy_shape{p, 256, 64, 1}) == 10, so it is copy_fp16_kernel<10>, whose gfx940 assembly holds one
// ds_write_b128 per lane vector stored and one ds_read_b128 per lane vector read, nothing else in LDS.
//
// INVARIANTS: every entry has warp_size 64 (amd_wave; device_context's wave size on gfx9 is
// __AMDGCN_WAVEFRONT_SIZE = 64, and the program's require_launch_shape holds the launch to the shape); no two
// entries of a table are equal; every entry is a valid shape (else the kernels do not compile); the file is
// plain C++ (the test includes it under g++, the kernels under hipcc).
#pragma once

#include <cstddef>
#include <iterator>

#include "kernel/conv/conv_shapes.hpp"
#include "kernel/morton/morton_shapes.hpp"
#include "kernel/transpose/transpose.hpp"
#include "gpu/kernels/compiled_shapes.hpp"

namespace tilesim::gpu::amd {

using programs::copy_lds_layout;
using programs::copy_shape;
using programs::gemm_lds_layout;
using programs::gemm_shape;

// The wave of every AMD shape: gfx90a and gfx940/gfx942 (CDNA2, CDNA3) run 64 lanes per wave.
inline constexpr index_t amd_wave = 64;

// The builders are gpu/kernels/compiled_shapes.hpp's, at wave 64 (and, for the operand reads, the MFMA's R = 32).
using compiled::builtin_copy;
using compiled::builtin_gemm;
using compiled::cute_swizzle_tile;
using compiled::gemm_example;
using compiled::lds_index_swap_tile;
using compiled::sweep_tile;
inline constexpr index_t mfma_lane_rows = 32;

// fp16 copies: the built-in points (0-6), lds_index_swap's gfx942 cases (7-10), cute_swizzle's (11-14), and
// examples/synthesized's gfx942 synth case (15: Swizzle<2,3,3> on the 128 x 32 MFMA read; its hand-picked CK 2025
// case is entry 10).
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

// fp32 copies: the built-in points.
inline constexpr copy_shape amd_copy_fp32_shapes[] = {
    builtin_copy(64, 32, 4, copy_lds_layout::row_major, amd_wave),
    builtin_copy(64, 32, 4, copy_lds_layout::padded, amd_wave),
    builtin_copy(64, 32, 4, copy_lds_layout::ck_xor, amd_wave),
};

// The sweep's tile in each LDS layout.
inline constexpr copy_shape amd_lds_sweep_shapes[] = {
    sweep_tile(copy_lds_layout::row_major, amd_wave),
    sweep_tile(copy_lds_layout::padded, amd_wave),
    sweep_tile(copy_lds_layout::ck_xor, amd_wave),
    sweep_tile(copy_lds_layout::cute_swizzle, amd_wave),
};

// GEMMs: the built-in points (0-4), examples/gemm's gfx942 cases (5-7).
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

// The scalar transpose (kernel/transpose/transpose.hpp): n x n fp32, 256 threads, wave 64.
inline constexpr programs::transpose_shape amd_transpose_shapes[] = {
    {{.n = 64}, 256, amd_wave},
    {{.n = 256}, 256, amd_wave},
    {{.n = 1024}, 256, amd_wave},
};

// examples/morton's gfx942 cases, straight from its constexpr case table (entries 4-7; checked below).
inline constexpr examples::morton_shape amd_morton_shapes[] = {
    examples::morton_case_shape(examples::morton_case_table[4]),
    examples::morton_case_shape(examples::morton_case_table[5]),
    examples::morton_case_shape(examples::morton_case_table[6]),
    examples::morton_case_shape(examples::morton_case_table[7]),
};

// examples/conv's gfx942 cases (conv_shapes.hpp: the odd entries, wave 64): naive, sliding, im2col on the 6x6
// image (grid 1 x 16 threads) and on the NHWC 2x8x8x4 problem (grid 3 x 192 threads).
inline constexpr examples::conv_shape amd_conv_shapes[] = {
    examples::conv_example_shape(examples::conv_problem::six_by_six, examples::conv_mode::naive, amd_wave),
    examples::conv_example_shape(examples::conv_problem::six_by_six, examples::conv_mode::sliding, amd_wave),
    examples::conv_example_shape(examples::conv_problem::six_by_six, examples::conv_mode::im2col, amd_wave),
    examples::conv_example_shape(examples::conv_problem::nhwc, examples::conv_mode::naive, amd_wave),
    examples::conv_example_shape(examples::conv_problem::nhwc, examples::conv_mode::sliding, amd_wave),
    examples::conv_example_shape(examples::conv_problem::nhwc, examples::conv_mode::im2col, amd_wave),
};

// True when a and b are the same C string (constexpr): same_name("gfx942", "gfx942").
constexpr bool same_name(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

// True when amd_morton_shapes is exactly the gfx942 cases of morton_case_table, in the table's order.
constexpr bool morton_shapes_are_gfx942_cases() {
  int at = 0;
  for (const examples::morton_case_def& c : examples::morton_case_table) {
    if (!same_name(c.arch, "gfx942")) continue;
    const examples::morton_shape s = examples::morton_case_shape(c);
    if (compiled::find_shape(amd_morton_shapes, s) != at) return false;  // (no duplicates: see below)
    ++at;
  }
  return at == static_cast<int>(std::size(amd_morton_shapes));
}
static_assert(morton_shapes_are_gfx942_cases(), "amd_morton_shapes must be morton_case_table's gfx942 cases, in order");

// True when every entry of `table` has warp_size 64.
template <class Shape, std::size_t N>
constexpr bool all_wave_64(const Shape (&table)[N]) {
  for (const Shape& s : table)
    if (s.warp_size != amd_wave) return false;
  return true;
}
static_assert(all_wave_64(amd_copy_fp16_shapes) && all_wave_64(amd_copy_fp32_shapes) &&
                  all_wave_64(amd_lds_sweep_shapes) && all_wave_64(amd_gemm_shapes) &&
                  all_wave_64(amd_transpose_shapes) && all_wave_64(amd_morton_shapes) &&
                  all_wave_64(amd_conv_shapes),
              "AMD shapes: every entry runs at wave 64");
static_assert(compiled::duplicate_shapes(amd_copy_fp16_shapes) == 0 && compiled::duplicate_shapes(amd_copy_fp32_shapes) == 0 &&
                  compiled::duplicate_shapes(amd_lds_sweep_shapes) == 0 && compiled::duplicate_shapes(amd_gemm_shapes) == 0 &&
                  compiled::duplicate_shapes(amd_transpose_shapes) == 0 && compiled::duplicate_shapes(amd_morton_shapes) == 0 &&
                  compiled::duplicate_shapes(amd_conv_shapes) == 0,
              "AMD shapes: an entry appears twice");

}  // namespace tilesim::gpu::amd
