// tilesim/gpu/amd/lds_width_points.hpp: the parameter points whose AMD kernels are pinned to one LDS width.
//
// DEFINITION. gpu/kernels.cu's kernels take their parameters at run time, so each one holds an LDS
// instruction for every width device_buffer can move (1-16 bytes): its assembly cannot say which width the
// program uses at a given point. gpu/amd/lds_width_kernels.hip instantiates the same program templates once
// per point below, with the parameters as compile-time constants, 256 threads, and LDS buffers pinned to the
// point's per-lane vector: `lds_load_bytes` / `lds_store_bytes` (bytes per lane per access; above 16, that
// many bytes in 16-byte instructions, as the simulator's split_bytes = 16 counts them). A pinned buffer has
// one instruction width and no element-wise fallback; a vector of any other size, misaligned or not wholly
// inside the buffer traps. gpu/amd/lds_widths.test.cpp then requires, per point, that
//   the simulator (wave 64, 256 threads) records exactly these widths for the program's LDS instructions,
//   the point's kernel in the gfx90a and gfx940 assembly has LDS instructions of exactly these widths.
//
// WORKED EXAMPLE. Point 0 is copy_tile<std::uint16_t> at copy_params{} (64 x 32 fp16, 8 per vector): the
// simulator prices "lds store" and "lds load" as 16-byte instructions, lds_width_point_kernel<0> must hold
// ds_write_b128 and ds_read_b128 and no other ds_ memory instruction. Point 5 (fp32, vector 8 = 32 bytes)
// is two 16-byte instructions per vector on both sides.
//
// The enum also names gpu/kernels.cu's two example kernels, morton_f32 (examples::morton_read<float>) and
// conv_f32 (examples::conv, which uses no LDS), so the test can name their programs; they have no pinned point
// (lds_width_kernels.hip instantiates copy, gemm and the sweep only; static_assert below).
//
// INVARIANTS: every point is a parameter set the simulator runs clean (no race, bounds error or misaligned
// access) at 256 threads and wave 64, so on a GPU device_buffer takes its vector path for every LDS access
// there and the pinned kernel does what kernels.cu's kernel does; the table is plain C++ (the test includes
// it under g++, the kernels under hipcc); its order is the kernels' template argument.
#pragma once

#include "sim/programs/copy.hpp"
#include "sim/programs/gemm_tile.hpp"
#include "sim/programs/lds_sweep.hpp"

namespace tilesim::gpu::amd {

// kernels.cu's programs: the four built-in ones (pinned points possible) and the two examples (none).
enum class lds_width_program { copy_fp16, copy_fp32, gemm_fp32, lds_sweep_u32, morton_f32, conv_f32 };

struct lds_width_point {
  const char* name = "";              // "copy fp16 64x32 v8": the test's messages
  lds_width_program program = lds_width_program::copy_fp16;
  programs::copy_params copy{};       // copy_fp16, copy_fp32
  programs::gemm_params gemm{};       // gemm_fp32
  programs::lds_sweep_params sweep{}; // lds_sweep_u32 (its Vector template argument is sweep.tile.vector)
  int block = 256;                    // threads per workgroup; the kernel's __launch_bounds__
  int lds_load_bytes = 16;            // per lane per LDS load of the program (above 16: 16-byte pieces)
  int lds_store_bytes = 16;           // per lane per LDS store
};

// copy_params with only the vector changed: copy_with_vector(4) is the 64 x 32 row_major copy, 4 per vector.
constexpr programs::copy_params copy_with_vector(index_t vector) {
  programs::copy_params p;
  p.vector = vector;
  return p;
}

// The 32-bit LDS sweep's parameters as gpu/kernels.cu's lds_sweep_u32_kernel (lds_sweep<std::uint32_t, 4>)
// runs them in the cross-check: a 32 x 32 tile, 4 per vector (16 bytes), one vector per thread of 256.
// (lds_sweep_params{} is the 64 x 32 fp16 tile, which lds_sweep<std::uint32_t, 4> rejects.)
constexpr programs::lds_sweep_params sweep_u32_params() {
  programs::lds_sweep_params p;
  p.tile.rows = 32;
  p.tile.cols = 32;
  p.tile.vector = 4;
  return p;
}

// gemm_params with only the vector changed (the default is 4 floats).
constexpr programs::gemm_params gemm_with_vector(index_t vector) {
  programs::gemm_params p;
  p.vector = vector;
  return p;
}

inline constexpr lds_width_point lds_width_points[] = {
    {.name = "copy fp16 64x32 v8 (copy_params{})", .program = lds_width_program::copy_fp16,
     .copy = copy_with_vector(8), .lds_load_bytes = 16, .lds_store_bytes = 16},
    {.name = "copy fp16 64x32 v4", .program = lds_width_program::copy_fp16, .copy = copy_with_vector(4),
     .lds_load_bytes = 8, .lds_store_bytes = 8},
    {.name = "copy fp16 64x32 v2", .program = lds_width_program::copy_fp16, .copy = copy_with_vector(2),
     .lds_load_bytes = 4, .lds_store_bytes = 4},
    {.name = "copy fp16 64x32 v1", .program = lds_width_program::copy_fp16, .copy = copy_with_vector(1),
     .lds_load_bytes = 2, .lds_store_bytes = 2},
    {.name = "copy fp32 64x32 v4 (the cross-check's fp32 point)", .program = lds_width_program::copy_fp32,
     .copy = copy_with_vector(4), .lds_load_bytes = 16, .lds_store_bytes = 16},
    {.name = "copy fp32 64x32 v8 (copy_params{}: 32 bytes, two 16-byte instructions)",
     .program = lds_width_program::copy_fp32, .copy = copy_with_vector(8), .lds_load_bytes = 32, .lds_store_bytes = 32},
    {.name = "copy fp32 64x32 v1", .program = lds_width_program::copy_fp32, .copy = copy_with_vector(1),
     .lds_load_bytes = 4, .lds_store_bytes = 4},
    {.name = "gemm fp32 64x64x64 v4 (gemm_params{})", .program = lds_width_program::gemm_fp32,
     .gemm = gemm_with_vector(4), .lds_load_bytes = 16, .lds_store_bytes = 16},
    {.name = "gemm fp32 64x64x64 v2", .program = lds_width_program::gemm_fp32, .gemm = gemm_with_vector(2),
     .lds_load_bytes = 8, .lds_store_bytes = 8},
    {.name = "gemm fp32 64x64x64 v1", .program = lds_width_program::gemm_fp32, .gemm = gemm_with_vector(1),
     .lds_load_bytes = 4, .lds_store_bytes = 4},
    {.name = "lds sweep u32 32x32 v4 (the cross-check's sweep)", .program = lds_width_program::lds_sweep_u32,
     .sweep = sweep_u32_params(), .lds_load_bytes = 16, .lds_store_bytes = 16},
};

inline constexpr int lds_width_point_count = static_cast<int>(sizeof(lds_width_points) / sizeof(lds_width_points[0]));

// True when every point's program is one lds_width_kernels.hip can pin (copy, gemm, the sweep; not the examples).
constexpr bool points_pinnable() {
  for (const lds_width_point& p : lds_width_points)
    if (p.program == lds_width_program::morton_f32 || p.program == lds_width_program::conv_f32) return false;
  return true;
}
static_assert(points_pinnable(), "lds_width_kernels.hip pins only copy, gemm and lds sweep points");

}  // namespace tilesim::gpu::amd
