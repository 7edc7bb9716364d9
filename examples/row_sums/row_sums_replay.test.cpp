// The row reduction's GPU recordings replayed on the CPU (data/recordings/*-row-sums.json, written by
// row-sums-crosscheck --report). Law: for every recorded "row sums" point, the program rebuilt from the recorded
// seed predicts exactly the twelve counters Nsight Compute counted, its output is the host's row sums and the GPU's
// matched it; every label's row of Nsight's source counters (a page without shared-memory columns) is "equal"
// with today's instances, wavefronts (none) and sectors; cycles per block within 10 % of the recorded median block's; the kernel at most
// 1.10x its hand-written twin.
#include <doctest/doctest.h>

#include <cmath>

#include "examples/row_sums/row_sums.hpp"
#include "gpu/crosscheck/counters.hpp"
#include "examples/user_program/recorded_points.test.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"

using namespace tilesim;

TEST_CASE("row sums recordings: Nsight's counters and every label's source counters == the simulator's") {
  int points = 0;
  for (const examples::recorded_point& rec : examples::recorded_points("row sums")) {
    const std::string& file = rec.file;
    CAPTURE(file);
    {
      const util::json_value& p = rec.point;
      const std::vector<float> in = examples::row_sums_inputs(128, util::read_u64(p["seed"], "seed"));
      sim::global_memory m;
      const int a = m.add<float>("in", in);
      const int b = m.add<float>("out", 128, -1.0f);
      const examples::row_sums_128 program{a, b};
      const sim::run_result r = sim::run(sim::launch_on("sm90", 16, 256), std::move(m),
                                         [&](sim::thread_context& ctx) { program(ctx); });
      const std::vector<float> out = r.memory.get<float>(1);
      for (index_t row = 0; row < 128; ++row) {
        float want = 0;
        for (index_t c = 0; c < 256; ++c) want += in[static_cast<std::size_t>(row * 256 + c)];
        CHECK(out[static_cast<std::size_t>(row)] == want);
      }
      CHECK(p["gpu_output"]["mismatches"].number() == 0);
      const sim::program_report report = sim::make_program_report(sim::arch_named("sm90"), r);
      examples::check_recorded_counters(p, report);
      examples::check_recorded_labels(p, report);
      const double measured = p["hardware"]["cycles_per_block_median"].number();
      MESSAGE("row sums: cycles per block: simulator " << report.cycles_per_workgroup << ", GPU " << measured);
      CHECK(std::fabs(report.cycles_per_workgroup - measured) <= 0.10 * measured);
      examples::check_price_tag(p);
      ++points;
    }
  }
  CHECK_MESSAGE(points >= 1, "no row-sums recording in data/recordings/ (row-sums-crosscheck --report writes one)");
}
