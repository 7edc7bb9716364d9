// tilesim/sim/runs/lds_sweep.test.cpp: out == in * iterations, and the loop is the LDS instruction alone.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/lds_sweep/lds_sweep.hpp"

using namespace tilesim;
using namespace tilesim::programs;

namespace {

sim::run_result sweep(copy_lds_layout layout, copy_read_order read, index_t iterations, std::vector<std::uint16_t>& in) {
  lds_sweep_params p;
  p.tile.layout = layout;
  p.tile.read = read;
  p.iterations = iterations;
  sim::launch l;
  l.grid = 2;
  l.block = 256;
  l.wave_size = 32;
  in.resize(2 * 64 * 32);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint16_t>(i * 40503u + 7u);
  sim::global_memory mem;
  mem.add<std::uint16_t>("in", in);
  mem.add<std::uint16_t>("out", static_cast<index_t>(in.size()), std::uint16_t{0xFFFF});
  return sim::run(l, std::move(mem), [&p](sim::thread_context& ctx) { lds_sweep<std::uint16_t, 8>(ctx, p); });
}

}  // namespace

TEST_CASE("lds_sweep: out == in * iterations (mod 2^16) for every layout and read order") {
  for (copy_lds_layout layout : {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor,
                                 copy_lds_layout::cute_swizzle})
    for (copy_read_order read : {copy_read_order::same_as_write, copy_read_order::lanes_down_rows}) {
      CAPTURE(static_cast<int>(layout));
      CAPTURE(static_cast<int>(read));
      std::vector<std::uint16_t> in;
      const sim::run_result r = sweep(layout, read, 5, in);
      REQUIRE(r.clean());
      const std::vector<std::uint16_t> out = r.memory.get<std::uint16_t>(1);
      int wrong = 0;
      for (std::size_t i = 0; i < in.size(); ++i) wrong += out[i] != static_cast<std::uint16_t>(in[i] * 5);
      CHECK(wrong == 0);
    }
}

TEST_CASE("lds_sweep: each wave issues 1 global load, 1 lds store, `iterations` lds loads, 1 global store") {
  std::vector<std::uint16_t> in;
  const sim::run_result r = sweep(copy_lds_layout::ck_xor, copy_read_order::lanes_down_rows, 7, in);
  REQUIRE(r.clean());
  for (const auto& wave : r.workgroups[1].waves) {
    REQUIRE(wave.instructions.size() == 10);
    CHECK(wave.instructions[0].access.label == "global load");
    CHECK(wave.instructions[1].access.label == "lds store");
    for (int i = 2; i < 9; ++i) {
      CHECK(wave.instructions[static_cast<std::size_t>(i)].access.label == "lds load");
      CHECK(wave.instructions[static_cast<std::size_t>(i)].access.width == 16);
    }
    CHECK(wave.instructions[9].access.label == "global store");
  }
}

TEST_CASE("lds_sweep: a tile that is not one vector per thread is refused, naming the sizes") {
  lds_sweep_params p;
  p.tile.rows = 32;  // 32 x 32 = 1024 elements for 256 threads x 8
  sim::launch l;
  l.block = 256;
  l.wave_size = 32;
  sim::global_memory mem;
  mem.add<std::uint16_t>("in", 32 * 32);
  mem.add<std::uint16_t>("out", 32 * 32);
  CHECK_THROWS_WITH(sim::run(l, std::move(mem), [&p](sim::thread_context& ctx) { lds_sweep<std::uint16_t, 8>(ctx, p); }),
                    doctest::Contains("rows * cols = 1024, threads * vector = 2048"));
}
