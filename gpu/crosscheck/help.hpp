// tilesim/gpu/crosscheck/help.hpp: the `tilesim-gpu` help texts (`tilesim-gpu --help`, `tilesim-gpu crosscheck
// --help`, ...), kept apart from tilesim_gpu.cpp so that CPU-only builds compile and test them (gpu_unit's
// help.test.cpp), where tilesim-gpu itself needs nvcc and the CUDA runtime.
//
// WORKED EXAMPLE. gpu_help("") is the command's overview; gpu_help("crosscheck") lists crosscheck's options
// and exit codes; gpu_help("fly") == nullptr (main then reports the unknown command, exit 2).
// wants_help({"--only", "copy", "--help"}) == true; wants_help({"--only", "--help-me"}) == false.
//
// INVARIANTS: every option tilesim_gpu.cpp takes (take_text_option / take_flag) is named in the help of the
// subcommand that takes it, and every help text lists the exit codes 0, 1, 2, 77 (help.test.cpp reads
// tilesim_gpu.cpp to check); help goes to stdout with exit 0, before any GPU is looked for.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilesim::gpu {

inline constexpr const char* gpu_exit_codes =
    "exit codes:\n"
    "  0   everything agreed (help: printed)\n"
    "  1   a result, counter or launch disagreed (the table says which), or a device error\n"
    "  2   a usage or input error (one line on stderr naming it)\n"
    "  77  no GPU (the test harness's \"skipped\")\n";

// The help of `tilesim-gpu` (command "") or of one subcommand; nullptr for an unknown one.
inline const char* gpu_help(std::string_view command) {
  static const std::string overview = std::string(
      "tilesim-gpu: run tilesim's tile programs on an NVIDIA GPU (sm90) and hold the simulator to what the GPU did.\n"
      "\n"
      "usage:\n"
      "  tilesim-gpu crosscheck [options]      every catalogue point on the simulator and the GPU: outputs, cycles and\n"
      "                                        Nsight Compute counters compared (tilesim-gpu crosscheck --help)\n"
      "  tilesim-gpu counters-pass --seed N    each point's kernel once (what the Nsight Compute run executes)\n"
      "  tilesim-gpu device                    the GPU, driver and runtime\n"
      "  tilesim-gpu --help, tilesim-gpu COMMAND --help   these texts\n"
      "\n") + gpu_exit_codes;
  static const std::string crosscheck = std::string(
      "usage: tilesim-gpu crosscheck [--seed N] [--only TEXT] [--report FILE] [--no-counters] [--repeat R]\n"
      "                              [--sweep-iterations N]\n"
      "\n"
      "For every catalogue point (or those whose name contains TEXT): fresh random inputs from the seed, outputs\n"
      "poisoned, the program run in the simulator (sm90) and on the GPU; outputs checked; cycles (clock64 per block,\n"
      "the median block of the best of R timed launches) against the simulator's cycles per workgroup; then, unless\n"
      "--no-counters, Nsight Compute's counters (ncu on PATH, or $NCU) against the simulator's totals (exact).\n"
      "\n"
      "options:\n"
      "  --seed N               inputs' seed, an integer (default: random, printed; --seed N replays a run)\n"
      "  --only TEXT            only the points whose name contains TEXT (none matching: exit 2)\n"
      "  --report FILE          write everything as JSON (gpu/recordings/ keeps them; seeds as exact decimal text)\n"
      "  --no-counters          skip the Nsight Compute pass\n"
      "  --repeat R             timed launches per point, 1..100 (default 3)\n"
      "  --sweep-iterations N   the lds_sweep points' iteration count, 0..1048576\n"
      "  --help                 this text\n"
      "\n") + gpu_exit_codes;
  static const std::string counters_pass = std::string(
      "usage: tilesim-gpu counters-pass --seed N [--only TEXT] [--sweep-iterations N]\n"
      "\n"
      "What crosscheck's Nsight Compute run executes (compute-sanitizer runs it too): each point's untimed kernel\n"
      "once, nothing else; one line per launch with its output check (exit 1 if one differs).\n"
      "\n"
      "options:\n"
      "  --seed N               the crosscheck run's seed (required)\n"
      "  --only TEXT            only the points whose name contains TEXT\n"
      "  --sweep-iterations N   the lds_sweep points' iteration count\n"
      "  --help                 this text\n"
      "\n") + gpu_exit_codes;
  static const std::string device = std::string(
      "usage: tilesim-gpu device\n"
      "\n"
      "Prints the GPU, driver, runtime version, multiprocessors, clock and warp size. No options but --help.\n"
      "\n") + gpu_exit_codes;
  if (command.empty()) return overview.c_str();
  if (command == "crosscheck") return crosscheck.c_str();
  if (command == "counters-pass") return counters_pass.c_str();
  if (command == "device") return device.c_str();
  return nullptr;
}

// True when the arguments ask for help: "--help" or "-h" among them.
inline bool wants_help(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

}  // namespace tilesim::gpu
