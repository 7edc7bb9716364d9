// Laws of examples/user_program/column_sums.hpp on the simulator: out = the column sums of each 64 x 64 tile,
// exactly, on sm90 (wave 32) and gfx942 (wave 64), for both LDS layouts, with no race; and what the layouts cost.
#include <doctest/doctest.h>

#include <vector>

#include "examples/user_program/column_sums.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;

namespace {

// Tile b, row r, column c holds (b * 7 + r * 3 + c) % 64: integers, so every sum is exact in fp32.
std::vector<float> tiles(int grid) {
  std::vector<float> v(static_cast<std::size_t>(grid) * 64 * 64);
  for (int b = 0; b < grid; ++b)
    for (int r = 0; r < 64; ++r)
      for (int c = 0; c < 64; ++c) v[static_cast<std::size_t>((b * 64 + r) * 64 + c)] = static_cast<float>((b * 7 + r * 3 + c) % 64);
  return v;
}

sim::run_result run_sums(int grid, int wave, bool swizzled) {
  sim::global_memory m;
  const int in = m.add<float>("in", tiles(grid));
  const int out = m.add<float>("out", grid * 64, -1.0f);
  const examples::column_sums<3> program{in, out, swizzled};
  return sim::run({.grid = grid, .block = 256, .wave_size = wave}, std::move(m),
                  [&](sim::thread_context& ctx) { program(ctx); });
}

}  // namespace

TEST_CASE("column sums: out[b*64 + c] = sum over the rows of tile b's column c, exactly, both layouts, wave 32 and 64") {
  const std::vector<float> in = tiles(3);
  for (const int wave : {32, 64})
    for (const bool swizzled : {false, true}) {
      CAPTURE(wave);
      CAPTURE(swizzled);
      const sim::run_result r = run_sums(3, wave, swizzled);
      CHECK(r.clean());
      const std::vector<float> out = r.memory.get<float>(1);
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 64; ++c) {
          float want = 0;
          for (int row = 0; row < 64; ++row) want += in[static_cast<std::size_t>((b * 64 + row) * 64 + c)];
          CHECK(out[static_cast<std::size_t>(b * 64 + c)] == want);
        }
    }
}

TEST_CASE("column sums on sm90: the column read is 4-way on the row-major tile (rows 16 apart share a bank) and "
          "ideal under Swizzle<2,3,7>; the float4 tile stores are ideal on both, the partial store 4-way on both") {
  for (const bool swizzled : {false, true}) {
    CAPTURE(swizzled);
    const sim::program_report rep = sim::make_program_report(sim::arch_named("sm90"), run_sums(3, 32, swizzled));
    int seen = 0;
    for (const sim::instruction_report& i : rep.instructions) {
      CAPTURE(i.label);
      if (i.label == "tile store") {
        ++seen;
        CHECK(i.wavefronts == i.ideal);
      }
      if (i.label == "column read") {
        ++seen;
        CHECK(i.ideal == 3 * 128);  // 3 workgroups x 8 warps x 16 reads, one wavefront each
        CHECK(i.wavefronts == (swizzled ? 3 * 128 : 3 * 512));
      }
      if (i.label == "partial store") {  // lanes 4c .. 4c + 3 write partials 64 floats apart: 4-way, as written
        ++seen;
        CHECK(i.wavefronts == 4 * i.ideal);
      }
    }
    CHECK(seen == 3);
  }
}
