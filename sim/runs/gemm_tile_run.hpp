// tilesim/sim/runs/gemm_tile_run.hpp: the GEMM tile program on the simulator: buffers and launch (its operands and
// host reference: kernel/gemm_tile/gemm_reference.hpp).
//
// DEFINITION. run_gemm(launch, params, a, b) puts A (m x k) in global slot 0 ("a"), B (n x k, K contiguous)
// in slot 1 ("b") and C (m x n) filled with NaN in slot 2 ("c"), points params.a/b/c at them and runs
// gemm_tile on the simulator. The launch's grid must be gemm_workgroups(params) (one workgroup per block
// tile). gemm_input(count, seed) is a deterministic operand of small integers in [-2, 2], so every partial sum
// of a product with k < 2^21 is an integer below 2^24 and exact in float, in any order: the simulated C then
// equals reference_gemm(params, a, b) bit for bit.
//
// WORKED EXAMPLE.
//   const gemm_params p{.layout = gemm_lds_layout::padded};
//   const sim::launch l = gemm_launch(p, 256, 64);                  // grid 1, 256 threads, wave 64
//   const auto a = gemm_input(p.m * p.k, 1), b = gemm_input(p.n * p.k, 2);
//   sim::run_result r = run_gemm(l, p, a, b);
//   r.memory.get<float>(2) == reference_gemm(p, a, b);              // exact
//
// INVARIANTS: the NaN poison never equals a reference value, so an element the program missed fails the
// comparison; errors name the values (sizes that do not match, a grid that is not the tile count).
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/gemm_tile/gemm_reference.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"

namespace tilesim::programs {

// One workgroup per block tile: gemm_launch(gemm_params{}, 256, 64) == {.grid = 1, .block = 256, .wave_size = 64}.
inline sim::launch gemm_launch(const gemm_params& p, int block, int wave_size) {
  sim::launch l;
  l.grid = gemm_workgroups(p);
  l.block = block;
  l.wave_size = wave_size;
  return l;
}

// Runs gemm_tile over a (m x k) and b (n x k); throws std::invalid_argument when a size or the grid differs,
// sim::run_error for what the program or the launch rejects.
inline sim::run_result run_gemm(const sim::launch& config, gemm_params p, const std::vector<float>& a,
                                const std::vector<float>& b) {
  const int tiles = gemm_workgroups(p);
  if (config.grid != tiles)
    throw std::invalid_argument("gemm: the grid must be one workgroup per block tile (grid = " +
                                std::to_string(config.grid) + ", tiles = " + std::to_string(tiles) + ")");
  if (p.k < 1 || static_cast<index_t>(a.size()) != p.m * p.k || static_cast<index_t>(b.size()) != p.n * p.k)
    throw std::invalid_argument("gemm: A must hold m * k and B n * k elements (A holds " + std::to_string(a.size()) +
                                ", B " + std::to_string(b.size()) + "; m = " + std::to_string(p.m) + ", n = " +
                                std::to_string(p.n) + ", k = " + std::to_string(p.k) + ")");
  sim::global_memory mem;
  p.a = mem.add<float>("a", a);
  p.b = mem.add<float>("b", b);
  p.c = mem.add<float>("c", p.m * p.n, std::numeric_limits<float>::quiet_NaN());
  return sim::run(config, std::move(mem), [&p](sim::thread_context& ctx) { gemm_tile(ctx, p); });
}

}  // namespace tilesim::programs
