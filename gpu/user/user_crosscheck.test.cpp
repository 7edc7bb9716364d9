// Laws of gpu/user/user_crosscheck.hpp, on a CPU: a stand-in "GPU" (gpu_kernel_of specialized here, running the
// program on the simulator) checks the comparison and the report; the real kernel runs in the device recording.
//   - the same program on both sides: results equal, the report names the point and its cycles, its JSON is a
//     tilesim.crosscheck/1 document with one "user" point;
//   - one output element changed on the "GPU": results differ and the report names the buffer, element and both
//     values; within a stated tolerance a float difference passes, above it fails;
//   - no GPU: skipped, naming why, with the simulator's report still filled in; the doctest helper passes.
//   - a saved Nsight source page (options.ncu_source) is matched to the labels with or without a GPU, lands in the
//     report's text and JSON, and a page off by one sector on one label makes exactly that label DIFFER.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>

#include "gpu/user/doctest_crosscheck.hpp"
#include "gpu/user/user_crosscheck.hpp"
#include "kernel/model/program.hpp"

namespace {

// out[i] = 2 * in[i] + offset (offset: a float the stand-in GPU may perturb).
struct doubler {
  int in = 0, out = 1;
  float perturb = 0;  // the stand-in GPU adds it to element 5 of the output
  template <class Ctx>
  TILESIM_HOST_DEVICE void operator()(Ctx& ctx) const {
    const auto a = tilesim::global_buffer<float>(ctx, in);
    const auto b = tilesim::global_buffer<float>(ctx, out);
    const tilesim::index_t i = ctx.block_id() * ctx.block_size() + ctx.thread_id();
    ctx.label("read");
    const float v = tilesim::load_element(a, i);
    ctx.label("write");
    tilesim::store_element(b, i, 2 * v);
  }
};
struct no_gpu_doubler : doubler {};

}  // namespace

TILESIM_DECLARE_GPU_KERNEL(doubler);
TILESIM_DECLARE_GPU_KERNEL(no_gpu_doubler);

// The stand-in GPU: the simulator, with element 5 of slot 1 moved by program.perturb.
tilesim::gpu::device_result tilesim::gpu::gpu_kernel_of<doubler>::launch(const doubler& p, const device_launch& l,
                                                                         std::vector<byte_buffer> buffers) {
  tilesim::sim::global_memory m;
  std::vector<float> in(buffers[0].size() / 4), out(buffers[1].size() / 4);
  std::memcpy(in.data(), buffers[0].data(), buffers[0].size());
  std::memcpy(out.data(), buffers[1].data(), buffers[1].size());
  m.add<float>("in", in);
  m.add<float>("out", out);
  const sim::run_result r = sim::run({.grid = l.grid, .block = l.block, .wave_size = 32}, std::move(m),
                                     [&](sim::thread_context& ctx) { p(ctx); });
  out = r.memory.get<float>(1);
  out[5] += p.perturb;
  std::memcpy(buffers[1].data(), out.data(), buffers[1].size());
  device_result d;
  d.buffers = std::move(buffers);
  if (l.timed) d.block_cycles.assign(static_cast<std::size_t>(l.grid), 1000);
  d.registers = 12;
  return d;
}
tilesim::gpu::device_description tilesim::gpu::gpu_kernel_of<doubler>::device() {
  device_description d;
  d.name = "stand-in GPU (the simulator)";
  d.driver = "none";
  d.multiprocessors = 1;
  return d;
}
const char* tilesim::gpu::gpu_kernel_of<doubler>::kernel_name() { return "user_kernel"; }
tilesim::gpu::device_result tilesim::gpu::gpu_kernel_of<no_gpu_doubler>::launch(const no_gpu_doubler&, const device_launch&,
                                                                                std::vector<byte_buffer>) {
  throw device_error("launched without a GPU");
}
tilesim::gpu::device_description tilesim::gpu::gpu_kernel_of<no_gpu_doubler>::device() {
  throw device_error("no GPU: hipGetDeviceCount says 0 devices");
}
const char* tilesim::gpu::gpu_kernel_of<no_gpu_doubler>::kernel_name() { return "user_kernel"; }

namespace {

using namespace tilesim::gpu;

struct setup {
  user_buffers buffers;
  int in = 0, out = 0;
  setup(double tolerance = 0) {
    std::vector<float> v(512);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
    in = buffers.input<float>("in", v);
    out = buffers.output<float>("out", 512, -1.0f, tolerance);
  }
};

crosscheck_options no_counters(const char* name) {
  crosscheck_options o;
  o.name = name;
  o.counters = false;  // Nsight Compute needs the real GPU
  o.repeat = 3;
  return o;
}

}  // namespace

TEST_CASE("user crosscheck: the same program on both sides is equal; the report is the command's, one user point") {
  setup s;
  const user_report r = crosscheck(doubler{s.in, s.out}, {.grid = 2, .block = 256, .wave_size = 32}, s.buffers,
                                   no_counters("doubler"));
  CHECK(!r.skipped);
  CHECK(r.results_equal);
  CHECK(r.passed());
  CHECK(r.measured_cycles == 1000);
  CHECK(r.predicted_cycles > 0);
  CHECK(r.simulator.global_instructions_ld == 16);  // 2 blocks x 8 warps, one load each
  CHECK(r.text.find("doubler") != std::string::npos);
  CHECK(r.text.find("results equal") != std::string::npos);
  CHECK(r.json["schema"].string() == "tilesim.crosscheck/1");
  CHECK(r.json["points"].elements().size() == 1);
  CHECK(r.json["points"].elements()[0]["program"].string() == "user");
  CHECK(r.json["device"]["name"].string() == "stand-in GPU (the simulator)");
}

TEST_CASE("user crosscheck: one element off on the GPU is a mismatch naming buffer, element and both values; a "
          "tolerance passes what it covers and no more") {
  setup exact;
  const user_report bad = crosscheck(doubler{exact.in, exact.out, 0.5f}, {.grid = 2, .block = 256, .wave_size = 32},
                                     exact.buffers, no_counters("doubler off by 0.5"));
  CHECK(!bad.results_equal);
  CHECK(!bad.passed());
  CHECK(bad.text.find("out[5]: simulator 10, GPU 10.5") != std::string::npos);
  setup loose(0.75);
  CHECK(crosscheck(doubler{loose.in, loose.out, 0.5f}, {.grid = 2, .block = 256, .wave_size = 32}, loose.buffers,
                   no_counters("within 0.75"))
            .results_equal);
  setup tight(0.25);
  CHECK(!crosscheck(doubler{tight.in, tight.out, 0.5f}, {.grid = 2, .block = 256, .wave_size = 32}, tight.buffers,
                    no_counters("not within 0.25"))
             .results_equal);
}

TEST_CASE("user crosscheck: without a GPU it is skipped, naming why, with the simulator's report; the doctest helper passes") {
  setup s;
  const user_report r = crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 2, .block = 256, .wave_size = 32}, s.buffers);
  CHECK(r.skipped);
  CHECK(r.passed());
  CHECK(r.why_skipped.find("no GPU") != std::string::npos);
  CHECK(r.text.find("skipped: no GPU") != std::string::npos);
  CHECK(r.report.instructions.size() == 2);  // "read", "write"
  TILESIM_CHECK_CROSSCHECK(crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 2, .block = 256, .wave_size = 32}, s.buffers));
}

TEST_CASE("user crosscheck: a saved Nsight source page is matched to the labels, with or without a GPU; the JSON "
          "point carries it; a page that disagrees on one label names that label") {
  // doubler on 2 blocks x 8 warps: "read" is one LDG per warp (16 executions, 4 sectors each: 128 B), "write" one STG.
  const std::string header = "\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\","
                             "\"L2 Theoretical Sectors Global\"\n";
  auto page = [&](int write_sectors) {
    const std::string path = "user_crosscheck_source_" + std::to_string(write_sectors) + ".csv";
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f != nullptr);
    std::fprintf(f, "%s\"0x10\",\"S2R R0, SR_TID.X\",\"16\",\"0\",\"0\"\n\"0x20\",\"LDG.E R2, desc[UR4][R2.64]\",\"16\",\"0\","
                 "\"64\"\n\"0x30\",\"STG.E desc[UR4][R4.64], R5\",\"16\",\"0\",\"%d\"\n", header.c_str(), write_sectors);
    std::fclose(f);
    return path;
  };
  setup s;
  crosscheck_options o;
  o.name = "doubler, saved page";
  o.ncu_source = page(64);
  const user_report offline = crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 2, .block = 256, .wave_size = 32}, s.buffers, o);
  CHECK(offline.skipped);
  REQUIRE(offline.source_compared);
  CHECK(offline.source.all_equal);
  CHECK(offline.text.find("every label agrees with Nsight Compute") != std::string::npos);
  o.counters = false;
  const user_report live = crosscheck(doubler{s.in, s.out}, {.grid = 2, .block = 256, .wave_size = 32}, s.buffers, o);
  REQUIRE(live.json["points"].elements()[0].get("source_counters"));
  CHECK(live.json["points"].elements()[0]["source_counters"]["all_equal"].boolean());
  o.ncu_source = page(65);
  const user_report bad = crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 2, .block = 256, .wave_size = 32}, s.buffers, o);
  REQUIRE(bad.source_compared);
  CHECK_FALSE(bad.source.all_equal);
  for (const source_row& r : bad.source.rows) {
    CAPTURE(r.name());
    CHECK(r.status == (r.name() == "write" ? "DIFFER" : "equal"));
  }
  std::remove("user_crosscheck_source_64.csv");
  std::remove("user_crosscheck_source_65.csv");
}
