// tilesim/kernel/ldmatrix_read/ldmatrix_read.hpp: a 16 x 16 fp16 tile staged through LDS and read back with ldmatrix.
//
// DEFINITION. One warp (32 lanes) per workgroup. The tile (16 x 16 b16 elements, row-major in global memory at
// block * 256) is stored to LDS row by row (lane t stores 8 elements: row t / 2, columns 8 (t % 2) .. + 7,
// label "lds store"), then read with one ldmatrix .x4 (label "ldmatrix"): matrix i is the 8 x 8 quadrant
// (rows 8 (i % 2) .., columns 8 (i / 2) ..), so lane 8i + r passes the offset of row 8 (i % 2) + r, column
// 8 (i / 2): the A-operand order of mma.sync m16n8k16. Lane t writes its four registers to out[4 g .. 4 g + 3]
// (g = block * 32 + t, label "out store"). `trans` reads each quadrant transposed.
//
// WORKED EXAMPLE. Element (r, c) = 16 r + c. Lane 0's registers: quadrant 0 row 0 elements 0, 1 -> 0 | 1 << 16;
// quadrant 1 (rows 8-15) row 8 -> 128 | 129 << 16; quadrant 2 (columns 8-15) -> 8 | 9 << 16; quadrant 3 ->
// 136 | 137 << 16.
//
// INVARIANTS: block == 32 == the wave size; the program touches nothing but the context and spec/ (it compiles
// as a CUDA kernel body: gpu/kernels/collectives_probe.cu; not on AMD, which has no ldmatrix).
#pragma once

#include <cstdint>

#include "kernel/model/program.hpp"

namespace tilesim::programs {

struct ldmatrix_read_params {
  int input = 0;   // slot of in: uint16, grid * 256 elements
  int output = 1;  // slot of out: uint32, grid * 32 * 4 registers
  bool trans = false;
};

template <class Ctx>
TILESIM_HOST_DEVICE void ldmatrix_read(Ctx& ctx, const ldmatrix_read_params& p) {
  const auto in = global_buffer<std::uint16_t>(ctx, p.input);
  const auto out = global_buffer<std::uint32_t>(ctx, p.output);
  const auto lds = lds_buffer<std::uint16_t>(ctx, 256);
  const index_t t = ctx.thread_id(), b = ctx.block_id();
  std::uint16_t v[8];
  ctx.label("in load");
  load_vector<8>(in, b * 256 + t * 8, v, true);
  ctx.label("lds store");
  store_vector<8>(lds, t * 8, v, true);
  ctx.barrier();
  const index_t i = ctx.lane() / 8, r = ctx.lane() % 8;
  const index_t row = 8 * (i % 2) + r, col = 8 * (i / 2);
  ctx.label("ldmatrix");
  const ldmatrix_fragment<4> f =
      p.trans ? ldmatrix<4, true>(ctx, lds, row * 16 + col) : ldmatrix<4, false>(ctx, lds, row * 16 + col);
  ctx.label("out store");
  store_vector<4>(out, (b * 32 + t) * 4, f.r, true);
}

}  // namespace tilesim::programs
