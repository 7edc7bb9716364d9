// Laws of kernel/warp_scan/warp_scan.hpp: its four results equal a host computation of the same wave-wide values.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "sim/engine/engine.hpp"
#include "sim/arch/arch.hpp"
#include "kernel/warp_scan/warp_scan.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;

namespace {
std::vector<std::int32_t> run_scan(int grid, int block, int wave, const std::vector<std::int32_t>& in) {
  sim::global_memory mem;
  mem.add<std::int32_t>("in", in);
  const int out = mem.add<std::int32_t>("out", 4 * static_cast<index_t>(in.size()), -1);
  const sim::run_result r = sim::run(sim::launch{.grid = grid, .block = block, .wave_size = wave}, std::move(mem),
                                     [](sim::thread_context& ctx) { programs::warp_scan(ctx, {}); });
  CHECK(r.clean());
  return r.memory.get<std::int32_t>(out);
}
}  // namespace

TEST_CASE("worked example: W = 4, in = {1, 2, 3, 4}") {
  CHECK(run_scan(1, 4, 4, {1, 2, 3, 4}) ==
        std::vector<std::int32_t>{10, 1, 1, 2, 10, 3, 1, 3, 10, 6, 1, 4, 10, 10, 1, 4});
}

TEST_CASE("out == the host's wave sum, inclusive scan, lane-0 broadcast and next-lane value, waves of 32 and 64") {
  for (int wave : {32, 64}) {
    CAPTURE(wave);
    const int grid = 3, block = 128;
    std::vector<std::int32_t> in(static_cast<std::size_t>(grid * block));
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::int32_t>(i * 2654435761u);  // wraps
    const std::vector<std::int32_t> out = run_scan(grid, block, wave, in);
    for (std::size_t g = 0; g < in.size(); ++g) {
      const std::size_t first = g / static_cast<std::size_t>(wave) * static_cast<std::size_t>(wave);
      const std::size_t last = first + static_cast<std::size_t>(wave) - 1;
      std::uint32_t sum = 0, scan = 0;
      for (std::size_t k = first; k <= last; ++k) sum += static_cast<std::uint32_t>(in[k]);
      for (std::size_t k = first; k <= g; ++k) scan += static_cast<std::uint32_t>(in[k]);
      CHECK(out[4 * g] == static_cast<std::int32_t>(sum));
      CHECK(out[4 * g + 1] == static_cast<std::int32_t>(scan));
      CHECK(out[4 * g + 2] == in[first]);
      CHECK(out[4 * g + 3] == in[g == last ? g : g + 1]);
    }
  }
}

TEST_CASE("the timing model issues the shuffles: 12 per wave before the first store, at the arch's shuffle rate") {
  std::vector<std::int32_t> in(128, 1);
  sim::global_memory mem;
  mem.add<std::int32_t>("in", in);
  mem.add<std::int32_t>("out", 4 * 128, -1);
  const sim::run_result r = sim::run(sim::launch{.block = 128, .wave_size = 32}, std::move(mem),
                                     [](sim::thread_context& ctx) { programs::warp_scan(ctx, {}); });
  const sim::program_report rep = sim::make_program_report(sim::arch_named("sm90"), r);
  bool found = false;
  for (const sim::instruction_report& i : rep.instructions) {
    if (i.label != "out store") continue;
    found = true;
    CHECK(i.alu.shuffle == 4 * (5 + 5 + 1 + 1));  // 4 waves; log2 32 xor and up steps, one index, one down
    CHECK(i.alu.fma == 0);
    CHECK(i.issue_cycles >= 12 * sim::arch_named("sm90").issue.alu_cycles[2] / 4);  // spread over 4 stores
  }
  CHECK(found);
}
