// tilesim/spec/distribution/patterns.hpp: named tile distribution encodings (CK's 2-D raked patterns and the
// reference examples A-D of ck-tile-semantics.md §3.3-3.6).
//
// DEFINITION (CK's static_encoding_pattern.hpp, tile_distribution_pattern::{thread,warp,block}_raked). A block
// of `threads` threads in warps of `warp_size` reads a rows x cols tile whose cols are contiguous in memory,
// `vector` elements per access. All three patterns split cols the same way and differ only in where the
// per-thread iteration sits among the row components:
//
//   X1 = min(vector, rows*cols/threads)   elements of one access along cols (H1[1], always Y1: the vector Y)
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
// SOURCE AND LIMITS. CK's static_encoding_pattern.hpp, read in three versions. The 2025 form (ROCm/
// composable_kernel e55b1548, TileDistributionEncodingPattern2D) clamps the vector to what each thread holds,
// LargestVec = (XPerTile * YPerTile) / (num_warps * warp_size), X1 = min(VecSize, LargestVec), then splits
// exactly as above; tilesim follows it. Where X1 = VecSize (LargestVec >= VecSize) the older unclamped form
// gives the same encoding, so only parameters it refused change. CLAMPED EXAMPLE: warp_raked, 256 threads,
// warp 64, 16 x 32, VecSize 8: LargestVec = 16*32/256 = 2, so X1 = 2, X0 = 16, rows_per_warp = 4, warps = 4,
// iterations = 1 (H0 = <4, 1, 4>, H1 = <16, 2>): each thread holds 2 elements, one 2-wide access.
// Refused, with the split named: X1 = 0 (fewer elements than threads; CK divides by zero) and X1 not dividing
// cols (the 2025 form then builds an encoding whose X0 * X1 < cols columns silently miss the rest, e.g. 64
// threads, 16 x 22, VecSize 11: X1 = 5, X0 = 4 covers 20 columns; rocm-libraries' newest asserts
// X0 * X1 * X2 == XPerTile). Not modelled: the newest form's cap X0 <= warp_size with a column iteration
// X2 = cols/(X0*X1), and thread_raked's NumWaveGroups > 1 variant; tilesim refuses cols/X1 > warp_size, where
// the 2025 form's static_assert fails too.
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
// INVARIANTS: a pattern exists only when vector | cols, warp_size | threads, X1 >= 1, X1 | cols, X0 | warp_size
// and rows_per_warp * warps | rows (rule pattern_not_dividing names the failed split); then each of the
// rows x cols elements is owned by exactly one (warp, lane, y), and each thread holds iterations * X1 elements
// (patterns.test.cpp checks both for all three patterns; props/ck_conformance.props.cpp for clamped ones).
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

  // Elements each thread holds (CK's LargestVec): 64 * 32 / (4 * 64) = 8.
  TILESIM_HOST_DEVICE constexpr index_t largest_vector() const {
    const index_t block = warps() * warp_size;
    return block < 1 ? 0 : rows * cols / block;  // check() keeps rows * cols within 2^40
  }
  // The vector actually accessed: min(VecSize 8, LargestVec 8) = 8; 16 x 32 on 256 threads: min(8, 2) = 2.
  TILESIM_HOST_DEVICE constexpr index_t x1() const {
    const index_t largest = largest_vector();
    return vector < largest ? vector : largest;
  }
  // Lanes across one row: 32 cols / X1 8 = 4.
  TILESIM_HOST_DEVICE constexpr index_t x0() const { return cols / x1(); }
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
    if (rows > max_extent / cols)
      return broken_unless(false, rule::extent_too_large, where, {"rows", rows}, {"cols", cols});
    if (cols % vector != 0)
      return broken_unless(false, rule::pattern_not_dividing, where, {"cols", cols}, {"vector", vector});
    if (threads % warp_size != 0)
      return broken_unless(false, rule::pattern_not_dividing, where, {"threads", threads}, {"warp size", warp_size});
    if (x1() < 1)
      return broken_unless(false, rule::pattern_not_dividing, where, {"rows", rows}, {"cols", cols},
                           {"threads", threads}, {"X1 = min(vector, rows*cols/threads)", 0});
    if (cols % x1() != 0)
      return broken_unless(false, rule::pattern_not_dividing, where, {"cols", cols},
                           {"X1 = min(vector, rows*cols/threads)", x1()});
    if (warp_size % x0() != 0)
      return broken_unless(false, rule::pattern_not_dividing, where, {"warp size", warp_size},
                           {"X0 = cols/X1", x0()});
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
