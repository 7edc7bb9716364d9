// A program built on spec's tile windows over recording buffers: one wave instruction per window access per
// wave, with exactly the addresses the window computes.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using namespace tilesim::sim;

namespace {

using half_bits = std::uint16_t;  // fp16 storage: 8 elements = one 16-byte vector

constexpr index_t rows = 64, cols = 32, vector = 8, threads = 256, wave = 64;

struct stage_params {
  int input = 0;
};

// The reference §3.4 warp-raked tile: load 64x32 from global, store it to a row-major LDS tile.
template <class Ctx>
void stage_tile(Ctx& ctx, const stage_params& p) {
  const tile_distribution_encoding e = make_warp_raked_encoding(threads, wave, rows, cols, vector);
  const auto thread = partition_index(e, ctx.warp(), ctx.lane());
  auto global_view = make_tensor_view(make_naive_descriptor<2>({rows, cols}, {cols, 1}, cols, 1),
                                      global_buffer<half_bits>(ctx, p.input), address_space::global);
  auto lds_view = make_tensor_view(make_row_major_descriptor(rows, cols), lds_buffer<half_bits>(ctx, rows * cols),
                                   address_space::lds);
  auto regs = make_distributed_tensor<half_bits, 64>(e);
  ctx.label("global load");
  make_tile_window(global_view, {rows, cols}, {0, 0}, e, thread).load(regs);
  ctx.label("lds store");
  make_tile_window(lds_view, {rows, cols}, {0, 0}, e, thread).store(regs);
}

}  // namespace

TEST_CASE("tile window: the warp-raked 64x32 fp16 tile is one 16-byte instruction per window access per wave, at the window's offsets") {
  std::vector<half_bits> input(rows * cols);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<half_bits>(i);
  global_memory mem;
  const int in = mem.add<half_bits>("in", input);
  const run_result r = run({.block = threads, .wave_size = wave}, std::move(mem),
                           [&](thread_context& ctx) { stage_tile(ctx, stage_params{in}); });
  CHECK(r.clean());
  CHECK(r.uniform());

  // What the window itself computes, thread by thread, over a plain span buffer of the same shapes.
  const tile_distribution_encoding e = make_warp_raked_encoding(threads, wave, rows, cols, vector);
  auto plain = make_tensor_view(make_naive_descriptor<2>({rows, cols}, {cols, 1}, cols, 1), input.data(), rows * cols);
  const workgroup_record& w = r.workgroups[0];
  REQUIRE(w.waves.size() == 4);
  for (index_t warp = 0; warp < 4; ++warp) {
    std::vector<std::vector<index_t>> offsets(wave);  // offsets[lane][access]
    index_t accesses = 0;
    for (index_t lane = 0; lane < wave; ++lane) {
      const auto win = make_tile_window(plain, {rows, cols}, {0, 0}, e, partition_index(e, warp, lane));
      win.for_each_access([&](const auto& a) { offsets[static_cast<std::size_t>(lane)].push_back(a.offset); });
      accesses = win.traits.num_access;
      CHECK(win.traits.scalars_per_vector == vector);
    }
    const std::vector<wave_instruction>& ins = w.waves[static_cast<std::size_t>(warp)].instructions;
    REQUIRE(ins.size() == static_cast<std::size_t>(2 * accesses));  // global loads, then LDS stores
    for (index_t k = 0; k < 2 * accesses; ++k) {
      const wave_access& a = ins[static_cast<std::size_t>(k)].access;
      const bool global = k < accesses;
      CHECK(a.label == (global ? "global load" : "lds store"));
      CHECK(a.width == 16);
      for (index_t lane = 0; lane < wave; ++lane)
        CHECK(a.address[static_cast<std::size_t>(lane)] ==
              static_cast<address_t>(2 * offsets[static_cast<std::size_t>(lane)][static_cast<std::size_t>(k % accesses)]));
    }
  }
  // Spot check from the reference's table: warp 0 lane 4 holds row 1, cols 0-7 -> byte 2 * 32 = 64.
  CHECK(w.waves[0].instructions[0].access.address[4] == 64);
  CHECK(w.waves[3].instructions[0].access.address[63] == 2 * (63 * 32 + 24));
}
