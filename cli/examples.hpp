// tilesim/cli/examples.hpp: `tilesim examples`, the main job: every reference program in the simulator.
//
//   tilesim examples [--only EXAMPLE] [--arch ARCH] [--svg-dir DIR] [--no-svg]
//
// Runs every variant of every example (examples/catalogue.hpp) in the simulator, checks its result, prices
// it on its architecture and prints one summary table (example, variant, arch, LDS wavefronts ideal /
// actual, global sectors ideal / actual, predicted cycles per workgroup, result check). While it works it
// shows a progress line on stderr ("[ 7/38] gemm ck-xor, 32x32x8 (gfx942)"; redrawn in place on a terminal,
// one line each otherwise). Each variant's bank heat map (the LDS instruction with the most excess
// wavefronts, phases x banks) goes to DIR/<example>_<variant>_<arch>.svg, DIR defaulting to
// tilesim-heatmaps; the last line names the folder. --only and --arch keep the matching variants.
// Exit codes: 0 when every check passed, 1 when one failed (the table says which), 2 for bad input.
#pragma once

#include <string>
#include <vector>

namespace tilesim::cli {

// `tilesim examples ...` (args after "examples"); returns the exit code.
int run_examples_command(const std::vector<std::string>& args);

// The help text of `tilesim examples`.
std::string examples_help();

}  // namespace tilesim::cli
