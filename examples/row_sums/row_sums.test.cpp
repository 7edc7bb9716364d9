// Laws of examples/row_sums/row_sums.hpp on the simulator (sm90 rules): out[r] is row r's sum, exactly; no LDS is
// touched; each wave's two row loads are 16 sectors each (ideal) and only lane 0 stores (a divergence, no
// ambiguity); the shuffles leave every lane with the sum.
#include <doctest/doctest.h>

#include <vector>

#include "examples/row_sums/row_sums.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;

TEST_CASE("row sums: out[r] = the sum of row r, exactly; two ideal 16-sector loads per wave, one lane stores") {
  constexpr index_t rows = 32;
  const std::vector<float> in = examples::row_sums_inputs(rows, 3);
  sim::global_memory m;
  const int a = m.add<float>("in", in);
  const int b = m.add<float>("out", rows, -1.0f);
  const examples::row_sums<rows> program{a, b};
  const sim::run_result r = sim::run(sim::launch_on("sm90", rows / 8, 256), std::move(m),
                                     [&](sim::thread_context& ctx) { program(ctx); });
  CHECK(r.clean());
  CHECK(r.found.ambiguities == 0);
  const std::vector<float> out = r.memory.get<float>(1);
  for (index_t row = 0; row < rows; ++row) {
    float want = 0;
    for (index_t c = 0; c < 256; ++c) want += in[static_cast<std::size_t>(row * 256 + c)];
    CHECK(out[static_cast<std::size_t>(row)] == want);
  }
  const sim::program_report rep = sim::make_program_report(sim::arch_named("sm90"), r);
  long long loads = 0, load_sectors = 0, stores = 0, store_sectors = 0;
  for (const sim::instruction_report& i : rep.instructions) {
    CHECK(i.space == sim::memory_space::global);
    if (i.label == "row load") loads += i.instances, load_sectors += i.sectors;
    if (i.label == "sum store") stores += i.instances, store_sectors += i.sectors;
  }
  CHECK(loads == 2 * rows);
  CHECK(load_sectors == 16 * 2 * rows);
  CHECK(stores == rows);
  CHECK(store_sectors == rows);
}
