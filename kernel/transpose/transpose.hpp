// tilesim/kernel/transpose/transpose.hpp: a scalar program: an fp32 matrix transpose through LDS, element by element.
//
// DEFINITION. out = in^T for an n x n row-major fp32 matrix, 32 x 32 tiles, one workgroup per tile: workgroup
// b takes tile (by, bx) = (b / (n/32), b % (n/32)), and with `threads` threads (a multiple of 32) thread t
// handles column c = t % 32 of rows r = t / 32 + k * (threads/32), k = 0 .. 32*32/threads - 1:
//   1. lds[r * 33 + c] = in[(32*by + r) * n + 32*bx + c]        labels "global load", "lds store"
//   2. barrier
//   3. out[(32*bx + r) * n + 32*by + c] = lds[c * 33 + r]       labels "lds load", "global store"
// Every access is one element through load_element / store_element (no tensor view, no window): this is the
// program that prices the element path itself. The LDS rows are 33 floats, so the column read of step 3
// (lanes c = 0..31 at one r: banks (33c + r) mod 32 = c + r) is conflict-free, as in the classic CUDA sample.
// The shape (parameters and workgroup size) comes in either form (spec/constant.hpp): transpose_shape, or
// constant<transpose_shape{...}> in a compiled kernel.
//
// WORKED EXAMPLE. n = 64 (4 tiles), 256 threads: workgroup 1 is tile (0, 1); thread 37 has c = 5 and rows
// 1, 9, 17, 25; its first load is in[1 * 64 + 32 + 5] = in[101] into lds[1 * 33 + 5] = lds[38], and its first
// store writes out[(32 + 1) * 64 + 5] = out[2117] from lds[5 * 33 + 1] = lds[166].
//
// INVARIANTS: out[j * n + i] == in[i * n + j] bit for bit (transpose.test.cpp); n a positive multiple of 32 and
// threads a multiple of 32 dividing 1024, else spec_error naming the values.
#pragma once

#include "kernel/model/program.hpp"
#include "spec/constant.hpp"

namespace tilesim::programs {

struct transpose_params {
  index_t n = 256;  // the matrix is n x n floats
  int input = 0;    // global slot of the input
  int output = 1;   // global slot of the output
  bool operator==(const transpose_params&) const = default;
};

inline constexpr index_t transpose_tile_side = 32;
inline constexpr index_t transpose_lds_pitch = 33;  // floats per LDS row: one more than the tile

// The launch structure of the transpose: the parameters and the workgroup size (the grid is (n/32)^2).
struct transpose_shape {
  transpose_params params{};
  index_t threads = 256, warp_size = 32;
  bool operator==(const transpose_shape&) const = default;
};

// Workgroups of an n x n transpose: transpose_workgroups({.n = 256}) == 64.
TILESIM_HOST_DEVICE constexpr index_t transpose_workgroups(const transpose_params& p) {
  return (p.n / transpose_tile_side) * (p.n / transpose_tile_side);
}

// The first parameter that does not split, with its values.
TILESIM_HOST_DEVICE constexpr violation check_transpose(const transpose_params& p, index_t threads) {
  if (violation v = broken_unless(p.n >= transpose_tile_side && p.n % transpose_tile_side == 0 && p.n <= max_extent,
                                  rule::tile_not_dividing, "transpose", {"n", p.n}, {"tile", transpose_tile_side}))
    return v;
  return broken_unless(threads >= transpose_tile_side && threads % transpose_tile_side == 0 &&
                           (transpose_tile_side * transpose_tile_side) % threads == 0,
                       rule::launch_split_not_exact, "transpose", {"threads", threads}, {"tile", transpose_tile_side});
}

// The program, for a shape in either form. transpose(ctx, transpose_params{}) is the run-time form.
template <class Ctx, class Shape>
TILESIM_HOST_DEVICE void transpose(Ctx& ctx, const Shape& shape) {
  const transpose_shape& s = value_of(shape);
  const transpose_params& p = s.params;
  require(check_transpose(p, s.threads));
  require_launch_shape(ctx, s.threads, s.warp_size, transpose_workgroups(p));
  constexpr index_t side = transpose_tile_side, pitch = transpose_lds_pitch;
  const index_t tiles = p.n / side, by = ctx.block_id() / tiles, bx = ctx.block_id() % tiles;
  const index_t c = ctx.thread_id() % side, r0 = ctx.thread_id() / side, rows_per_pass = s.threads / side;
  const auto passes = derive(shape, [](const transpose_shape& t) { return transpose_tile_side * transpose_tile_side / t.threads; });
  const auto in = global_buffer<float>(ctx, p.input);
  const auto out = global_buffer<float>(ctx, p.output);
  const auto lds = lds_buffer<float>(ctx, side * pitch);
  for_range(passes, [&](auto k) {
    const index_t r = r0 + k * rows_per_pass;
    ctx.label("global load");
    const float v = load_element(in, (side * by + r) * p.n + side * bx + c);
    ctx.label("lds store");
    store_element(lds, r * pitch + c, v);
  });
  ctx.barrier();
  for_range(passes, [&](auto k) {
    const index_t r = r0 + k * rows_per_pass;
    ctx.label("lds load");
    const float v = load_element(lds, c * pitch + r);
    ctx.label("global store");
    store_element(out, (side * bx + r) * p.n + side * by + c, v);
  });
}

// The run-time form from the parameters alone.
template <class Ctx>
TILESIM_HOST_DEVICE void transpose(Ctx& ctx, const transpose_params& p) {
  transpose(ctx, transpose_shape{p, ctx.block_size(), ctx.warp_size()});
}

}  // namespace tilesim::programs
