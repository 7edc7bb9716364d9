// tests/consumer/transpose.cpp: a user's own tile program, built against an installed tilesim (CMake's
// find_package(tilesim), pkg-config's tilesim.pc) or against tilesim as a Meson subproject.
//
// WHAT. The program a new user writes from docs/programming-guide.md's "Writing a program": an n x n fp32 transpose through
// LDS, one 32 x 32 tile per workgroup of 256 threads, written once over an execution context. It includes
// only installed headers ("spec/...", "sim/...") and links only tilesim::sim, so it proves that the package
// holds everything a program needs.
//
// WORKED EXAMPLE. `transpose 64 33` runs n = 64 (4 workgroups) with LDS rows of 33 floats and prints
//   transpose n=64 pitch=33: correct, clean, lds wavefronts 256 (ideal 256)
// (8 waves x 4 workgroups x 8 LDS instructions, one wavefront each). `transpose 64 32` (rows of 32 floats:
// each column read is 32-way, one bank) prints lds wavefronts 4224 (ideal 256): 128 loads x 32 + 128 stores.
//
// INVARIANTS: out[j][i] == in[i][j] bit for bit and the run is clean (no race, no stray access), else exit 1;
// n a positive multiple of 32 and pitch >= 32, else exit 2 naming the value.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"
#include "sim/report/program_report.hpp"
#include "spec/spec.hpp"

using namespace tilesim;

struct transpose_params {
  index_t n = 64, pitch = 33;
  int input = 0, output = 1;
};

template <class Ctx> TILESIM_HOST_DEVICE void my_transpose(Ctx& ctx, const transpose_params& p) {
  const index_t tiles = p.n / 32, by = ctx.block_id() / tiles, bx = ctx.block_id() % tiles;
  const index_t c = ctx.thread_id() % 32, r0 = ctx.thread_id() / 32;
  const auto in = global_buffer<float>(ctx, p.input);
  const auto out = global_buffer<float>(ctx, p.output);
  const auto lds = lds_buffer<float>(ctx, 32 * p.pitch);
  for (index_t r = r0; r < 32; r += 8) {
    ctx.label("lds store");
    store_element(lds, r * p.pitch + c, load_element(in, (32 * by + r) * p.n + 32 * bx + c));
  }
  ctx.barrier();
  for (index_t r = r0; r < 32; r += 8) {
    ctx.label("lds load");
    store_element(out, (32 * bx + r) * p.n + 32 * by + c, load_element(lds, c * p.pitch + r));
  }
}

int main(int argc, char** argv) {
  const transpose_params p{.n = argc > 1 ? std::atol(argv[1]) : 64, .pitch = argc > 2 ? std::atol(argv[2]) : 33};
  if (p.n < 32 || p.n % 32 != 0 || p.n > 4096) {
    std::fprintf(stderr, "transpose: n = %lld is not a positive multiple of 32 up to 4096\n", static_cast<long long>(p.n));
    return 2;
  }
  if (p.pitch < 32 || p.pitch > 64) {
    std::fprintf(stderr, "transpose: pitch = %lld is not in 32..64\n", static_cast<long long>(p.pitch));
    return 2;
  }
  std::vector<float> in(static_cast<std::size_t>(p.n * p.n));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) + 0.25f;
  sim::global_memory mem;
  mem.add<float>("in", in);
  mem.add<float>("out", p.n * p.n, -1.0f);
  const int grid = static_cast<int>((p.n / 32) * (p.n / 32));
  const sim::run_result r = sim::run({.grid = grid, .block = 256, .wave_size = 32}, std::move(mem),
                                     [&](sim::thread_context& ctx) { my_transpose(ctx, p); });
  const std::vector<float> out = r.memory.get<float>(p.output);
  long long wrong = 0;
  for (index_t i = 0; i < p.n; ++i)
    for (index_t j = 0; j < p.n; ++j) wrong += out[static_cast<std::size_t>(j * p.n + i)] != in[static_cast<std::size_t>(i * p.n + j)];
  const sim::program_report report = sim::make_program_report(sim::arch_named("sm90"), r);
  std::printf("transpose n=%lld pitch=%lld: %s, %s, lds wavefronts %lld (ideal %lld)\n", static_cast<long long>(p.n),
              static_cast<long long>(p.pitch), wrong == 0 ? "correct" : "WRONG", r.clean() ? "clean" : "NOT CLEAN",
              report.wavefronts, report.ideal);
  return wrong == 0 && r.clean() ? 0 : 1;
}
