// tilesim/gpu/rtc_props/props_case.hpp: one generated tile program, described by numbers (issue 18).
//
// DEFINITION. A props_case is a whole copy program through LDS: elements of `element_bytes` (2, 4, 8), a
// tile of rows x cols per workgroup (the writer encoding's X lengths), `threads` = wave * warps threads, `grid`
// workgroups, a global tensor of tensor_rows x tensor_cols (row-major, at most grid*rows x cols) that the
// windows reach past (right pads: loads there give 0, stores there are dropped), an LDS layout from every
// family spec/ has (row_major, padded by `pad`, CK's XOR preshuffle with KPack, MLdsLayer, order and banks,
// CuTe Swizzle<B, M, S>, Morton), a writer and a reader encoding (random valid tile distribution encodings;
// the reader may replicate: R components). Workgroup b:
//   global -> registers (writer window at (b*rows, 0))  -> LDS (writer window, layout)  -> barrier
//   -> registers (reader window, layout) -> global (reader window at (b*rows, 0))
// gpu/rtc_props/props_program.hpp is the program; it takes a props_case as a value (the simulator) or as
// constant<props_case{...}> (the kernel NVRTC compiles), so both sides run one source.
// KINDS (issue 33: the programs users write, not only copies). `kind` picks what the reader does after the barrier:
//   copy     the reader's tile back to global (the original program; every case of the recordings before issue 33)
//   stencil  each output element (r, c) is the wrapping sum (integer add, bits exact) of the LDS tile at
//            ((r + dr_k) mod rows, (c + dc_k) mod cols) for the `stencil_points` offsets (dr_k, dc_k): one LDS read
//            per offset and output element, as a 5-point stencil does (a wrapped tile: the halo is the tile itself)
//   reduce   each tensor row's wrapping sum, stored at (row, 0) of the output (the rest keeps its poison): each
//            thread folds its reader values into one per row it holds, a warp-shuffle butterfly (shuffle_xor over
//            the lane bits that index columns) sums across the lanes sharing the row, and the lane whose column
//            lane bits are 0 (replica 0) stores; the reader's warps split the rows only (or replicate)
//   loop     the copy over loop_tiles (2..4) tiles per workgroup, workgroup b's tile t at rows (t * grid + b) * rows
//            (the grid strides along the tensor), with one LDS buffer (a barrier before each store after the first:
//            the previous tile's readers must be done) or two alternating (double_buffer: one barrier per tile)
// The kind is drawn only where asked (`tilesim-gpu props --kinds ...`), so seeds drawn with copy alone regenerate
// the cases they always did.
// `fault` is test-only: 1 flips one bit of the reader's LDS swizzle on the device side (cute_swizzle: B - 1,
// the top mask bit; ck_xor: the other unmerge order), which the properties must catch.
//
// WORKED EXAMPLE. fp32, 2 warps, writer H0 = <2, 8>, H1 = <4, 4>: rows 16, cols 16; grid 3 with tensor 40 x 13:
// block 2's window covers rows 32..47, of which 40..47 are pad, and cols 13..15 of every row are pad.
//
// INVARIANTS (check()): both encodings are valid, have 2 X dims of the same lengths and wave lanes x warps
// threads (wave 32 for the GPU run, 64 for the AMD compile check); at most 64 elements per thread; the layout's own rules hold (spec/rules.hpp) for rows x cols;
// tensor_rows in ((grid*tiles-1)*rows, grid*tiles*rows] (tiles_per_block), tensor_cols in [1, cols]; LDS fits in 48 KiB; a copy has no stencil
// fields set, a stencil 2..5 distinct offsets within [-2, 2] x [-2, 2]; a reduce's reader gives no warp bit to
// the columns.
#pragma once

#include "spec/distribution/encoding.hpp"
#include "spec/layouts/ck_lds_xor.hpp"

namespace tilesim::gpu::props {

enum class props_layout { row_major, padded, ck_xor, cute_swizzle, morton };
enum class props_kind { copy, stencil, reduce, loop };

// Offsets a stencil case may read (stencil_dr / stencil_dc hold at most this many).
inline constexpr int props_max_stencil_points = 5;

struct props_case {
  int element_bytes = 4;  // 2, 4 or 8 (uint16_t, uint32_t, uint64_t on both sides: bits are copied)
  index_t threads = 64, grid = 1;
  index_t wave = 32;      // lanes per wave: 32 (sm90) or 64 (gfx9: the AMD compile check); threads = wave * warps
  index_t tensor_rows = 1, tensor_cols = 1;
  props_layout layout = props_layout::row_major;
  index_t pad = 0;                         // padded: elements added to each row
  index_t ck_k_pack = 1, ck_m_lds_layer = 0, ck_banks = 32;  // ck_xor (MLdsLayer 0: CK's derived one)
  ck_lds_order ck_order = ck_lds_order::l_k0_2025;
  int swizzle_b = 0, swizzle_m = 0, swizzle_s = 0;  // cute_swizzle
  int fault = 0;                           // test-only, device side only (see above)
  tile_distribution_encoding writer{}, reader{};
  props_kind kind = props_kind::copy;
  int stencil_points = 0;                               // stencil: 2..5 offsets, the first stencil_points used
  index_t stencil_dr[props_max_stencil_points] = {};    // stencil: row offsets (any sign; wrapped in the tile)
  index_t stencil_dc[props_max_stencil_points] = {};    // stencil: column offsets
  index_t loop_tiles = 0;                               // loop: tiles per workgroup, 2..4 (0 otherwise)
  int double_buffer = 0;                                // loop: 1 = two LDS buffers alternating

  TILESIM_HOST_DEVICE constexpr index_t rows() const { return writer.x_length(0); }
  TILESIM_HOST_DEVICE constexpr index_t cols() const { return writer.x_length(1); }
  // Tiles one workgroup moves: loop_tiles for a loop, else 1 (the global view has grid * this * rows rows).
  TILESIM_HOST_DEVICE constexpr index_t tiles_per_block() const { return kind == props_kind::loop ? loop_tiles : 1; }
  TILESIM_HOST_DEVICE friend constexpr bool operator==(const props_case& a, const props_case& b) {
    return a.element_bytes == b.element_bytes && a.threads == b.threads && a.grid == b.grid && a.wave == b.wave &&
           a.tensor_rows == b.tensor_rows && a.tensor_cols == b.tensor_cols && a.layout == b.layout && a.pad == b.pad &&
           a.ck_k_pack == b.ck_k_pack && a.ck_m_lds_layer == b.ck_m_lds_layer && a.ck_banks == b.ck_banks &&
           a.ck_order == b.ck_order && a.swizzle_b == b.swizzle_b && a.swizzle_m == b.swizzle_m &&
           a.swizzle_s == b.swizzle_s && a.fault == b.fault && a.writer == b.writer && a.reader == b.reader &&
           a.kind == b.kind && a.stencil_points == b.stencil_points && same_offsets(a, b) &&
           a.loop_tiles == b.loop_tiles && a.double_buffer == b.double_buffer;
  }
  TILESIM_HOST_DEVICE static constexpr bool same_offsets(const props_case& a, const props_case& b) {
    for (int k = 0; k < props_max_stencil_points; ++k)
      if (a.stencil_dr[k] != b.stencil_dr[k] || a.stencil_dc[k] != b.stencil_dc[k]) return false;
    return true;
  }
};

// Registers per thread the program's run-time form can hold (distributed_tensor capacity).
inline constexpr index_t props_max_elements = 64;
// Bytes of a window's tile one thread may hold: 64 registers, half the generated kernels' 128-register budget (the
// other half holds addresses). A reader of 64 fp64 elements (128 registers of data) spilled on the H100 props run of
// 2026-11-25 (cases 133 and 314: 80 and 40 bytes of stack) once every loaded value had to stay live.
inline constexpr index_t props_max_thread_bytes = 256;
// LDS bytes a case may use (the default dynamic shared memory without opting in).
inline constexpr index_t props_max_lds_bytes = 48 * 1024;

}  // namespace tilesim::gpu::props
