// tilesim/cli/tma_wgmma.hpp: `tilesim tma-wgmma`: does a wgmma descriptor read the elements a TMA box wrote?
//
//   tilesim tma-wgmma --type bf16 --box 64,64 --tma-swizzle 128B --operand A --major k --swizzle 128B --sbo 1024
//     consistent: all 1024 elements wgmma reads are the elements TMA put there
//
// The proof, the alignment rules and the fix search are spec/hopper/tma_wgmma.hpp; this file reads the options
// and prints the verdict (text or --json). Exit codes: 0 consistent, 1 not (the first element that differs,
// or a broken alignment rule, with the fixes found), 2 bad input (one line "tilesim: error: ...").
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tilesim::cli {

// `tilesim tma-wgmma ARGS...`; returns the exit code.
int run_tma_wgmma_command(const std::vector<std::string>& args);
void print_tma_wgmma_help(std::ostream& out);

}  // namespace tilesim::cli
