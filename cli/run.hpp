// tilesim/cli/run.hpp: `tilesim run PROGRAM`, a built-in tile program on the simulator, priced per instruction.
//
//   tilesim run copy [--arch ARCH] [--layout L] [--read R --lane-rows R --ck-order 2025|2024]
//                    [--rows M --cols N --vector V --threads T --grid G --elem-bytes B --pad P] [--json] [--svg FILE]
//   tilesim run gemm [--arch ARCH] [--layout L] [--m M --n N --k K --threads T] [--json] [--svg FILE]
//   both: [--jobs N] [--workgroups A:B | --sample K] [--progress]   (run_stream.hpp; `tilesim merge`: merge.hpp)
//
// It runs the program for every lane (sim/engine), workgroups streamed through --jobs worker threads and priced
// as each SM's set of them finishes (sim::simulate), checks its result, prices every wave-level instruction on
// the arch's models and times each workgroup (sim/report), and prints one line per program instruction:
//   label, space, op, bytes per lane, instances (waves x workgroups), wavefronts (actual / ideal, N-way, wf/inst) for
//   LDS, sectors (actual / ideal) for global, mean cycles from issue to completion
// then the totals, the predicted cycles per workgroup and every finding (races, out-of-bounds, divergence).
// --json prints the same as one JSON object; --svg FILE draws the bank heat map (phases x banks) of the LDS
// instruction with the most excess wavefronts. Exit codes as every tilesim command: 2 for bad input.
#pragma once

#include <string>
#include <vector>

namespace tilesim::cli {

// `tilesim run ...` (args after "run"); returns the exit code.
int run_program_command(const std::vector<std::string>& args);

// The help text of `tilesim run`.
std::string run_help();

}  // namespace tilesim::cli
