// tilesim/sim/models/calibration.test.cpp: the sm90 LDS model against the H200 calibration, line by line.
//
// data/calibration/h200-calibration.patterns holds hundreds of warp-wide shared-memory accesses written by
// scripts/calibrate/make_patterns.py (strides, random, clustered, repeated addresses, partial masks, swizzles,
// 1- to 16-byte loads and stores); h200-calibration.truth.tsv holds what an H200 measured for each
// (scripts/calibrate/run_calibration.sh; data/calibration/README.md says how and when). For every pattern:
//   wavefronts              == lds_cost::wavefronts   (Nsight's per-instruction smsp__sass_* counter)
//   hw_wavefronts           == lds_cost::passes       (the l1tex__data_pipe_lsu_wavefronts counter)
//   bank_conflicts          == lds_cost::bank_conflicts
//   cycles_per_warp_access  within 5 % of steady_cycles   (32 warps, a plain loop: the truth file's method)
//   cycles_unrolled         within 0.07 + 3 % of lds_pipe_cycles (8-way unrolled: the LDS pipe alone)
// E.g. `ld_w4_stride_32w 4 load 0 128 ... 3968`: 32 wavefronts, 32 passes, 31 conflicts, ~31.9 cycles looped,
// ~32.0 unrolled. A mismatch prints the name, model and measured values, and the pattern as a line that
// `tilesim bank` reads (paste it into a file and run `tilesim bank --arch sm90 FILE`).
//
// Runs from the repository root (meson's sim test sets it). Until the truth file has been measured the test
// FAILS, saying so: a calibration that was never run must not read as one that passed.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/models/lds_banks.hpp"
#include "sim/models/lds_timing.hpp"
#include "sim/models/truth_file.test.hpp"

using namespace tilesim::sim;
using namespace tilesim::sim::truth_file;

namespace {

const std::string patterns_path = "data/calibration/h200-calibration.patterns";
const std::string truth_path = "data/calibration/h200-calibration.truth.tsv";

// The number in a TSV field; NaN (which fails every comparison, and prints as nan) when it is not one.
double number(const std::string& field) {
  char* end = nullptr;
  const double v = std::strtod(field.c_str(), &end);
  if (field.empty() || end != field.c_str() + field.size()) return std::numeric_limits<double>::quiet_NaN();
  return v;
}

// Nsight's per-instruction counter (smsp__sass_*) gives these seven 16-byte loads 3 wavefronts where the
// model's pair rule gives 2; the hardware counter (passes), the conflicts and the time agree with the model.
// Lanes pair up under lane^1 (or lane^2) with some lanes masked off; other masks of the same family
// (ld_w16_xor1_pairs_randmask_s1, ld_w16_xor2_pairs_randmask_s1) count 2, and no rule separating them was
// found in this data. Left open, named here so that a model that explains them fails this list.
const char* const unexplained_counted[] = {
    "ld_w16_xor1_pairs_randmask_s0", "ld_w16_xor1_pairs_randmask_s2", "ld_w16_xor1_pairs_randmask_s3",
    "ld_w16_xor1_pairs_randmask_s4", "ld_w16_xor1_pairs_randmask_s5", "ld_w16_xor2_pairs_randmask_s0",
    "ld_w16_xor2_pairs_randmask_s2"};

bool is_unexplained(const std::string& label) {
  for (const char* n : unexplained_counted)
    if (label == n) return true;
  return false;
}

// The worst relative or absolute miss seen so far, and where.
struct worst {
  double value = 0;
  std::string name;
  void see(double v, const std::string& n) {
    if (v > value) value = v, name = n;
  }
};

}  // namespace

TEST_CASE("sm90 reproduces every line of the H200 calibration: wavefronts exact, cycles within 5 %") {
  const arch_table& sm90 = arch_named("sm90");
  const std::vector<wave_access> patterns = read_patterns(patterns_path, sm90);
  REQUIRE_MESSAGE(patterns.size() >= 500, patterns_path << " has " << patterns.size()
                                                        << " patterns, the calibration needs at least 500");
  REQUIRE_MESSAGE(readable(truth_path),
                  truth_path << " is missing: the " << patterns.size()
                             << " calibration patterns have not been measured yet. Run gpu/calibrate/"
                                "run_calibration.sh on the device machine (an H100/H200) and copy its "
                                "$OUT/h200-calibration.truth.tsv there (data/calibration/README.md)");
  const tsv truth = read_tsv(truth_path);
  const std::size_t wf_col = truth.column("wavefronts"), hw_col = truth.column("hw_wavefronts"),
                    bc_col = truth.column("bank_conflicts"), cyc_col = truth.column("cycles_per_warp_access"),
                    unr_col = truth.column("cycles_unrolled");
  REQUIRE_MESSAGE(truth.rows.size() >= 500, truth_path << " has " << truth.rows.size() << " lines, fewer than 500");

  int measured = 0, unexplained = 0, wavefronts = 0, passes = 0, conflicts = 0, cycles = 0, unrolled = 0;
  worst cycle_error, unrolled_miss;
  for (const wave_access& p : patterns) {
    const std::string line = pattern_line(p);
    const auto row = truth.rows.find(p.label);
    CHECK_MESSAGE(row != truth.rows.end(), p.label << " has no line in " << truth_path << "\n  " << line);
    if (row == truth.rows.end()) continue;
    ++measured;
    const std::vector<std::string>& t = row->second;
    const lds_cost c = lds_instruction_cost(sm90, p);

    const double wf = number(t[wf_col]), hw = number(t[hw_col]), bc = number(t[bc_col]);
    if (is_unexplained(p.label)) {
      ++unexplained;
      CHECK_MESSAGE(c.wavefronts != wf, p.label << ": the model now gives Nsight's " << wf
                                                << " wavefronts: take it off unexplained_counted");
    } else {
      CHECK_MESSAGE(c.wavefronts == wf,
                    p.label << ": wavefronts: model " << c.wavefronts << ", H200 " << t[wf_col] << "\n  " << line);
    }
    CHECK_MESSAGE(c.passes == hw, p.label << ": hardware wavefronts (passes): model " << c.passes << ", H200 "
                                          << t[hw_col] << "\n  " << line);
    CHECK_MESSAGE(c.bank_conflicts == bc, p.label << ": bank conflicts: model " << c.bank_conflicts << ", H200 "
                                                  << t[bc_col] << "\n  " << line);
    wavefronts += c.wavefronts == wf;
    passes += c.passes == hw;
    conflicts += c.bank_conflicts == bc;

    const double looped = number(t[cyc_col]), predicted = steady_cycles(sm90, p, c);
    const double error = std::abs(predicted - looped) / looped;
    CHECK_MESSAGE(error <= 0.05, p.label << ": cycles per warp access: model " << predicted << ", H200 " << looped
                                         << " (" << error * 100 << " % off)\n  " << line);
    cycles += error <= 0.05;
    cycle_error.see(std::isnan(error) ? 1e9 : error, p.label);

    const double unr = number(t[unr_col]), pipe = lds_pipe_cycles(sm90, c);
    const double miss = std::abs(pipe - unr);
    CHECK_MESSAGE(miss <= 0.07 + 0.03 * unr, p.label << ": unrolled cycles: model pipe " << pipe << ", H200 " << unr
                                                     << "\n  " << line);
    unrolled += miss <= 0.07 + 0.03 * unr;
    unrolled_miss.see(std::isnan(miss) ? 1e9 : miss, p.label);
  }
  CHECK(unexplained == static_cast<int>(std::size(unexplained_counted)));
  CHECK(wavefronts + unexplained == measured);
  MESSAGE("H200 calibration: " << measured << "/" << patterns.size() << " patterns measured; exact: wavefronts "
                               << wavefronts << " (+ " << unexplained << " unexplained), passes " << passes << ", bank conflicts " << conflicts
                               << "; cycles within 5 %: " << cycles << " (worst " << cycle_error.value * 100
                               << " %, " << cycle_error.name << "); unrolled within 0.07 + 3 %: " << unrolled
                               << " (worst " << unrolled_miss.value << " cycles, " << unrolled_miss.name << ")");
}
