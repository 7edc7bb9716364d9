// tilesim/gpu/rtc_props/sanitizer_verdict.test.cpp: compute-sanitizer's real logs (data/recordings/sanitizer-h200/) read.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "gpu/rtc_props/sanitizer_verdict.hpp"

namespace tilesim::gpu::props {
namespace {

std::string recorded_log(const std::string& name) {
  std::ifstream f("data/recordings/sanitizer-h200/" + name);
  REQUIRE_MESSAGE(f.good(), "missing recording data/recordings/sanitizer-h200/", name);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

TEST_SUITE("props-gpu") {

// Law: a run is clean exactly when the tool exits 0 and its own summary line counts nothing; logs recorded on the
// H200 (2026-11-27, compute-sanitizer 2025.3.1) over props-pass's 8-case sample and over faults.cu's two bugs.
TEST_CASE("compute-sanitizer's recorded logs give their verdicts") {
  CHECK(sanitizer_findings("memcheck", 0, recorded_log("memcheck-clean.log")) == "");
  CHECK(sanitizer_findings("racecheck", 0, recorded_log("racecheck-clean.log")) == "");
  // racecheck prints no ERROR SUMMARY line (the harness once read memcheck's line in both and called this unclean).
  CHECK(recorded_log("racecheck-clean.log").find("ERROR SUMMARY") == std::string::npos);
  CHECK(sanitizer_findings("racecheck", 3, recorded_log("racecheck-hazard.log")) ==
        "exit 3: RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)");
  CHECK(sanitizer_findings("memcheck", 3, recorded_log("memcheck-error.log")) == "exit 3: ERROR SUMMARY: 65 errors");
  // racecheck does not see an out-of-bounds store: clean for racecheck, as recorded.
  CHECK(sanitizer_findings("racecheck", 0, recorded_log("racecheck-on-oob.log")) == "");
}

// Law: nothing else reads clean: a nonzero exit under a zero summary, a warning, or a log without the tool's line
// (then the verdict quotes the log's end, where the tool would have said why).
TEST_CASE("a sanitizer run is clean only with its summary and exit 0") {
  const std::string racecheck_clean = recorded_log("racecheck-clean.log");
  CHECK(sanitizer_findings("racecheck", 3, racecheck_clean) ==
        "exit 3: RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)");
  CHECK(sanitizer_findings("racecheck", 0, "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n") ==
        "exit 0: RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)");
  CHECK(sanitizer_findings("memcheck", 0, racecheck_clean).rfind("exit 0, no ERROR SUMMARY line; the log ends: ", 0) == 0);
  const std::string long_log = std::string(1000, 'x') + "killed";
  CHECK(sanitizer_findings("racecheck", 137, long_log) ==
        "exit 137, no RACECHECK SUMMARY line; the log ends: " + std::string(294, 'x') + "killed");
}

}  // TEST_SUITE

}  // namespace tilesim::gpu::props
