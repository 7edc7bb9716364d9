// The fp16 transpose's GPU recordings replayed on the CPU (data/recordings/*-fp16-transpose.json, written by
// fp16-transpose-crosscheck --report). Law: for every recorded "fp16 transpose" point, the program rebuilt from the
// point (its LDS layout from the name, its inputs from the recorded seed) predicts exactly the twelve counters
// Nsight Compute counted, its output is the host's transpose and the GPU's matched it; every label's row of
// Nsight's source counters is "equal" with today's instances, wavefronts and sectors; the kernel is at most 1.10x
// its hand-written twin. Cycles: row-major and padded within 10 %; Swizzle<3,3,6> was under-predicted by 16.5 %
// when recorded (issue 33: the model under-predicts conflict-free 2-byte reads), held within 20 % here.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "examples/fp16_transpose/fp16_transpose.hpp"
#include "examples/user_program/recorded_points.test.hpp"
#include "gpu/crosscheck/counters.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"

using namespace tilesim;

namespace {

template <class Program>
sim::run_result run_point(const std::vector<std::uint16_t>& in) {
  sim::global_memory m;
  const int a = m.add<std::uint16_t>("in", in);
  const int b = m.add<std::uint16_t>("out", static_cast<index_t>(in.size()), std::uint16_t{0xffff});
  const Program program{a, b};
  return sim::run(sim::launch_on("sm90", 16, 256), std::move(m), [&](sim::thread_context& ctx) { program(ctx); });
}

}  // namespace

TEST_CASE("fp16 transpose recordings: Nsight's counters and every label's source counters == the simulator's") {
  int points = 0;
  for (const examples::recorded_point& rec : examples::recorded_points("fp16 transpose")) {
    const std::string& file = rec.file;
    CAPTURE(file);
    const util::json_value& p = rec.point;
    const std::string name = p["name"].string();
    CAPTURE(name);
    const std::vector<std::uint16_t> in = examples::transpose_inputs(4, util::read_u64(p["seed"], "seed"));
    const bool swizzled = name.find("Swizzle<3,3,6>") != std::string::npos;
    const bool padded = name.find("padded 72") != std::string::npos;
    const sim::run_result r = swizzled ? run_point<examples::transpose_swizzled>(in)
                              : padded ? run_point<examples::transpose_padded>(in)
                                       : run_point<examples::transpose_row_major>(in);
    CHECK(r.clean());
    CHECK(r.memory.get<std::uint16_t>(1) == examples::transpose_reference(4, in));
    CHECK(p["gpu_output"]["mismatches"].number() == 0);
    const sim::program_report report = sim::make_program_report(sim::arch_named("sm90"), r);
    examples::check_recorded_counters(p, report);
    examples::check_recorded_labels(p, report);
    examples::check_price_tag(p);
    const double measured = p["hardware"]["cycles_per_block_median"].number();
    MESSAGE(name << ": cycles per block: simulator " << report.cycles_per_workgroup << ", GPU " << measured);
    CHECK(std::fabs(report.cycles_per_workgroup - measured) <= (swizzled ? 0.20 : 0.10) * measured);
    ++points;
  }
  CHECK_MESSAGE(points >= 3, "no fp16-transpose recording in data/recordings/ (fp16-transpose-crosscheck --report writes one)");
}
