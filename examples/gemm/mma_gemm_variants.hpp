// tilesim/examples/gemm/mma_gemm_variants.hpp: the matrix-core GEMM example (ldmatrix + mma.sync) against Eigen.
//
// DEFINITION. The program is kernel/mma_gemm/mma_gemm.hpp, CK's universal GEMM shape on sm90's warp collectives:
// fp16 A and B, fp32 C, 128 x 128 x 32 block tiles on 256 threads (2 x 4 warps of 64 x 32), operands staged in
// LDS and read with ldmatrix.x4, mma.sync m16n8k16 into fp32 accumulators. The problem is C (256 x 256) = A (256
// x 256) * B^T (B stored n x k), four workgroups, eight K steps. The variants change the LDS layout of both
// operand tiles: row-major, padded (8 halves per row) and CK's XOR preshuffle in its 2025 and 2024 orders;
// each checks C against Eigen in fp64 (the inputs are small integers, so C is exact in any summation order).
//
// WORKED EXAMPLE. An ldmatrix phase reads 8 rows of 16 bytes at one K. Row-major rows are 64 bytes, so rows r
// and r + 2 share four banks: 4-way, 16 wavefronts per ldmatrix.x4 instead of 4. CK's XOR (2025) stores row
// pair p's 16-byte chunk c at chunk c ^ (p mod 8) of a 128-byte LDS row: the 8 rows land on 8 distinct bank
// quads (ideal). The 2024 order interleaves the pair's chunks instead and stays 2-way on this read.
//
// INVARIANTS: C == A * B^T within k * 2^-23 * sum|a*b| (in fact exactly) for every variant; the cases are plain
// parameter sets that the GPU cross-check runs too (gpu/crosscheck), the same template instance as the kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "examples/example.hpp"
#include "kernel/mma_gemm/mma_gemm.hpp"

namespace tilesim::examples {

struct mma_gemm_case {
  std::string name;  // "mma.sync ck-xor 2025, 128x128x32"
  std::string arch;  // "sm90"
  programs::mma_gemm_params params;
  int block = 256;
};

// The 256 x 256 x 256 problem in 128 x 128 x 32 block tiles with `layout`'s LDS tiles (and CK order).
programs::mma_gemm_params mma_gemm_128x128x32(programs::gemm_lds_layout layout, ck_lds_order order = ck_lds_order::l_k0_2025);

// Every layout on sm90 (mma.sync and ldmatrix are NVIDIA instructions).
std::vector<mma_gemm_case> mma_gemm_cases();

// A as floats from its fp16 bits (exact): halves_to_floats({0x3c00}) == {1.0f}.
std::vector<float> halves_to_floats(const std::vector<std::uint16_t>& h);

// Runs one case in the simulator with mma_gemm_input() operands (seeds 1 and 2) and checks it against Eigen.
outcome run_mma_gemm_case(const mma_gemm_case& c);

std::vector<variant> mma_gemm_variants();
// Its sm90 cases as GPU cross-check points (mma_gemm_f16): "example gemm: CASE".
std::vector<gpu::crosscheck_point> mma_gemm_crosscheck_points();

}  // namespace tilesim::examples
