// tilesim/gpu/reference/reference_mma_index.hpp: the index math of the hand-written matrix-core GEMM, in plain ints.
//
// DEFINITION. The twin of kernel/mma_gemm/mma_gemm.hpp (fp16 A and B K-major, fp32 C; ldmatrix.x4 + mma.sync
// m16n8k16) as reference_index.hpp writes the others: a structural mma_gemm_config and int arithmetic only.
//   warps: m_warps x n_warps, warp w at (mw, nw) = (w / n_warps, w % n_warps); warp tile (M / m_warps) x (N / n_warps)
//   m_iter = M / (m_warps * 16), n_iter = N / (n_warps * 8), k_iter = KPerBlock / 16 (mma tiles and K slices)
//   staging: warp_raked, 8 halves (16 bytes) per access, A's tile at LDS byte 0, B's after it (16-byte aligned)
//   ldmatrix.x4, lane l:  A sub-tile (mi, ki) row  warp_m + 16 mi + 8 ((l / 8) % 2) + l % 8,  col 16 ki + 8 (l / 16)
//                         B pair (nj, ki)    row  warp_n + 16 nj + 8 (l / 16) + l % 8,       col 16 ki + 8 ((l / 8) % 2)
//   C: lane l of tile (mi, ni) holds rows warp_m + 16 mi + l / 4 (+ 8), columns warp_n + 8 ni + 2 (l % 4) (+ 1)
//
// WORKED EXAMPLE. 128 x 128 x 32 on 256 threads: thread 37 (warp 1: mw 0, nw 1, lane 5) addresses A row 5, col 0
// and B row 32 + 5, col 0 in its first ldmatrix of each; its first C pair is C(1, 34..35).
//
// INVARIANTS (reference_index.test.cpp): the accesses built from these functions equal the simulator's for
// mma_gemm at every catalogue point, and the host emulation of ldmatrix + mma.sync through them reproduces C.
#pragma once

#include "gpu/reference/reference_index.hpp"

namespace tilesim::gpu::reference {

inline constexpr int mma_vector = 8;  // halves per staging access

struct mma_gemm_config {
  int threads = 256, warp_size = 32;
  int m = 256, n = 256, k = 256;
  int m_per_block = 128, n_per_block = 128, k_per_block = 32;
  int m_warps = 2;
  lds_kind layout = lds_kind::ck_xor;  // row_major, padded (8 halves) or ck_xor (KPack 8, 32 banks)
  bool ck_2024 = false;
  constexpr bool operator==(const mma_gemm_config&) const = default;

  TILESIM_REFERENCE_HD constexpr int warps() const { return threads / warp_size; }
  TILESIM_REFERENCE_HD constexpr int n_warps() const { return warps() / m_warps; }
  TILESIM_REFERENCE_HD constexpr int m_iter() const { return m_per_block / (m_warps * 16); }
  TILESIM_REFERENCE_HD constexpr int n_iter() const { return n_per_block / (n_warps() * 8); }
  TILESIM_REFERENCE_HD constexpr int k_iter() const { return k_per_block / 16; }
  TILESIM_REFERENCE_HD constexpr int blocks_n() const { return n / n_per_block; }
  TILESIM_REFERENCE_HD constexpr int grid() const { return (m / m_per_block) * blocks_n(); }
  TILESIM_REFERENCE_HD constexpr int a_copies() const {
    return raked_iterations(threads, warp_size, m_per_block, k_per_block, mma_vector);
  }
  TILESIM_REFERENCE_HD constexpr int b_copies() const {
    return raked_iterations(threads, warp_size, n_per_block, k_per_block, mma_vector);
  }
  TILESIM_REFERENCE_HD constexpr lds_layout operand_lds(int rows) const {
    lds_layout d;
    d.kind = layout;
    d.rows = rows;
    d.cols = k_per_block;
    d.pad = layout == lds_kind::padded ? mma_vector : 0;
    if (layout == lds_kind::ck_xor) {
      d.ck_k_pack = mma_vector;
      d.ck_layers = ck_lds_layers(32, k_per_block, 2);
      d.ck_2024 = ck_2024;
    }
    return d;
  }
  TILESIM_REFERENCE_HD constexpr lds_layout a_lds() const { return operand_lds(m_per_block); }
  TILESIM_REFERENCE_HD constexpr lds_layout b_lds() const { return operand_lds(n_per_block); }
  TILESIM_REFERENCE_HD constexpr int b_lds_byte() const { return round_up_16(lds_elements(a_lds()) * 2); }
  TILESIM_REFERENCE_HD constexpr int lds_bytes() const { return b_lds_byte() + lds_elements(b_lds()) * 2; }
  // The warp tile's first row and column in the block tile.
  TILESIM_REFERENCE_HD constexpr int warp_m(int warp) const { return warp / n_warps() * (m_per_block / m_warps); }
  TILESIM_REFERENCE_HD constexpr int warp_n(int warp) const { return warp % n_warps() * (n_per_block / n_warps()); }
  // The tile element lane `lane` addresses in the ldmatrix.x4 of A sub-tile (mi, ki) / B pair (nj, ki).
  TILESIM_REFERENCE_HD constexpr row_col a_ldmatrix(int warp, int lane, int mi, int ki) const {
    return {warp_m(warp) + 16 * mi + 8 * ((lane / 8) % 2) + lane % 8, 16 * ki + 8 * (lane / 16)};
  }
  TILESIM_REFERENCE_HD constexpr row_col b_ldmatrix(int warp, int lane, int nj, int ki) const {
    return {warp_n(warp) + 16 * nj + 8 * (lane / 16) + lane % 8, 16 * ki + 8 * ((lane / 8) % 2)};
  }
  // C element of float pair h (0: rows 0-7, 1: rows 8-15) of tile (mi, ni): its first of two columns.
  TILESIM_REFERENCE_HD constexpr row_col c_pair(int warp, int lane, int mi, int ni, int h) const {
    return {warp_m(warp) + 16 * mi + lane / 4 + 8 * h, warp_n(warp) + 8 * ni + 2 * (lane % 4)};
  }
};

}  // namespace tilesim::gpu::reference
