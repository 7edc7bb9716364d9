// tilesim/gpu/reference/reference_mma_gemm.cuh: the matrix-core GEMM written by hand (ldmatrix + mma.sync, PTX).
//
// DEFINITION. mma_gemm_body<C> is kernel/mma_gemm/mma_gemm.hpp as one writes it in CUDA: offsets from
// reference_mma_index.hpp computed before the K loop (global and LDS staging offsets, the ldmatrix row
// addresses as 32-bit shared-window addresses), per K step two 16-byte global loads per operand, two LDS
// stores, __syncthreads(), then per 16-wide K slice m_iter + n_iter / 2 ldmatrix.x4 and m_iter * n_iter
// mma.sync, __syncthreads() (not after the last step); then C stored as float2 pairs. Nothing from spec/ or sim/.
//
// WORKED EXAMPLE. mma_gemm_instances[3] (ck_xor 2025, L = 2): thread 37 (warp 1, lane 5) of block 0 loads A's 16
// bytes at element 17 * 256 + 8 (warp_raked: row 1*2*8 + 5/4 = 17, k 8) and stores them at LDS element 552
// (m' 8, l 1, k0 1: s = 5, 5 ^ 0 = 5, 5*8 + 8*64); its first A ldmatrix row is A(5, 0), LDS element 176 (m' 2, l 1, k0 0: s = 4, 4 ^ 2 = 6, 6*8 + 2*64).
//
// INVARIANTS: the accesses and barriers are exactly those reference_index.test.cpp replays against the
// simulator; sm90 only (PTX ldmatrix and mma.sync).
#pragma once

#include "gpu/reference/reference_kernels.cuh"
#include "gpu/reference/reference_mma_index.hpp"

namespace tilesim::gpu::reference {

template <mma_gemm_config C>
__device__ __forceinline__ void mma_gemm_body(const unsigned short* a_global, const unsigned short* b_global,
                                              float* c_global) {
  constexpr int mi_n = C.m_iter(), ni_n = C.n_iter(), ki_n = C.k_iter(), kb = C.k_per_block;
  constexpr int a_copies = C.a_copies(), b_copies = C.b_copies();
  constexpr lds_layout a_layout = C.a_lds(), b_layout = C.b_lds();
  unsigned char* lds = dynamic_lds();
  const unsigned lds_base = static_cast<unsigned>(__cvta_generic_to_shared(lds));
  const int t = thread_index<C.threads>(), warp = t / C.warp_size, lane = t % C.warp_size;
  const int b = block_index();
  __builtin_assume(b < C.grid());
  const int block_m = b / C.blocks_n() * C.m_per_block, block_n = b % C.blocks_n() * C.n_per_block;
  int a_from[a_copies], a_to[a_copies], b_from[b_copies], b_to[b_copies];  // bytes
  unsigned a_row[ki_n][mi_n], b_row[ki_n][ni_n / 2];                      // ldmatrix shared addresses
#pragma unroll
  for (int i = 0; i < a_copies; ++i) {
    const row_col x = warp_raked(C.threads, C.warp_size, C.m_per_block, kb, mma_vector, warp, lane, i);
    a_from[i] = ((block_m + x.row) * C.k + x.col) * 2;
    a_to[i] = lds_offset(a_layout, x.row, x.col) * 2;
  }
#pragma unroll
  for (int i = 0; i < b_copies; ++i) {
    const row_col x = warp_raked(C.threads, C.warp_size, C.n_per_block, kb, mma_vector, warp, lane, i);
    b_from[i] = ((block_n + x.row) * C.k + x.col) * 2;
    b_to[i] = C.b_lds_byte() + lds_offset(b_layout, x.row, x.col) * 2;
  }
#pragma unroll
  for (int ki = 0; ki < ki_n; ++ki) {
#pragma unroll
    for (int mi = 0; mi < mi_n; ++mi) {
      const row_col x = C.a_ldmatrix(warp, lane, mi, ki);
      a_row[ki][mi] = lds_base + lds_offset(a_layout, x.row, x.col) * 2;
    }
#pragma unroll
    for (int nj = 0; nj < ni_n / 2; ++nj) {
      const row_col x = C.b_ldmatrix(warp, lane, nj, ki);
      b_row[ki][nj] = lds_base + C.b_lds_byte() + lds_offset(b_layout, x.row, x.col) * 2;
    }
  }
  float acc[mi_n][ni_n][4] = {};
#pragma unroll 1
  for (int k0 = 0; k0 < C.k; k0 += kb) {
    uint4 a_staged[a_copies], b_staged[b_copies];
#pragma unroll
    for (int i = 0; i < a_copies; ++i) a_staged[i] = *vector_at<uint4>(a_global, a_from[i] + k0 * 2);  // "A global load"
#pragma unroll
    for (int i = 0; i < b_copies; ++i) b_staged[i] = *vector_at<uint4>(b_global, b_from[i] + k0 * 2);  // "B global load"
#pragma unroll
    for (int i = 0; i < a_copies; ++i) *vector_at<uint4>(lds, a_to[i]) = a_staged[i];  // "A lds store"
#pragma unroll
    for (int i = 0; i < b_copies; ++i) *vector_at<uint4>(lds, b_to[i]) = b_staged[i];  // "B lds store"
    __syncthreads();
#pragma unroll
    for (int ki = 0; ki < ki_n; ++ki) {
      unsigned a[mi_n][4], bf[ni_n][2];
#pragma unroll
      for (int mi = 0; mi < mi_n; ++mi)  // "A ldmatrix"
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a[mi][0]), "=r"(a[mi][1]), "=r"(a[mi][2]), "=r"(a[mi][3]) : "r"(a_row[ki][mi]));
#pragma unroll
      for (int nj = 0; nj < ni_n / 2; ++nj)  // "B ldmatrix": b0, b1 of n tile 2 nj, then of 2 nj + 1
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(bf[2 * nj][0]), "=r"(bf[2 * nj][1]), "=r"(bf[2 * nj + 1][0]), "=r"(bf[2 * nj + 1][1])
                     : "r"(b_row[ki][nj]));
#pragma unroll
      for (int mi = 0; mi < mi_n; ++mi)
#pragma unroll
        for (int ni = 0; ni < ni_n; ++ni) {
          float* d = acc[mi][ni];
          asm volatile(
              "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
              "{%0, %1, %2, %3};"
              : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
              : "r"(a[mi][0]), "r"(a[mi][1]), "r"(a[mi][2]), "r"(a[mi][3]), "r"(bf[ni][0]), "r"(bf[ni][1]));
        }
    }
    if (k0 + kb < C.k) __syncthreads();
  }
#pragma unroll
  for (int mi = 0; mi < mi_n; ++mi)  // "C global store", two floats each
#pragma unroll
    for (int ni = 0; ni < ni_n; ++ni)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const row_col x = C.c_pair(warp, lane, mi, ni, h);
        *vector_at<float2>(c_global, ((block_m + x.row) * C.n + block_n + x.col) * 4) = make_float2(acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
      }
}

}  // namespace tilesim::gpu::reference
