// tilesim/gpu/crosscheck/accuracy.test.cpp: the timing model held to the hardware (issue 12's targets), in CI.
//
// The four H100 recordings of the efficient kernels (data/recordings/h100-zero-overhead.json, which the model's
// constants were chosen against, h100-timing.json, recorded afterwards with another seed, h100-fenced-timing.json,
// timed since 6edb4e5 with a block fence before the last barrier, and h100-direct-store-zero-overhead.json, the
// binary since 26ea6fb, whose ldmatrix.x4 copies store the ldmatrix registers as they came: clock64 per block,
// median block of the best of 10), and the H200's (h200-catalogue-seed20261204.json, 2026-11-30, the same catalogue
// and timing; never fitted on), are re-simulated point by point (accuracy.hpp). The laws, per file:
//   median |predicted - measured| / measured over the whole catalogue <= 10 %, and no more than 0.5 points above
//     what the model gives today (a change that makes the model worse fails here);
//   every point within 25 %, except the outliers named below, each within its own bound;
//   the predicted speed-up of each conflict-free variant over its conflicted variant within 10 % of the measured
//     one, except the outliers named below;
//   LDS address arithmetic (data/calibration/h100-address-arithmetic.tsv, the fp32 GEMM's instruction counts):
//     where the GPU executes no more instructions than the padded layout the simulator charges none, and where it
//     executes more (CK-XOR) the simulator charges some, never more than the GPU executed.
// The outliers are what the model does not capture (docs/accuracy.md); a model change that
// brings one inside the target fails the test too, so the list stays true.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "gpu/crosscheck/accuracy.hpp"
#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/crosscheck/recorded_accuracy.test.hpp"

namespace {

using namespace tilesim::gpu;

// The recordings and the median |error| the model gives on each today (with LDS address arithmetic priced,
// 2026-11-25: 0.082 -> 0.081 and 0.078 -> 0.083; the conflict-free speed-ups' median 4.5 % -> 2.5 % and 4.6 % -> 3.9 %).
// With sm90's L2-hit latency for later nearby first touches (2026-11-30; fitted on the four H100 files and two props
// seeds, the H200 file held out): 0.081 -> 0.069, 0.083 -> 0.061, 0.067 -> 0.065, 0.070 -> 0.068; H200 0.066 -> 0.063.
// The K loops' GEMMs moved most: the 32x32x8 example GEMMs +8..+12 % -> -7..-2 %, the mma.sync GEMMs -5..+1 % ->
// -12..-5 % (they now point at a cost the model lacks elsewhere in their steps).
const std::map<std::string, double> recordings = {
    {"data/recordings/h100-zero-overhead.json", 0.069},
    {"data/recordings/h100-timing.json", 0.061},
    {"data/recordings/h100-fenced-timing.json", 0.065},
    {"data/recordings/h100-direct-store-zero-overhead.json", 0.068},
    {"data/recordings/h200-catalogue-seed20261204.json", 0.063},  // H200, 2026-11-30: 6.6 % (6.3 % since the L2 hit), worst 24.6 %
    {"data/recordings/h200-catalogue-seed20261205.json", 0.070},  // H200, recorded after the L2 hit: held out for all
};

// Points and conflict-free pairs per recording (h100-zero-overhead.json adds the matrix-core GEMM, the
// synthesized layouts and lds-index-swap through ldmatrix.x4: 4 + 6 + 4 points, 1 + 3 + 1 pairs).
const std::map<std::string, std::size_t> points = {{"data/recordings/h100-zero-overhead.json", 62},
                                                   {"data/recordings/h100-timing.json", 48},
                                                   {"data/recordings/h100-fenced-timing.json", 62},
                                                   {"data/recordings/h100-direct-store-zero-overhead.json", 62},
                                                   {"data/recordings/h200-catalogue-seed20261204.json", 62},
                                                   {"data/recordings/h200-catalogue-seed20261205.json", 62}};
const std::map<std::string, std::size_t> pairs = {{"data/recordings/h100-zero-overhead.json", 15},
                                                  {"data/recordings/h100-timing.json", 10},
                                                  {"data/recordings/h100-fenced-timing.json", 15},
                                                  {"data/recordings/h100-direct-store-zero-overhead.json", 15},
                                                  {"data/recordings/h200-catalogue-seed20261204.json", 15},
                                                  {"data/recordings/h200-catalogue-seed20261205.json", 15}};

// Points outside 25 % today, per recording, with the bound each stays within and why it is off. None in the H100
// recordings since the load path is priced per phase of 128 bytes of lane data (sm90's load_phase_bytes; the NHWC
// im2col convolution was -48 %). The H200's ldmatrix.x4 copies vary by +-10 % between runs of one binary on one day:
// row-major 1136 at seed 20261204 and 1040 at 20261205, CK-XOR 2025 897 and 994, padded 1194 and 1042 (predicted
// 1306, 1118, 1153), so one seed's row-major copy is +25.6 % and its pair (below) 1.05x measured against 1.17x.
const std::map<std::string, std::map<std::string, double>> point_outliers = {
    {"data/recordings/h200-catalogue-seed20261205.json", {{"example lds-index-swap: row-major, ldmatrix.x4", 0.27}}},
};

// Pairs outside 10 % today, per recording, each with the bound it stays within.
// The SW64 pair of the recordings timed before 6edb4e5 is the timing harness, not the model: SW64's copy ended its
// clock64 span before its global stores had left (its last clock register is no store operand; in 106 of the 118
// kernels it is, and the clock read waits for the stores: data/calibration/h100-copy-end-clock-stalls.txt), so it
// measured 853 cycles where CK-XOR 2025's copy, one SASS skeleton with the same memory stream, measured 976. Timed
// with the block fence (h100-fenced-timing.json) it measures 949 and the pair is -2.4 % (copy_probes.test.cpp
// replays the probes that found it).
// The ldmatrix.x4 pair of the recordings before 26ea6fb is the kernels, not the model: their program split each
// ldmatrix register into two fp16 elements, which nvcc put back together (SHR + PRMT 0x1054, the identity), so
// every store of a warp waited for both of its ldmatrix results. The row-major copy's 192 excess ldmatrix
// wavefronts, which the model serializes (1306 against 1118 cycles), cost 34 measured with the fence (1182 against
// 1148; before it, 1070 against 1131). Storing the registers as they came (h100-direct-store-zero-overhead.json:
// 1103 against 1023, the pair +8.3 %; 1102-1103 against 1027-1028 at two more seeds,
// h100-direct-store-ldmatrix-reruns.log) the pair is within 10 % (copy_layout_probe.cu's same-code kernels: 7-23 %).
// (The CK-XOR fp32 GEMM left this list when LDS address arithmetic was priced: sim/pricing/address_arithmetic.hpp,
// +11.6 % -> -2.6 %.)
const std::map<std::string, std::map<std::string, double>> speedup_outliers = {
    {"data/recordings/h100-zero-overhead.json",
     {{"example cute-swizzle: SW64 Swizzle<2,4,3> 8x32", 0.13}, {"example lds-index-swap: ck-xor 2025, ldmatrix.x4", 0.26}}},
    {"data/recordings/h100-timing.json", {{"example cute-swizzle: SW64 Swizzle<2,4,3> 8x32", 0.13}}},
    {"data/recordings/h100-fenced-timing.json", {{"example lds-index-swap: ck-xor 2025, ldmatrix.x4", 0.15}}},
    {"data/recordings/h100-direct-store-zero-overhead.json", {}},
    {"data/recordings/h200-catalogue-seed20261204.json", {}},
    {"data/recordings/h200-catalogue-seed20261205.json", {{"example lds-index-swap: ck-xor 2025, ldmatrix.x4", 0.13}}},
};

}  // namespace

TEST_CASE("block cycles: median |error| <= 10 % over the catalogue, no drift above today's") {
  for (const auto& entry : recordings) {  // no structured binding: clang 14 cannot capture one in CAPTURE
    const std::string& path = entry.first;
    const double today = entry.second;
    CAPTURE(path);
    const accuracy& a = accuracy_for(path);
    MESSAGE(path << ": median |error| " << 100 * a.median_abs_error << " %, worst " << 100 * a.worst_abs_error
                 << " % over " << a.points.size() << " points");
    if (const char* dump = std::getenv("TILESIM_ACCURACY_DUMP"); dump != nullptr && *dump != 0) {
      std::ofstream out(std::string(dump) + "-" + path.substr(path.rfind('/') + 1) + ".tsv", std::ios::trunc);
      for (const accuracy_row& r : a.points) out << r.name << "\t" << r.predicted << "\t" << r.measured << "\n";
    }  // point, predicted, measured: for judging a timing change point by point
    CHECK(a.points.size() == points.at(path));
    CHECK(a.median_abs_error <= 0.10);
    CHECK(a.median_abs_error <= today + 0.005);
  }
}

TEST_CASE("block cycles: every point within 25 %, the named outliers within their own bounds") {
  for (const auto& entry : recordings)
    for (const accuracy_row& r : accuracy_for(entry.first).points) {
      CAPTURE(entry.first);
      CAPTURE(r.name);
      CAPTURE(r.predicted);
      CAPTURE(r.measured);
      const auto listed = point_outliers.find(entry.first);
      const std::map<std::string, double> none;
      const std::map<std::string, double>& named = listed == point_outliers.end() ? none : listed->second;
      const auto outlier = named.find(r.name);
      if (outlier == named.end()) {
        CHECK(std::fabs(r.error) <= 0.25);
      } else {
        CHECK(std::fabs(r.error) <= outlier->second);
        CHECK_MESSAGE(std::fabs(r.error) > 0.25, "now within 25 %: remove it from point_outliers");
      }
    }
}

TEST_CASE("conflict-free speed-ups: each within 10 % of measured, the named outliers within their own bounds") {
  for (const auto& entry : recordings) {
    const accuracy& a = accuracy_for(entry.first);
    CHECK(a.speedups.size() == pairs.at(entry.first));
    for (const speedup_row& r : a.speedups) {
      CAPTURE(entry.first);
      CAPTURE(r.conflicted);
      CAPTURE(r.conflict_free);
      CAPTURE(r.predicted);
      CAPTURE(r.measured);
      const std::map<std::string, double>& named = speedup_outliers.at(entry.first);
      const auto outlier = named.find(r.conflict_free);
      if (outlier == named.end()) {
        CHECK(std::fabs(r.error) <= 0.10);
      } else {
        CHECK(std::fabs(r.error) <= outlier->second);
        CHECK_MESSAGE(std::fabs(r.error) > 0.10, "now within 10 %: remove it from speedup_outliers");
      }
    }
  }
}

// Law (issue 33's verdict): of the pairs whose measured cycles differ by more than 5 %, the simulator names the
// faster side correctly in at least 95 %, on every recording, leaving out only the named speed-up outliers above,
// whose cause is known (h100-zero-overhead.json's ldmatrix.x4 pair: measured 0.95, predicted 1.17, the kernels).
TEST_CASE("conflict-free speed-ups: the faster side is named correctly in >= 95 % of the pairs measured apart") {
  for (const auto& entry : recordings) {
    const accuracy& a = accuracy_for(entry.first);
    CAPTURE(entry.first);
    MESSAGE(entry.first << ": the faster side named in " << a.pairs_faster_named << " of " << a.pairs_differing
                        << " pairs measured more than 5 % apart");
    const std::map<std::string, double>& named_outliers = speedup_outliers.at(entry.first);
    int named = 0, differing = 0;
    for (const speedup_row& r : a.speedups)
      if (std::fabs(r.measured - 1) > 0.05 && named_outliers.count(r.conflict_free) == 0) {
        ++differing;
        named += r.faster_named;
      }
    CHECK(differing > 0);
    CHECK(named >= 0.95 * differing);
  }
}

TEST_CASE("the LDS-bound GEMMs are predicted LDS-bound and the copies latency-bound, as the hardware's numbers say") {
  for (const accuracy_row& r : accuracy_for("data/recordings/h100-timing.json").points) {
    CAPTURE(r.name);
    if (r.name.rfind("gemm fp32", 0) == 0 && r.name.find("row_major") != std::string::npos)
      CHECK(r.verdict.rfind("LDS-bound", 0) == 0);
    if (r.name.rfind("copy fp16 64x32", 0) == 0) CHECK(r.verdict.rfind("latency-bound", 0) == 0);
  }
}

namespace {

// Warp instructions per warp of one layout of the fp32 GEMM 128x128x64 in the H100 recording (tilesim kernel).
double measured_per_warp(const std::string& layout) {
  std::ifstream f("data/calibration/h100-address-arithmetic.tsv");
  REQUIRE_MESSAGE(f.good(), "data/calibration/h100-address-arithmetic.tsv is missing (the test runs in the repository root)");
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream row(line);
    std::string kernel, name;
    double instructions = 0, lds = 0, warps = 0;
    if (line.empty() || line[0] == '#' || !(row >> kernel >> name >> instructions >> lds >> warps)) continue;
    if (kernel == "tilesim" && name == layout) return instructions / warps;
  }
  FAIL("no tilesim row for layout " << layout);
  return 0;
}

// Integer instructions per warp the simulator charges the same point (the GEMM states no integer work itself).
double simulated_integer_per_warp(const std::string& layout) {
  for (const crosscheck_point& p : catalogue())
    if (p.name == "gemm fp32 128x128x64 " + layout) {
      const simulated s = simulate(p, make_inputs(p, 1));
      double integer = 0;
      for (const auto& i : s.report.instructions) integer += i.alu.integer;
      for (const auto& b : s.report.barriers) integer += b.alu.integer;
      return integer / (s.report.workgroups * s.report.waves_per_workgroup);
    }
  FAIL("no catalogue point gemm fp32 128x128x64 " << layout);
  return 0;
}

}  // namespace

TEST_CASE("LDS address arithmetic: charged where the GPU executes more than the padded layout, never more than it") {
  const double padded = measured_per_warp("padded"), sim_padded = simulated_integer_per_warp("padded");
  for (const std::string layout : {"row_major", "ck_xor"}) {
    CAPTURE(layout);
    const double extra = measured_per_warp(layout) - padded;
    const double sim_extra = simulated_integer_per_warp(layout) - sim_padded;
    MESSAGE(layout << ": the GPU executes " << extra << " more instructions per warp than padded, the simulator charges "
                   << sim_extra << " more");
    if (extra <= 0) CHECK(sim_extra == 0);
    else CHECK((sim_extra > 0 && sim_extra <= extra));
  }
}
