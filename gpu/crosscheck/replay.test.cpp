// tilesim/gpu/crosscheck/replay.test.cpp: CI has no GPU; these replay what one measured (data/recordings/).
//
// Each recording is a `tilesim-gpu crosscheck --report` run on a real device: per point the program, its
// parameters, the input seed, the output checks and Nsight Compute's counters. The laws:
//   for every recorded point p: simulate(p).counters == the counters the GPU had, field by field
//   for every recorded point p: the GPU's and the simulator's outputs matched the truth when recorded, and
//     the simulator's output for the recorded seed still does
//   for the LDS-bound sweep's loop (each point minus the same point at 0 iterations, both sides) the median
//     |predicted - measured| / measured cycles is no worse than recorded + 2 points and at most 15 %
// (Whole-block cycles are held to the newest priced recording by accuracy.test.cpp; older recordings timed
// kernels that spent their time in local memory, so their block cycles say nothing about the model.)
//   every program of the catalogue appears at >= 3 parameter points in some recording
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/crosscheck/program_adapter.hpp"

namespace {

using namespace tilesim::gpu;
using namespace tilesim::util;

json_value read_json(const std::filesystem::path& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return parse_json(s.str(), json_duplicates::keep);  // as every recording is read (json.hpp)
}

// The catalogue's recordings: data/recordings/*.json written by `tilesim-gpu crosscheck` (a user program's
// tilesim::gpu::crosscheck report and `tilesim-gpu props` runs are replayed by their own tests).
std::vector<std::filesystem::path> recordings() {
  std::vector<std::filesystem::path> v;
  const std::filesystem::path dir = "data/recordings";
  if (std::filesystem::is_directory(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".json" && read_json(e.path())["tool"].string() == "tilesim-gpu crosscheck")
        v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}


}  // namespace

TEST_CASE("the catalogue's points survive JSON: point_from_json(to_json(p)) describes the same run") {
  for (const crosscheck_point& p : catalogue()) {
    CAPTURE(p.name);
    const crosscheck_point q = point_from_json(parse_json(dump(to_json(p))));
    CHECK(dump(to_json(q)) == dump(to_json(p)));
    const point_inputs a = make_inputs(p, 11), b = make_inputs(q, 11);
    CHECK(a.buffers == b.buffers);
  }
}

TEST_CASE("outputs are poisoned and a missed element is reported with block, thread, coordinate and values") {
  const crosscheck_point p = catalogue().front();  // copy fp16 64x32
  point_inputs in = make_inputs(p, 3);
  simulated s = simulate(p, in);
  CHECK(check_output(p, in, in.buffers, &s).mismatches == static_cast<long long>(in.buffers[1].size() / 2));
  CHECK(check_output(p, in, s.buffers, &s).mismatches == 0);
  std::vector<byte_buffer> broken = s.buffers;
  const std::size_t element = 64 * 32 + 5 * 32 + 9;  // block 1, row 69, col 9
  broken[1][2 * element] ^= 0x01;
  const output_check c = check_output(p, in, broken, &s);
  CHECK(c.mismatches == 1);
  CHECK(c.first_mismatch.find("block 1 thread ") == 0);
  CHECK(c.first_mismatch.find("(row 69, col 9): expected 0x") != std::string::npos);
}

TEST_CASE("a GEMM result off by more than k * 2^-23 * sum|a*b| is a mismatch; within it is not") {
  crosscheck_point p;
  for (const crosscheck_point& q : catalogue())
    if (q.program == "gemm_fp32") {
      p = q;
      break;
    }
  REQUIRE(p.program == "gemm_fp32");
  point_inputs in = make_inputs(p, 5);
  simulated s = simulate(p, in);
  const output_check ok = check_output(p, in, s.buffers, &s);
  CHECK(ok.mismatches == 0);
  CHECK(ok.max_error <= 1.0);
  std::vector<byte_buffer> broken = s.buffers;
  float c0;
  std::memcpy(&c0, broken[2].data(), 4);
  c0 += 0.5f;
  std::memcpy(broken[2].data(), &c0, 4);
  const output_check bad = check_output(p, in, broken, &s);
  CHECK(bad.mismatches == 1);
  CHECK(bad.first_mismatch.find("block 0 thread 0 (row 0, col 0): expected") == 0);
}

// The first catalogue point of `program` (fails the test when there is none).
crosscheck_point first_of(const std::string& program) {
  for (const crosscheck_point& q : catalogue())
    if (q.program == program) return q;
  FAIL("no catalogue point runs that program");
  throw;
}

TEST_CASE("every example's sm90 cases are catalogue points, and their outputs check on the simulator") {
  std::map<std::string, int> per_example;
  for (const crosscheck_point& p : catalogue()) {
    if (p.example.empty()) continue;
    CAPTURE(p.name);
    ++per_example[p.example];
    CHECK(p.name.rfind("example " + p.example + ": ", 0) == 0);
    CHECK(p.wave_size == 32);
    const point_inputs in = make_inputs(p, 21);
    const simulated s = simulate(p, in);
    CHECK(s.run.clean());
    CHECK(check_output(p, in, s.buffers, &s).mismatches == 0);
    CHECK(check_output(p, in, in.buffers, &s).mismatches > 0);  // the poisoned output is caught
  }
  CHECK(per_example == std::map<std::string, int>{{"conv", 6}, {"cute-swizzle", 9}, {"gemm", 7},
                                                  {"lds-index-swap", 8}, {"morton", 4}, {"synthesized", 6}});
}

TEST_CASE("a Morton read off by one texel is a mismatch naming the texel; a convolution off by 0.5 names its element") {
  const crosscheck_point m = first_of("morton_f32");
  point_inputs in = make_inputs(m, 4);
  simulated s = simulate(m, in);
  std::vector<byte_buffer> broken = s.buffers;
  broken[1][4 * (3 * 64 + 5)] ^= 0x01;  // texel (3, 5) of the 64-wide output
  const output_check c = check_output(m, in, broken, &s);
  CHECK(c.mismatches == 1);
  CHECK(c.first_mismatch.rfind("texel (3, 5): expected ", 0) == 0);

  const crosscheck_point v = first_of("conv_f32");
  in = make_inputs(v, 4);
  s = simulate(v, in);
  CHECK(check_output(v, in, s.buffers, &s).mismatches == 0);
  broken = s.buffers;
  float o;
  std::memcpy(&o, broken[2].data(), 4);
  o += 0.5f;
  std::memcpy(broken[2].data(), &o, 4);
  const output_check bad = check_output(v, in, broken, &s);
  CHECK(bad.mismatches == 1);
  CHECK(bad.first_mismatch.rfind("out(n, ho, wo, co) = (0, 0, 0, 0) = ", 0) == 0);
}

TEST_CASE("a recorded example case that examples/ no longer has is an error naming it") {
  const crosscheck_point m = first_of("morton_f32");
  std::string text = dump(to_json(m));
  text.replace(text.find(m.name), m.name.size(), "example morton: a case that is gone");
  CHECK_THROWS_WITH_AS(point_from_json(parse_json(text)), doctest::Contains("a case that is gone"), json_error);
}

TEST_CASE("every recording in data/recordings replays on the simulator: counters exact, outputs equal") {
  const auto files = recordings();
  REQUIRE_MESSAGE(!files.empty(), "no recording in data/recordings/ (tilesim-gpu crosscheck --report writes one)");
  std::map<std::string, std::set<std::string>> points_per_program;
  for (const auto& path : files) {
    CAPTURE(path.string());
    const json_value r = read_json(path);
    for (const char* key : {"date", "command"}) CHECK_MESSAGE(!r[key].string().empty(), key);
    CHECK(!r["device"]["name"].string().empty());
    CHECK(!r["device"]["driver"].string().empty());
    std::map<std::string, std::vector<double>> recorded_errors, errors;  // per program
    std::vector<double> loop_errors, recorded_loop_errors;                // lds_sweep loops, baseline subtracted
    for (const json_value& row : r["points"].elements()) {
      const crosscheck_point p = point_from_json(row);
      CAPTURE(p.name);
      points_per_program[row["program"].string()].insert(p.name);
      CHECK(row["gpu_output"]["mismatches"].number() == 0);
      CHECK(row["simulator_output"]["mismatches"].number() == 0);
      const point_inputs in = make_inputs(p, read_u64(row["seed"], "seed of " + p.name));
      const simulated s = simulate(p, in);
      CHECK(check_output(p, in, s.buffers, &s).mismatches == 0);
      REQUIRE_MESSAGE(row["hardware"].get("counters"), "recorded without --counters");
      // counters_from_json reads a recording made before local memory was counted as local 0.
      const json_value predicted = to_json(s.predicted),
                       measured = to_json(counters_from_json(row["hardware"]["counters"]));
      for (const auto& member : predicted.members()) {  // no structured binding: clang 14 cannot capture one
        const std::string& name = member.first;
        const double sim_value = member.second.number(), gpu_value = measured[name].number();
        CHECK_MESSAGE(sim_value == gpu_value, name << ": simulator " << sim_value << ", GPU " << gpu_value);
      }
      const double hw = row["hardware"]["cycles_per_block_median"].number();
      errors[row["program"].string()].push_back(std::fabs(s.cycles_per_workgroup - hw) / hw);
      if (const json_value* base = row.get("baseline_zero_iterations")) {  // the LDS-bound loop alone
        const program_adapter& a = p.adapter();
        const bool has_loop_count = a.with_iterations != nullptr;
        REQUIRE_MESSAGE(has_loop_count, "a zero-iteration baseline recorded for a program without a loop count");
        const crosscheck_point zero = a.with_iterations(p, 0);
        const double sim0 = simulate(zero, make_inputs(zero, in.seed)).cycles_per_workgroup;
        const double gpu_loop = hw - (*base)["gpu_cycles_per_block_median"].number();
        loop_errors.push_back(std::fabs((s.cycles_per_workgroup - sim0) - gpu_loop) / gpu_loop);
        recorded_loop_errors.push_back(std::fabs(row["loop_cycle_error"].number()));
      }
      recorded_errors[row["program"].string()].push_back(std::fabs(row["cycle_error"].number()));
    }
    if (!loop_errors.empty()) {
      MESSAGE(path.string() << ": LDS-bound loops: median |cycle error| " << 100 * median(loop_errors)
                            << " % (recorded " << 100 * median(recorded_loop_errors) << " %)");
      CHECK(median(loop_errors) <= median(recorded_loop_errors) + 0.02);
      CHECK(median(loop_errors) <= 0.15);  // the target for LDS-bound programs
    }
    for (const auto& entry : errors)
      MESSAGE(path.string() << ": " << entry.first << ": median |cycle error| " << 100 * median(entry.second)
                            << " % (recorded " << 100 * median(recorded_errors[entry.first]) << " %)");
  }
  std::set<std::string> programs;
  for (const crosscheck_point& p : catalogue()) programs.insert(to_json(p)["program"].string());
  for (const std::string& prog : programs)
    CHECK_MESSAGE(points_per_program[prog].size() >= 3, prog << " has " << points_per_program[prog].size()
                                                             << " recorded parameter points; at least 3 are required");
}
