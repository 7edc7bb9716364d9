// tilesim/cli/run.test.cpp: `tilesim run`, tested by running the built binary ($TILESIM).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/tilesim_process.test.hpp"

using namespace tilesim::testing;

namespace {
// The words of the report line of one instruction ("lds load" -> {"lds", "load", "lds", "load", "16", ...}).
std::vector<std::string> row(const result& r, const std::string& label) {
  for (const std::string& l : lines(r.out))
    if (l.rfind(label + " ", 0) == 0) return words(l);
  FAIL("no line for " << label << " in:\n" << r.out);
  return {};
}
}  // namespace

TEST_CASE("run copy on gfx942: row-major read down the rows is 2-way (64 wavefronts, ideal 32); ck-xor is 32, 1-way") {
  const result row_major = run_tilesim({"run", "copy"});
  CHECK(row_major.code == 0);
  CHECK(row_major.out.find("result: output == input (2048 elements)") != std::string::npos);
  const std::vector<std::string> a = row(row_major, "lds load");
  // label(2) space op B/lane inst wavefronts ideal N-way wf/inst sectors ideal cycles issue LDS global barrier
  REQUIRE(a.size() == 17);
  CHECK(a[5] == "4");
  CHECK(a[6] == "64");
  CHECK(a[7] == "32");
  CHECK(a[8] == "2");
  CHECK(a[9] == "16");  // wavefronts per instance: 64 / 4 (8 phases of ds_read_b128, each 2-way)
  const std::vector<std::string> s = row(row_major, "global load");
  CHECK(s[9] == "-");
  CHECK(s[10] == "128");
  CHECK(row_major.out.find("findings: none") != std::string::npos);

  const result xr = run_tilesim({"run", "copy", "--layout", "ck-xor"});
  const std::vector<std::string> b = row(xr, "lds load");
  CHECK(b[6] == "32");
  CHECK(b[8] == "1");
}

TEST_CASE("run shows where each instruction's cycles went (issue + LDS + global), each barrier's wait, and a verdict") {
  const result r = run_tilesim({"run", "copy", "--arch", "sm90"});
  CHECK(r.code == 0);
  for (const char* label : {"global load", "lds store", "lds load", "global store"}) {
    CAPTURE(label);
    const std::vector<std::string> w = row(r, label);
    REQUIRE(w.size() == 17);
    const double cycles = std::stod(w[12]), issue = std::stod(w[13]), lds = std::stod(w[14]), global = std::stod(w[15]);
    CHECK(cycles == doctest::Approx(issue + lds + global).epsilon(0.01));
    CHECK(issue >= 1);
    CHECK(w[16] == "-");
  }
  const std::vector<std::string> b = row(r, "barrier 1");
  REQUIRE(b.size() == 17);
  CHECK(b[5] == "8");            // 8 warps passed it ("barrier 1" is two words)
  CHECK(std::stod(b[16]) >= 0);  // their mean wait
  CHECK(r.out.find("\nbottleneck: latency-bound: ") != std::string::npos);
  CHECK(r.out.find("(1 per SM, limited by the grid (1 workgroup on 132 SMs))") != std::string::npos);
}

TEST_CASE("run: wf/inst is wavefronts / inst for every LDS row (text and JSON); N-way is the worst phase, not that") {
  // sm90 copy, row-major, down-rows read: LDS.128 = 4 phases of 8 lanes, each 4-way: 16 wavefronts per
  // instruction (what Nsight's source view shows), N-way 4. The law: wf/inst * inst == wavefronts, and
  // N-way <= wf/inst <= N-way * phases.
  const result r = run_tilesim({"run", "copy", "--arch", "sm90"});
  REQUIRE(r.code == 0);
  for (const char* label : {"lds store", "lds load"}) {
    CAPTURE(label);
    const std::vector<std::string> w = row(r, label);
    REQUIRE(w.size() == 17);
    const double inst = std::stod(w[5]), wavefronts = std::stod(w[6]), ways = std::stod(w[8]), per = std::stod(w[9]);
    CHECK(per * inst == doctest::Approx(wavefronts));
    CHECK(ways <= per);
    CHECK(per <= ways * 4);
  }
  const std::vector<std::string> load = row(r, "lds load");
  CHECK(load[6] == "128");
  CHECK(load[8] == "4");
  CHECK(load[9] == "16");
  CHECK(r.out.find("\nN-way: the most distinct 4-byte words one bank serves in one phase") != std::string::npos);
  CHECK(r.out.find("\nwf/inst: wavefronts / inst") != std::string::npos);
  const result j = run_tilesim({"run", "copy", "--arch", "sm90", "--json"});
  CHECK(j.out.find("\"wavefronts\": 128, \"ideal_wavefronts\": 32, \"excess_wavefronts\": 96, \"max_ways\": 4, "
                   "\"wavefronts_per_instruction\": 16.000") != std::string::npos);
}

TEST_CASE("run copy --json gives one object with every instruction and the totals") {
  const result r = run_tilesim({"run", "copy", "--arch", "sm90", "--json"});
  CHECK(r.code == 0);
  REQUIRE(!r.out.empty());
  CHECK(r.out.front() == '{');
  CHECK(r.out.find("\"arch\": \"sm90\"") != std::string::npos);
  for (const char* label : {"global load", "lds store", "lds load", "global store"})
    CHECK(r.out.find(std::string("\"label\": \"") + label + "\"") != std::string::npos);
  CHECK(r.out.find("\"cycles_per_workgroup\"") != std::string::npos);
  for (const char* key : {"\"issue_cycles\"", "\"lds_cycles\"", "\"global_cycles\"", "\"barriers\"", "\"wait\"",
                          "\"verdict\": \"latency-bound", "\"resident_workgroups\": 1", "\"busy\""})
    CHECK_MESSAGE(r.out.find(key) != std::string::npos, key);
}

TEST_CASE("run copy --svg writes the bank heat map, which rsvg-convert renders when installed") {
  const std::string svg = temp_path("tilesim-heat") + ".svg";
  const result r = run_tilesim({"run", "copy", "--svg", svg});
  CHECK(r.code == 0);
  const std::string text = slurp(svg);
  CHECK(text.find("<svg") == 0);
  CHECK(text.find("lds load: gfx942 load 16 B/lane; 16 wavefronts (ideal 8), 2-way") != std::string::npos);
  if (std::system("command -v rsvg-convert > /dev/null 2>&1") == 0) {
    const std::string png = svg + ".png";
    CHECK(std::system(("rsvg-convert '" + svg + "' -o '" + png + "'").c_str()) == 0);
    std::remove(png.c_str());
  }
  std::remove(svg.c_str());
}

TEST_CASE("run: bad programs, options and parameters are one error line with exit code 2") {
  const std::vector<std::vector<std::string>> bad = {
      {"run"},
      {"run", "fft"},
      {"run", "copy", "--layout", "diagonal"},
      {"run", "copy", "--rows", "0"},
      {"run", "copy", "--cols", "30"},               // the warp-raked pattern needs vector | cols
      {"run", "copy", "--threads", "100"},           // not a whole number of waves for the pattern
      {"run", "copy", "--svg", "/nonexistent-dir/heat.svg"},
      {"run", "copy", "--arch", "sm91"},
  };
  for (const auto& args : bad) {
    const result r = run_tilesim(args);
    INFO(args.back());
    CHECK(r.code == 2);
    CHECK(r.err.rfind("tilesim: error: ", 0) == 0);
    CHECK(lines(r.err).size() == 1);
  }
}

TEST_CASE("run --help names the program and every option") {
  const result r = run_tilesim({"run", "--help"});
  CHECK(r.code == 0);
  for (const char* o : {"--arch", "--layout", "--read", "--rows", "--cols", "--json", "--svg"})
    CHECK(r.out.find(o) != std::string::npos);
}

TEST_CASE("run gemm on gfx942: C equals the host GEMM; row-major A fragments read 8-way, CK XOR conflict-free") {
  const result xr = run_tilesim({"run", "gemm"});
  CHECK(xr.code == 0);
  CHECK(xr.out.find("result: C == host reference (4096 elements)") != std::string::npos);
  CHECK(xr.out.find("findings: none") != std::string::npos);
  const std::vector<std::string> a = row(xr, "A lds load");
  REQUIRE(a.size() == 18);  // "A lds load" is three words
  CHECK(a[7] == "2048");  // wavefronts (one word later than a one-word label's row)
  CHECK(a[9] == "1");
  const result rm = run_tilesim({"run", "gemm", "--layout", "row-major"});
  const std::vector<std::string> b = row(rm, "A lds load");
  CHECK(b[7] == "16384");
  CHECK(b[8] == "2048");
  CHECK(b[9] == "8");
}

TEST_CASE("run gemm: sizes that are not whole block tiles are one error line with exit code 2") {
  for (const char* m : {"60", "0"}) {
    const result r = run_tilesim({"run", "gemm", "--m", m});
    CHECK(r.code == 2);
    CHECK(r.err.rfind("tilesim: error: ", 0) == 0);
  }
}

TEST_CASE("run copy --read operand reproduces the LDS index-swap example: gfx942 MFMA read, 2024 order 2-way, 2025 1-way") {
  // examples/lds_index_swap: 128 x 32 fp16, vector 8, 256 threads; LDS load 128 wavefronts (2024) vs 64 (2025), ideal 64.
  for (const char* order : {"2024", "2025"}) {
    CAPTURE(order);
    const result r = run_tilesim({"run", "copy", "--arch", "gfx942", "--layout", "ck-xor", "--ck-order", order, "--read",
                                  "operand", "--lane-rows", "32", "--rows", "128", "--cols", "32"});
    CHECK(r.code == 0);
    CHECK(r.out.find("result: output == input (4096 elements)") != std::string::npos);
    const std::vector<std::string> a = row(r, "lds load");
    REQUIRE(a.size() == 17);
    CHECK(a[6] == (std::string(order) == "2024" ? "128" : "64"));  // wavefronts
    CHECK(a[7] == "64");                                             // ideal
  }
  const result bad = run_tilesim({"run", "copy", "--read", "operand", "--lane-rows", "24"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("lane rows R = 24") != std::string::npos);
}

namespace {
// Writes `text` to a fresh temporary file and returns its path.
std::string file_with(const std::string& text) {
  const std::string path = temp_path("tilesim-partial");
  std::ofstream(path) << text;
  return path;
}
}  // namespace

TEST_CASE("run --jobs N: the output does not depend on the number of worker threads (text and JSON)") {
  // The law of the streamed run: set prices merge exactly, so any thread count prints the same bytes.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "copy", "--grid", "12", "--arch", "sm90"},
        std::vector<std::string>{"run", "gemm", "--m", "128", "--n", "128", "--k", "64", "--json"}}) {
    std::vector<std::string> one = args, three = args;
    one.insert(one.end(), {"--jobs", "1"});
    three.insert(three.end(), {"--jobs", "3"});
    const result a = run_tilesim(one), b = run_tilesim(three), all = run_tilesim(args);
    CHECK(a.code == 0);
    CHECK(a.out == b.out);
    CHECK(a.out == all.out);
  }
}

TEST_CASE("run --workgroups A:B prints partial reports that tilesim merge joins into the unsharded output") {
  // The law of sharding: slices that cover the run order once merge into the single process's bytes, in any order.
  const std::vector<std::string> base = {"run", "copy", "--grid", "10", "--arch", "sm90", "--layout", "padded"};
  const result whole = run_tilesim(base);
  std::vector<std::string> json_args = base;
  json_args.push_back("--json");
  const result whole_json = run_tilesim(json_args);
  std::vector<std::string> parts;
  for (const char* slice : {"7:10", "0:3", "3:7"}) {
    std::vector<std::string> a = base;
    a.insert(a.end(), {"--workgroups", slice, "--jobs", "2"});
    const result r = run_tilesim(a);
    CHECK(r.code == 0);
    CHECK(r.out.find("\"schema\": \"tilesim.program-partial/1\"") != std::string::npos);
    parts.push_back(file_with(r.out));
  }
  const result merged = run_tilesim({"merge", parts[0], parts[1], parts[2]});
  CHECK(merged.code == 0);
  CHECK(merged.out == whole.out);
  const result merged_json = run_tilesim({"merge", "--json", parts[1], parts[2], parts[0]});
  CHECK(merged_json.out == whole_json.out);

  const result missing = run_tilesim({"merge", parts[0], parts[1]});
  CHECK(missing.code == 2);
  CHECK(missing.err == "tilesim: error: merge: no partial priced set 3 of 10 (a --workgroups slice is missing)\n");
  const result twice = run_tilesim({"merge", parts[0], parts[1], parts[2], parts[1]});
  CHECK(twice.code == 2);
  CHECK(twice.err.find("both priced set 0 (their --workgroups slices overlap)") != std::string::npos);
  std::vector<std::string> other = {"run", "copy", "--grid", "10", "--arch", "sm90", "--workgroups", "0:3"};
  const std::string other_part = file_with(run_tilesim(other).out);
  const result mixed = run_tilesim({"merge", other_part, parts[0], parts[2]});
  CHECK(mixed.code == 2);
  CHECK(mixed.err.find("is of another run: its command is 'run copy --arch sm90 --layout padded") != std::string::npos);
  const std::string junk = file_with("{\"schema\": \"tilesim.program-report/1\"}");
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"merge"}, std::vector<std::string>{"merge", junk},
                                              std::vector<std::string>{"merge", "/nonexistent/part.json"},
                                              std::vector<std::string>{"merge", "--svgg", parts[0]}}) {
    const result r = run_tilesim(bad);
    INFO(bad.back());
    CHECK(r.code == 2);
    CHECK(r.err.rfind("tilesim: error: merge: ", 0) == 0);
    CHECK(lines(r.err).size() == 1);
  }
  for (const std::string& p : parts) unlink(p.c_str());
  unlink(other_part.c_str());
  unlink(junk.c_str());
}

TEST_CASE("run: bad --jobs and --workgroups values are one error line with exit code 2") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"run", "copy", "--jobs", "-1"}, "option --jobs must be in [0, 1024] (got -1)"},
      {{"run", "copy", "--jobs", "two"}, "option --jobs: 'two' is not an integer"},
      {{"run", "copy", "--workgroups", "3"}, "option --workgroups: '3' is not A:B"},
      {{"run", "copy", "--workgroups", "5:2"}, "option --workgroups: '5:2' needs 0 <= A < B"},
      {{"run", "copy", "--grid", "4", "--workgroups", "0:9"}, "option --workgroups: 0:9 lies outside the grid's 4 workgroups"},
      {{"run", "gemm", "--workgroups", "0:1", "--svg", "x.svg"}, "--svg: not with --workgroups"},
  };
  for (const auto& entry : bad) {  // no structured binding: clang 14 cannot capture one in INFO
    const std::string& message = entry.second;
    const result r = run_tilesim(entry.first);
    INFO(message);
    CHECK(r.code == 2);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK(lines(r.err).size() == 1);
  }
}

TEST_CASE("run --progress leaves stdout as it was and writes nothing but progress lines on stderr") {
  const result plain = run_tilesim({"run", "copy", "--grid", "6"});
  const result shown = run_tilesim({"run", "copy", "--grid", "6", "--progress"});
  CHECK(shown.code == 0);
  CHECK(shown.out == plain.out);
  for (const std::string& l : lines(shown.err)) CHECK(l.rfind("tilesim run: [", 0) == 0);  // only after a second
}

TEST_CASE("run --sample K prices some SM sets of every behaviour and extrapolates the grid; counts exact for the GEMM") {
  // The GEMM's tiles issue the same instructions wherever they lie, so the extrapolated counts equal the full
  // run's (with no error), while only the sampled workgroups were simulated and checked.
  const std::vector<std::string> base = {"run", "gemm", "--m", "512", "--n", "256", "--k", "32", "--arch", "sm90"};
  std::vector<std::string> sampled = base;
  sampled.insert(sampled.end(), {"--sample", "12"});
  const result full = run_tilesim(base), s = run_tilesim(sampled);
  CHECK(s.code == 0);
  CHECK(s.out.find("result: C == host reference on the ") != std::string::npos);
  CHECK(s.out.find("sample: ") != std::string::npos);
  CHECK(s.out.find("95 % error: LDS wavefronts +- 0, global sectors +- 0") != std::string::npos);
  auto totals = [](const result& r) {
    for (const std::string& l : lines(r.out))
      if (l.rfind("totals: ", 0) == 0) return l.substr(0, l.find("; predicted"));
    return std::string();
  };
  CHECK(totals(s) == totals(full));
  sampled.push_back("--json");
  const result j = run_tilesim(sampled);
  CHECK(j.out.find("\"schema\": \"tilesim.program-sample/1\"") != std::string::npos);
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"run", "copy", "--sample", "0"}, "option --sample must be >= 1 (got 0)"},
           {{"run", "copy", "--workgroups", "0:1", "--sample", "3"}, "option --sample: not with --workgroups"}}) {
    const result r = run_tilesim(args);
    CHECK(r.code == 2);
    CHECK(r.err.find(message) != std::string::npos);
  }
}
