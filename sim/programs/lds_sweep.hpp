// tilesim/sim/programs/lds_sweep.hpp: an LDS-bound program: each thread reads its vector back from LDS many times.
//
// DEFINITION. Workgroup b stages the M x N tile at rows [b*M, (b+1)*M) of the input into LDS (one vector
// per thread, CK's warp-raked pattern, the copy program's LDS layouts and read orders: copy.hpp), then
// every thread reads one vector from LDS `iterations` times through the read pattern and adds what it
// read, element by element, wrapping in T; the sums go to the same place in the output:
//   out = in * iterations (mod 2^bits of T), bit for bit.
// Labels: "global load", "lds store", barrier, "lds load" (x iterations), "global store". The tile must be
// exactly one vector per thread (M * N == threads * Vector), so a thread's offsets are two numbers computed
// once from spec (the encodings' x_of and the LDS descriptor's calculate_offset) and the loop is a single
// LDS instruction and Vector adds: on a GPU the time is the LDS pipe's, which is what the simulator's
// timing model prices. The copy and GEMM programs spend most of their GPU time in spec's run-time tile
// windows instead (gpu/recordings/README.md).
//
// WORKED EXAMPLE. fp16, 64 x 32, Vector 8, 256 threads, wave 32, lanes_down_rows, row_major LDS: lane l of
// warp w reads row 8*w + l % 8... each LDS.128 phase of 8 lanes reads 8 rows 64 bytes apart: 2 lanes per
// bank group, 2-way; ck_xor or cute_swizzle make it conflict-free. With iterations = 1024 each warp issues
// 1024 LDS.128, and the workgroup takes about 1024 * 8 warps * (pipe clocks per LDS.128) cycles.
//
// INVARIANTS: out == in * iterations for every layout and read order (lds_sweep.test.cpp); parameters the
// pattern rejects throw spec_error; the program touches nothing but the context and spec/.
#pragma once

#include "sim/programs/copy.hpp"

namespace tilesim::programs {

struct lds_sweep_params {
  copy_params tile{};        // tile shape, element vector, LDS layout, read order, slots (copy.hpp)
  index_t iterations = 1024; // LDS reads of its vector per thread
};

// The program: lds_sweep<std::uint32_t, 4>(ctx, p) with p.tile = {.rows = 32, .cols = 32, .vector = 4} is
// the 32-bit sweep the cross-check runs (4 adds per LDS.128: the loop stays LDS-bound even conflict-free;
// fp16's 8 packed adds per LDS.128 made the conflict-free loop issue-bound on an H200).
template <class T, int Vector, class Ctx>
TILESIM_HOST_DEVICE void lds_sweep(Ctx& ctx, const lds_sweep_params& sp) {
  const copy_params& p = sp.tile;
  const index_t threads = ctx.block_size(), warp_size = ctx.warp_size();
  require(broken_unless(p.vector == Vector && p.rows * p.cols == threads * Vector, rule::pattern_not_dividing,
                        "lds sweep: one vector per thread", {"rows * cols", p.rows * p.cols},
                        {"threads * vector", threads * p.vector}, {"vector", p.vector}, {"compiled vector", Vector}));
  const tile_distribution_encoding write_enc = make_warp_raked_encoding(threads, warp_size, p.rows, p.cols, p.vector);
  const tile_distribution_encoding read_enc = make_copy_read_encoding(p, threads, warp_size);
  const multi_index<tile_distribution_encoding::max_y> first{};
  const auto w = write_enc.x_of(partition_index(write_enc, ctx.warp(), ctx.lane()), first);
  const auto r = read_enc.x_of(partition_index(read_enc, ctx.warp(), ctx.lane()), first);
  const index_t row0 = ctx.block_id() * p.rows;
  const auto in = global_buffer<T>(ctx, p.input);
  const auto out = global_buffer<T>(ctx, p.output);
  with_copy_lds_descriptor(p, static_cast<index_t>(sizeof(T)), [&](const auto& d) {
    const auto lds = lds_buffer<T>(ctx, d.element_space_size);
    T v[Vector] = {}, sum[Vector] = {};
    ctx.label("global load");
    in.load((row0 + w[0]) * p.cols + w[1], Vector, v, true);
    ctx.label("lds store");
    lds.store(d.calculate_offset({w[0], w[1]}), Vector, v, true);
    ctx.barrier();
    const index_t at = d.calculate_offset({r[0], r[1]});
    ctx.label("lds load");
    for (index_t i = 0; i < sp.iterations; ++i) {
      lds.load(at, Vector, v, true);
      for (int e = 0; e < Vector; ++e) sum[e] = static_cast<T>(sum[e] + v[e]);
    }
    ctx.label("global store");
    out.store((row0 + r[0]) * p.cols + r[1], Vector, sum, true);
  });
}

}  // namespace tilesim::programs
