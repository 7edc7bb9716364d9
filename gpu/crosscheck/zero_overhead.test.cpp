// tilesim/gpu/crosscheck/zero_overhead.test.cpp: the price tags a device measured, held to their targets in CI.
//
// A recording made with the hand-written twins (gpu/reference: `tilesim-gpu crosscheck` prints and records
// them per point: registers, local bytes per thread, tilesim and hand-written cycles per block) and the
// files recorded beside it (cuobjdump --dump-resource-usage of the binary, compute-sanitizer's four tools)
// must show what the zero-overhead issue asks of every catalogue kernel. The laws:
//   every point of today's catalogue is in the priced recording (a new kernel gets a price tag)
//   every point: 0 local bytes per thread (the runtime's attributes), 0 local-memory sectors (Nsight Compute),
//     at most 128 registers
//   tilesim cycles / hand-written cycles: copies (fp16, fp32, the LDS examples) and GEMMs each <= 1.10 and
//     their median <= 1.05; Morton reads and convolutions <= 1.25; the scalar transpose <= 1.10; the LDS
//     sweep <= 1.10; the matrix-core GEMM (ldmatrix + mma.sync) <= 1.15
//   cuobjdump: every function of the binary has STACK:0, LOCAL:0 and REG <= 128
//   compute-sanitizer memcheck, initcheck, racecheck and synccheck each found 0 errors while launching every
//     catalogue kernel (tilesim-gpu counters-pass logs one line per launch, with its output check)
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "gpu/crosscheck/crosscheck.hpp"

namespace {

using namespace tilesim::gpu;
using namespace tilesim::util;

const std::filesystem::path dir = "data/recordings";

std::string read_text(const std::filesystem::path& path) {
  std::ifstream f(path);
  REQUIRE_MESSAGE(f, "cannot read " << path.string());
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The recordings whose points carry hand-written cycles (the priced ones), the newest (by its "date") last.
std::vector<std::filesystem::path> priced_recordings() {
  std::vector<std::pair<std::string, std::filesystem::path>> dated;
  if (std::filesystem::is_directory(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() != ".json") continue;
      const std::string text = read_text(e.path());
      if (text.find("\"hand_written\"") != std::string::npos &&
          text.find("\"tool\": \"tilesim-gpu crosscheck\"") != std::string::npos)
        dated.emplace_back(parse_json(text, json_duplicates::keep)["date"].string(), e.path());  // ISO 8601 UTC: sorts as text
    }
  std::sort(dated.begin(), dated.end());
  std::vector<std::filesystem::path> v;
  for (const auto& d : dated) v.push_back(d.second);
  return v;
}

// The ratio limit of a program, and whether it belongs to the median <= 1.05 group (copies and GEMMs).
double ratio_limit(const std::string& program) {
  if (program == "mma_gemm_f16") return 1.15;  // issue 13: the matrix-core GEMM within 1.15x of a hand-written mma.sync GEMM
  return program == "morton_f32" || program == "conv_f32" ? 1.25 : 1.10;
}
bool in_median_group(const std::string& program) {
  return program == "copy_fp16" || program == "copy_fp32" || program == "gemm_fp32";
}

}  // namespace

TEST_CASE("zero overhead: the priced recording covers every catalogue point; each has 0 local bytes, 0 local sectors, <= 128 registers, and its cycle ratio within target") {
  const auto files = priced_recordings();
  REQUIRE_MESSAGE(!files.empty(), "no priced recording in data/recordings/ (tilesim-gpu crosscheck --report with gpu/reference linked)");
  const json_value r = parse_json(read_text(files.back()), json_duplicates::keep);
  CAPTURE(files.back().string());
  std::set<std::string> recorded;
  std::vector<double> median_group;
  for (const json_value& row : r["points"].elements()) {
    const std::string name = row["name"].string(), program = row["program"].string();
    CAPTURE(name);
    recorded.insert(name);
    const json_value& hw = row["hardware"];
    CHECK(hw["local_bytes_per_thread"].number() == 0);
    CHECK(hw["registers"].number() <= 128);
    CHECK(hw["counters"]["local_sectors_ld"].number() == 0);
    CHECK(hw["counters"]["local_sectors_st"].number() == 0);
    REQUIRE_MESSAGE(row.get("hand_written"), "no hand-written twin was run for this point");
    CHECK(row["hand_written"]["output"]["mismatches"].number() == 0);
    const double ratio = row["tilesim_over_hand_written"].number();
    CHECK_MESSAGE(ratio <= ratio_limit(program), program << ": tilesim / hand-written = " << ratio);
    if (in_median_group(program)) median_group.push_back(ratio);
  }
  for (const crosscheck_point& p : catalogue()) CHECK_MESSAGE(recorded.count(p.name) == 1, "not in the recording: " << p.name);
  MESSAGE("copies and GEMMs: median tilesim / hand-written " << median(median_group) << " over " << median_group.size());
  CHECK(median(median_group) <= 1.05);
}

TEST_CASE("zero overhead: cuobjdump says every function of the recorded binary has STACK:0, LOCAL:0 and at most 128 registers") {
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().filename().string().ends_with("resource-usage.txt")) files.push_back(e.path());
  REQUIRE_MESSAGE(!files.empty(), "no *resource-usage.txt in data/recordings/ (cuobjdump --dump-resource-usage tilesim-gpu)");
  for (const auto& path : files) {
    CAPTURE(path.string());
    std::istringstream in(read_text(path));
    const std::regex function(R"(^\s*Function (\S+):)"), usage(R"(REG:(\d+) STACK:(\d+) SHARED:\d+ LOCAL:(\d+))");
    std::string line, name;
    int functions = 0;
    while (std::getline(in, line)) {
      std::smatch m;
      if (std::regex_search(line, m, function)) name = m[1];
      else if (std::regex_search(line, m, usage) && !name.empty()) {
        CAPTURE(name);
        ++functions;
        CHECK(std::stoi(m[1]) <= 128);
        CHECK(std::stoi(m[2]) == 0);
        CHECK(std::stoi(m[3]) == 0);
        name.clear();
      }
    }
    CHECK(functions >= 40);
  }
}

TEST_CASE("zero overhead: compute-sanitizer's memcheck, initcheck, racecheck and synccheck found 0 errors in every catalogue kernel") {
  for (const char* tool : {"memcheck", "initcheck", "racecheck", "synccheck"}) {
    CAPTURE(tool);
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(dir))
      for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().filename().string().ends_with(std::string("sanitizer-") + tool + ".txt")) files.push_back(e.path());
    REQUIRE_MESSAGE(!files.empty(), "no *sanitizer-" << tool << ".txt in data/recordings/");
    for (const auto& path : files) {
      const std::string text = read_text(path);
      CAPTURE(path.string());
      // racecheck ends with its own summary line; the others with ERROR SUMMARY.
      const bool clean = text.find("ERROR SUMMARY: 0 errors") != std::string::npos ||
                         text.find("RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)") != std::string::npos;
      CHECK(clean);
      for (const crosscheck_point& p : catalogue())  // every catalogue kernel ran under the tool, and was right
        CHECK_MESSAGE(text.find("counters-pass: " + p.name + " (") != std::string::npos,
                      "not launched under " << tool << ": " << p.name);
      CHECK(text.find(": output ") != std::string::npos);
      CHECK(text.find("expected") == std::string::npos);  // no output check named a mismatch
    }
  }
}
