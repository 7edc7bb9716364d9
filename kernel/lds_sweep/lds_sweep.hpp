// tilesim/kernel/lds_sweep/lds_sweep.hpp: an LDS-bound program: each thread reads its vector back from LDS many times.
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
// timing model prices. The tile shape comes in either form (copy.hpp's copy_shape, or constant<copy_shape>
// in a kernel); the iteration count stays a run-time value.
//
// WORKED EXAMPLE. fp16, 64 x 32, Vector 8, 256 threads, wave 32, lanes_down_rows, row_major LDS: lane l of
// warp w reads row 8*w + l % 8... each LDS.128 phase of 8 lanes reads 8 rows 64 bytes apart: 2 lanes per
// bank group, 2-way; ck_xor or cute_swizzle make it conflict-free. With iterations = 1024 each warp issues
// 1024 LDS.128, and the workgroup takes about 1024 * 8 warps * (pipe clocks per LDS.128) cycles.
//
// INVARIANTS: out == in * iterations for every layout and read order (lds_sweep.test.cpp); parameters the
// pattern rejects throw spec_error; the program touches nothing but the context and spec/.
#pragma once

#include "kernel/copy/copy.hpp"

namespace tilesim::programs {

struct lds_sweep_params {
  copy_params tile{};        // tile shape, element vector, LDS layout, read order, slots (copy.hpp)
  index_t iterations = 1024; // LDS reads of its vector per thread
};

// The program, for a tile shape in either form (copy.hpp's copy_shape, or constant<copy_shape{...}> in a
// kernel) and a run-time iteration count: lds_sweep<std::uint32_t, 4>(ctx, shape, 1024) with the tile
// {.rows = 32, .cols = 32, .vector = 4} is the 32-bit sweep the cross-check runs (4 adds per LDS.128: the loop
// stays LDS-bound even conflict-free; fp16's 8 packed adds per LDS.128 made the conflict-free loop issue-bound
// on an H200).
template <class T, int Vector, class Ctx, class Shape>
TILESIM_HOST_DEVICE void lds_sweep(Ctx& ctx, const Shape& shape, index_t iterations) {
  const copy_shape& s = value_of(shape);
  const copy_params& p = s.params;
  require_launch_shape(ctx, s.threads, s.warp_size, s.grid);
  require(broken_unless(p.vector == Vector && p.rows * p.cols == s.threads * Vector, rule::pattern_not_dividing,
                        "lds sweep: one vector per thread", {"rows * cols", p.rows * p.cols},
                        {"threads * vector", s.threads * p.vector}, {"vector", p.vector}, {"compiled vector", Vector}));
  const auto write_enc = derive(shape, [](const copy_shape& c) {
    return make_warp_raked_encoding(c.threads, c.warp_size, c.params.rows, c.params.cols, c.params.vector);
  });
  const auto read_enc =
      derive(shape, [](const copy_shape& c) { return make_copy_read_encoding(c.params, c.threads, c.warp_size); });
  const auto w = thread_x_of(write_enc, partition_index(write_enc, ctx.warp(), ctx.lane()), {});
  const auto r = thread_x_of(read_enc, partition_index(read_enc, ctx.warp(), ctx.lane()), {});
  const index_t row0 = ctx.block_id() * p.rows;
  const auto in = global_buffer<T>(ctx, p.input);
  const auto out = global_buffer<T>(ctx, p.output);
  with_copy_lds_descriptor<T>(shape, [&](const auto& d) {
    const auto lds = lds_buffer<T>(ctx, d.element_space_size);
    T v[Vector] = {}, sum[Vector] = {};
    ctx.label("global load");
    load_vector<Vector>(in, (row0 + w[0]) * p.cols + w[1], v, true);
    ctx.label("lds store");
    store_vector<Vector>(lds, d.calculate_offset({w[0], w[1]}), v, true);
    ctx.barrier();
    const index_t at = d.calculate_offset({r[0], r[1]});
    ctx.label("lds load");
    for (index_t i = 0; i < iterations; ++i) {
      reload_vector<Vector>(lds, at, v, true);  // the same address every time: the GPU must issue each one
      static_for<Vector>([&](auto e) { sum[e] = static_cast<T>(sum[e] + v[e]); });
    }
    ctx.label("global store");
    store_vector<Vector>(out, (row0 + r[0]) * p.cols + r[1], sum, true);
  });
}

// The run-time form from the parameters alone: lds_sweep<std::uint32_t, 4>(ctx, lds_sweep_params{...}).
template <class T, int Vector, class Ctx>
TILESIM_HOST_DEVICE void lds_sweep(Ctx& ctx, const lds_sweep_params& sp) {
  lds_sweep<T, Vector>(ctx, copy_shape_of(ctx, sp.tile), sp.iterations);
}

}  // namespace tilesim::programs
