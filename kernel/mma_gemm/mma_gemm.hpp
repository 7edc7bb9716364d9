// tilesim/kernel/mma_gemm/mma_gemm.hpp: a CK-style matrix-core GEMM: fp16 operands through LDS, ldmatrix, mma.sync.
//
// DEFINITION. C (m x n, fp32) = A (m x k, fp16, K contiguous) * B^T (B stored n x k, K contiguous: CK's K-major
// operands). Workgroup b computes the M x N block tile at block row b / (n/N), column b % (n/N), looping over K
// in steps of KPerBlock, as CK Tile's universal GEMM pipeline does, but on sm90's warp collectives:
//   1. A (M x KPerBlock) and B (N x KPerBlock) from global into registers, CK's warp-raked pattern, 8 halves
//      (16 bytes) per access                                               labels "A global load", "B global load"
//   2. the same registers into LDS through the chosen layout               labels "A lds store", "B lds store"
//   3. barrier
//   4. per 16-wide K slice: each warp reads its A fragments with ldmatrix.x4 (one per 16 x 16 sub-tile) and its
//      B fragments with ldmatrix.x4 (one per 16 n x 16 k: two mma B operands)  labels "A ldmatrix", "B ldmatrix"
//   5. mma.sync m16n8k16 for every (16-row, 8-column) tile of the warp into fp32 accumulators (no label: no memory)
//   6. barrier before the next step's LDS stores (not after the last step)
// then the accumulators go to global through a window, two floats per access        label "C global store"
//
// WARP SPLIT. W = threads / 32 warps form an m_warps x n_warps grid (warp w: mw = w / n_warps, nw = w % n_warps);
// a warp owns a (M / m_warps) x (N / n_warps) warp tile of m_iter x n_iter mma tiles (16 x 8 each). The register
// layouts are spec/'s warp-GEMM encodings (spec/distribution/warp_gemm_encodings.hpp) embedded in the warp grid,
// as CK's block GEMM embeds its warp GEMM: C: outer H0 = <m_warps, m_iter>, H1 = <n_warps, n_iter>,
// P0 (warp) = merge(H0[0], H1[0]), Y = (mi, ni) (a warp's tiles are contiguous; CK's block GEMMs put the
// iterations outside the warps instead, which only renames C's owners); inner make_mma_m16n8k16_c_encoding().
// The K loop stays a loop on the GPU (TILESIM_KEEP_LOOP: NVVM's peeled first step spilled). The LDS reads: lane l of
// an ldmatrix.x4 addresses row 8 ((l / 8) % 2) + l % 8, column 8 (l / 16) of its A sub-tile (registers = A's
// encoding order a0..a3), and row n 8 (l / 16) + l % 8, column k 8 ((l / 8) % 2) of its B pair (registers = b0, b1
// of the first 8 columns, then of the next 8), its offset through the LDS descriptor (the same every K step: a
// compiled kernel computes them once).
//
// LDS LAYOUTS (halves, (row, k), A and B alike):
//   row_major  offset = r*KPerBlock + k: an ldmatrix phase reads 8 rows of 64 bytes at one K: rows r and r+2
//              share banks, 4-way (16 wavefronts per ldmatrix.x4 instead of 4)
//   padded     offset = r*(KPerBlock + 8) + k: 80-byte rows, conflict-free
//   ck_xor     spec/layouts/ck_lds_xor.hpp with KPack = 8, 2 bytes, 32 banks, `ck_order` (2025 (L, K0) by
//              default: conflict-free; see the lds-index-swap example for 2024)
//
// WORKED EXAMPLE. 256 threads (8 warps, 2 x 4), 128 x 128 x 32 block tile: warp tile 64 x 32, m_iter = 4,
// n_iter = 4, k_iter = 2. Per step each warp issues 2 "A global load", 2 "B global load", 2 + 2 LDS stores,
// then 8 "A ldmatrix", 4 "B ldmatrix" and 32 mma.sync; each lane holds 64 accumulators. Lane 5 of warp 1
// (mw 0, nw 1) owns C rows 1, 9, 17, 25, ... (16 mi + 8 h + 1) and columns 32 + 8 ni + 2, 3.
//
// INVARIANTS: C == A * B^T exactly when every partial sum is exact in fp32 (mma_gemm.test.cpp: small integers);
// each C element is owned by exactly one lane; sm90 only (ldmatrix, mma.sync: wave 32); a parameter set that
// does not split exactly throws spec_error naming the values; the program touches nothing but the context and
// spec/ (it compiles as a CUDA kernel body: gpu/kernels/kernels.cu).
#pragma once

#include <cstdint>

#include "kernel/model/program.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"
#include "spec/distribution/warp_gemm_encodings.hpp"

namespace tilesim::programs {

struct mma_gemm_params {
  index_t m = 256, n = 256, k = 256;  // the problem: C (m x n) = A (m x k) * B^T, B stored n x k
  index_t m_per_block = 128;          // M
  index_t n_per_block = 128;          // N
  index_t k_per_block = 32;           // KPerBlock: a multiple of 16 (mma.sync's K)
  index_t m_warps = 2;                // warps along M; the others go along N
  gemm_lds_layout layout = gemm_lds_layout::ck_xor;
  ck_lds_order ck_order = ck_lds_order::l_k0_2025;
  int a = 0;  // global slot of A (m x k fp16 bits)
  int b = 1;  // global slot of B (n x k fp16 bits)
  int c = 2;  // global slot of C (m x n floats)
  bool operator==(const mma_gemm_params&) const = default;
};

struct mma_gemm_shape {
  mma_gemm_params params{};
  index_t threads = 256, warp_size = 32;
  bool operator==(const mma_gemm_shape&) const = default;
};

inline constexpr index_t mma_m = 16, mma_n = 8, mma_k = 16;  // mma.sync m16n8k16
inline constexpr index_t mma_gemm_vector = 8;                // halves per global / LDS store (16 bytes)
inline constexpr index_t mma_gemm_max_accumulators = 128;    // floats per lane
inline constexpr index_t mma_gemm_max_staged = 64;           // halves per lane per operand and step
inline constexpr index_t mma_gemm_max_k_slices = 8;          // KPerBlock / 16 <= 8

struct mma_gemm_grid {
  index_t warps = 0, m_warps = 0, n_warps = 0;
  index_t m_iter = 0, n_iter = 0, k_iter = 0;  // mma tiles per warp along M and N; 16-wide K slices per step
  index_t blocks_m = 0, blocks_n = 0;
};

// The first split that is not exact, naming its values; empty when every split is exact.
TILESIM_HOST_DEVICE constexpr violation check_mma_gemm(const mma_gemm_params& p, index_t threads, index_t warp_size) {
  const char* where = "mma gemm";
  const named_value lengths[] = {{"m", p.m}, {"n", p.n}, {"k", p.k}, {"M per block", p.m_per_block},
                                 {"N per block", p.n_per_block}, {"K per block", p.k_per_block},
                                 {"M warps", p.m_warps}, {"threads", threads}, {"warp size", warp_size}};
  for (const named_value& v : lengths)
    if (v.value < 1) return broken_unless(false, rule::length_not_positive, where, v);
  for (const named_value& v : lengths)
    if (v.value > max_extent) return broken_unless(false, rule::extent_too_large, where, v);
  const rule split = rule::pattern_not_dividing;
  if (warp_size != 32) return broken_unless(false, split, where, {"warp size", warp_size}, {"mma.sync's warp", 32});
  if (threads % warp_size != 0) return broken_unless(false, split, where, {"threads", threads}, {"warp size", warp_size});
  const index_t warps = threads / warp_size;
  if (warps % p.m_warps != 0) return broken_unless(false, split, where, {"warps", warps}, {"M warps", p.m_warps});
  const index_t n_warps = warps / p.m_warps;
  if (p.m_per_block % (p.m_warps * mma_m) != 0)
    return broken_unless(false, split, where, {"M per block", p.m_per_block}, {"M warps * 16", p.m_warps * mma_m});
  if (p.n_per_block % (n_warps * 2 * mma_n) != 0)  // B is read 16 columns per ldmatrix.x4
    return broken_unless(false, split, where, {"N per block", p.n_per_block}, {"N warps * 16", n_warps * 2 * mma_n});
  if (p.k_per_block % mma_k != 0) return broken_unless(false, split, where, {"K per block", p.k_per_block}, {"mma K", mma_k});
  if (p.k_per_block / mma_k > mma_gemm_max_k_slices)
    return broken_unless(false, rule::extent_too_large, where, {"K per block", p.k_per_block});
  if (p.m % p.m_per_block != 0) return broken_unless(false, split, where, {"m", p.m}, {"M per block", p.m_per_block});
  if (p.n % p.n_per_block != 0) return broken_unless(false, split, where, {"n", p.n}, {"N per block", p.n_per_block});
  if (p.k % p.k_per_block != 0) return broken_unless(false, split, where, {"k", p.k}, {"K per block", p.k_per_block});
  const index_t m_iter = p.m_per_block / (p.m_warps * mma_m), n_iter = p.n_per_block / (n_warps * mma_n);
  if (m_iter * n_iter * 4 > mma_gemm_max_accumulators)
    return broken_unless(false, rule::extent_too_large, where, {"accumulators per lane", m_iter * n_iter * 4});
  if ((p.m_per_block + p.n_per_block) * p.k_per_block / threads > mma_gemm_max_staged ||
      (p.m_per_block * p.k_per_block) % (threads * mma_gemm_vector) != 0 ||
      (p.n_per_block * p.k_per_block) % (threads * mma_gemm_vector) != 0)
    return broken_unless(false, split, where, {"tile halves", p.m_per_block * p.k_per_block},
                         {"threads * 8", threads * mma_gemm_vector});
  return {};
}

// The split of a launch (throws spec_error when check_mma_gemm fails): 256 threads, 128 x 128 x 32 gives 2 x 4
// warps, m_iter = n_iter = 4, k_iter = 2.
TILESIM_HOST_DEVICE constexpr mma_gemm_grid make_mma_gemm_grid(const mma_gemm_params& p, index_t threads,
                                                               index_t warp_size) {
  require(check_mma_gemm(p, threads, warp_size));
  mma_gemm_grid g;
  g.warps = threads / warp_size;
  g.m_warps = p.m_warps;
  g.n_warps = g.warps / p.m_warps;
  g.m_iter = p.m_per_block / (g.m_warps * mma_m);
  g.n_iter = p.n_per_block / (g.n_warps * mma_n);
  g.k_iter = p.k_per_block / mma_k;
  g.blocks_m = p.m / p.m_per_block;
  g.blocks_n = p.n / p.n_per_block;
  return g;
}

// The accumulators (M x N): mma's C encoding embedded in the warp grid; y = (mi, ni, h, e).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_mma_gemm_c_encoding(const mma_gemm_grid& g) {
  const tile_distribution_encoding outer =
      make_encoding({}, {{g.m_warps, g.m_iter}, {g.n_warps, g.n_iter}}, {{{1, 0}, {2, 0}}}, {{1, 1}, {2, 1}});
  return embed_encoding(outer, make_mma_m16n8k16_c_encoding());
}

// The LDS tile (rows x KPerBlock halves) in layout L: mma_gemm_lds_descriptor<ck_xor>(p, 128).
template <gemm_lds_layout L>
TILESIM_HOST_DEVICE constexpr auto mma_gemm_lds_descriptor(const mma_gemm_params& p, index_t rows) {
  if constexpr (L == gemm_lds_layout::row_major) {
    return make_row_major_descriptor(rows, p.k_per_block);
  } else if constexpr (L == gemm_lds_layout::padded) {
    return make_row_major_descriptor(rows, p.k_per_block, mma_gemm_vector);
  } else {
    ck_lds_xor_params x{rows, p.k_per_block, mma_gemm_vector};
    x.element_bytes = 2;
    x.order = p.ck_order;
    return make_ck_lds_xor_descriptor(x);
  }
}

// Calls f(a_descriptor, b_descriptor): fixed_descriptors for a constant<mma_gemm_shape>, else by p.layout.
template <class Shape, class F>
TILESIM_HOST_DEVICE void with_mma_gemm_lds_descriptors(const Shape& shape, F&& f) {
  if constexpr (is_constant_v<Shape>) {
    constexpr mma_gemm_params p = Shape::value.params;
    f(fixed_descriptor<mma_gemm_lds_descriptor<p.layout>(p, p.m_per_block)>{},
      fixed_descriptor<mma_gemm_lds_descriptor<p.layout>(p, p.n_per_block)>{});
  } else {
    const mma_gemm_params& p = shape.params;
    auto with = [&]<gemm_lds_layout L>() {
      f(mma_gemm_lds_descriptor<L>(p, p.m_per_block), mma_gemm_lds_descriptor<L>(p, p.n_per_block));
    };
    switch (p.layout) {
      case gemm_lds_layout::row_major: return with.template operator()<gemm_lds_layout::row_major>();
      case gemm_lds_layout::padded: return with.template operator()<gemm_lds_layout::padded>();
      case gemm_lds_layout::ck_xor: return with.template operator()<gemm_lds_layout::ck_xor>();
    }
  }
}

// The (row, k) lane l addresses in an ldmatrix.x4 of a 16 x 16 A sub-tile: ldmatrix_a_row(9) == 9, _a_col(17) == 8.
TILESIM_HOST_DEVICE constexpr index_t ldmatrix_a_row(index_t lane) { return 8 * ((lane / 8) % 2) + lane % 8; }
TILESIM_HOST_DEVICE constexpr index_t ldmatrix_a_col(index_t lane) { return 8 * (lane / 16); }
// The same for two B operands (16 n x 16 k, stored n x k): ldmatrix_b_row(17) == 9, ldmatrix_b_col(9) == 8.
TILESIM_HOST_DEVICE constexpr index_t ldmatrix_b_row(index_t lane) { return 8 * (lane / 16) + lane % 8; }
TILESIM_HOST_DEVICE constexpr index_t ldmatrix_b_col(index_t lane) { return 8 * ((lane / 8) % 2); }

// mma.sync instructions per warp per K step: m_iter * n_iter * k_iter (32 for the 128 x 128 x 32 tile).
TILESIM_HOST_DEVICE constexpr index_t mma_gemm_step_mmas(const mma_gemm_grid& g) { return g.m_iter * g.n_iter * g.k_iter; }

// The program: see the steps above, for a shape in either form: mma_gemm(ctx, constant<mma_gemm_shape{}>{}).
template <class Ctx, class Shape>
TILESIM_HOST_DEVICE void mma_gemm(Ctx& ctx, const Shape& shape) {
  const mma_gemm_shape& s = value_of(shape);
  const mma_gemm_params& p = s.params;
  const auto grid = derive(shape, [](const mma_gemm_shape& c) { return make_mma_gemm_grid(c.params, c.threads, c.warp_size); });
  const mma_gemm_grid& g = value_of(grid);
  require_launch_shape(ctx, s.threads, s.warp_size, g.blocks_m * g.blocks_n);
  const index_t M = p.m_per_block, N = p.n_per_block, K = p.k_per_block;
  const auto a_copy = derive(shape, [](const mma_gemm_shape& c) {
    return make_warp_raked_encoding(c.threads, c.warp_size, c.params.m_per_block, c.params.k_per_block, mma_gemm_vector);
  });
  const auto b_copy = derive(shape, [](const mma_gemm_shape& c) {
    return make_warp_raked_encoding(c.threads, c.warp_size, c.params.n_per_block, c.params.k_per_block, mma_gemm_vector);
  });
  const auto c_frag = derive(grid, [](const mma_gemm_grid& c) { return make_mma_gemm_c_encoding(c); });
  const auto a_desc = derive(shape, [](const mma_gemm_shape& c) {
    return make_naive_descriptor<2>({c.params.m, c.params.k}, {c.params.k, 1}, c.params.k, 1);
  });
  const auto b_desc = derive(shape, [](const mma_gemm_shape& c) {
    return make_naive_descriptor<2>({c.params.n, c.params.k}, {c.params.k, 1}, c.params.k, 1);
  });
  const auto c_desc = derive(shape, [](const mma_gemm_shape& c) {
    return make_naive_descriptor<2>({c.params.m, c.params.n}, {c.params.n, 1}, c.params.n, 1);
  });
  const index_t warp = ctx.warp(), lane = ctx.lane();
  const index_t block_m = ctx.block_id() / g.blocks_n * M, block_n = ctx.block_id() % g.blocks_n * N;
  const index_t warp_m = warp / g.n_warps * (M / g.m_warps), warp_n = warp % g.n_warps * (N / g.n_warps);

  const auto a_view = make_tensor_view(a_desc, global_buffer<std::uint16_t>(ctx, p.a), address_space::global);
  const auto b_view = make_tensor_view(b_desc, global_buffer<std::uint16_t>(ctx, p.b), address_space::global);
  const auto c_view = make_tensor_view(c_desc, global_buffer<float>(ctx, p.c), address_space::global);
  with_mma_gemm_lds_descriptors(shape, [&](const auto& a_lds_desc, const auto& b_lds_desc) {
    const auto a_lds_buffer = lds_buffer<std::uint16_t>(ctx, a_lds_desc.element_space_size);
    const auto b_lds_buffer = lds_buffer<std::uint16_t>(ctx, b_lds_desc.element_space_size);
    const auto a_lds = make_tensor_view(a_lds_desc, a_lds_buffer, address_space::lds);
    const auto b_lds = make_tensor_view(b_lds_desc, b_lds_buffer, address_space::lds);
    auto a_global = make_tile_window(a_view, {M, K}, {block_m, 0}, a_copy, partition_index(a_copy, warp, lane));
    auto b_global = make_tile_window(b_view, {N, K}, {block_n, 0}, b_copy, partition_index(b_copy, warp, lane));
    const auto a_store = make_tile_window(a_lds, {M, K}, {0, 0}, a_copy, partition_index(a_copy, warp, lane));
    const auto b_store = make_tile_window(b_lds, {N, K}, {0, 0}, b_copy, partition_index(b_copy, warp, lane));
    auto a_staged = make_distributed_tensor<std::uint16_t, mma_gemm_max_staged>(a_copy);
    auto b_staged = make_distributed_tensor<std::uint16_t, mma_gemm_max_staged>(b_copy);
    auto acc = make_distributed_tensor<float, mma_gemm_max_accumulators>(c_frag);
    acc.fill(0.0f);
    const auto k_iter = derive(grid, [](const mma_gemm_grid& c) { return c.k_iter; });
    const auto m_iter = derive(grid, [](const mma_gemm_grid& c) { return c.m_iter; });
    const auto n_iter = derive(grid, [](const mma_gemm_grid& c) { return c.n_iter; });
    const auto b_pairs = derive(grid, [](const mma_gemm_grid& c) { return c.n_iter / 2; });
    // Each lane's ldmatrix row offsets, the same every K step: computed once, before the K loop (as 32-bit LDS
    // offsets, what a hand-written kernel holds).
    std::int32_t a_at[mma_gemm_max_k_slices][mma_gemm_max_accumulators / 4];
    std::int32_t b_at[mma_gemm_max_k_slices][mma_gemm_max_accumulators / 8];
    for_range(k_iter, [&](auto ki) {
      for_range(m_iter, [&](auto mi) {
        a_at[ki][mi] = static_cast<std::int32_t>(a_lds_desc.calculate_offset(
            {warp_m + mma_m * mi + ldmatrix_a_row(lane), mma_k * ki + ldmatrix_a_col(lane)}));
      });
      for_range(b_pairs, [&](auto nj) {
        b_at[ki][nj] = static_cast<std::int32_t>(b_lds_desc.calculate_offset(
            {warp_n + 2 * mma_n * nj + ldmatrix_b_row(lane), mma_k * ki + ldmatrix_b_col(lane)}));
      });
    });
    TILESIM_KEEP_LOOP
    for (index_t k0 = 0; k0 < p.k; k0 += K) {
      ctx.label("A global load");
      a_global.load(a_staged);
      ctx.label("B global load");
      b_global.load(b_staged);
      ctx.label("A lds store");
      a_store.store(a_staged);
      ctx.label("B lds store");
      b_store.store(b_staged);
      ctx.barrier();
      for_range(k_iter, [&](auto ki) {
        mma_m16n8k16_a a[mma_gemm_max_accumulators / 4];
        mma_m16n8k16_b b[mma_gemm_max_accumulators / 4];
        ctx.label("A ldmatrix");
        for_range(m_iter, [&](auto mi) {
          const ldmatrix_fragment<4> f = ldmatrix<4>(ctx, a_lds_buffer, a_at[ki][mi]);
          for (int r = 0; r < 4; ++r) a[mi].r[r] = f.r[r];
        });
        ctx.label("B ldmatrix");
        for_range(b_pairs, [&](auto nj) {
          const ldmatrix_fragment<4> f = ldmatrix<4>(ctx, b_lds_buffer, b_at[ki][nj]);
          b[2 * nj].r[0] = f.r[0];
          b[2 * nj].r[1] = f.r[1];
          b[2 * nj + 1].r[0] = f.r[2];
          b[2 * nj + 1].r[1] = f.r[3];
        });
        for_range(m_iter, [&](auto mi) {
          for_range(n_iter, [&](auto ni) {
            const index_t d = acc.d_of({mi, ni, 0, 0});
            mma_m16n8k16_c c;
            for (int r = 0; r < 4; ++r) c.r[r] = acc[d + r];
            c = mma_m16n8k16(ctx, a[mi], b[ni], c);
            for (int r = 0; r < 4; ++r) acc[d + r] = c.r[r];
          });
        });
      });
      a_global.move({0, K});
      b_global.move({0, K});
      if (k0 + K < p.k) ctx.barrier();
    }
    ctx.label("C global store");
    make_tile_window(c_view, {M, N}, {block_m, block_n}, c_frag, partition_index(c_frag, warp, lane)).store(acc);
  });
}

// The run-time form from the parameters alone: mma_gemm(ctx, mma_gemm_params{}).
template <class Ctx>
TILESIM_HOST_DEVICE void mma_gemm(Ctx& ctx, const mma_gemm_params& p) {
  mma_gemm(ctx, mma_gemm_shape{p, ctx.block_size(), ctx.warp_size()});
}

}  // namespace tilesim::programs
