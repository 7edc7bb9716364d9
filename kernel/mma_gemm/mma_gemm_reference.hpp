// tilesim/kernel/mma_gemm/mma_gemm_reference.hpp: the matrix-core GEMM's host side: problem split, fp16 operands,
// reference.
//
// DEFINITION. mma_gemm_workgroups(p) is the number of block tiles, one workgroup each. mma_gemm_input(count, seed)
// is gemm_input's small integers in [-2, 2] as fp16 bits: every product and partial sum is an integer below 2^24,
// exact in fp32 in any order, so C from the simulator (sim/runs/mma_gemm_run.hpp) or a GPU equals
// reference_mma_gemm bit for bit. Host-only (std::vector, exceptions): no kernel includes it.
//
// WORKED EXAMPLE.
//   const mma_gemm_params p{};                                     // 256 x 256 x 256, 128 x 128 x 32 blocks
//   mma_gemm_workgroups(p) == 4;  mma_gemm_input(2, 0) == {0xc000, 0x4000}
//   reference_mma_gemm(p, mma_gemm_input(p.m * p.k, 1), mma_gemm_input(p.n * p.k, 2))   // row-major m x n
//
// INVARIANTS: mma_gemm_workgroups throws std::invalid_argument naming the sizes when a split is not exact.
#pragma once

#include <cstdint>
#include <vector>

#include "kernel/gemm_tile/gemm_reference.hpp"
#include "kernel/mma_gemm/mma_gemm.hpp"

namespace tilesim::programs {

// Workgroups of the problem, (m / M) * (n / N); throws std::invalid_argument when a split is not exact.
inline int mma_gemm_workgroups(const mma_gemm_params& p) {
  gemm_params g;
  g.m = p.m, g.n = p.n, g.m_per_block = p.m_per_block, g.n_per_block = p.n_per_block;
  return gemm_workgroups(g);
}

// `count` integers in [-2, 2] as fp16 bits (gemm_input's values): mma_gemm_input(2, 0) == {0xc000, 0x4000}.
inline std::vector<std::uint16_t> mma_gemm_input(index_t count, std::uint32_t seed) {
  const std::vector<float> v = gemm_input(count, seed);
  std::vector<std::uint16_t> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = integer_to_half(static_cast<int>(v[i]));
  return h;
}

// C = A * B^T on the host in double from the fp16 bits, row-major m x n (exact for mma_gemm_input operands).
inline std::vector<float> reference_mma_gemm(const mma_gemm_params& p, const std::vector<std::uint16_t>& a,
                                             const std::vector<std::uint16_t>& b) {
  std::vector<float> c(static_cast<std::size_t>(p.m * p.n));
  for (index_t i = 0; i < p.m; ++i)
    for (index_t j = 0; j < p.n; ++j) {
      double sum = 0;
      for (index_t kk = 0; kk < p.k; ++kk)
        sum += static_cast<double>(half_to_float(a[static_cast<std::size_t>(i * p.k + kk)])) *
               half_to_float(b[static_cast<std::size_t>(j * p.k + kk)]);
      c[static_cast<std::size_t>(i * p.n + j)] = static_cast<float>(sum);
    }
  return c;
}

}  // namespace tilesim::programs
