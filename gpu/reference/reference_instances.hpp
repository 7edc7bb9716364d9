// tilesim/gpu/reference/reference_instances.hpp: every configuration a reference kernel is compiled for.
//
// DEFINITION. Each array lists, as written-out constants, the template arguments reference_kernels.cu
// instantiates its kernels with: one entry per distinct hand-written kernel the cross-check catalogue needs
// (gpu/crosscheck/points.cpp: catalogue()).
// Points that run the same kernel share an entry: the Morton input built from transforms and the one built
// from bits have the same offsets (one kernel), the cute-swizzle example's "Swizzle<3,3,3> 8x64" and "SW128"
// are the same tile, and its "row-major 8x32" is lds-index-swap's "row-major, ldmatrix read". A
// reference_choice is a point resolved to one such entry (reference_match.hpp makes it); find_instance gives
// the entry's index, which is also the kernel's template argument (copy_reference<I> runs copy_instances[I]).
// reference_index.test.cpp checks that every catalogue point has an entry and that the kernel it names does
// what the simulator records.
//
// WORKED EXAMPLE. catalogue point "copy fp16 64x32 v8 ck_xor" (256 threads, wave 32, lanes_down_rows) is
// copy_instances[2]: fp16, 64 x 32, vector 8, ck_xor with KPack 8 and L = 2 (32 banks * 4 / 32 / 2), 2025 order.
//
// INVARIANTS: no two entries of one array are equal; every copy/sweep/GEMM/Morton/conv entry serves a
// catalogue point (no dead kernel); adding a catalogue point that no entry matches fails
// reference_index.test.cpp (and has_reference() says false) until an entry is added here.
#pragma once

#include <cstddef>
#include <string>

#include "gpu/reference/reference_index.hpp"
#include "gpu/reference/reference_mma_index.hpp"

namespace tilesim::gpu::reference {

// Layout shorthands (resolved parameters).
constexpr lds_layout rm(int rows, int cols) { return {lds_kind::row_major, rows, cols}; }
constexpr lds_layout padded(int rows, int cols, int pad) { return {lds_kind::padded, rows, cols, pad}; }
constexpr lds_layout ck_xor(int rows, int cols, int k_pack, int layers, bool order_2024) {
  return {lds_kind::ck_xor, rows, cols, 0, k_pack, layers, order_2024};
}
constexpr lds_layout swizzled(int rows, int cols, int b, int m, int s) {
  return {lds_kind::cute_swizzle, rows, cols, 0, 0, 0, false, b, m, s};
}

// copy: element bytes, rows, cols, vector, read, lane rows (gemm_operand's R; 0 for the other reads), layout;
// 256 threads, wave 32.
constexpr copy_config copy_of(int eb, int rows, int cols, int vector, read_kind read, int lane_rows, lds_layout lds) {
  return {eb, 256, 32, rows, cols, vector, read, lane_rows, lds};
}

inline constexpr copy_config copy_instances[] = {
    // built-in copies: fp16 64 x 32 v8, lanes_down_rows
    copy_of(2, 64, 32, 8, read_kind::lanes_down_rows, 0, rm(64, 32)),
    copy_of(2, 64, 32, 8, read_kind::lanes_down_rows, 0, padded(64, 32, 8)),
    copy_of(2, 64, 32, 8, read_kind::lanes_down_rows, 0, ck_xor(64, 32, 8, 2, false)),
    copy_of(2, 64, 32, 8, read_kind::lanes_down_rows, 0, swizzled(64, 32, 2, 3, 2)),
    // fp16 64 x 64 v8
    copy_of(2, 64, 64, 8, read_kind::lanes_down_rows, 0, rm(64, 64)),
    copy_of(2, 64, 64, 8, read_kind::lanes_down_rows, 0, ck_xor(64, 64, 8, 1, false)),
    copy_of(2, 64, 64, 8, read_kind::lanes_down_rows, 0, swizzled(64, 64, 3, 3, 3)),
    // fp32 64 x 32 v4
    copy_of(4, 64, 32, 4, read_kind::lanes_down_rows, 0, rm(64, 32)),
    copy_of(4, 64, 32, 4, read_kind::lanes_down_rows, 0, padded(64, 32, 4)),
    copy_of(4, 64, 32, 4, read_kind::lanes_down_rows, 0, ck_xor(64, 32, 4, 1, false)),
    // example lds-index-swap (sm90): fp16 128 x 32 A tile, per-lane 16-byte reads at ldmatrix's row addresses (R = 16)
    copy_of(2, 128, 32, 8, read_kind::gemm_operand, 16, rm(128, 32)),
    copy_of(2, 128, 32, 8, read_kind::gemm_operand, 16, padded(128, 32, 8)),
    copy_of(2, 128, 32, 8, read_kind::gemm_operand, 16, ck_xor(128, 32, 8, 2, true)),
    copy_of(2, 128, 32, 8, read_kind::gemm_operand, 16, ck_xor(128, 32, 8, 2, false)),
    // example cute-swizzle (sm90): 128 x 64 halves, none and Swizzle<1|2|3,3,3> (SW128 = <3,3,3>)
    copy_of(2, 128, 64, 8, read_kind::gemm_operand, 16, rm(128, 64)),
    copy_of(2, 128, 64, 8, read_kind::gemm_operand, 16, swizzled(128, 64, 1, 3, 3)),
    copy_of(2, 128, 64, 8, read_kind::gemm_operand, 16, swizzled(128, 64, 2, 3, 3)),
    copy_of(2, 128, 64, 8, read_kind::gemm_operand, 16, swizzled(128, 64, 3, 3, 3)),
    // 128 x 16: none and SW32; 128 x 32: SW64 (its row-major baseline is the lds-index-swap entry above)
    copy_of(2, 128, 16, 8, read_kind::gemm_operand, 16, rm(128, 16)),
    copy_of(2, 128, 16, 8, read_kind::gemm_operand, 16, swizzled(128, 16, 1, 3, 3)),
    copy_of(2, 128, 32, 8, read_kind::gemm_operand, 16, swizzled(128, 32, 2, 3, 3)),
    // example synthesized (sm90): lanes_down_rows; the derived <2,3,2> 64 x 32 is the built-in copy's entry above
    copy_of(2, 64, 32, 8, read_kind::lanes_down_rows, 0, swizzled(64, 32, 2, 3, 3)),
    copy_of(2, 128, 64, 8, read_kind::lanes_down_rows, 0, rm(128, 64)),
    copy_of(2, 128, 64, 8, read_kind::lanes_down_rows, 0, swizzled(128, 64, 2, 4, 2)),
    copy_of(2, 64, 128, 8, read_kind::lanes_down_rows, 0, rm(64, 128)),
    copy_of(2, 64, 128, 8, read_kind::lanes_down_rows, 0, swizzled(64, 128, 1, 5, 2)),
    // example lds-index-swap (sm90) read through ldmatrix.x4 itself, stored as mma A fragments
    copy_of(2, 128, 32, 8, read_kind::ldmatrix_operand, 16, rm(128, 32)),
    copy_of(2, 128, 32, 8, read_kind::ldmatrix_operand, 16, padded(128, 32, 8)),
    copy_of(2, 128, 32, 8, read_kind::ldmatrix_operand, 16, ck_xor(128, 32, 8, 2, true)),
    copy_of(2, 128, 32, 8, read_kind::ldmatrix_operand, 16, ck_xor(128, 32, 8, 2, false)),
};

// lds sweep: u32 32 x 32 v4, lanes_down_rows, 1024 reads.
constexpr sweep_config sweep_of(lds_layout lds) {
  return {copy_of(4, 32, 32, 4, read_kind::lanes_down_rows, 0, lds), 1024};
}

inline constexpr sweep_config sweep_instances[] = {
    sweep_of(rm(32, 32)),
    sweep_of(padded(32, 32, 4)),
    sweep_of(ck_xor(32, 32, 4, 1, false)),
    sweep_of(swizzled(32, 32, 3, 2, 3)),
};

// GEMM: threads, wave, m, n, k, M, N, KPerBlock, vector, m_warps, layout, pad, banks.
constexpr gemm_config gemm_of(int threads, int mn, int k, int mnb, int kb, int m_warps, lds_kind layout) {
  return {threads, 32, mn, mn, k, mnb, mnb, kb, 4, m_warps, layout, layout == lds_kind::padded ? 4 : 0, 32};
}

inline constexpr gemm_config gemm_instances[] = {
    gemm_of(256, 128, 64, 64, 32, 2, lds_kind::row_major),
    gemm_of(256, 128, 64, 64, 32, 2, lds_kind::padded),
    gemm_of(256, 128, 64, 64, 32, 2, lds_kind::ck_xor),
    gemm_of(256, 256, 128, 64, 32, 2, lds_kind::row_major),
    gemm_of(256, 256, 128, 64, 32, 2, lds_kind::ck_xor),
    // example gemm (sm90): 64 x 64 x 64 in 32 x 32 x 8 block tiles, 64 threads
    gemm_of(64, 64, 64, 32, 8, 1, lds_kind::row_major),
    gemm_of(64, 64, 64, 32, 8, 1, lds_kind::padded),
    gemm_of(64, 64, 64, 32, 8, 1, lds_kind::ck_xor),
};

// Morton (sm90): 64 x 64 image, T = 8, 8 x 4 footprints, 256 threads.
constexpr morton_config morton_of(bool morton_input, morton_staging staging) {
  return {64, 64, 8, 8, 4, morton_input, staging, 256, 32};
}

inline constexpr morton_config morton_instances[] = {
    morton_of(false, morton_staging::direct),
    morton_of(true, morton_staging::direct),
    morton_of(true, morton_staging::lds_morton),
};

// Convolution (sm90): the 6x6 single-channel image (16 threads) and NHWC 2x8x8x4 -> 8 (192 threads), each mode.
constexpr conv_config conv_six(conv_kind mode) {
  return {mode, 1, 6, 6, 1, 1, 3, 3, 1, 1, 1, 1, 0, 0, 1, 3, 16, 32};
}
constexpr conv_config conv_nhwc(conv_kind mode) {
  return {mode, 2, 8, 8, 4, 8, 3, 3, 1, 1, 1, 1, 0, 0, 4, 12, 192, 32};
}

inline constexpr conv_config conv_instances[] = {
    conv_six(conv_kind::naive),  conv_six(conv_kind::sliding),  conv_six(conv_kind::im2col),
    conv_nhwc(conv_kind::naive), conv_nhwc(conv_kind::sliding), conv_nhwc(conv_kind::im2col),
};

// The matrix-core GEMM (sm90): examples/gemm's 256 x 256 x 256 fp16 in 128 x 128 x 32 tiles, each LDS layout.
constexpr mma_gemm_config mma_gemm_of(lds_kind layout, bool order_2024 = false) {
  mma_gemm_config c;
  c.layout = layout;
  c.ck_2024 = order_2024;
  return c;
}

inline constexpr mma_gemm_config mma_gemm_instances[] = {
    mma_gemm_of(lds_kind::row_major),
    mma_gemm_of(lds_kind::padded),
    mma_gemm_of(lds_kind::ck_xor, true),
    mma_gemm_of(lds_kind::ck_xor),
};

// The transpose's n values with a compiled kernel (the catalogue's transpose points).
inline constexpr int transpose_instances[] = {64, 256, 1024};

// Which hand-written kernel family a point runs on.
enum class reference_program { copy, sweep, gemm, morton, conv, transpose, mma_gemm };

// A point resolved to one kernel's constants (reference_match.hpp makes it from a crosscheck_point).
struct reference_choice {
  bool ok = false;
  std::string why;                  // when !ok: what the references do not express
  reference_program program = reference_program::copy;
  copy_config copy{};               // copy (fp16 or fp32 bits: copy.element_bytes)
  sweep_config sweep{};             // sweep
  gemm_config gemm{};               // gemm
  mma_gemm_config mma_gemm{};       // mma_gemm
  morton_config morton{};           // morton
  conv_config conv{};               // conv
  int transpose_n = 0;              // transpose: the matrix side
  int slots[3] = {0, 1, 2};         // global slots in the kernel's order: (in, out), (a, b, c), (in, weights, out)
};

// Index of `x` in `list`, or -1.
template <class T, std::size_t N>
constexpr int index_in(const T (&list)[N], const T& x) {
  for (std::size_t i = 0; i < N; ++i)
    if (list[i] == x) return static_cast<int>(i);
  return -1;
}

// The entry of choice c in its program's list, or -1 (also when !c.ok).
inline int find_instance(const reference_choice& c) {
  if (!c.ok) return -1;
  switch (c.program) {
    case reference_program::copy: return index_in(copy_instances, c.copy);
    case reference_program::sweep: return index_in(sweep_instances, c.sweep);
    case reference_program::gemm: return index_in(gemm_instances, c.gemm);
    case reference_program::morton: return index_in(morton_instances, c.morton);
    case reference_program::conv: return index_in(conv_instances, c.conv);
    case reference_program::transpose: return index_in(transpose_instances, c.transpose_n);
    case reference_program::mma_gemm: return index_in(mma_gemm_instances, c.mma_gemm);
  }
  return -1;
}

}  // namespace tilesim::gpu::reference
