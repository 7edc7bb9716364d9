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
      "                                        the fourteen counters compared (tilesim-gpu crosscheck --help)\n"
      "  tilesim-gpu counters-pass --seed N    each point's kernel once (what the Nsight Compute run executes)\n"
      "  tilesim-gpu device                    the GPU, driver and runtime\n"
      "  tilesim-gpu props --cases N --seed S  generated tile programs compiled at run time (NVRTC), run on the GPU and\n"
      "                                        the simulator, compared, shrunk (tilesim-gpu props --help)\n"
      "  tilesim-gpu props-pass --cases-file F each case's kernel once (what props' ncu and compute-sanitizer runs execute)\n"
      "  tilesim-gpu --help, tilesim-gpu COMMAND --help   these texts\n"
      "\n") + gpu_exit_codes;
  static const std::string crosscheck = std::string(
      "usage: tilesim-gpu crosscheck [--seed N] [--only TEXT] [--report FILE] [--no-counters] [--repeat R]\n"
      "                              [--sweep-iterations N] [--source-counters | --ncu-source FILE] [--sass FILE]\n"
      "\n"
      "For every catalogue point (or those whose name contains TEXT): fresh random inputs from the seed, outputs\n"
      "poisoned, the program run in the simulator (sm90) and on the GPU; outputs checked; cycles (clock64 per block,\n"
      "the median block of the best of R timed launches: the launch whose median block is the fastest) against the\n"
      "simulator's cycles per workgroup; then, unless --no-counters, the fourteen counters (shared-memory wavefronts and\n"
      "instructions, ldmatrix's and cp.async's apart; global sectors and instructions; local-memory sectors; loads and\n"
      "stores each),\n"
      "Nsight Compute's (ncu on PATH, or $NCU) against the simulator's totals (exact).\n"
      "\n"
      "options:\n"
      "  --seed N               inputs' seed, an integer (default: random, printed; --seed N replays a run)\n"
      "  --only TEXT            only the points whose name contains TEXT (none matching: exit 2)\n"
      "  --report FILE          write everything as JSON (data/recordings/ keeps them; seeds as exact decimal text)\n"
      "  --no-counters          skip the Nsight Compute pass\n"
      "  --repeat R             timed launches per point, 1..100 (default 3)\n"
      "  --sweep-iterations N   the lds_sweep points' iteration count, 0..1048576\n"
      "  --source-counters      per instruction: one more Nsight Compute run per point (--section SourceCounters),\n"
      "                         its SASS instructions matched to the program's labels and printed beside the\n"
      "                         simulator's (wavefronts per instruction, sectors; gpu/crosscheck/source_match.hpp)\n"
      "  --ncu-source FILE      the same from a saved source page (ncu -i REP --page source --csv --print-source\n"
      "                         sass > FILE) or report (.ncu-rep) of the one point --only selects; without a GPU\n"
      "                         it prints that table alone (exit 0 all labels agree, 1 one differs)\n"
      "  --sass FILE            nvdisasm -g -gi of the kernels built with -lineinfo: each row of the per-instruction\n"
      "                         table names the program lines its SASS instructions came from\n"
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
  static const std::string props = std::string(
      "usage: tilesim-gpu props [--cases N] [--seed S] [--kinds LIST] [--report FILE] [--no-counters] [--cases-file FILE]\n"
      "                         [--compiler nvrtc|nvcc] [--compile-jobs N] [--cache DIR] [--root DIR] [--repeat R]\n"
      "                         [--counters-batch K] [--counters-deadline S] [--sanitize-cases N] [--shrink-budget N]\n"
      "                         [--shrink-seconds N] [--fault swizzle-bit] [--pairs]\n"
      "       tilesim-gpu props --counters-only --report FILE [--counters-batch K] [--counters-deadline S]\n"
      "\n"
      "Property tests against the real kernels (gpu/rtc_props/). Draws N whole tile programs (RapidCheck; element size,\n"
      "tile shape, vector widths, LDS layout of every family, writer and reader encodings with replication, pads, block\n"
      "and grid), turns each into the kernel a user would ship (the same program source the simulator runs) and\n"
      "compiles it at run time on every core (NVRTC in worker processes; modules cached by source hash). For every\n"
      "case, GPU against simulator: outputs bit for bit (a copy returns its input; no element lost; each stored once\n"
      "per replica), Nsight Compute's shared-memory wavefronts and instructions and global sectors and instructions\n"
      "(ncu in batches of kernels), cycles per block (clock64; a distribution: median, worst, the worst cases), 0 bytes\n"
      "of stack per kernel; compute-sanitizer memcheck and racecheck on a sample. A failing case is shrunk, each step\n"
      "recompiled and rerun on the GPU, and printed as a C++ snippet, its kernel source and a replay command line.\n"
      "A progress bar goes to stderr. Run it from the repository root (or pass --root).\n"
      "\n"
      "options:\n"
      "  --cases N              generated cases, 1..100000 (default 200)\n"
      "  --seed S               generator and input seed (default: random, printed; --seed S replays a run)\n"
      "  --kinds LIST           program kinds to draw, of copy,stencil,reduce,loop (default copy: the recorded seeds'\n"
      "                         programs); the report keeps the list, so a seed and its kinds replay a run\n"
      "  --report FILE          write the run as JSON (tool \"tilesim-gpu props\"; data/recordings/props-*.json are replayed\n"
      "                         by the CPU test gpu-props)\n"
      "  --no-counters          skip the Nsight Compute pass (ncu on PATH, or $NCU)\n"
      "  --cases-file FILE      run the case(s) in FILE (a JSON case or array; what a failure's replay line names)\n"
      "  --compiler nvrtc|nvcc  run-time compiler (default nvrtc, in process; nvcc runs as subprocesses)\n"
      "  --compile-jobs N       compile worker processes (default: the usable cores; --jobs is the old name)\n"
      "  --cache DIR            module cache (default /tmp/tilesim-props-cache)\n"
      "  --root DIR             the repository root holding gpu/rtc_props/ (default: the current directory)\n"
      "  --repeat R             timed launches per case, 1..100 (default 3)\n"
      "  --counters-batch K     kernels per ncu process, 1..100000 (default 50)\n"
      "  --counters-deadline S  the ncu pass ends S s after the start; what is left stays pending (exit 1)\n"
      "  --counters-only        measure the pending counters of --report FILE and rewrite it\n"
      "  --sanitize-cases N     cases run under compute-sanitizer memcheck and racecheck (default 8, 0: none)\n"
      "  --shrink-budget N      candidates tried when shrinking a failure (default 150)\n"
      "  --shrink-seconds N     wall-time limit of the shrinking (default 120)\n"
      "  --fault swizzle-bit    test only: one swizzle bit of the reader's LDS layout flipped on the device side\n"
      "  --pairs                run each drawn case beside its layout twin (the same program row-major, or padded\n"
      "                         when it is row-major) and report which layout is faster, predicted against measured\n"
      "  --help                 this text\n"
      "\n") + gpu_exit_codes;
  static const std::string props_pass = std::string(
      "usage: tilesim-gpu props-pass --cases-file FILE [--cache DIR] [--root DIR] [--compiler nvrtc|nvcc] [--counting]\n"
      "\n"
      "What props' Nsight Compute and compute-sanitizer runs execute: each case's kernel once, untimed, one line each\n"
      "with its output check (exit 1 if one differs).\n"
      "\n"
      "options:\n"
      "  --cases-file FILE      the cases (a JSON case or array; required)\n"
      "  --cache DIR            module cache (default /tmp/tilesim-props-cache)\n"
      "  --root DIR             the repository root holding gpu/rtc_props/\n"
      "  --compiler nvrtc|nvcc  run-time compiler (default nvrtc)\n"
      "  --counting             exit 0 even when an output differs (props runs it so under Nsight Compute)\n"
      "  --help                 this text\n"
      "\n") + gpu_exit_codes;
  if (command.empty()) return overview.c_str();
  if (command == "crosscheck") return crosscheck.c_str();
  if (command == "counters-pass") return counters_pass.c_str();
  if (command == "device") return device.c_str();
  if (command == "props") return props.c_str();
  if (command == "props-pass") return props_pass.c_str();
  return nullptr;
}

// True when the arguments ask for help: "--help" or "-h" among them.
inline bool wants_help(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

}  // namespace tilesim::gpu
