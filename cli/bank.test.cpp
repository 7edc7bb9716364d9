// tilesim/cli/bank.test.cpp: `tilesim bank` and `tilesim global`, tested by running the built binary ($TILESIM)
// from the repository root (meson sets both), with stdin, stdout and stderr redirected to temporary files.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/tilesim_process.test.hpp"

using namespace tilesim::testing;

namespace {

// "name 4 load 0 4 8 ..." with n offsets of `step` bytes.
std::string pattern(const std::string& head, int n, int step) {
  std::string s = head;
  for (int i = 0; i < n; ++i) s += " " + std::to_string(step * i);
  return s + "\n";
}

const std::string known = "data/calibration/h200-smem-known.patterns";

}  // namespace

TEST_CASE("bank: the H200 truth file gives the truth wavefronts, cycles within 5 %, in file order, exit 0") {
  const result r = run_tilesim({"bank", "--arch", "sm90", known});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  std::ifstream truth("data/calibration/h200-smem-known.truth.tsv");
  REQUIRE_MESSAGE(truth.good(), "run from the repository root");
  std::string header, line;
  std::getline(truth, header);
  const std::vector<std::string> out = lines(r.out);
  REQUIRE(out.size() == 46);
  std::size_t i = 0;
  while (std::getline(truth, line) && i < out.size()) {
    const std::vector<std::string> t = words(line), o = words(out[i++]);
    REQUIRE(o.size() == 3);
    CHECK(o[0] == t[0]);
    CHECK_MESSAGE(o[1] == t[3], t[0] << ": tilesim " << o[1] << " wavefronts, H200 " << t[3]);
    CHECK_MESSAGE(std::abs(std::stod(o[2]) - std::stod(t[4])) <= 0.05 * std::stod(t[4]), t[0] << ": " << o[2]);
    CHECK(o[2].size() - o[2].find('.') == 4);  // three decimals
  }
  CHECK(out[0] == "ld_w4_linear 1 1.734");
}

TEST_CASE("bank: malformed lines go to stderr with their line numbers, the others are answered, exit 2 at the end") {
  const std::string input = pattern("a 4 load", 32, 4) + pattern("b 12 load", 32, 4) + "# comment\n" +
                            pattern("c 4 load", 31, 4) + pattern("d 16 store", 32, 16);
  const result r = run_tilesim({"bank", "--arch=sm90", "-"}, input);
  CHECK(r.code == 2);
  CHECK(lines(r.out) == std::vector<std::string>{"a 1 1.734", "d 4 4.019"});
  CHECK(lines(r.err) == std::vector<std::string>{"tilesim: error: line 2: width 12 is not one of 1, 2, 4, 8, 16",
                                                 "tilesim: error: line 4: expected 32 offsets for sm90, found 31"});
}

TEST_CASE("bank: no FILE and '-' both read stdin; gfx942 takes 64 offsets per line") {
  const std::string input = pattern("row 4 load", 32, 4);
  CHECK(run_tilesim({"bank", "--arch", "sm90"}, input).out == "row 1 1.734\n");
  CHECK(run_tilesim({"bank", "--arch", "sm90", "-"}, input).out == "row 1 1.734\n");
  const result amd = run_tilesim({"bank", "--arch", "gfx942"}, pattern("col 4 load", 64, 128));
  CHECK(amd.code == 0);
  CHECK(amd.out == "col 64 64.000\n");  // 2 phases x 32-way
}

TEST_CASE("bank --detail appends ideal, excess, max-ways and the hardware view; the default output stays 3 fields") {
  const result r = run_tilesim({"bank", "--arch", "sm90", "--detail"}, pattern("col 16 load", 32, 128));
  CHECK(r.out == "col 32 31.915 ideal=4 excess=28 max_ways=8 passes=32 bank_conflicts=28 pipe_slots=32\n");
}

TEST_CASE("global: sectors per pattern (the H200 global probe file), and --detail") {
  const result r = run_tilesim({"global", "--arch", "sm90", "data/calibration/h200-global-probe.patterns"});
  CHECK(r.code == 0);
  const std::vector<std::string> out = lines(r.out);
  REQUIRE(out.size() == 40);
  CHECK(out[0] == "gld_w4_linear 4");
  CHECK(out[2] == "gld_w4_stride32 32");
  const result d = run_tilesim({"global", "--arch", "sm90", "--detail", "-"}, pattern("off4 4 load", 32, 4));
  CHECK(d.out == "off4 4 lines=1 ideal_sectors=4 ideal_lines=1 bytes=128\n");
  const result bad =
      run_tilesim({"global", "--arch", "sm90"}, pattern("x 4 load", 31, 4) + pattern("y 4 load", 32, 32));
  CHECK(bad.code == 2);
  CHECK(bad.out == "y 32\n");
  CHECK(bad.err == "tilesim: error: line 1: expected 32 offsets for sm90, found 31\n");
}

TEST_CASE("bank/global: usage mistakes print one error line, nothing on stdout, exit 2") {
  const std::map<std::vector<std::string>, std::string> cases = {
      {{"bank", known}, "tilesim: error: bank needs --arch ARCH (one of: sm90, gfx90a, gfx942, gfx950)\n"},
      {{"bank", "--arch", "sm91", known},
       "tilesim: error: unknown architecture 'sm91' (known: sm90, gfx90a, gfx942, gfx950)\n"},
      {{"global", "--arch"}, "tilesim: error: option --arch of global needs a value (sm90, gfx90a, gfx942, gfx950)\n"},
      {{"bank", "--arch", "sm90", "--wide", known},
       "tilesim: error: unknown option --wide for bank (its options: --arch ARCH, --detail, --help)\n"},
      {{"bank", "--arch", "sm90", "no/such.patterns"},
       "tilesim: error: cannot open 'no/such.patterns': No such file or directory\n"},
      {{"bank", "--arch", "sm90", "sim"}, "tilesim: error: cannot read 'sim': it is a directory\n"},
      {{"bank", "--arch", "sm90", known, known},
       "tilesim: error: bank reads one FILE (or - for stdin), got '" + known + "' and '" + known + "'\n"},
      {{"bank", "--arch", "sm90", "--arch", "gfx942", known}, "tilesim: error: option --arch of bank given twice\n"},
  };
  for (const auto& c : cases) {
    const std::string last = c.first.back();  // clang 14: structured bindings cannot be captured
    CAPTURE(last);
    const result r = run_tilesim(c.first);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == c.second);
  }
}

TEST_CASE("bank/global --help explain format, output and errors; tilesim --help lists both commands") {
  const result b = run_tilesim({"bank", "--help"});
  CHECK(b.code == 0);
  CHECK(b.out.rfind("usage: tilesim bank --arch ARCH [--detail] [FILE|-]\n", 0) == 0);
  CHECK(b.out.find("NAME WAVEFRONTS CYCLES") != std::string::npos);
  CHECK(b.out.find("4294967295 = inactive lane") != std::string::npos);
  const result g = run_tilesim({"global", "-h"});
  CHECK(g.out.find("NAME SECTORS") != std::string::npos);
  const result all = run_tilesim({"--help"});
  CHECK(all.out.find("tilesim bank --arch ARCH [FILE|-]") != std::string::npos);
  CHECK(all.out.find("tilesim global --arch ARCH [FILE|-]") != std::string::npos);
}

TEST_CASE("bank: binary garbage and an empty input end with errors or nothing, never a crash") {
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage += static_cast<char>((i * 7919) % 256);
  const result g = run_tilesim({"bank", "--arch", "gfx950"}, garbage);
  CHECK((g.code == 0 || g.code == 2));
  CHECK(g.err.find("internal error") == std::string::npos);
  const result e = run_tilesim({"bank", "--arch", "sm90"}, "");
  CHECK(e.code == 0);
  CHECK(e.out.empty());
}
