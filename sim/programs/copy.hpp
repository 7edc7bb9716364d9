// tilesim/sim/programs/copy.hpp: the built-in copy program: global -> LDS -> global through tile windows.
//
// DEFINITION. Workgroup b copies the M x N tile at rows [b*M, (b+1)*M) of a (grid*M) x N row-major input to
// the same place in the output, through one LDS tile:
//   1. load the tile from global with CK's warp-raked pattern (lanes along a row, `vector` elements each;
//      spec/distribution/patterns.hpp), into registers              label "global load"
//   2. store the registers to LDS through the chosen LDS layout       label "lds store"
//   3. barrier
//   4. load the tile back from LDS with the read pattern             label "lds load"
//   5. store those registers to the output                          label "global store"
// The read pattern is the write pattern (same_as_write), or the one where consecutive lanes go down the rows
// of a column strip (lanes_down_rows: lane = strip * rows_per_warp + row), which is what makes the LDS
// layout matter: on a row-major tile those lanes hit the same banks, and padding, CK's XOR preshuffle or a
// CuTe swizzle spread them. LDS layouts (element units, top (row, col)):
//   row_major     offset = r*N + c
//   padded        offset = r*(N + pad) + c            pad 0 means one vector (keeps 16-byte alignment)
//   ck_xor        spec/layouts/ck_lds_xor.hpp with MPerBlock = M, KPerBlock = N, KPack = vector
//   cute_swizzle  Swizzle<B,M,S> o row-major; B, M, S given, or derived: M = log2(vector),
//                 S = log2(N / vector), B = min(3, S) (XOR the row into the 16-byte chunk index)
//
// WORKED EXAMPLE. fp16, M x N = 64 x 32, vector 8, 256 threads, wave 64: every thread moves one 16-byte
// vector per step, so each wave issues 4 instructions (global load, lds store, lds load, global store). With
// lanes_down_rows on row_major, lanes 0-15 of the lds load read rows 0-15 of cols 0-7: LDS bytes 0, 64, 128,
// ...; on padded (pad 8) 0, 80, 160, ...
//
// INVARIANTS: output == input for every layout and read order (copy.test.cpp); a parameter set the pattern
// or a layout rejects throws spec_error (require), which the engine reports with the thread; the program
// touches nothing but the context and spec/ (it compiles as a HIP kernel body).
#pragma once

#include "sim/engine/program.hpp"
#include "spec/distribution/distributed_tensor.hpp"
#include "spec/distribution/patterns.hpp"
#include "spec/layouts/ck_lds_xor.hpp"
#include "spec/layouts/cute_swizzle.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/window/tile_window.hpp"

namespace tilesim::programs {

enum class copy_lds_layout { row_major, padded, ck_xor, cute_swizzle };
enum class copy_read_order { same_as_write, lanes_down_rows };

struct copy_params {
  index_t rows = 64;    // M: tile rows per workgroup
  index_t cols = 32;    // N: tile columns, contiguous in global memory
  index_t vector = 8;   // elements per access (8 fp16 = 16 bytes)
  copy_lds_layout layout = copy_lds_layout::row_major;
  copy_read_order read = copy_read_order::lanes_down_rows;
  index_t pad = 0;      // padded: elements added to each row; 0 = one vector
  int swizzle_bits = -1, swizzle_base = -1, swizzle_shift = -1;  // cute_swizzle: -1 = derive (see above)
  index_t ck_banks = 32;  // ck_xor: LDS banks (32 on gfx9 and sm90, 64 on gfx950)
  int input = 0;        // global slot of the (grid*rows) x cols input
  int output = 1;       // global slot of the output, same shape
};

// Register capacity per thread: rows*cols/threads must not exceed it (else spec_error distributed_tensor_too_small).
inline constexpr index_t copy_max_elements = 64;

// log2 of a power of two, else -1: exact_log2(32) == 5, exact_log2(12) == -1.
TILESIM_HOST_DEVICE constexpr int exact_log2(index_t v) {
  if (v < 1 || (v & (v - 1)) != 0) return -1;
  int k = 0;
  while ((index_t{1} << k) < v) ++k;
  return k;
}

// The lanes_down_rows encoding: the warp-raked split with the lane's low part on rows. For 256 threads,
// wave 64, 64 x 32, vector 8: lane l of warp w holds row 16*w + l % 16, cols 8*(l / 16) .. +7.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_lanes_down_rows_encoding(
    index_t threads, index_t warp_size, index_t rows, index_t cols, index_t vector) {
  const raked_pattern p{raking::warp, threads, warp_size, rows, cols, vector};
  require(p.check());
  return make_encoding({1}, {{p.warps(), p.iterations(), p.rows_per_warp()}, {p.x0(), p.x1()}},
                       {{{1, 0}}, {{2, 0}, {1, 2}}}, {{1, 1}, {2, 1}});
}

// Calls f(descriptor) with the LDS descriptor of p.layout for elements of `element_bytes`.
template <class F>
TILESIM_HOST_DEVICE void with_copy_lds_descriptor(const copy_params& p, index_t element_bytes, F&& f) {
  switch (p.layout) {
    case copy_lds_layout::row_major:
      f(make_row_major_descriptor(p.rows, p.cols));
      return;
    case copy_lds_layout::padded:
      f(make_row_major_descriptor(p.rows, p.cols, p.pad > 0 ? p.pad : p.vector));
      return;
    case copy_lds_layout::ck_xor: {
      ck_lds_xor_params x{p.rows, p.cols, p.vector};
      x.element_bytes = element_bytes;
      x.banks = p.ck_banks;
      f(make_ck_lds_xor_descriptor(x));
      return;
    }
    case copy_lds_layout::cute_swizzle: {
      const int m = p.swizzle_base >= 0 ? p.swizzle_base : exact_log2(p.vector);
      const int s = p.swizzle_shift >= 0 ? p.swizzle_shift : exact_log2(p.cols) - exact_log2(p.vector);
      const int b = p.swizzle_bits >= 0 ? p.swizzle_bits : (s < 3 ? s : 3);
      f(make_cute_swizzle_descriptor(b, m, s, p.rows, p.cols));
      return;
    }
  }
}

// The program: see the steps above. copy_tile<std::uint16_t>(ctx, copy_params{}) is the fp16 64x32 copy.
template <class T, class Ctx>
TILESIM_HOST_DEVICE void copy_tile(Ctx& ctx, const copy_params& p) {
  const index_t threads = ctx.block_size(), warp_size = ctx.warp_size();
  const tile_distribution_encoding write_enc = make_warp_raked_encoding(threads, warp_size, p.rows, p.cols, p.vector);
  const tile_distribution_encoding read_enc =
      p.read == copy_read_order::same_as_write
          ? write_enc
          : make_lanes_down_rows_encoding(threads, warp_size, p.rows, p.cols, p.vector);
  const auto writer = partition_index(write_enc, ctx.warp(), ctx.lane());
  const auto reader = partition_index(read_enc, ctx.warp(), ctx.lane());
  const multi_index<2> tile{p.rows, p.cols};
  const multi_index<2> origin{ctx.block_id() * p.rows, 0};
  const auto global_desc = make_naive_descriptor<2>({ctx.grid_size() * p.rows, p.cols}, {p.cols, 1}, p.cols, 1);
  const auto in = make_tensor_view(global_desc, global_buffer<T>(ctx, p.input), address_space::global);
  const auto out = make_tensor_view(global_desc, global_buffer<T>(ctx, p.output), address_space::global);
  with_copy_lds_descriptor(p, static_cast<index_t>(sizeof(T)), [&](const auto& lds_desc) {
    const auto lds = make_tensor_view(lds_desc, lds_buffer<T>(ctx, lds_desc.element_space_size), address_space::lds);
    auto staged = make_distributed_tensor<T, copy_max_elements>(write_enc);
    ctx.label("global load");
    make_tile_window(in, tile, origin, write_enc, writer).load(staged);
    ctx.label("lds store");
    make_tile_window(lds, tile, {0, 0}, write_enc, writer).store(staged);
    ctx.barrier();
    auto moved = make_distributed_tensor<T, copy_max_elements>(read_enc);
    ctx.label("lds load");
    make_tile_window(lds, tile, {0, 0}, read_enc, reader).load(moved);
    ctx.label("global store");
    make_tile_window(out, tile, origin, read_enc, reader).store(moved);
  });
}

}  // namespace tilesim::programs
