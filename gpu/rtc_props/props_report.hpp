// tilesim/gpu/rtc_props/props_report.hpp: what tilesim-gpu props found for each case, as JSON, and its replay.
//
// DEFINITION. A case_record holds one generated case's results: its description, the compile (back end time,
// cache hit, ptxas stack/spills/registers), the simulator side (counters, cycles, findings, stores per
// element), the GPU side (output check, counters from Nsight Compute, clock64 cycles per block), and the verdicts
// results_equal (GPU output == input == simulator output, simulator clean, stores as expected) and
// counters_equal (every Nsight Compute counter == the simulator's; null when not measured). to_json(record)
// is one element of the report's "cases" array; the report itself (tool "tilesim-gpu props", schema
// "tilesim.gpu-props/1", device, seed, compiler, cases, summary, failures) is assembled by props_command.cpp.
// replay_recording(report) re-runs the simulator side of every recorded case and compares its counters with the
// GPU's (Nsight Compute, the hardware truth) where they were measured; a pending case (no GPU counters) is only
// re-run (a CPU test: data/recordings/, replay.test.cpp holds the cases known to differ, with their causes).
// Where the report has a seed and no --cases-file, it also regenerates each case from (seed, index, the case's
// fault, the report's "kinds", copy when absent) and compares it, and each recorded kernel name with the case's:
// the generator and the kernel text must still make what was measured.
//
// WORKED EXAMPLE. replay_recording(parse_json(text)): .measured cases compared, .differing the indices of those
// whose simulated counters differ from the GPU's, .mismatches one line per differing counter.
//
// INVARIANTS: a record's JSON names every field the issue asks for (description, results_equal, counters_equal,
// both sides' counters and cycles); the replay reads nothing but the case description and the counters.
#pragma once

#include <array>
#include <map>

#include <optional>
#include <string>
#include <vector>

#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/rtc_props/layout_pairs.hpp"
#include "gpu/rtc_props/props_case.hpp"
#include "gpu/rtc_props/rtc_compiler.hpp"

namespace tilesim::gpu::props {

struct case_record {
  int index = 0;  // the position in the run
  // A --pairs run (layout_pairs.hpp): the generator's index of the drawn case (-1: the run's position is it), and for
  // a twin the position of the drawn case it twins (-1: not a twin).
  int draw = -1, twin_of = -1;
  props_case device_case;  // what the GPU ran (the fault, if any, included)
  std::string kernel;
  std::uint64_t input_seed = 0;
  compiled_kernel compile;  // cubin and log not reported
  std::string error;        // a compile or launch failure, else ""
  // Simulator side.
  counters simulated{};
  double sim_cycles = 0;
  std::size_t lds_bytes = 0;
  bool sim_output_ok = false, sim_clean = false, stores_ok = false;
  std::string sim_note;
  // GPU side.
  bool gpu_ran = false, gpu_output_ok = false;
  std::string gpu_mismatch;
  std::optional<counters> measured;
  double gpu_cycles_median = 0, gpu_cycles_min = 0, gpu_cycles_max = 0;
  int registers = 0;
  long long local_bytes = 0;

  bool results_equal() const { return error.empty() && gpu_ran && gpu_output_ok && sim_output_ok && sim_clean && stores_ok; }
  std::optional<bool> counters_equal() const {
    if (!measured) return std::nullopt;
    return *measured == simulated;
  }
};

util::json_value to_json(const case_record& r);

// The counters Nsight Compute measures for props (counters_pass.hpp): counter_metrics()'s first eight, the
// shared-memory wavefronts and instructions and global sectors and instructions. The other four (local memory,
// ldmatrix) are not measured; counters_equal holds the simulator's to 0 there.
inline constexpr std::size_t measured_fields = 8;
// The report's "gpu"."counters": the measured fields only.
util::json_value measured_json(const counters& c);

struct replay_result {
  int cases = 0;
  int measured = 0;                     // cases with GPU counters (compared)
  std::vector<int> differing;           // indices of measured cases whose counters differ, in report order
  std::vector<std::string> mismatches;  // "case 12: lds_wavefronts_ld recorded (gpu) 64, simulated 96"
  std::vector<double> cycle_errors;     // per case with GPU cycles: |today's prediction - GPU median| / GPU median
  std::vector<std::array<double, 3>> cycles;  // the same cases: {index, today's prediction, GPU median}
  std::map<std::string, std::vector<double>> cycle_errors_by_kind;  // cycle_errors split by the case's kind ("copy")
  std::vector<pair_cycles> pairs;       // a --pairs run's layout pairs: today's predictions beside the GPU's cycles
  int regenerated = 0;                 // cases the recording's seed and kinds regenerate, compared
  std::vector<std::string> not_regenerated;  // "case 7: the seed draws another case" / "...: kernel name differs"
};
// Replays the simulator side of every case of a `tilesim-gpu props` report (see above); util::json_error on a bad file.
replay_result replay_recording(const util::json_value& report);

}  // namespace tilesim::gpu::props
