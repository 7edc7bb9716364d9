// tilesim/cli/synth.hpp: `tilesim synth` (the LDS layout for a writer and a reader) and `tilesim prove`
// (a layout claim over a parameter grid, sharded).
//
//   tilesim synth --arch gfx942 --rows 128 --cols 32 --write warp-raked --read mfma
//     best: Swizzle<3,3,3> (cute): 128 wavefronts (write 64 + read 64), ideal 128: reaches the ideal
//     ... the layout as a spec/ descriptor, CK Tile code and CuTe Swizzle<B,M,S>, the GF(2) analysis
//   tilesim prove ck-lds --shard 1/4 --json > s1.json; ...; tilesim prove --merge s1.json s2.json ...
//
// The search is sim/synth/synth.hpp, the analysis sim/synth/xor_bound.hpp, the grids sim/synth/prove.hpp.
// Bad input (options, an encoding text, a pattern file line, a side the tile cannot hold) is one line
// "tilesim: error: ..." and exit code 2, before anything is printed.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tilesim::cli {

// `tilesim synth ARGS...`; returns the exit code.
int run_synth_command(const std::vector<std::string>& args);
void print_synth_help(std::ostream& out);

// `tilesim prove ARGS...`; returns the exit code (1 when a claim fails).
int run_prove_command(const std::vector<std::string>& args);
void print_prove_help(std::ostream& out);

}  // namespace tilesim::cli
