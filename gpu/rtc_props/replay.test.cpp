// tilesim/gpu/rtc_props/replay.test.cpp: every tilesim-gpu props recording in data/recordings/ replayed on the simulator.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "gpu/rtc_props/layout_pairs.hpp"
#include "gpu/rtc_props/props_generators.hpp"
#include "gpu/rtc_props/props_json.hpp"
#include "gpu/rtc_props/props_report.hpp"
#include "gpu/rtc_props/props_sim.hpp"

namespace tilesim::gpu::props {

using util::json_value;
using util::parse_json;
using util::exact_u64;

TEST_SUITE("props-gpu") {

// The measured cases of a props recording whose simulated counters differ from the GPU's, by recording, each with
// its cause; none today. data/recordings/props-h100.json (H100, 2026-11-27, kernels with lds_loads::as_written):
// all 500 measured, all 500 equal. Its predecessor (2026-11-25, kernels that let nvcc merge LDS loads) had 26 of
// 500 differing, every one in the LDS load counters: 10 "widened" (nvcc merged a lane's neighbouring LDS loads whose
// alignment it proved, case 119: 5 ld.shared.v4.u32 for 10 loads of 8 bytes) and 16 "fewer loads past the tensor".
// All 26 (the same programs) now agree, the 16 past-tensor ones included: they were widening too.
// props-h200-kinds-seed20261201.json (H200, 2026-11-29, the first run of the widened kinds, held out): 30 of the 250
// measured differ, all in the LDS load counters and all with fewer loads on the GPU:
//   - 29 stencils (of 69 measured): a thread whose stencil points overlap reads one LDS element twice with no store
//     between; nvcc loads it once (case 28: 18 simulated, 6 executed). sm90's codegen rule (sim/pricing/
//     reused_loads.hpp: a window's block of loads that repeats an earlier block) now matches 9 of them (1 16 17 28
//     29 38 40 87 129) and no other case; the 20 left are nvcc serving a narrower load from part of a wider one
//     (case 91: the wrapped columns' scalar reads from the unwrapped LDS.128s) or folding some elements of a
//     shifted window and not others, which the rule does not model;
//   - case 194, a copy (row-major fp32): 6 LDS loads executed against 12 simulated, half the wavefronts too: not
//     analysed yet (a merge despite lds_loads::as_written?).
// props-h200-kinds-seed20261202.json (H200, 2026-11-29, held out: recorded with the reuse rule, never fitted on):
// 16 of 300 differ, all stencils (of 70), all LDS loads: 15 with fewer on the GPU (the two kinds of reuse above the
// rule does not model), and case 177 with more (GPU 2560, simulated 1920; 3200 as written): the rule reuses 1280
// loads where nvcc reused 640, most likely the wrapped columns' scalar blocks of offsets (0,-1) and (0,+1), the same
// four columns of a 4-column tile in another order (not analysed further). Without the rule 28 differed.
// props-h200-pairs-seed20261203*.json (H200, 2026-11-30, --pairs, the same 299 kernels twice): 19 differ, all
// stencils, all LDS loads, 9 drawn cases and their twins but 116 (its twin agrees): 17 with fewer on the GPU (the
// reuse the rule does not model), 106 and its twin 107 with more (GPU 28 and 20, simulated 24 and 18: over-reduced,
// as 20261202's case 177).
// props-h200-kinds-seed20261205.json (H200, 2026-11-30, held out: recorded with today's model, never fitted on): 17
// of 300 differ, all in the LDS load counters: 16 stencils (of 67), 12 with fewer loads on the GPU (the reuse the
// rule does not model) and 4 with more (22, 133, 191, 219: over-reduced, as 20261202's case 177); and case 69, a
// padded fp64 12x8 copy with 9 LDS loads executed against 12 simulated (fewer, like 20261201's copy 194; not
// analysed).
const std::set<int> pairs_seed20261203_differing = {50, 51, 66, 67, 82, 83, 88, 89, 106, 107, 116, 120, 121, 174, 175, 178, 179, 231, 232};
const std::map<std::string, std::set<int>> known_differing = {
    {"props-h200-kinds-seed20261205.json",
     {22, 69, 92, 98, 105, 112, 133, 162, 170, 183, 185, 191, 216, 219, 232, 243, 252}},
    {"props-h200-kinds-seed20261201.json",
     {23, 31, 36, 42, 45, 60, 67, 91, 96, 107, 115, 123, 125, 155, 159, 160, 179, 194, 197, 219, 246}},
    {"props-h200-kinds-seed20261202.json", {25, 48, 55, 77, 89, 121, 142, 177, 234, 238, 248, 257, 284, 285, 294, 297}},
    {"props-h200-pairs-seed20261203.json", pairs_seed20261203_differing},
    {"props-h200-pairs-seed20261203-repeat10.json", pairs_seed20261203_differing},
};

// The timing model against each props recording: the median |cycle error| today's model gives, and whether the
// recording was used to fit it (issue 33's held-out discipline: sim/arch/sm90.cpp's guarded-access counts were fitted
// on props-h200.json alone; every other file judges them). Before those counts (the recordings' own simulator side)
// every file was 19-22 %.
// A median below 0 marks a recording listed before its first replay (issue 33's widened programs, recorded held out
// with --kinds): the replay prints its median, per kind too, and holds it to nothing until that median is written
// here; the 10 % target applies to it only then (`target`: false while the model has not been judged on its kinds).
struct cycle_accuracy {
  double median;
  bool fitted_on;
  bool target = true;
};
const std::map<std::string, cycle_accuracy> props_cycle_accuracy = {
    {"props-h200.json", {0.0757, true}},                // H200, seed 18, 500 cases: the fit
    {"props-h200-default.json", {0.0757, false}},       // H200, seed 27, 200 cases
    {"props-h200-seed20261129.json", {0.0776, false}},  // H200, recorded before the fit, opened after it
    {"props-h200-seed20261130.json", {0.0720, false}},  // H200, recorded with the fitted model (it printed 7.1 %)
    {"props-h100.json", {0.0755, false}},               // H100, seed 18
    {"props-h100-default.json", {0.0804, false}},       // H100, seed 27
    {"props-h100-fault.json", {0.0533, false}},  // H100, the 100 cases of the fault run (fault-free twins timed)
    // H200, seed 20261201, 300 cases of --kinds copy,stencil,reduce,loop (docs/gpu.md, "Kinds"), 2026-11-29: held out
    // (the model was never fitted on the new kinds): median 11.1 % (copy 8.3, stencil 7.9, reduce 12.0, loop 14.9),
    // 90th percentile 26.1 %, worst 64.3 %. With sm90's reuse of repeated LDS blocks (written from this recording's
    // stencils, so no longer held out for it): 10.7 % (stencil 6.9). Drift is held; the 10 % target is not met yet.
    // With sm90's first-shuffle latency (fitted on this file's reduce cases and 20261202's): 9.2 % (reduce 12.0 -> 6.3).
    // With sm90's L2-hit latency for later nearby first touches (fitted on this file, 20261202 and the H100 catalogue):
    // 8.4 % (loop 14.9 -> 11.1).
    {"props-h200-kinds-seed20261201.json", {0.0841, true, false}},
    // H200, seed 20261202, 300 cases of the same kinds, 2026-11-29, held out (recorded after the reuse rule and
    // cp.async's timing, fitted on neither): median 9.1 % (copy 6.3, stencil 7.9, reduce 11.0, loop 17.3), 90th
    // percentile 24.5 %, worst 55.0 %. Fitted on since the first-shuffle latency (its reduce cases): 7.2 % (reduce 3.7).
    // With the L2-hit latency (fitted on it too): 7.4 % (loop 17.3 -> 15.6; its 8-warp loops were already under-predicted).
    {"props-h200-kinds-seed20261202.json", {0.0737, true}},
    // H200, seed 20261203, 150 drawn cases of the same kinds with --pairs (299 kernels: each beside its layout twin),
    // 2026-11-30, held out: recorded before the first-shuffle latency was fitted, never fitted on. With --repeat 10:
    // median 10.6 % before that rule, 8.2 % after (copy 7.7, stencil 8.2, reduce 14.6 -> 5.6, loop 17.1), 90th
    // percentile 24.0 %, worst 96.0 % (case 180, a loop). The same cases timed with the default --repeat 3 minutes
    // earlier: 14.1 %, 12.2 % after the rule; the best of 3 launches still carried launch noise of up to +30 % on one-warp
    // cases (their rerun at --repeat 10, three times in two orders, agrees within 1 %: data/recordings/pairs-noise/),
    // so that file is held to drift only. With the L2-hit latency for later nearby first touches (fitted on 20261201/02
    // and the H100 catalogue, held out here): --repeat 10 8.2 -> 8.0 % (loop 17.1 -> 10.3 %), 90th percentile
    // 24.0 -> 20.4 %, worst 88.9 %; --repeat 3 12.2 % (loop 10.5 -> 10.1 %).
    {"props-h200-pairs-seed20261203.json", {0.1221, false, false}},
    {"props-h200-pairs-seed20261203-repeat10.json", {0.0800, false}},
    // H200, seed 20261205, 300 cases of the same kinds, 2026-11-30, recorded with today's model (the L2-hit latency
    // in it), held out for every rule: median 9.0 % (copy 8.7, stencil 7.7, reduce 6.6, loop 14.2), 90th percentile
    // 25.0 %, worst 49.7 %. Without the L2-hit latency the same cases give 9.7 % (loop 17.9 %, 90th 27.5 %). Above
    // the 8 % target, within the 10 % bound.
    {"props-h200-kinds-seed20261205.json", {0.0904, false}},
};

// The faster-layout verdict on each --pairs recording (layout_pairs.hpp): pairs measured more than 5 % apart, and
// in how many of them today's model names the faster layout. The target is 95 %.
struct pair_accuracy_row {
  int differing;
  int faster_named;
};
const std::map<std::string, pair_accuracy_row> pair_accuracy = {
    {"props-h200-pairs-seed20261203.json", {70, 58}},           // --repeat 3: launch noise (see props_cycle_accuracy)
    {"props-h200-pairs-seed20261203-repeat10.json", {64, 58}},  // 90.6 %: below the target
};

// Law: the simulator predicts what Nsight Compute measured on the GPU (the hardware truth): in every props
// recording, each measured case's simulated counters equal the GPU's, except the cases known_differing lists with
// their cause; a listed case that now agrees must leave its list (the lists only shrink), and a case that differs
// and is not listed fails the test. Pending cases (no GPU counters) are only re-run.
TEST_CASE("every props recording replays on the simulator") {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator("data/recordings")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("props-", 0) != 0 || entry.path().extension() != ".json") continue;
    ++files;
    std::ifstream f(entry.path());
    std::stringstream s;
    s << f.rdbuf();
    const replay_result r = replay_recording(parse_json(s.str()));
    if (const char* dump = std::getenv("TILESIM_PROPS_REPLAY_DUMP"); dump != nullptr && *dump != 0) {
      std::ofstream out(dump);  // every differing counter, one line each (for re-listing after a re-record)
      for (const std::string& m : r.mismatches) out << m << "\n";
    }
    if (const char* dump = std::getenv("TILESIM_PROPS_REPLAY_CYCLES"); dump != nullptr && *dump != 0) {
      std::ofstream out(std::string(dump) + "-" + name + ".tsv");  // case, predicted, measured: for fitting the timing
      for (const auto& [index, predicted, measured] : r.cycles) out << index << "\t" << predicted << "\t" << measured << "\n";
    }
    const auto listed = known_differing.find(name);
    const std::set<int> known = listed == known_differing.end() ? std::set<int>{} : listed->second;
    const std::set<int> differing(r.differing.begin(), r.differing.end());
    std::string unlisted, agreeing;
    for (int i : differing)
      if (known.count(i) == 0) unlisted.append(" ").append(std::to_string(i));  // not " " + ...: GCC 12's -Wrestrict
    for (int i : known)
      if (differing.count(i) == 0) agreeing.append(" ").append(std::to_string(i));
    std::string first;
    for (const std::string& m : r.mismatches)
      if (known.count(std::stoi(m.substr(5))) == 0) {
        first = m;
        break;
      }
    MESSAGE(name, ": ", r.measured, " measured cases, ", differing.size(), " differ from the GPU (", known.size(),
            " listed)");
    if (!r.cycle_errors.empty()) {
      std::vector<double> e = r.cycle_errors;
      std::sort(e.begin(), e.end());
      const double median = e[e.size() / 2];
      MESSAGE(name, ": cycles per block, today's model against the GPU: median |error| ", 100 * median, " %, 90th percentile ",
              100 * e[e.size() * 9 / 10], " %, worst ", 100 * e.back(), " % over ", e.size(), " cases");
      if (r.cycle_errors_by_kind.size() > 1)
        for (auto [kind, k] : r.cycle_errors_by_kind) {
          std::sort(k.begin(), k.end());
          MESSAGE(name, ": ", kind, ": median |error| ", 100 * k[k.size() / 2], " %, worst ", 100 * k.back(), " % over ",
                  k.size(), " cases");
        }
      // Law: on every recording, fitted on or held out, today's model stays within 0.5 points of the median listed
      // above (no drift), and a held-out recording's median is at most 10 % (issue 33; its target is 8 %).
      const auto listed_accuracy = props_cycle_accuracy.find(name);
      INFO(name, ": a props recording with GPU cycles must be listed in props_cycle_accuracy (fitted on or held out)");
      REQUIRE(listed_accuracy != props_cycle_accuracy.end());
      if (listed_accuracy->second.median >= 0) CHECK(median <= listed_accuracy->second.median + 0.005);
      if (!listed_accuracy->second.fitted_on && listed_accuracy->second.target) CHECK(median <= 0.10);
    }
    // Law (issue 33 item 4): in a --pairs recording, today's model names the faster layout in at least as many pairs
    // as pair_accuracy lists (no drift) and predicts the speed-ups within 10 % (median): the pairs measured more
    // than 5 % apart are where the verdict counts.
    if (!r.pairs.empty()) {
      const pair_verdicts v = judge_pairs(r.pairs);
      std::string misnamed;
      for (int i : v.misnamed) misnamed.append(" ").append(std::to_string(i));
      MESSAGE(name, ": layout pairs: ", v.pairs, "; the faster layout named in ", v.faster_named, " of the ", v.differing,
              " measured more than 5 % apart (misnamed, by drawn case:", misnamed, "); speed-up |error| median ",
              100 * v.median_abs_speedup_error, " %, worst ", 100 * v.worst_abs_speedup_error, " %");
      const auto listed_pairs = pair_accuracy.find(name);
      INFO(name, ": a recording with layout pairs must be listed in pair_accuracy");
      REQUIRE(listed_pairs != pair_accuracy.end());
      CHECK(v.faster_named >= listed_pairs->second.faster_named);
      CHECK(v.differing == listed_pairs->second.differing);
      CHECK(v.median_abs_speedup_error <= 0.10);
    }
    // Law: the recording's seed and kinds still draw its cases, and each case's kernel text still has the recorded
    // name (old seeds regenerate exactly what was measured, whatever kinds were added since).
    std::string regeneration;
    for (const std::string& m : r.not_regenerated) regeneration.append(regeneration.empty() ? "" : "; ").append(m);
    MESSAGE(name, ": ", r.regenerated, " cases regenerated from the seed");
    INFO(name, ": ", r.not_regenerated.size(), " cases not regenerated: ", regeneration.substr(0, 2000));
    CHECK(r.not_regenerated.empty());
    INFO(name, ": differing and not listed:", unlisted, "; first: ", first);
    CHECK(unlisted.empty());
    INFO(name, ": listed but agreeing now (remove them from the lists):", agreeing);
    CHECK(agreeing.empty());
    CHECK(r.cases > 0);
  }
  MESSAGE(files, " props recordings replayed");
}

// Law: the replay detects a recorded GPU counter that the simulator does not reproduce (it can fail), and reads
// the GPU's counters, not the recorded simulator's.
TEST_CASE("the replay catches a changed counter") {
  json_value report;
  report.set("tool", "tilesim-gpu props");
  json_value::array rows;
  for (int i = 0; i < 3; ++i) {
    const props_case c = generate_case(77, i).value();
    const case_inputs in = make_case_inputs(c, 5);
    json_value row;
    row.set("index", i);
    row.set("case", to_json(c));
    row.set("input_seed", exact_u64(5));
    json_value sim;
    sim.set("counters", to_json(simulate_case(c, in).predicted));
    row.set("simulator", sim);
    row.set("counters_equal", true);
    json_value gpu;
    gpu.set("counters", sim["counters"]);
    row.set("gpu", gpu);
    rows.push_back(row);
  }
  report.set("cases", rows);
  CHECK(replay_recording(report).mismatches.empty());
  json_value& counters = report.at("cases").at(1).at("gpu").at("counters");
  counters.at("lds_wavefronts_st") = json_value(counters["lds_wavefronts_st"].number() + 1);
  const replay_result r = replay_recording(report);
  CHECK(r.measured == 3);
  CHECK(r.differing == std::vector<int>{1});
  REQUIRE(r.mismatches.size() == 1);
  CHECK(r.mismatches[0].find("case 1: lds_wavefronts_st recorded (gpu)") == 0);
  // The recorded simulator counters are not what the replay holds the simulator to: changing them changes nothing.
  json_value& sim_side = report.at("cases").at(2).at("simulator").at("counters");
  sim_side.at("lds_wavefronts_ld") = json_value(sim_side["lds_wavefronts_ld"].number() + 1);
  CHECK(replay_recording(report).differing == std::vector<int>{1});
  // A case index that is no run's (a --pairs field, or the index itself) is an error naming the field, not a cast.
  for (const char* key : {"twin_of", "draw", "index"})
    for (const json_value& bad : {json_value(-3), json_value(1e12), json_value(2.5)}) {
      json_value broken = report;
      json_value& row = broken.at("cases").at(2);
      if (row.get(key)) row.at(key) = bad;
      else row.set(key, bad);
      const std::string message = std::string("\"") + key + "\" is not a case index";
      CHECK_THROWS_WITH_AS(replay_recording(broken), doctest::Contains(message.c_str()), util::json_error);
    }
}

}  // TEST_SUITE
}  // namespace tilesim::gpu::props
