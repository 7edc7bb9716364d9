// tilesim/examples/gemm/gemm_variants.hpp: the tile-window GEMM example (32 x 32 x 8 tiles) against Eigen.
//
// DEFINITION. The program is kernel/gemm_tile/gemm_tile.hpp (global -> registers -> LDS -> fragments -> FMAs ->
// global, every step a tile window), run at the seed's tile sizes: block tiles of M x N = 32 x 32 output
// elements, KPerBlock = 8, fp32, 16-byte (4-float) vectors, one warp tile of 32 x 32 (wave 64) or two of
// 32 x 16 (wave 32) per workgroup, i.e. 64 threads. The problem is C (64 x 64) = A (64 x 64) * B^T (B stored
// n x k, K contiguous), four workgroups, eight K steps each. The variants change the LDS layout of the A and
// B tiles (row-major, padded, CK's XOR preshuffle) on sm90 and gfx942; each checks C against Eigen:
//   |c_ij - (A B^T)_ij| <= k * 2^-23 * sum_k |a_ik b_jk|   (fp64 reference; the inputs are small integers,
//   so every partial sum is exact in float and the error is 0)
//
// WORKED EXAMPLE. A row of the 32 x 8-float A tile is 32 bytes. The A fragment read gives lanes 0-7 rows 0-7
// of one 16-byte K vector. Row-major, rows r and r+4 are 128 bytes apart, on the same four banks: gfx942's
// ds_read_b128 phase {lanes 0-3, 20-23} meets rows 0-3 and 4-7, 2-way (16 wavefronts, ideal 8), and so
// does sm90's quarter warp (8, ideal 4). A 16-byte pad or CK's XOR spreads them: ideal. The pad moves the
// conflict to the stores instead (two lanes per row: 2-way). gemm.test.cpp pins every count.
//
// INVARIANTS: C == A * B^T within the bound for every variant; the cases are plain parameter sets that the
// GPU cross-check runs too (gpu/crosscheck), so the simulator and the hardware see the same program.
#pragma once

#include <string>
#include <vector>

#include "examples/example.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"

namespace tilesim::examples {

struct gemm_case {
  std::string name;  // "row-major"
  std::string arch;  // "sm90"
  programs::gemm_params params;
  int block = 64;
};

// The 32x32x8 problem with `layout`'s LDS tiles: 64 x 64 x 64, four workgroups.
programs::gemm_params gemm_32x32x8(programs::gemm_lds_layout layout);

// Every layout on sm90 and gfx942.
std::vector<gemm_case> gemm_cases();

// C = A * B^T in fp64 (Eigen) and each element's bound k * 2^-23 * sum_k |a_ik * b_jk| (twice the classic
// recursive-summation bound: any order, FMA or not), both m x n row-major. A is m x k, B n x k (K contiguous).
struct gemm_fp64_reference {
  std::vector<double> c, bound;
};
gemm_fp64_reference gemm_reference_fp64(const programs::gemm_params& p, const std::vector<float>& a,
                                        const std::vector<float>& b);

struct gemm_check {
  bool passed = false;
  double max_error = 0;  // the largest |c - fp64| / bound (0 when exact)
  std::string text;      // "C == Eigen (max |err| 0)" or "C(3, 7) = 5, Eigen 4 (bound 1e-05)"
};

// C (m x n, row-major) against Eigen's fp64 A * B^T within k * 2^-23 * sum|a*b| per element.
gemm_check check_gemm_against_eigen(const programs::gemm_params& p, const std::vector<float>& a,
                                    const std::vector<float>& b, const std::vector<float>& c);

// Runs one case in the simulator with gemm_input() operands (seeds 1 and 2) and checks it.
outcome run_gemm_case(const gemm_case& c);

std::vector<variant> gemm_variants();
// Its sm90 cases as GPU cross-check points (gemm_fp32): "example gemm: CASE".
std::vector<gpu::crosscheck_point> gemm_crosscheck_points();

}  // namespace tilesim::examples
