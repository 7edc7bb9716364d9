// tilesim/spec/distribution/patterns.hpp: named tile distribution encodings (CK's 2-D raked patterns and the
// reference examples A-D of ck-tile-semantics.md §3.3-3.6).
//
// DEFINITION (CK's static_encoding_pattern.hpp, tile_distribution_pattern::{thread,warp,block}_raked). A block
// of `threads` threads in warps of `warp_size` reads a rows x cols tile whose cols are contiguous in memory,
// `vector` elements per access. All three patterns split cols the same way and differ only in where the
// per-thread iteration sits among the row components:
//
//   X1 = vector                   elements of one access along cols (H1[1], always Y1: the vector Y)
//   X0 = cols / X1                lanes across one row (H1[0], always the low part of the lane)
//   rows_per_warp = warp_size/X0  rows one warp covers in one pass (the high part of the lane)
//   warps = threads / warp_size   (P0 = warp)
//   iterations = rows / (rows_per_warp * warps)   passes each thread makes (Y0)
//
//   pattern        H0 (row components, most significant first)   P0 (warp)   P1 (lane)             Y0
//   thread_raked   <warps, rows_per_warp, iterations>            H0[0]       merge(H0[1], H1[0])   H0[2]
//   warp_raked     <warps, iterations, rows_per_warp>            H0[0]       merge(H0[2], H1[0])   H0[1]
//   block_raked    <iterations, warps, rows_per_warp>            H0[1]       merge(H0[2], H1[0])   H0[0]
//
// with H1 = <X0, X1>, Y1 -> H1[1] and R = <1> (CK spells a length-1 R that no P names). So with
// lane_row = lane / X0, every pattern has col = (lane % X0) * X1 + y1, and
//
//   thread_raked  row = warp * (rows_per_warp * iterations) + lane_row * iterations + y0   (a thread's rows adjacent)
//   warp_raked    row = warp * (iterations * rows_per_warp) + y0 * rows_per_warp + lane_row  (a warp's rows adjacent)
//   block_raked   row = y0 * (warps * rows_per_warp) + warp * rows_per_warp + lane_row      (one pass = whole block)
//
// CK names the three H0 lengths Y0, Y1, Y2 in declaration order, so its Y1/Y2 mean different things per pattern
// (warp_raked: Y0 = warps, Y1 = iterations, Y2 = rows_per_warp, as in the reference §3.4).
//
// SOURCE AND LIMITS. CK's static_encoding_pattern.hpp (2025), read in three versions: tilesim follows the form
// whose static_asserts require every split to be exact and which takes X1 = VecSize as given. Later forms
// (rocm-libraries) clamp X1 = min(VecSize, rows*cols/threads), cap X0 at warp_size with a column iteration
// X2 = cols/(X0*X1), and add a NumWaveGroups > 1 variant of thread_raked; none of that is modelled. Wherever
// tilesim accepts the parameters, those forms give the same encoding with one wave group: exact splits imply
// VecSize <= rows*cols/threads and cols/VecSize <= warp_size, so the clamps change nothing and X2 = 1.
//
// WORKED EXAMPLE (§3.4): warp_raked, 256 threads, warp 64, 64 x 32, vector 8: X1 = 8, X0 = 4, rows_per_warp = 16,
// warps = 4, iterations = 1; row = 16*warp + lane/4, col = 8*(lane%4) + y1:
//
//   (warp, lane)   y1 = 0..7 covers
//      (0,0)       row 0, cols 0-7
//      (0,1)       row 0, cols 8-15
//      (0,4)       row 1, cols 0-7
//      (0,63)      row 15, cols 24-31
//      (3,63)      row 63, cols 24-31
//
// INVARIANTS: a pattern exists only when vector | cols, X0 | warp_size, warp_size | threads and
// rows_per_warp * warps | rows (rule pattern_not_dividing names the failed split); then each of the rows x cols
// elements is owned by exactly one (warp, lane, y), and each thread holds iterations * vector elements
// (patterns.test.cpp checks both for all three patterns).
#pragma once

#include "spec/distribution/encoding.hpp"
#include "spec/math.hpp"

namespace tilesim {

// Which H0 component CK puts the per-thread iteration on (see the table above).
enum class raking { thread, warp, block };

// The parameters of a 2-D raked pattern and the split they imply.
struct raked_pattern {
  raking kind = raking::warp;
  index_t threads = 256, warp_size = 64, rows = 64, cols = 32, vector = 8;

  TILESIM_HOST_DEVICE constexpr index_t x1() const { return vector; }
  // Lanes across one row: 32 cols / vector 8 = 4.
  TILESIM_HOST_DEVICE constexpr index_t x0() const { return cols / vector; }
  // Rows a warp covers in one pass: 64 / 4 = 16.
  TILESIM_HOST_DEVICE constexpr index_t rows_per_warp() const { return warp_size / x0(); }
  TILESIM_HOST_DEVICE constexpr index_t warps() const { return threads / warp_size; }
  // Passes each thread makes: 64 rows / (16 * 4) = 1.
  TILESIM_HOST_DEVICE constexpr index_t iterations() const { return rows / (rows_per_warp() * warps()); }

  // The first parameter that is not positive, or split that is not exact, with its values.
  TILESIM_HOST_DEVICE constexpr violation check() const {
    const char* where = "encoding pattern";
    const named_value params[5] = {
        {"threads", threads}, {"warp size", warp_size}, {"rows", rows}, {"cols", cols}, {"vector", vector}};
    for (const named_value& p : params)
      if (p.value < 1) return broken_unless(false, rule::length_not_positive, where, p);
    for (const named_value& p : params)
      if (p.value > max_extent) return broken_unless(false, rule::extent_too_large, where, p);
    if (cols % vector != 0)
      return broken_unless(false, rule::pattern_not_dividing, where, {"cols", cols}, {"vector", vector});
    if (warp_size % x0() != 0)
      return broken_unless(false, rule::pattern_not_dividing, where, {"warp size", warp_size},
                           {"X0 = cols/vector", x0()});
    if (threads % warp_size != 0)
      return broken_unless(false, rule::pattern_not_dividing, where, {"threads", threads}, {"warp size", warp_size});
    if (rows % (threads / x0()) != 0)  // threads / X0 == rows_per_warp * warps, without the overflow
      return broken_unless(false, rule::pattern_not_dividing, where, {"rows", rows},
                           {"rows per pass = threads/X0", threads / x0()});
    return {};
  }

  // The encoding (throws spec_error when check() fails); see the table at the top.
  TILESIM_HOST_DEVICE constexpr tile_distribution_encoding encoding() const {
    require(check());
    const index_t w = warps(), it = iterations(), rpw = rows_per_warp();
    switch (kind) {
      case raking::thread:
        return make_encoding({1}, {{w, rpw, it}, {x0(), x1()}}, {{{1, 0}}, {{1, 1}, {2, 0}}}, {{1, 2}, {2, 1}});
      case raking::warp:
        return make_encoding({1}, {{w, it, rpw}, {x0(), x1()}}, {{{1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}});
      case raking::block:
        break;
    }
    return make_encoding({1}, {{it, w, rpw}, {x0(), x1()}}, {{{1, 1}}, {{1, 2}, {2, 0}}}, {{1, 0}, {2, 1}});
  }
};

// CK's warp_raked: make_warp_raked_encoding(256, 64, 64, 32, 8) is the reference §3.4 encoding, R = <1>,
// H0 = <4, 1, 16>, H1 = <4, 8>, P0 -> H0[0], P1 -> merge(H0[2], H1[0]), Y -> H0[1], H1[1].
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_warp_raked_encoding(index_t block_threads,
                                                                                  index_t warp_size, index_t rows,
                                                                                  index_t cols, index_t vector) {
  return raked_pattern{raking::warp, block_threads, warp_size, rows, cols, vector}.encoding();
}

// CK's block_raked: make_block_raked_encoding(256, 64, 128, 32, 8) has H0 = <2, 4, 16> (iterations, warps,
// rows per warp); warp 1, lane 0 holds row 16 at y0 = 0 and row 80 at y0 = 1.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_block_raked_encoding(index_t block_threads,
                                                                                   index_t warp_size, index_t rows,
                                                                                   index_t cols, index_t vector) {
  return raked_pattern{raking::block, block_threads, warp_size, rows, cols, vector}.encoding();
}

// CK's thread_raked: make_thread_raked_encoding(256, 64, 128, 32, 8) has H0 = <4, 16, 2> (warps, rows per
// warp, iterations); warp 0, lane 4 holds rows 2 and 3.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_thread_raked_encoding(index_t block_threads,
                                                                                    index_t warp_size, index_t rows,
                                                                                    index_t cols, index_t vector) {
  return raked_pattern{raking::thread, block_threads, warp_size, rows, cols, vector}.encoding();
}

// Reference §3.3, the CK docs' 4x4: x0 = 2*warp + y0, x1 = 2*lane + y1, d = 2*y0 + y1 (2 warps x 2 lanes).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_docs_4x4_encoding() {
  return make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});
}

// Reference §3.5, CK's memory_copy test with R = <2>: a 32 x 64 tile on 4 warps; warp w has r0 = w/2, so
// warps 0 and 2 (and 1 and 3) hold the same elements: lane 9, y = (1, 7) of warps 0 and 2 is x = (9, 15).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_replicated_copy_encoding() {
  return make_encoding({2}, {{2, 2, 8}, {8, 8}}, {{{0, 0}, {1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}});
}

// Reference §3.6, the MFMA 32x32x8 fp16 A operand (M x K = 32 x 8, one warp, P0 = lane): lane l, y holds
// A[l % 32][4*(l/32) + y]; lane 32, y = 0 holds A(0, 4).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mfma_32x32x8_a_encoding() {
  return make_encoding({}, {{32}, {2, 4}}, {{{2, 0}, {1, 0}}}, {{2, 1}});
}

// Reference §3.6, the MFMA 32x32x8 accumulator (M x N = 32 x 32, P0 = lane): c[4i + j] of lane l is
// C[8i + 4*(l/32) + j][l % 32]; c[15] of lane 63 is C(31, 31).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mfma_32x32x8_c_encoding() {
  return make_encoding({}, {{4, 2, 4}, {32}}, {{{1, 1}, {2, 0}}}, {{1, 0}, {1, 2}});
}

}  // namespace tilesim
