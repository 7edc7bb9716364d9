// tilesim/kernel/gemm_tile/gemm_tile.hpp: the built-in GEMM tile program: global -> LDS -> registers -> FMAs -> global.
//
// DEFINITION. C (m x n, fp32) = A (m x k) * B^T, with A row-major (K contiguous) and B stored n x k (K
// contiguous: CK's K-major operands), all float. Workgroup b computes the M x N block tile at block row
// b / (n/N), block column b % (n/N), looping over K in steps of KPerBlock (M, N, KPerBlock =
// m_per_block, n_per_block, k_per_block). Per K step, as CK Tile's GEMM pipelines do it:
//   1. A (M x KPerBlock) and B (N x KPerBlock) from global into registers with CK's warp-raked pattern
//      (spec/distribution/patterns.hpp), `vector` floats per access       labels "A global load", "B global load"
//   2. the same registers into LDS through the chosen LDS layout          labels "A lds store", "B lds store"
//   3. barrier
//   4. each warp reads its A and B fragments from LDS (encodings below)   labels "A lds load", "B lds load"
//   5. scalar FMAs into the accumulators (no memory traffic; stated for the timing model: alu(), gemm_step_fmas)
//   6. barrier before the next step's LDS stores (not after the last step)
// and once at the end the accumulators go to global through a window     label "C global store"
// The global windows move by (0, KPerBlock) between steps (CK's move_tile_window); LDS windows stay put.
//
// WARP SPLIT (the fragment encodings). The block's warps form an m_warps x n_warps grid and each warp owns
// m_iter x n_iter warp tiles, exactly as CK's block GEMMs embed a warp GEMM (embed_encoding of an outer
// encoding: A: R = <n_warps>, H = <m_iter, m_warps>, <k_iter>, warp = merge(m-warp, R); B: R = <m_warps>,
// H = <n_iter, n_warps>, <k_iter>, warp = merge(R, n-warp); C: H = <m_iter, m_warps>, <n_iter, n_warps>).
// The inner (warp) encodings are a SIMT outer product, not the MFMA 32x32x8 operand encodings: a lane of
// a wave of W lanes is (lm, ln) = (lane % 8, lane / 8), lanes_n = W / 8, and it owns a 4 x 4 block of C,
//   rows   m = 8*i + lm      (i = 0..3; lanes go down the rows, as MFMA's lane % 32 does)
//   cols   n = lanes_n*j + ln (j = 0..3)
// so a warp tile is 32 x 4*lanes_n (32 x 32 on wave 64, 32 x 16 on wave 32). Its A fragment is those 4 rows
// for every k of the step (R = <lanes_n>: lanes with equal lm hold the same A), its B fragment those 4
// columns' rows of B (R = <8>), each read as `vector`-float K vectors:
//   A warp: R = <lanes_n>, H0 = <4, 8>, H1 = <vector>, lane = merge(R0, H0[1]), Y = (H0[0], H1[0])
//   B warp: R = <8>, H0 = <4, lanes_n>, H1 = <vector>, lane = merge(H0[1], R0), Y = (H0[0], H1[0])
//   C warp: H0 = <4, 8>, H1 = <4, lanes_n>, lane = merge(H1[1], H0[1]), Y = (H0[0], H1[0])
// Embedded, the block fragments have Y = (mi, ki, i, e) for A, (ni, ki, j, e) for B and (mi, ni, i, j)
// for C, so acc(mi, ni, i, j) += Σ_{ki, e} A(mi, ki, i, e) * B(ni, ki, j, e) is thread-local.
// WHY NOT MFMA'S OPERAND ENCODINGS: MFMA 32x32x8's A fragment gives lane l row l % 32 and only half of K
// (4*(l/32) .. +3), and its C layout gives lane l column l % 32 of rows 8i + 4*(l/32) + j: the rows a lane
// must multiply sit in other lanes' registers, which the matrix core exchanges in hardware. The program
// model has no cross-lane register primitive (program.hpp: warp-synchronous code is outside it), so with
// plain FMAs every lane must read what it multiplies; this split does that with the fewest rows per lane
// (4 of A and 4 of B per 16 outputs). An MFMA-faithful variant needs a warp-collective mma (or shuffle) in
// the context; then the A/B reads would be make_mfma_32x32x8_a_encoding() embedded the same way.
//
// LDS LAYOUTS (element units, top (row, k); A and B alike, rows = M or N):
//   row_major  offset = r*KPerBlock + k
//   padded     offset = r*(KPerBlock + pad) + k              pad 0 means one vector (keeps 16-byte alignment)
//   ck_xor     spec/layouts/ck_lds_xor.hpp, MPerBlock = rows, KPerBlock, KPack = vector, 4-byte elements
//              (fp32, KPerBlock 32: MLdsLayer 1, K0 = 8: the 16-byte chunk k/4 is XOR-ed with r mod 8)
// On an "A lds load" lanes 0-7 read rows 0-7 at one K vector: 128 bytes apart on row_major (the same 4
// banks: 8-way on gfx942, whose ds_read_b128 phases pair lanes 0-3 with 20-23, i.e. rows 0-3 with 4-7),
// 144 on padded and XOR-spread on ck_xor (no conflict). On "B lds load" lanes 0-7 read one row (a
// broadcast), but lanes 20-23 read row 2: 2-way on row_major on gfx942, none on sm90 (gemm_tile.test.cpp
// pins these counts).
//
// WORKED EXAMPLE. 256 threads, wave 64, M = N = 64, KPerBlock = 32, vector 4, k = 64 (2 steps): 2 x 2 warps
// of one 32 x 32 warp tile each (m_iter = n_iter = 1, k_iter = 8). Per step each wave issues 2 "A global
// load", 2 "B global load", 2 "A lds store", 2 "B lds store" (16 bytes per lane; 8 lanes per 128-byte row),
// then 32 "A lds load" and 32 "B lds load" (16 bytes); at the end 16 "C global store" of 4 bytes. Thread 9
// (warp 0, lane 9: lm = 1, ln = 1) computes C rows 1, 9, 17, 25 x cols 1, 9, 17, 25.
//
// TWO FORMS: gemm_tile takes gemm_shape (params, threads, wave) as a value or as constant<gemm_shape{...}>
// (copy.hpp says how); with a constant, the warp grid is one too and the FMAs unroll (for_range), every
// register index a constant.
//
// INVARIANTS: C == A * B^T exactly when every partial sum is exact in float (gemm_tile.test.cpp, all layouts,
// wave 64 and 32); each C element is owned by exactly one thread, whose A and B fragments hold exactly its
// rows and columns for every k; a parameter set that does not split exactly throws spec_error (the engine
// names the thread); the program touches nothing but the context and spec/ (it compiles as a HIP kernel body).
#pragma once

#include "kernel/model/program.hpp"
#include "spec/distribution/distributed_tensor.hpp"
#include "spec/distribution/encoding_algebra.hpp"
#include "spec/distribution/patterns.hpp"
#include "spec/layouts/ck_lds_xor.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/window/static_tile_window.hpp"

namespace tilesim::programs {

enum class gemm_lds_layout { row_major, padded, ck_xor };

// Test-only mistakes that a race detector must catch: a barrier the pipeline needs, left out.
enum class gemm_planted_bug {
  none,
  no_barrier_before_lds_load,        // step 3 skipped: LDS stores and loads of one step race
  no_barrier_before_next_lds_store,  // step 6 skipped: a step's loads race with the next step's stores
};

struct gemm_params {
  index_t m = 64, n = 64, k = 64;  // the problem: C (m x n) = A (m x k) * B^T, B stored n x k
  index_t m_per_block = 64;        // M: block tile rows
  index_t n_per_block = 64;        // N: block tile columns
  index_t k_per_block = 32;        // KPerBlock: K per step
  index_t vector = 4;              // floats per global / LDS access (4 = 16 bytes)
  index_t m_warps = 2;             // warps along M; the others go along N
  gemm_lds_layout layout = gemm_lds_layout::ck_xor;
  index_t pad = 0;                 // padded: floats added to each LDS row; 0 = one vector
  index_t ck_banks = 32;           // ck_xor: LDS banks (32 on gfx9 and sm90, 64 on gfx950)
  gemm_planted_bug bug = gemm_planted_bug::none;
  int a = 0;                       // global slot of A (m x k floats)
  int b = 1;                       // global slot of B (n x k floats)
  int c = 2;                       // global slot of C (m x n floats)
  bool operator==(const gemm_params&) const = default;
};

// The structure of one GEMM launch: the parameters and the workgroup's shape, in either form (copy.hpp's
// copy_shape says how; the grid is gemm_workgroups(params)).
struct gemm_shape {
  gemm_params params{};
  index_t threads = 256, warp_size = 32;
  bool operator==(const gemm_shape&) const = default;
};

// The lane grid of a warp: 8 lanes down the rows, 4 x 4 outputs per lane (see WARP SPLIT).
inline constexpr index_t gemm_lanes_m = 8;
inline constexpr index_t gemm_per_lane = 4;
// Register capacities per thread: operand fragments (m_iter * KPerBlock * 4 floats), accumulators, staging.
inline constexpr index_t gemm_max_fragment = 256;
inline constexpr index_t gemm_max_accumulators = 64;
inline constexpr index_t gemm_max_staged = 64;

// How a launch splits the block tile; every field follows from the params, the block and the wave size.
struct gemm_warp_grid {
  index_t warps = 0, lanes_n = 0;       // warps per block; lanes along N in a warp (wave / 8)
  index_t m_warps = 0, n_warps = 0;     // the warp grid
  index_t warp_m = 0, warp_n = 0;       // a warp tile: 32 x 4*lanes_n
  index_t m_iter = 0, n_iter = 0;       // warp tiles per warp along M and N
  index_t k_iter = 0;                   // K vectors per step: KPerBlock / vector
  index_t vector = 0;                   // floats per access (the params' vector)
  index_t blocks_m = 0, blocks_n = 0;   // block tiles of the problem (the grid is blocks_m * blocks_n)
};

// The first split that is not exact, naming its values; empty when every split is exact.
TILESIM_HOST_DEVICE constexpr violation check_gemm(const gemm_params& p, index_t threads, index_t warp_size) {
  const char* where = "gemm tile";
  const named_value lengths[] = {{"m", p.m},           {"n", p.n},           {"k", p.k},
                                 {"M per block", p.m_per_block}, {"N per block", p.n_per_block},
                                 {"K per block", p.k_per_block}, {"vector", p.vector},
                                 {"M warps", p.m_warps}, {"threads", threads}, {"warp size", warp_size}};
  for (const named_value& v : lengths)
    if (v.value < 1) return broken_unless(false, rule::length_not_positive, where, v);
  for (const named_value& v : lengths)
    if (v.value > max_extent) return broken_unless(false, rule::extent_too_large, where, v);
  const rule split = rule::pattern_not_dividing;
  if (warp_size % gemm_lanes_m != 0)
    return broken_unless(false, split, where, {"warp size", warp_size}, {"lanes along M", gemm_lanes_m});
  if (threads % warp_size != 0)
    return broken_unless(false, split, where, {"threads", threads}, {"warp size", warp_size});
  if ((threads / warp_size) % p.m_warps != 0)
    return broken_unless(false, split, where, {"warps", threads / warp_size}, {"M warps", p.m_warps});
  const index_t warp_m = gemm_per_lane * gemm_lanes_m, warp_n = gemm_per_lane * (warp_size / gemm_lanes_m);
  const index_t n_warps = threads / warp_size / p.m_warps;
  if (p.m_per_block % (p.m_warps * warp_m) != 0)
    return broken_unless(false, split, where, {"M per block", p.m_per_block}, {"M warps * 32", p.m_warps * warp_m});
  if (p.n_per_block % (n_warps * warp_n) != 0)
    return broken_unless(false, split, where, {"N per block", p.n_per_block}, {"N warps * warp N", n_warps * warp_n});
  if (p.k_per_block % p.vector != 0)
    return broken_unless(false, split, where, {"K per block", p.k_per_block}, {"vector", p.vector});
  if (p.m % p.m_per_block != 0) return broken_unless(false, split, where, {"m", p.m}, {"M per block", p.m_per_block});
  if (p.n % p.n_per_block != 0) return broken_unless(false, split, where, {"n", p.n}, {"N per block", p.n_per_block});
  if (p.k % p.k_per_block != 0) return broken_unless(false, split, where, {"k", p.k}, {"K per block", p.k_per_block});
  return {};
}

// The split of a launch (throws spec_error when check_gemm fails): 256 threads, wave 64, 64 x 64 x 32
// gives 2 x 2 warps, warp tile 32 x 32, m_iter = n_iter = 1, k_iter = 8.
TILESIM_HOST_DEVICE constexpr gemm_warp_grid make_gemm_warp_grid(const gemm_params& p, index_t threads,
                                                                 index_t warp_size) {
  require(check_gemm(p, threads, warp_size));
  gemm_warp_grid g;
  g.warps = threads / warp_size;
  g.lanes_n = warp_size / gemm_lanes_m;
  g.m_warps = p.m_warps;
  g.n_warps = g.warps / p.m_warps;
  g.warp_m = gemm_per_lane * gemm_lanes_m;
  g.warp_n = gemm_per_lane * g.lanes_n;
  g.m_iter = p.m_per_block / (g.m_warps * g.warp_m);
  g.n_iter = p.n_per_block / (g.n_warps * g.warp_n);
  g.k_iter = p.k_per_block / p.vector;
  g.vector = p.vector;
  g.blocks_m = p.m / p.m_per_block;
  g.blocks_n = p.n / p.n_per_block;
  return g;
}

// The A fragment (M x KPerBlock): lane (lm, ln) of warp (mw, nw) holds rows 32*(mi*m_warps + mw) + 8i + lm.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_gemm_a_encoding(const gemm_warp_grid& g, index_t vector) {
  const tile_distribution_encoding outer =
      make_encoding({g.n_warps}, {{g.m_iter, g.m_warps}, {g.k_iter}}, {{{1, 1}, {0, 0}}}, {{1, 0}, {2, 0}});
  const tile_distribution_encoding warp = make_encoding({g.lanes_n}, {{gemm_per_lane, gemm_lanes_m}, {vector}},
                                                        {{{0, 0}, {1, 1}}}, {{1, 0}, {2, 0}});
  return embed_encoding(outer, warp);
}

// The B fragment (N x KPerBlock): lane (lm, ln) of warp (mw, nw) holds rows 4*lanes_n*(ni*n_warps + nw) + lanes_n*j + ln.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_gemm_b_encoding(const gemm_warp_grid& g, index_t vector) {
  const tile_distribution_encoding outer =
      make_encoding({g.m_warps}, {{g.n_iter, g.n_warps}, {g.k_iter}}, {{{0, 0}, {1, 1}}}, {{1, 0}, {2, 0}});
  const tile_distribution_encoding warp = make_encoding({gemm_lanes_m}, {{gemm_per_lane, g.lanes_n}, {vector}},
                                                        {{{1, 1}, {0, 0}}}, {{1, 0}, {2, 0}});
  return embed_encoding(outer, warp);
}

// The accumulators (M x N): y = (mi, ni, i, j) is C row 32*(mi*m_warps + mw) + 8i + lm, column
// 4*lanes_n*(ni*n_warps + nw) + lanes_n*j + ln.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_gemm_c_encoding(const gemm_warp_grid& g) {
  const tile_distribution_encoding outer =
      make_encoding({}, {{g.m_iter, g.m_warps}, {g.n_iter, g.n_warps}}, {{{1, 1}, {2, 1}}}, {{1, 0}, {2, 0}});
  const tile_distribution_encoding warp = make_encoding(
      {}, {{gemm_per_lane, gemm_lanes_m}, {gemm_per_lane, g.lanes_n}}, {{{2, 1}, {1, 1}}}, {{1, 0}, {2, 0}});
  return embed_encoding(outer, warp);
}

// The LDS tiles of A (M x KPerBlock) and B (N x KPerBlock) in layout L: gemm_lds_descriptor<row_major>(p, p.m_per_block).
template <gemm_lds_layout L>
TILESIM_HOST_DEVICE constexpr auto gemm_lds_descriptor(const gemm_params& p, index_t rows) {
  if constexpr (L == gemm_lds_layout::row_major) {
    return make_row_major_descriptor(rows, p.k_per_block);
  } else if constexpr (L == gemm_lds_layout::padded) {
    return make_row_major_descriptor(rows, p.k_per_block, p.pad > 0 ? p.pad : p.vector);
  } else {
    ck_lds_xor_params x{rows, p.k_per_block, p.vector};
    x.element_bytes = static_cast<index_t>(sizeof(float));
    x.banks = p.ck_banks;
    return make_ck_lds_xor_descriptor(x);
  }
}

// Calls f(a_descriptor, b_descriptor) for p.layout (run-time form).
template <class F>
TILESIM_HOST_DEVICE void with_gemm_lds_descriptors(const gemm_params& p, F&& f) {
  auto with = [&]<gemm_lds_layout L>() { f(gemm_lds_descriptor<L>(p, p.m_per_block), gemm_lds_descriptor<L>(p, p.n_per_block)); };
  switch (p.layout) {
    case gemm_lds_layout::row_major: return with.template operator()<gemm_lds_layout::row_major>();
    case gemm_lds_layout::padded: return with.template operator()<gemm_lds_layout::padded>();
    case gemm_lds_layout::ck_xor: return with.template operator()<gemm_lds_layout::ck_xor>();
  }
}

// The same in the shape's form: fixed_descriptors for a constant<gemm_shape>.
template <class Shape, class F>
TILESIM_HOST_DEVICE void with_gemm_lds_descriptors(const Shape& shape, F&& f) {
  if constexpr (is_constant_v<Shape>) {
    constexpr gemm_params p = Shape::value.params;
    f(fixed_descriptor<gemm_lds_descriptor<p.layout>(p, p.m_per_block)>{},
      fixed_descriptor<gemm_lds_descriptor<p.layout>(p, p.n_per_block)>{});
  } else {
    with_gemm_lds_descriptors(shape.params, f);
  }
}

// The same, each descriptor made once per workgroup on the simulator (derive_once; program.hpp).
template <class Ctx, class Shape, class F>
TILESIM_HOST_DEVICE void with_gemm_lds_descriptors(Ctx& ctx, const Shape& shape, F&& f) {
  if constexpr (is_constant_v<Shape>) {
    with_gemm_lds_descriptors(shape, f);
  } else {
    const gemm_params& p = shape.params;
    auto with = [&]<gemm_lds_layout L>() {
      f(derive_once(ctx, p, [](const gemm_params& q) { return gemm_lds_descriptor<L>(q, q.m_per_block); }),
        derive_once(ctx, p, [](const gemm_params& q) { return gemm_lds_descriptor<L>(q, q.n_per_block); }));
    };
    switch (p.layout) {
      case gemm_lds_layout::row_major: return with.template operator()<gemm_lds_layout::row_major>();
      case gemm_lds_layout::padded: return with.template operator()<gemm_lds_layout::padded>();
      case gemm_lds_layout::ck_xor: return with.template operator()<gemm_lds_layout::ck_xor>();
    }
  }
}

// FMAs per thread per K step: m_iter * n_iter * 4 * 4 outputs, each k_iter * vector products (512 for a 64x64 block
// tile of 8 warps, KPerBlock 32). What the program states for the timing model (alu()).
TILESIM_HOST_DEVICE constexpr index_t gemm_step_fmas(const gemm_warp_grid& g) {
  return g.m_iter * g.n_iter * gemm_per_lane * gemm_per_lane * g.k_iter * g.vector;
}

// acc(mi, ni, i, j) += Σ_{ki, e} a(mi, ki, i, e) * b(ni, ki, j, e): the step's FMAs, all in registers.
// Register numbers come from the encodings' d_of (row-major over Y). With a constant grid every loop is
// unrolled (for_range) and every register index is a constant.
template <class Grid, class A, class B, class C>
TILESIM_HOST_DEVICE constexpr void gemm_multiply_accumulate(const Grid& grid, const A& a, const B& b, C& acc) {
  if constexpr (!is_constant_v<Grid>) {
    // The run-time form: plain loops over the same products in the same order, each output's sum bit for bit
    // the same; the 4 x 4 sums of one (mi, ni) advance together (16 independent chains). The step's K values
    // (4 of A and 4 of B per k, k = ki * vector + e) are first copied k-major, `chunk` k at a time, so each k's
    // update is a row of 4 B values times each of 4 A values (the compiler vectorizes it along the row).
    // Register indices come from each Y dim's stride, taken once (d_of is row-major over Y, so linear in y).
    const gemm_warp_grid& g = grid;
    const index_t a_mi = a.d_of({1, 0, 0, 0}), a_ki = a.d_of({0, 1, 0, 0}), a_i = a.d_of({0, 0, 1, 0});
    const index_t b_ni = b.d_of({1, 0, 0, 0}), b_ki = b.d_of({0, 1, 0, 0}), b_j = b.d_of({0, 0, 1, 0});
    const index_t c_mi = acc.d_of({1, 0, 0, 0}), c_ni = acc.d_of({0, 1, 0, 0}), c_i = acc.d_of({0, 0, 1, 0}),
                  c_j = acc.d_of({0, 0, 0, 1});
    constexpr index_t chunk = 16;
    const index_t k_count = g.k_iter * g.vector;
    for (index_t mi = 0; mi < g.m_iter; ++mi) {
      for (index_t ni = 0; ni < g.n_iter; ++ni) {
        const float* pa[gemm_per_lane];
        const float* pb[gemm_per_lane];
        float sum[gemm_per_lane][gemm_per_lane];
        const index_t c = mi * c_mi + ni * c_ni;
        for (index_t i = 0; i < gemm_per_lane; ++i) {
          pa[i] = &a[mi * a_mi + i * a_i];
          pb[i] = &b[ni * b_ni + i * b_j];
          for (index_t j = 0; j < gemm_per_lane; ++j) sum[i][j] = acc[c + i * c_i + j * c_j];
        }
        index_t ki = 0, e = 0;
        for (index_t first = 0; first < k_count; first += chunk) {
          const index_t n = k_count - first < chunk ? k_count - first : chunk;
          float x[chunk][gemm_per_lane], y[chunk][gemm_per_lane];
          for (index_t k = 0; k < n; ++k) {
            for (index_t i = 0; i < gemm_per_lane; ++i) {
              x[k][i] = pa[i][ki * a_ki + e];
              y[k][i] = pb[i][ki * b_ki + e];
            }
            if (++e == g.vector) {
              e = 0;
              ++ki;
            }
          }
          for (index_t k = 0; k < n; ++k)
            for (index_t i = 0; i < gemm_per_lane; ++i)
              for (index_t j = 0; j < gemm_per_lane; ++j) sum[i][j] += x[k][i] * y[k][j];
        }
        for (index_t i = 0; i < gemm_per_lane; ++i)
          for (index_t j = 0; j < gemm_per_lane; ++j) acc[c + i * c_i + j * c_j] = sum[i][j];
      }
    }
    return;
  }
  const auto m_iter = derive(grid, [](const gemm_warp_grid& g) { return g.m_iter; });
  const auto n_iter = derive(grid, [](const gemm_warp_grid& g) { return g.n_iter; });
  const auto k_iter = derive(grid, [](const gemm_warp_grid& g) { return g.k_iter; });
  const auto vector = derive(grid, [](const gemm_warp_grid& g) { return g.vector; });
  const index_t a_ki = a.d_of({0, 1, 0, 0}), b_ki = b.d_of({0, 1, 0, 0});
  for_range(m_iter, [&](auto mi) {
    for_range(constant<gemm_per_lane>{}, [&](auto i) {
      const index_t a_row = a.d_of({mi, 0, i, 0});
      for_range(n_iter, [&](auto ni) {
        for_range(constant<gemm_per_lane>{}, [&](auto j) {
          const index_t b_row = b.d_of({ni, 0, j, 0});
          float sum = acc.at({mi, ni, i, j});
          for_range(k_iter, [&](auto ki) {
            for_range(vector, [&](auto e) { sum += a[a_row + ki * a_ki + e] * b[b_row + ki * b_ki + e]; });
          });
          acc.at({mi, ni, i, j}) = sum;
        });
      });
    });
  });
}

// The program: see the steps above, for a shape in either form. gemm_tile(ctx, gemm_params{}) is one
// 64 x 64 x 64 workgroup; gemm_tile(ctx, constant<gemm_shape{...}>{}) the same compiled.
template <class Ctx, class Shape>
TILESIM_HOST_DEVICE void gemm_tile(Ctx& ctx, const Shape& shape) {
  const gemm_shape& s = value_of(shape);
  const gemm_params& p = s.params;
  const auto& grid = derive_once(ctx, shape, [](const gemm_shape& c) { return make_gemm_warp_grid(c.params, c.threads, c.warp_size); });
  const gemm_warp_grid& g = value_of(grid);
  require_launch_shape(ctx, s.threads, s.warp_size, g.blocks_m * g.blocks_n);
  const index_t M = p.m_per_block, N = p.n_per_block, K = p.k_per_block;
  const auto& a_copy = derive_once(ctx, shape, [](const gemm_shape& c) {
    return make_warp_raked_encoding(c.threads, c.warp_size, c.params.m_per_block, c.params.k_per_block, c.params.vector);
  });
  const auto& b_copy = derive_once(ctx, shape, [](const gemm_shape& c) {
    return make_warp_raked_encoding(c.threads, c.warp_size, c.params.n_per_block, c.params.k_per_block, c.params.vector);
  });
  const auto& a_frag = derive_once(ctx, grid, [](const gemm_warp_grid& c) { return make_gemm_a_encoding(c, c.vector); });
  const auto& b_frag = derive_once(ctx, grid, [](const gemm_warp_grid& c) { return make_gemm_b_encoding(c, c.vector); });
  const auto& c_frag = derive_once(ctx, grid, [](const gemm_warp_grid& c) { return make_gemm_c_encoding(c); });
  const auto& a_desc = derive_once(ctx, shape, [](const gemm_shape& c) {
    return make_naive_descriptor<2>({c.params.m, c.params.k}, {c.params.k, 1}, c.params.k, 1);
  });
  const auto& b_desc = derive_once(ctx, shape, [](const gemm_shape& c) {
    return make_naive_descriptor<2>({c.params.n, c.params.k}, {c.params.k, 1}, c.params.k, 1);
  });
  const auto& c_desc = derive_once(ctx, shape, [](const gemm_shape& c) {
    return make_naive_descriptor<2>({c.params.m, c.params.n}, {c.params.n, 1}, c.params.n, 1);
  });
  const index_t warp = ctx.warp(), lane = ctx.lane();
  const index_t block_m = ctx.block_id() / g.blocks_n * M, block_n = ctx.block_id() % g.blocks_n * N;

  const auto a_view = make_tensor_view(a_desc, global_buffer<float>(ctx, p.a), address_space::global);
  const auto b_view = make_tensor_view(b_desc, global_buffer<float>(ctx, p.b), address_space::global);
  const auto c_view = make_tensor_view(c_desc, global_buffer<float>(ctx, p.c), address_space::global);
  with_gemm_lds_descriptors(ctx, shape, [&](const auto& a_lds_desc, const auto& b_lds_desc) {
    const auto a_lds = make_tensor_view(a_lds_desc, lds_buffer<float>(ctx, a_lds_desc.element_space_size), address_space::lds);
    const auto b_lds = make_tensor_view(b_lds_desc, lds_buffer<float>(ctx, b_lds_desc.element_space_size), address_space::lds);
    auto a_global = make_tile_window(a_view, {M, K}, {block_m, 0}, a_copy, partition_index(a_copy, warp, lane));
    auto b_global = make_tile_window(b_view, {N, K}, {block_n, 0}, b_copy, partition_index(b_copy, warp, lane));
    const auto a_store = make_tile_window(a_lds, {M, K}, {0, 0}, a_copy, partition_index(a_copy, warp, lane));
    const auto b_store = make_tile_window(b_lds, {N, K}, {0, 0}, b_copy, partition_index(b_copy, warp, lane));
    const auto a_read = make_tile_window(a_lds, {M, K}, {0, 0}, a_frag, partition_index(a_frag, warp, lane));
    const auto b_read = make_tile_window(b_lds, {N, K}, {0, 0}, b_frag, partition_index(b_frag, warp, lane));
    auto a_staged = make_distributed_tensor<float, gemm_max_staged>(a_copy);
    auto b_staged = make_distributed_tensor<float, gemm_max_staged>(b_copy);
    auto a_regs = make_distributed_tensor<float, gemm_max_fragment>(a_frag);
    auto b_regs = make_distributed_tensor<float, gemm_max_fragment>(b_frag);
    auto acc = make_distributed_tensor<float, gemm_max_accumulators>(c_frag);
    for (index_t k0 = 0; k0 < p.k; k0 += K) {
      ctx.label("A global load");
      a_global.load(a_staged);
      ctx.label("B global load");
      b_global.load(b_staged);
      ctx.label("A lds store");
      a_store.store(a_staged);
      ctx.label("B lds store");
      b_store.store(b_staged);
      if (p.bug != gemm_planted_bug::no_barrier_before_lds_load) ctx.barrier();
      ctx.label("A lds load");
      a_read.load(a_regs);
      ctx.label("B lds load");
      b_read.load(b_regs);
      gemm_multiply_accumulate(grid, a_regs, b_regs, acc);
      alu(ctx, alu_op::fma, gemm_step_fmas(value_of(grid)));
      a_global.move({0, K});
      b_global.move({0, K});
      if (k0 + K < p.k && p.bug != gemm_planted_bug::no_barrier_before_next_lds_store) ctx.barrier();
    }
    ctx.label("C global store");
    make_tile_window(c_view, {M, N}, {block_m, block_n}, c_frag, partition_index(c_frag, warp, lane)).store(acc);
  });
}

// The run-time form from the parameters alone: gemm_tile(ctx, gemm_params{}).
template <class Ctx>
TILESIM_HOST_DEVICE void gemm_tile(Ctx& ctx, const gemm_params& p) {
  gemm_tile(ctx, gemm_shape{p, ctx.block_size(), ctx.warp_size()});
}

}  // namespace tilesim::programs
