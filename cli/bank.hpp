// tilesim/cli/bank.hpp: `tilesim bank` and `tilesim global`: price every pattern of a pattern file.
//
//   tilesim bank --arch sm90 data/calibration/h200-smem-known.patterns
//     ld_w4_linear 1 1.734              NAME WAVEFRONTS CYCLES, one line per pattern, in file order
//   tilesim global --arch sm90 - < file
//     gld_w4_linear 4                   NAME SECTORS
//
// The file format is sim/patterns/pattern_file.hpp's; the models are sim/models/lds_banks.hpp (WAVEFRONTS),
// lds_timing.hpp (CYCLES: steady-state cycles per access when 32 waves repeat it) and
// global_coalescing.hpp (SECTORS). A malformed line gives one stderr line "tilesim: error: line N: ...",
// the other lines are still answered, and the exit code is 2 at the end. A usage mistake (no or unknown
// --arch, unknown option, two files, an unreadable file) throws cli::usage_error (one line, exit 2).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tilesim::cli {

// `tilesim bank ARGS...` (ARGS after the word "bank"); returns the exit code.
int run_bank(const std::vector<std::string>& args);

// `tilesim global ARGS...`; returns the exit code.
int run_global(const std::vector<std::string>& args);

// The texts of `tilesim bank --help` and `tilesim global --help`.
void print_bank_help(std::ostream& out);
void print_global_help(std::ostream& out);

}  // namespace tilesim::cli
