// Laws of gpu/user/user_crosscheck.hpp, on a CPU: a stand-in "GPU" (gpu_kernel_of specialized here, running the
// program on the simulator) checks the comparison and the report; the real kernel runs in the device recording.
//   - the same program on both sides: results equal, the report names the point and its cycles, its JSON is a
//     tilesim.crosscheck/1 document with one "user" point;
//   - one output element changed on the "GPU": results differ and the report names the buffer, element and both
//     values; within a stated tolerance a float difference passes, above it fails;
//   - no GPU: skipped, naming why, with the simulator's side still whole: its report, its twelve counters (in
//     r.simulator, in the text, in the JSON point), the JSON's GPU part {"status": "skipped", "reason": ...};
//     no JSON object holds a key twice (with a GPU or without);
//     the doctest helper passes;
//   - a kernel launch that fails is a report (GPU FAILED, not passed, the runtime's words), not an exception;
//   - an ncu that refuses (ERR_NVGPUCTRPERM) or is missing leaves the counters "skipped" with its words, the
//     outputs still compared and the call passed;
//   - a launch that leaves wave_size out runs at the arch's wave size (sm90 32, gfx942 64); one that sets
//     another (64 on sm90, or a negative one) is refused naming it and the arch's;
//   - the arch's guard rules apply to the user's launch: a lane's invalid global load is not issued on sm90 (an
//     instruction with no valid lane not at all), and is on gfx942;
//   - a hand-written twin (options.twin) runs on the same buffers: its cycles price the kernel (tilesim over twin,
//     in the text and the JSON's hand_written / tilesim_over_hand_written); a twin whose output differs fails the
//     call naming the element; a twin whose launch fails is named, not thrown;
//   - a program that states its block_size refuses a launch of more threads (its kernel is compiled for it);
//   - a saved Nsight source page (options.ncu_source) is matched to the labels with or without a GPU, lands in the
//     report's text and JSON, and a page off by one sector on one label makes exactly that label DIFFER.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <stdexcept>

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
struct bounded_doubler : doubler {  // written for workgroups of at most 128 threads
  static constexpr tilesim::index_t block_size = 128;
};
struct failing_doubler : doubler {};  // a GPU is there, its launch fails

// One warp: lanes 0-7 of a load are valid, then a load no lane passes as valid; out[t] = their sum.
struct guarded_loads {
  int in = 0, out = 1;
  template <class Ctx>
  TILESIM_HOST_DEVICE void operator()(Ctx& ctx) const {
    const auto a = tilesim::global_buffer<float>(ctx, in);
    const auto b = tilesim::global_buffer<float>(ctx, out);
    const tilesim::index_t t = ctx.thread_id();
    float v = 0, w = 0;
    ctx.label("lanes 0-7 valid");
    tilesim::load_vector<1>(a, t, &v, t < 8);
    ctx.label("no lane valid");
    tilesim::load_vector<1>(a, 32 + t, &w, false);
    ctx.label("store");
    tilesim::store_element(b, t, v + w);
  }
};

}  // namespace

TILESIM_DECLARE_GPU_KERNEL(doubler);
TILESIM_DECLARE_GPU_KERNEL(no_gpu_doubler);
TILESIM_DECLARE_GPU_KERNEL(failing_doubler);
TILESIM_DECLARE_GPU_KERNEL(guarded_loads);
TILESIM_DECLARE_GPU_KERNEL(bounded_doubler);

// A stand-in for a machine without a GPU: device() says so, as the CUDA runtime does.
#define NO_GPU_STAND_IN(P)                                                                                           \
  tilesim::gpu::device_result tilesim::gpu::gpu_kernel_of<P>::launch(const P&, const device_launch&,                 \
                                                                     std::vector<byte_buffer>) {                     \
    throw device_error("launched without a GPU");                                                                    \
  }                                                                                                                  \
  tilesim::gpu::device_description tilesim::gpu::gpu_kernel_of<P>::device() {                                       \
    throw device_error("no GPU: hipGetDeviceCount says 0 devices");                                                  \
  }                                                                                                                  \
  const char* tilesim::gpu::gpu_kernel_of<P>::kernel_name() { return "user_kernel"; }

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
NO_GPU_STAND_IN(no_gpu_doubler)
NO_GPU_STAND_IN(guarded_loads)
NO_GPU_STAND_IN(bounded_doubler)
// A GPU whose kernel launch fails (the runtime's error after the device answered).
tilesim::gpu::device_result tilesim::gpu::gpu_kernel_of<failing_doubler>::launch(const failing_doubler&, const device_launch&,
                                                                                 std::vector<byte_buffer>) {
  throw device_error("cudaLaunchKernel failed: an illegal memory access was encountered");
}
tilesim::gpu::device_description tilesim::gpu::gpu_kernel_of<failing_doubler>::device() {
  return gpu_kernel_of<doubler>::device();
}
const char* tilesim::gpu::gpu_kernel_of<failing_doubler>::kernel_name() { return "user_kernel"; }

namespace {

using namespace tilesim::gpu;
using namespace tilesim::util;

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

// An environment variable set for one scope, then restored (or removed).
struct scoped_env {
  std::string name, old;
  bool had = false;
  scoped_env(const char* n, const std::string& value) : name(n) {
    if (const char* v = std::getenv(n)) had = true, old = v;
    setenv(n, value.c_str(), 1);
  }
  ~scoped_env() {
    if (had) setenv(name.c_str(), old.c_str(), 1);
    else unsetenv(name.c_str());
  }
};

// An executable file at `path` holding `text`: a stand-in ncu.
std::string write_script(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  REQUIRE(f != nullptr);
  std::fputs(text.c_str(), f);
  std::fclose(f);
  chmod(path.c_str(), 0755);
  return path;
}

// The first key some object of v holds twice ("" when none): a JSON reader keeps only one of them.
std::string repeated_key(const json_value& v) {
  if (v.is_array())
    for (const json_value& e : v.elements())
      if (std::string k = repeated_key(e); !k.empty()) return k;
  if (!v.is_object()) return "";
  std::set<std::string> seen;
  for (const auto& [key, value] : v.members()) {
    if (!seen.insert(key).second) return key;
    if (std::string k = repeated_key(value); !k.empty()) return k;
  }
  return "";
}

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
  CHECK(repeated_key(r.json) == "");
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

TEST_CASE("user crosscheck: without a GPU the report still holds the simulator's side: counters, text and JSON, the "
          "GPU part marked skipped") {
  setup s;
  const user_report r = crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 2, .block = 256}, s.buffers);
  CHECK(r.skipped);
  CHECK(r.passed());
  CHECK_FALSE(r.counters_measured);
  // The simulator's counters: 2 blocks x 8 warps of 32, one 4-byte load and one store per lane, each warp's 128
  // contiguous bytes in 4 sectors of 32 bytes; no LDS.
  CHECK(r.simulator == predicted_counters(r.report));
  CHECK(r.simulator.global_instructions_ld == 2 * 8);
  CHECK(r.simulator.global_instructions_st == 2 * 8);
  CHECK(r.simulator.global_sectors_ld == 2 * 8 * 4);
  CHECK(r.simulator.global_sectors_st == 2 * 8 * 4);
  CHECK(r.simulator.lds_instructions_ld + r.simulator.lds_instructions_st == 0);
  CHECK(r.predicted_cycles > 0);
  // The text: the skipped line, then the simulator's side.
  INFO(r.text);
  CHECK(r.text.find("skipped: no GPU: hipGetDeviceCount says 0 devices") != std::string::npos);
  CHECK(r.text.find("simulator, sm90, 2 x 256 threads, waves of 32") != std::string::npos);
  CHECK(r.text.find("global_sectors_ld        sim " + std::to_string(r.simulator.global_sectors_ld)) != std::string::npos);
  CHECK(r.text.find("global_instructions_st   sim " + std::to_string(r.simulator.global_instructions_st)) != std::string::npos);
  // The JSON: a whole tilesim.crosscheck/1 document; the GPU part skipped with the reason; no GPU numbers in it.
  REQUIRE(r.json.is_object());
  CHECK(r.json["schema"].string() == "tilesim.crosscheck/1");
  CHECK(r.json["device"].is_null());
  REQUIRE(r.json["points"].elements().size() == 1);
  const json_value& p = r.json["points"][0];
  CHECK(p["gpu"]["status"].string() == "skipped");
  CHECK(p["gpu"]["reason"].string() == "no GPU: hipGetDeviceCount says 0 devices");
  CHECK(counters_from_json(p["simulator"]["counters"]) == r.simulator);
  CHECK(p["simulator"]["cycles_per_workgroup"].number() == r.predicted_cycles);
  CHECK(p["launch"]["wave_size"].number() == 32);
  CHECK(p.get("hardware") == nullptr);
  CHECK(p.get("gpu_output") == nullptr);
  CHECK(p.get("cycle_error") == nullptr);
  CHECK(r.json["summary"]["results_equal"].is_null());
  CHECK_FALSE(r.json["summary"]["counters_measured"].boolean());
  CHECK(parse_json(dump(r.json, 2)) == r.json);
  CHECK(repeated_key(r.json) == "");
}

TEST_CASE("user crosscheck: a kernel launch that fails is a failed report with the runtime's words, not an exception") {
  setup s;
  user_report r;
  CHECK_NOTHROW(r = crosscheck(failing_doubler{{s.in, s.out}}, {.grid = 2, .block = 256}, s.buffers));
  CHECK_FALSE(r.skipped);
  CHECK_FALSE(r.passed());
  CHECK(r.gpu_error.find("an illegal memory access") != std::string::npos);
  CHECK(r.text.find("GPU FAILED: cudaLaunchKernel failed") != std::string::npos);
  CHECK(r.simulator.global_instructions_ld == 2 * 8);
  CHECK(r.json["device"]["name"].string() == "stand-in GPU (the simulator)");
  CHECK(r.json["points"][0]["gpu"]["status"].string() == "failed");
  CHECK(r.json["points"][0].get("hardware") == nullptr);
  CHECK_FALSE(r.json["summary"]["results_equal"].boolean());
}

TEST_CASE("user crosscheck: a profiler that refuses (ERR_NVGPUCTRPERM) or is missing leaves the counters skipped with "
          "its words; outputs are still compared and the call passes") {
  const std::string refused = write_script("user_crosscheck_refusing_ncu.sh",
      "#!/bin/sh\necho '==PROF== Connected to process 1'\nfor i in $(seq 100); do echo \"the program's output, line $i\"; "
      "done\necho '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance "
      "Counters on the target device 0.'\nexit 1\n");
  for (const std::string& ncu : {"./" + refused, std::string("/nonexistent/tilesim-test-ncu")}) {
    CAPTURE(ncu);
    const scoped_env env("NCU", ncu);
    setup s;
    crosscheck_options o = no_counters("doubler, ncu says no");
    o.counters = true;  // asked for, refused
    user_report r;
    CHECK_NOTHROW(r = crosscheck(doubler{s.in, s.out}, {.grid = 2, .block = 256}, s.buffers, o));
    INFO(r.text);
    CHECK_FALSE(r.skipped);
    CHECK(r.results_equal);
    CHECK(r.passed());
    CHECK_FALSE(r.counters_measured);
    const bool perm = ncu == "./" + refused;
    CHECK(r.why_counters_skipped.find(perm ? "ERR_NVGPUCTRPERM" : "/nonexistent/tilesim-test-ncu") != std::string::npos);
    if (perm) {  // the refusal first, then ncu's own error line, not the program's output before it
      CHECK(r.why_counters_skipped.rfind("Nsight Compute may not read this GPU's performance counters", 0) == 0);
      CHECK(r.why_counters_skipped.find("ncu failed: ==ERROR== ERR_NVGPUCTRPERM - The user does not have permission") !=
            std::string::npos);
      CHECK(r.why_counters_skipped.find("the program's output") == std::string::npos);
    }
    CHECK(r.text.find("counters skipped: ") != std::string::npos);
    CHECK(r.text.find("global_sectors_ld        sim " + std::to_string(r.simulator.global_sectors_ld)) != std::string::npos);
    const json_value& p = r.json["points"][0];
    CHECK(p["gpu"]["status"].string() == "measured");
    CHECK(p["gpu"]["counters"]["status"].string() == "skipped");
    CHECK(p["gpu"]["counters"]["reason"].string() == r.why_counters_skipped);
    CHECK(p["hardware"].get("counters") == nullptr);
    CHECK(p["hardware"]["cycles_per_block_median"].number() == 1000);
    CHECK(p["gpu_output"]["mismatches"].number() == 0);
    TILESIM_CHECK_CROSSCHECK(crosscheck(doubler{s.in, s.out}, {.grid = 2, .block = 256}, s.buffers, o));  // passes
  }
  std::remove(refused.c_str());
}

TEST_CASE("user crosscheck: wave_size left out is the arch's (sm90 32, gfx942 64); set, it must be the arch's, else "
          "it is refused naming both") {
  setup s;
  crosscheck_options o;
  const user_report sm90 = crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 2, .block = 256}, s.buffers, o);
  CHECK(sm90.launch.wave_size == 32);
  CHECK(sm90.simulator.global_instructions_ld == 2 * 256 / 32);
  o.arch = "gfx942";
  const user_report gfx = crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 2, .block = 256}, s.buffers, o);
  CHECK(gfx.launch.wave_size == 64);
  CHECK(gfx.simulator.global_instructions_ld == 2 * 256 / 64);
  CHECK(gfx.json["points"][0]["launch"]["wave_size"].number() == 64);
  o.arch = "sm90";
  const user_report set = crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 2, .block = 256, .wave_size = 32}, s.buffers, o);
  CHECK(set.launch.wave_size == 32);
  CHECK(set.simulator == sm90.simulator);
  for (const int bad : {64, -4}) {  // sm90 prices waves of 32 only
    CAPTURE(bad);
    try {
      (void)crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 2, .block = 256, .wave_size = bad}, s.buffers, o);
      FAIL("a wave size that is not sm90's was accepted");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("wave_size = " + std::to_string(bad)) != std::string::npos);
      CHECK(std::string(e.what()).find("sm90's own 32") != std::string::npos);
    }
  }
  CHECK_THROWS_WITH_AS(crosscheck(no_gpu_doubler{{s.in, s.out}}, {.grid = 0, .block = 256}, s.buffers, o),
                       doctest::Contains("grid = 0"), std::invalid_argument);
}

TEST_CASE("user crosscheck: the arch's guard rules apply to the user's launch: sm90 issues no invalid global load, "
          "gfx942 issues them") {
  user_buffers b;
  std::vector<float> v(64);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  const int in = b.input<float>("in", v);
  const int out = b.output<float>("out", 32, -1.0f);
  crosscheck_options o;
  auto row = [](const user_report& r, const std::string& label) -> const tilesim::sim::instruction_report* {
    for (const auto& i : r.report.instructions)
      if (i.label == label) return &i;
    return nullptr;
  };
  // sm90: lanes 0-7 of 4 bytes each are 32 contiguous bytes, 1 sector in 1 instruction; the load no lane passes
  // is not issued at all.
  const user_report sm90 = crosscheck(guarded_loads{in, out}, {.grid = 1, .block = 32}, b, o);
  CHECK(sm90.simulator.global_instructions_ld == 1);
  CHECK(sm90.simulator.global_sectors_ld == 1);
  REQUIRE(row(sm90, "lanes 0-7 valid") != nullptr);
  CHECK(row(sm90, "lanes 0-7 valid")->sectors == 1);
  CHECK((row(sm90, "no lane valid") == nullptr || row(sm90, "no lane valid")->instances == 0));
  // gfx942 (CK's buffer loads): both loads issue, every lane's address shown: 2 instructions, 128 bytes each.
  o.arch = "gfx942";
  const user_report gfx = crosscheck(guarded_loads{in, out}, {.grid = 1, .block = 32}, b, o);
  CHECK(gfx.simulator.global_instructions_ld == 2);
  REQUIRE(row(gfx, "no lane valid") != nullptr);
  CHECK(row(gfx, "no lane valid")->instances == 1);
  CHECK(row(gfx, "lanes 0-7 valid")->sectors > row(sm90, "lanes 0-7 valid")->sectors);
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

TEST_CASE("user crosscheck: the hand-written twin prices the kernel; a twin that differs or fails is named, not thrown") {
  setup s;
  crosscheck_options o = no_counters("doubler with twin");
  // The twin: the stand-in GPU's doubler again (perturbed by `off`), 800 cycles a block.
  auto twin_of = [&](float off) {
    return [&s, off](const device_launch& l, std::vector<byte_buffer> b) {
      device_result d = gpu_kernel_of<doubler>::launch(doubler{s.in, s.out, off}, l, std::move(b));
      if (l.timed) d.block_cycles.assign(static_cast<std::size_t>(l.grid), 800);
      d.registers = 10;
      return d;
    };
  };
  o.twin = twin_of(0);
  const user_report r = crosscheck(doubler{s.in, s.out}, {.grid = 2, .block = 256}, s.buffers, o);
  CHECK(r.passed());
  CHECK(r.twin_measured);
  CHECK(r.twin_cycles == 800);
  CHECK(r.over_twin() == doctest::Approx(1.25));  // 1000 / 800
  CHECK(r.text.find("hand-written 800 (1.250x; twin: 10 registers") != std::string::npos);
  const json_value& point = r.json["points"].elements()[0];
  CHECK(point["hand_written"]["cycles_per_block_median"].number() == 800);
  CHECK(point["hand_written"]["output"]["mismatches"].number() == 0);
  CHECK(point["tilesim_over_hand_written"].number() == doctest::Approx(1.25));
  CHECK(repeated_key(r.json) == "");
  o.twin = twin_of(0.5f);  // the twin computes something else: the call fails, naming the element
  const user_report differs = crosscheck(doubler{s.in, s.out}, {.grid = 2, .block = 256}, s.buffers, o);
  CHECK(!differs.passed());
  CHECK(differs.twin_mismatches == 1);
  CHECK(differs.text.find("HAND-WRITTEN OUTPUT DIFFERS") != std::string::npos);
  CHECK(differs.text.find("out[5]: simulator 10, GPU 10.5") != std::string::npos);
  o.twin = [](const device_launch&, std::vector<byte_buffer>) -> device_result {
    throw device_error("stencil twin: the twin is compiled for grid 16, block 256, not grid 2, block 256");
  };
  const user_report failed = crosscheck(doubler{s.in, s.out}, {.grid = 2, .block = 256}, s.buffers, o);
  CHECK(!failed.passed());
  CHECK(failed.results_equal);
  CHECK(failed.text.find("hand-written kernel FAILED: stencil twin: the twin is compiled for grid 16") != std::string::npos);
  CHECK(!failed.json["points"].elements()[0].get("hand_written"));
}

TEST_CASE("user crosscheck: a program that states its block_size refuses a launch of more threads, naming both") {
  setup s;
  CHECK(tilesim::gpu::launch_bound_of<bounded_doubler> == 128);
  CHECK(tilesim::gpu::launch_bound_of<doubler> == 1024);
  bounded_doubler p;
  p.in = s.in, p.out = s.out;
  try {
    (void)crosscheck(p, {.grid = 2, .block = 256}, s.buffers, no_counters("too many threads"));
    FAIL("a launch of 256 threads was not refused");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "crosscheck: the launch's block (256 threads) exceeds the program's block_size (128)");
  }
  p.in = s.in;
  const user_report r = crosscheck(p, {.grid = 4, .block = 128}, s.buffers, no_counters("within the bound"));
  CHECK(r.skipped);  // no GPU stand-in: the simulator's side only
  CHECK(r.report.instructions.size() == 2);
}
