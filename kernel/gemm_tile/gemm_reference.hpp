// tilesim/kernel/gemm_tile/gemm_reference.hpp: the GEMM tile program's host side: problem split, operands, reference.
//
// DEFINITION. gemm_workgroups(p) is the number of block tiles, (m / M) * (n / N), one workgroup each.
// gemm_input(count, seed) is a deterministic operand of small integers in [-2, 2], so every partial sum of a
// product with k < 2^21 is an integer below 2^24 and exact in float, in any order: whoever runs gemm_tile (the
// simulator: sim/runs/gemm_tile_run.hpp; a GPU: gpu/crosscheck) gets C equal to reference_gemm(p, a, b) bit for bit.
// Host-only (std::vector, exceptions): no kernel includes it.
//
// WORKED EXAMPLE.
//   const gemm_params p{};                                          // 64 x 64 x 64, 64 x 64 block tiles, K steps of 32
//   gemm_workgroups(p) == 1;  gemm_input(4, 0) == {-2, 2, -1, -1}
//   reference_gemm(p, gemm_input(p.m * p.k, 1), gemm_input(p.n * p.k, 2))   // C = A * B^T, row-major m x n
//
// INVARIANTS: gemm_workgroups throws std::invalid_argument naming m, n, M and N when a split is not exact;
// gemm_input depends only on (index, seed).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel/gemm_tile/gemm_tile.hpp"

namespace tilesim::programs {

// Workgroups of the problem: (m / M) * (n / N); throws std::invalid_argument when a split is not exact
// (or the count passes 2^24, the engine's limit on threads anyway).
inline int gemm_workgroups(const gemm_params& p) {
  const bool positive = p.m >= 1 && p.n >= 1 && p.m_per_block >= 1 && p.n_per_block >= 1;
  if (!positive || p.m % p.m_per_block != 0 || p.n % p.n_per_block != 0)
    throw std::invalid_argument("gemm: m and n must be positive multiples of the block tile (m = " +
                                std::to_string(p.m) + ", n = " + std::to_string(p.n) + ", M = " +
                                std::to_string(p.m_per_block) + ", N = " + std::to_string(p.n_per_block) + ")");
  const index_t tiles = (p.m / p.m_per_block) * (p.n / p.n_per_block);
  if (tiles > (index_t{1} << 24))
    throw std::invalid_argument("gemm: too many block tiles (" + std::to_string(tiles) + ")");
  return static_cast<int>(tiles);
}

// `count` integers in [-2, 2] as floats, a fixed function of (index, seed): gemm_input(4, 0) == {-2, 2, -1, -1}.
inline std::vector<float> gemm_input(index_t count, std::uint32_t seed) {
  std::vector<float> v(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::uint32_t h = (static_cast<std::uint32_t>(i) * 2654435761u) ^ (seed * 40503u + 7u);
    v[i] = static_cast<float>(static_cast<int>((h >> 7) % 5u) - 2);
  }
  return v;
}

// C = A * B^T on the host in double (exact for gemm_input operands), row-major m x n.
inline std::vector<float> reference_gemm(const gemm_params& p, const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> c(static_cast<std::size_t>(p.m * p.n));
  for (index_t i = 0; i < p.m; ++i)
    for (index_t j = 0; j < p.n; ++j) {
      double sum = 0;
      for (index_t kk = 0; kk < p.k; ++kk)
        sum += static_cast<double>(a[static_cast<std::size_t>(i * p.k + kk)]) * b[static_cast<std::size_t>(j * p.k + kk)];
      c[static_cast<std::size_t>(i * p.n + j)] = static_cast<float>(sum);
    }
  return c;
}

}  // namespace tilesim::programs
