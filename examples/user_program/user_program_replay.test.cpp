// The user program's GPU recordings replayed on the CPU (data/recordings/*-user-program.json, written by
// column-sums-crosscheck --report: tool "tilesim::gpu::crosscheck"). Law: for every recorded point, the column
// sums program rebuilt from the point (its layout from the name, its inputs from the recorded seed) predicts on
// the simulator exactly the twelve counters Nsight Compute counted, its output equals the host's column sums,
// and the GPU's output matched the simulator's when recorded; where a point carries Nsight's per-instruction source
// counters (source_counters), every single-label row's executions, wavefronts and sectors equal today's simulator;
// and its predicted cycles per block are within 10 % of the recorded median block's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "examples/user_program/column_sums.hpp"
#include "gpu/crosscheck/counters.hpp"
#include "examples/user_program/recorded_points.test.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"

using namespace tilesim;

TEST_CASE("user program recordings: Nsight's counters == the simulator's for every recorded point; sums exact") {
  int points = 0;
  for (const examples::recorded_point& rec : examples::recorded_points("column sums")) {
    const std::string& file = rec.file;
    CAPTURE(file);
    {
      const util::json_value& p = rec.point;
      const std::string name = p["name"].string();  // CAPTURE keeps a reference: not to a temporary
      CAPTURE(name);
      const bool swizzled = p["name"].string().find("Swizzle<2,3,7>") != std::string::npos;
      const std::uint64_t seed = util::read_u64(p["seed"], "seed");
      const std::vector<float> in = examples::column_sums_inputs(4, seed);
      sim::global_memory m;
      const int a = m.add<float>("in", in);
      const int b = m.add<float>("out", 4 * 64, -1.0f);
      const examples::column_sums<4> program{a, b, swizzled};
      const sim::run_result r = sim::run({.grid = 4, .block = 256, .wave_size = 32}, std::move(m),
                                         [&](sim::thread_context& ctx) { program(ctx); });
      const sim::program_report report = sim::make_program_report(sim::arch_named("sm90"), r);
      examples::check_recorded_counters(p, report);
      CHECK(p["gpu_output"]["mismatches"].number() == 0);
      // Per instruction (recorded with Nsight's source counters): every label's GPU counts equal today's simulator.
      // Cycles: the recorded median block's clock64 against today's prediction, within 10 % (issue 12's
      // catalogue bound is 25 %; the user program stood at -11 % and -30.5 % while its sums stated their FADDs
      // after the loop, not one per element as the SASS chains them: 4.9 % and 3.0 % since).
      const double measured = p["hardware"]["cycles_per_block_median"].number();
      MESSAGE(p["name"].string() << ": cycles per block: simulator " << report.cycles_per_workgroup << ", GPU " << measured);
      CHECK(std::fabs(report.cycles_per_workgroup - measured) <= 0.10 * measured);
      if (const util::json_value* source = p.get("source_counters"))
        for (const util::json_value& row : (*source)["rows"].elements()) {
          if (row["labels"].elements().size() != 1) continue;  // groups and leftovers: the recording's own verdict
          const std::string label = row["labels"][0].string();
          CAPTURE(label);
          CHECK(row["status"].string() == "equal");
          const auto it = std::find_if(report.instructions.begin(), report.instructions.end(),
                                       [&](const sim::instruction_report& i) { return i.label == label; });
          REQUIRE(it != report.instructions.end());
          CHECK(row["gpu_instructions_executed"].number() == it->instances);
          CHECK(row["gpu_wavefronts"].number() == it->wavefronts);
          CHECK(row["gpu_sectors"].number() == it->sectors);
        }
      const std::vector<float> out = r.memory.get<float>(1);
      for (int t = 0; t < 4; ++t)
        for (int c = 0; c < 64; ++c) {
          float sum = 0;
          for (int row = 0; row < 64; ++row) sum += in[static_cast<std::size_t>((t * 64 + row) * 64 + c)];
          CHECK(out[static_cast<std::size_t>(t * 64 + c)] == sum);
        }
      ++points;
    }
  }
  CHECK_MESSAGE(points >= 2, "no user-program recording in data/recordings/ (column-sums-crosscheck --report writes one)");
}
