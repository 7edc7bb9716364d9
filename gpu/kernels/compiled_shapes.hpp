// tilesim/gpu/kernels/compiled_shapes.hpp: the launch shapes compiled into kernels, one kernel per shape.
//
// DEFINITION. A kernel is a program run on constant<shape> (spec/constant.hpp): its parameters, workgroup
// size, wave size (and the copy's grid) are constants, so every encoding, descriptor and window folds to the
// arithmetic a hand-written kernel does. Each program's table of the shapes gpu/kernels/kernels.cu instantiates
// is its own file, gpu/kernels/programs/<program>.hpp (entry i of copy_fp16_shapes is the kernel
// copy_fp16_kernel<i>), beside the same program's AMD table (amd_copy_fp16_shapes: wave 64, compiled by
// gpu/kernels/amd/amd_kernels.hip); this file holds what they share: the builders of the catalogue's shapes (at
// either wave), find_shape, with_compiled_shape, duplicate_shapes and all_wave. The host
// finds a point's entry by equality (find_shape); the cross-check's simulator side runs the very same
// instantiation (with_compiled_shape), so what the GPU ran and what the simulator priced are one template
// instance. The shapes are every point of gpu/crosscheck's catalogue, sm90 (wave 32); a CPU test
// (gpu/crosscheck/compiled_shapes.test.cpp) fails when a catalogue point has no entry.
//
// WORKED EXAMPLE. The fp16 64x32 v8 ck_xor point (grid 64, 256 threads): find_shape(copy_fp16_shapes,
// copy_shape{p, 256, 32, 64}) == 2, and copy_fp16_kernel<2> runs copy_tile<uint16_t>(ctx, constant<copy_fp16_shapes[2]>{}).
//
// INVARIANTS: no two entries of a table are equal (the lookup is unique; each table's file static_asserts it);
// every entry is a valid shape (its encodings and descriptors build at compile time, or the kernels do not compile).
#pragma once

#include <cstddef>

#include "kernel/copy/copy.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"

namespace tilesim::gpu::compiled {

using programs::copy_lds_layout;
using programs::copy_params;
using programs::copy_read_order;
using programs::copy_shape;
using programs::gemm_lds_layout;
using programs::gemm_params;
using programs::gemm_shape;

inline constexpr index_t sm90_wave = 32;
// The wave of every AMD table: gfx90a and gfx940/gfx942 (CDNA2, CDNA3) run 64 lanes per wave; the MFMA 32x32x8
// operand reads take R = 32 rows per lane group (ldmatrix on sm90: 16).
inline constexpr index_t amd_wave = 64;
inline constexpr index_t mfma_lane_rows = 32;

// The builders below serve both targets: the sm90 tables (gpu/kernels/programs/) pass sm90_wave, the AMD ones amd_wave.

// The built-in copy points: rows x cols, `vector` elements, lanes_down_rows read, grid 64.
constexpr copy_shape builtin_copy(index_t rows, index_t cols, index_t vector, copy_lds_layout layout,
                                  index_t wave = sm90_wave) {
  copy_params p;
  p.rows = rows;
  p.cols = cols;
  p.vector = vector;
  p.layout = layout;
  p.read = copy_read_order::lanes_down_rows;
  return {p, 256, wave, 64};
}

// examples/lds_index_swap's cases: CK's 128 x 32 fp16 A tile read as the operand with R rows per lane group
// (ldmatrix on sm90: R = 16; MFMA on gfx9: R = 32), one workgroup.
constexpr copy_shape lds_index_swap_tile(copy_lds_layout layout, ck_lds_order order, index_t lane_rows = 16,
                                         index_t wave = sm90_wave,
                                         copy_read_order read = copy_read_order::gemm_operand) {
  copy_params p;
  p.rows = 128;
  p.cols = 32;
  p.vector = 8;
  p.layout = layout;
  p.read = read;
  p.lane_rows = lane_rows;
  p.ck_order = order;
  return {p, 256, wave, 1};
}

// examples/cute_swizzle's cases: 128 x width fp16 read as the operand (R as above), element Swizzle<bits, 3, 3>
// (bits < 0: row-major).
constexpr copy_shape cute_swizzle_tile(index_t width, int bits, index_t lane_rows = 16, index_t wave = sm90_wave) {
  copy_params p;
  p.rows = 128;
  p.cols = width;
  p.vector = 8;
  p.read = copy_read_order::gemm_operand;
  p.lane_rows = lane_rows;
  p.layout = bits < 0 ? copy_lds_layout::row_major : copy_lds_layout::cute_swizzle;
  if (bits >= 0) {
    p.swizzle_bits = bits;
    p.swizzle_base = 3;
    p.swizzle_shift = 3;
  }
  return {p, 256, wave, 1};
}

// examples/synthesized's sm90 cases: rows x cols fp16, vector 8, lanes_down_rows, Swizzle<b, m, s> or row-major, grid 1.
constexpr copy_shape synthesized_tile(index_t rows, index_t cols, copy_lds_layout layout, int b = -1, int m = -1,
                                      int s = -1, index_t wave = sm90_wave) {
  copy_params p;
  p.rows = rows;
  p.cols = cols;
  p.vector = 8;
  p.read = copy_read_order::lanes_down_rows;
  p.layout = layout;
  p.swizzle_bits = b;
  p.swizzle_base = m;
  p.swizzle_shift = s;
  return {p, 256, wave, 1};
}

// The LDS sweep's tiles (kernel/lds_sweep/lds_sweep.hpp; the iteration count stays a run-time argument): 32 x 32
// u32, vector 4, lanes_down_rows, grid 8, in each LDS layout.
constexpr copy_shape sweep_tile(copy_lds_layout layout, index_t wave = sm90_wave) {
  copy_params p;
  p.rows = 32;
  p.cols = 32;
  p.vector = 4;
  p.layout = layout;
  p.read = copy_read_order::lanes_down_rows;
  return {p, 256, wave, 8};
}

// The built-in GEMM points: mn x mn x k with the default 64 x 64 x 32 block tile, 256 threads.
constexpr gemm_shape builtin_gemm(index_t mn, index_t k, gemm_lds_layout layout, index_t wave = sm90_wave) {
  gemm_params p;
  p.m = p.n = mn;
  p.k = k;
  p.layout = layout;
  return {p, 256, wave};
}

// examples/gemm's cases: 64 x 64 x 64 in 32 x 32 x 8 block tiles, 64 threads per block (two warps on sm90,
// one wave on gfx9).
constexpr gemm_shape gemm_example(gemm_lds_layout layout, index_t wave = sm90_wave) {
  gemm_params p;
  p.m = p.n = p.k = 64;
  p.m_per_block = p.n_per_block = 32;
  p.k_per_block = 8;
  p.vector = 4;
  p.m_warps = 1;
  p.layout = layout;
  return {p, 64, wave};
}

// The index of `shape` in `table`, or -1: find_shape(copy_fp32_shapes, builtin_copy(64, 32, 4, padded)) == 1.
template <class Shape, std::size_t N>
constexpr int find_shape(const Shape (&table)[N], const Shape& shape) {
  for (std::size_t i = 0; i < N; ++i)
    if (table[i] == shape) return static_cast<int>(i);
  return -1;
}

// Calls f.template operator()<I>() with I = find_shape(table, shape); false (f not called) when absent.
// with_compiled_shape<copy_fp16_shapes>(s, [&]<int I>() { copy_tile<uint16_t>(ctx, constant<copy_fp16_shapes[I]>{}); }).
template <const auto& Table, class Shape, class F>
bool with_compiled_shape(const Shape& shape, F&& f) {
  constexpr int n = static_cast<int>(sizeof(Table) / sizeof(Table[0]));
  const int at = find_shape(Table, shape);
  bool called = false;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((at == I ? (f.template operator()<I>(), called = true) : false), ...);
  }(std::make_integer_sequence<int, n>{});
  return called;
}

// Entries equal to an earlier one (0 for every table: each table's file static_asserts it).
template <class Shape, std::size_t N>
constexpr int duplicate_shapes(const Shape (&table)[N]) {
  int d = 0;
  for (std::size_t i = 0; i < N; ++i)
    if (find_shape(table, table[i]) != static_cast<int>(i)) ++d;
  return d;
}

// True when every entry of `table` runs at wave `wave`: all_wave(amd_copy_fp32_shapes, amd_wave).
template <class Shape, std::size_t N>
constexpr bool all_wave(const Shape (&table)[N], index_t wave) {
  for (const Shape& s : table)
    if (s.warp_size != wave) return false;
  return true;
}

// True when a and b are the same C string (constexpr): same_name("gfx942", "gfx942").
constexpr bool same_name(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

}  // namespace tilesim::gpu::compiled
