// tilesim/kernel/stmatrix_write/stmatrix_write.hpp: registers stored to a 16 x 16 b16 LDS tile with stmatrix, read back
// with ldmatrix.
//
// DEFINITION. One warp (32 lanes) per workgroup. The LDS tile (16 x 16 16-bit elements, row-major) is first zeroed
// (lane t stores 8 zeros at row t / 2, columns 8 (t % 2) .., label "lds zero"). Lane t takes `count` registers from
// in[(block * 32 + t) * 4 + i] (label "in load") and stores them with one stmatrix .x{count}[.trans] (label
// "stmatrix"): matrix i is the 8 x 8 quadrant (rows 8 (i % 2) .., columns 8 (i / 2) ..), so lane 8i + r passes the
// offset of row 8 (i % 2) + r, column 8 (i / 2), as kernel/ldmatrix_read/ldmatrix_read.hpp reads them. After a
// barrier the warp reads back (label "ldmatrix") with
//   read_back::same_layout  an ldmatrix of the same count and .trans at the same rows: the round trip, the input
//   read_back::whole_tile   an ldmatrix .x4 (no .trans) of all four quadrants: lane t's register q holds quadrant q's
//                           (t / 4, 2 (t % 4)) | (t / 4, 2 (t % 4) + 1) << 16, whatever count and .trans wrote
// and lane t writes its 4 registers (unread ones 0) to out[(block * 32 + t) * 4 ..] (label "out store").
//
// WORKED EXAMPLE (count 1, whole_tile; in: lane t's register 0 is 2t | (2t + 1) << 16): quadrant 0 becomes
// M[r][c] = 8r + c (stmatrix.hpp's example), so lane 5's out register 0 is M[1][2] | M[1][3] << 16 = 10 | 11 << 16
// and its registers 1-3 are 0 (quadrants 1-3 stay zero); with .trans M[r][c] = 8c + r and lane 5 reads 17 | 25 << 16.
//
// INVARIANTS: block == 32 == the wave size; count is 1, 2 or 4; the program touches nothing but the context and
// spec/ (it compiles as a CUDA kernel body: gpu/kernels/collectives_probe.cu; sm90 only) and reads LDS only through
// ldmatrix.
#pragma once

#include <cstdint>

#include "kernel/model/program.hpp"

namespace tilesim::programs {

enum class read_back { same_layout, whole_tile };

struct stmatrix_write_params {
  int input = 0;   // slot of in: uint32, grid * 32 * 4 registers
  int output = 1;  // slot of out: uint32, grid * 32 * 4 registers
  int count = 4;   // matrices per stmatrix: 1, 2 or 4
  bool trans = false;
  read_back read = read_back::same_layout;
};

// One stmatrix .x{Count}[.trans] of the lane's registers, a barrier, then the read back into `got`.
template <int Count, bool Trans, class Ctx, class B>
TILESIM_HOST_DEVICE void stmatrix_then_read(Ctx& ctx, const B& lds, index_t offset, const std::uint32_t* in,
                                            read_back read, std::uint32_t* got) {
  stmatrix_fragment<Count> f;
  for (int i = 0; i < Count; ++i) f.r[i] = in[i];
  ctx.label("stmatrix");
  stmatrix<Count, Trans>(ctx, lds, offset, f);
  ctx.barrier();
  ctx.label("ldmatrix");
  if (read == read_back::whole_tile) {
    const ldmatrix_fragment<4> back = ldmatrix<4, false>(ctx, lds, offset);
    for (int i = 0; i < 4; ++i) got[i] = back.r[i];
  } else {
    const ldmatrix_fragment<Count> back = ldmatrix<Count, Trans>(ctx, lds, offset);
    for (int i = 0; i < Count; ++i) got[i] = back.r[i];
  }
}

template <class Ctx>
TILESIM_HOST_DEVICE void stmatrix_write(Ctx& ctx, const stmatrix_write_params& p) {
  require(broken_unless(p.count == 1 || p.count == 2 || p.count == 4, rule::launch_split_not_exact,
                        "stmatrix_write: matrices per stmatrix are 1, 2 or 4", {"count", p.count}));
  const auto in = global_buffer<std::uint32_t>(ctx, p.input);
  const auto out = global_buffer<std::uint32_t>(ctx, p.output);
  const auto lds = lds_buffer<std::uint16_t>(ctx, 256);
  const index_t t = ctx.thread_id(), b = ctx.block_id();
  const std::uint16_t zero[8] = {};
  ctx.label("lds zero");
  store_vector<8>(lds, t * 8, zero, true);
  std::uint32_t regs[4];
  ctx.label("in load");
  load_vector<4>(in, (b * 32 + t) * 4, regs, true);
  ctx.barrier();
  const index_t i = ctx.lane() / 8, r = ctx.lane() % 8;
  const index_t offset = (8 * (i % 2) + r) * 16 + 8 * (i / 2);
  std::uint32_t got[4] = {};
  if (p.count == 1)
    p.trans ? stmatrix_then_read<1, true>(ctx, lds, offset, regs, p.read, got)
            : stmatrix_then_read<1, false>(ctx, lds, offset, regs, p.read, got);
  else if (p.count == 2)
    p.trans ? stmatrix_then_read<2, true>(ctx, lds, offset, regs, p.read, got)
            : stmatrix_then_read<2, false>(ctx, lds, offset, regs, p.read, got);
  else
    p.trans ? stmatrix_then_read<4, true>(ctx, lds, offset, regs, p.read, got)
            : stmatrix_then_read<4, false>(ctx, lds, offset, regs, p.read, got);
  ctx.label("out store");
  store_vector<4>(out, (b * 32 + t) * 4, got, true);
}

}  // namespace tilesim::programs
