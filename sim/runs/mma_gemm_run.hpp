// tilesim/sim/runs/mma_gemm_run.hpp: the matrix-core GEMM on the simulator: buffers and launch (its fp16 operands
// and host reference: kernel/mma_gemm/mma_gemm_reference.hpp).
//
// DEFINITION. run_mma_gemm(launch, params, a, b) puts A (m x k fp16 bits) in global slot 0 ("a"), B (n x k) in
// slot 1 ("b") and C (m x n floats, NaN) in slot 2 ("c") and runs mma_gemm on the simulator.
// mma_gemm_input(count, seed) is gemm_input's small integers in [-2, 2] as fp16 bits: every product and partial
// sum is an integer below 2^24, exact in fp32 in any order, so the simulated (and the GPU's) C equals
// reference_mma_gemm bit for bit.
//
// WORKED EXAMPLE.
//   const mma_gemm_params p{};                                     // 256 x 256 x 256, 128 x 128 x 32 blocks
//   sim::run_result r = run_mma_gemm(mma_gemm_launch(p, 256), p, mma_gemm_input(p.m * p.k, 1),
//                                    mma_gemm_input(p.n * p.k, 2));
//   r.memory.get<float>(2) == reference_mma_gemm(p, a, b);         // exact
//
// INVARIANTS: the NaN poison never equals a reference value; errors name the values.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/engine/engine.hpp"
#include "sim/runs/gemm_tile_run.hpp"
#include "kernel/mma_gemm/mma_gemm.hpp"
#include "kernel/mma_gemm/mma_gemm_reference.hpp"

namespace tilesim::programs {

// One workgroup per block tile, wave 32: mma_gemm_launch(mma_gemm_params{}, 256) == {.grid = 4, .block = 256}.
inline sim::launch mma_gemm_launch(const mma_gemm_params& p, int block) {
  sim::launch l;
  l.grid = mma_gemm_workgroups(p);
  l.block = block;
  l.wave_size = 32;
  return l;
}

// Runs mma_gemm over a (m x k) and b (n x k); std::invalid_argument when a size or the grid differs.
inline sim::run_result run_mma_gemm(const sim::launch& config, mma_gemm_params p, const std::vector<std::uint16_t>& a,
                                    const std::vector<std::uint16_t>& b) {
  const int tiles = mma_gemm_workgroups(p);
  if (config.grid != tiles)
    throw std::invalid_argument("mma gemm: the grid must be one workgroup per block tile (grid = " +
                                std::to_string(config.grid) + ", tiles = " + std::to_string(tiles) + ")");
  if (p.k < 1 || static_cast<index_t>(a.size()) != p.m * p.k || static_cast<index_t>(b.size()) != p.n * p.k)
    throw std::invalid_argument("mma gemm: A must hold m * k and B n * k elements (A holds " + std::to_string(a.size()) +
                                ", B " + std::to_string(b.size()) + "; m = " + std::to_string(p.m) + ", n = " +
                                std::to_string(p.n) + ", k = " + std::to_string(p.k) + ")");
  sim::global_memory mem;
  p.a = mem.add<std::uint16_t>("a", a);
  p.b = mem.add<std::uint16_t>("b", b);
  p.c = mem.add<float>("c", p.m * p.n, std::numeric_limits<float>::quiet_NaN());
  return sim::run(config, std::move(mem), [&p](sim::thread_context& ctx) { mma_gemm(ctx, p); });
}

}  // namespace tilesim::programs
