// tilesim/cli/examples.test.cpp: `tilesim examples` (the main job), tested by running the built binary ($TILESIM).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/tilesim_process.test.hpp"

using namespace tilesim::testing;

namespace {
// The table rows of one example (lines starting with its name).
std::vector<std::string> rows_of(const result& r, const std::string& example) {
  std::vector<std::string> v;
  for (const std::string& l : lines(r.out))
    if (l.rfind(example + " ", 0) == 0) v.push_back(l);
  return v;
}
}  // namespace

TEST_CASE("examples --only gemm: one row per variant, a header, the totals line, one heat map each, exit 0") {
  const std::string dir = temp_path("tilesim-heatmaps");
  std::filesystem::remove(dir);  // the command creates it
  const result r = run_tilesim({"examples", "--only", "gemm", "--svg-dir", dir});
  CHECK(r.code == 0);
  CHECK(r.out.rfind("example  variant", 0) == 0);
  const std::vector<std::string> gemm = rows_of(r, "gemm");
  CHECK(gemm.size() == 10);  // 6 tile-window GEMMs, 4 matrix-core GEMMs
  for (const std::string& row : gemm) CHECK(row.find("pass: C == Eigen (max |err| 0)") != std::string::npos);
  CHECK(r.out.find("10 variants: 10 passed, 0 failed; 10 bank heat maps in " + dir + "/") != std::string::npos);
  // The progress went to stderr, one line per variant (not a terminal), the table alone to stdout.
  CHECK(r.err.find("[ 1/10] gemm row-major, 32x32x8 (sm90)") != std::string::npos);
  CHECK(r.err.find("[10/10] gemm mma.sync ck-xor 2025, 128x128x32 (sm90)") != std::string::npos);
  int svgs = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    CHECK(e.path().extension() == ".svg");
    CHECK(slurp(e.path().string()).rfind("<svg", 0) == 0);
    ++svgs;
  }
  CHECK(svgs == 10);
  CHECK(std::filesystem::exists(dir + "/gemm_ck-xor-32x32x8_gfx942.svg"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("examples --arch gfx942 --only gemm --no-svg: the three gfx942 rows, no heat map") {
  const result r = run_tilesim({"examples", "--only", "gemm", "--arch", "gfx942", "--no-svg"});
  CHECK(r.code == 0);
  const std::vector<std::string> gemm = rows_of(r, "gemm");
  REQUIRE(gemm.size() == 3);
  for (const std::string& row : gemm) CHECK(row.find(" gfx942 ") != std::string::npos);
  CHECK(r.out.find("3 variants: 3 passed, 0 failed\n") != std::string::npos);
}

TEST_CASE("examples: bad input is one error line and exit 2, with nothing on stdout") {
  struct bad {
    std::vector<std::string> args;
    std::string says;
  };
  const bad cases[] = {
      {{"examples", "--only", "nope"}, "--only: no example 'nope' (examples: "},
      {{"examples", "--arch", "gfx1100"}, "--arch: no variant runs on 'gfx1100'"},
      {{"examples", "--frobnicate"}, "unknown argument '--frobnicate' for examples"},
      {{"examples", "--no-svg", "--svg-dir", "x"}, "--svg-dir and --no-svg exclude each other"},
      {{"examples", "--only"}, "--only"},
  };
  for (const bad& b : cases) {
    std::string command = "tilesim";
    for (const std::string& a : b.args) command += " " + a;
    CAPTURE(command);
    const result r = run_tilesim(b.args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(b.says) != std::string::npos);
  }
}

TEST_CASE("examples: an --svg-dir that cannot be made is exit 2, naming the path") {
  const std::string file = temp_path("tilesim-not-a-dir");  // a file: no folder can be made under it
  const result r = run_tilesim({"examples", "--only", "gemm", "--svg-dir", file + "/sub"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--svg-dir: cannot create '" + file + "/sub'") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("README.md's main-job table is exactly what tilesim examples prints today") {
  const std::string readme = slurp("README.md");  // the test runs in the repository root
  const std::size_t section = readme.find("## The main job: `tilesim examples`");
  REQUIRE(section != std::string::npos);
  const std::size_t open = readme.find("```text\n", section), close = readme.find("```\n", open + 8);
  REQUIRE(open != std::string::npos);
  REQUIRE(close != std::string::npos);
  const std::string shown = readme.substr(open + 8, close - open - 8);
  const result r = run_tilesim({"examples", "--no-svg"});
  REQUIRE(r.code == 0);
  // The table is the same line for line; the totals line names the folder scripts/run.sh writes to.
  const std::string table = r.out.substr(0, r.out.find("\n\n") + 2);
  CHECK(shown.substr(0, table.size()) == table);
  const std::string totals = r.out.substr(table.size());  // "81 variants: 81 passed, 0 failed\n"
  // scripts/run.sh writes one heat map per row with LDS accesses (the rows whose LDS column is not "-").
  std::istringstream rows(table.substr(table.find('\n') + 1));
  int maps = 0;
  for (std::string row; std::getline(rows, row);) {
    const std::string numbers = row.substr(0, row.find("pass:"));  // "ideal / actual" once for sectors, once for LDS
    int pairs = 0;
    for (std::size_t i = numbers.find(" / "); i != std::string::npos; i = numbers.find(" / ", i + 1)) ++pairs;
    maps += pairs == 2;
  }
  CHECK(shown.substr(table.size()) == totals.substr(0, totals.size() - 1) + "; " + std::to_string(maps) +
                                          " bank heat maps in build-release/heatmaps/\n");
}
