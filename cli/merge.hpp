// tilesim/cli/merge.hpp: `tilesim merge PARTIAL.json...`: the slices of a sharded `tilesim run`, joined.
//
// DEFINITION. Each `tilesim run ... --workgroups A:B` prints a partial report (sim/pricing/partial_report.hpp).
// `tilesim merge` reads the partials of one run, checks that they are of the same command and cover every SM
// set of the grid exactly once, merges their exact parts and prints what the unsharded command prints: the
// same header and result line (the result is right when every slice's compared elements were right and
// together they are the whole output), the same table or JSON, byte for byte; --svg FILE draws the bank heat
// map as `tilesim run` does. Shards run anywhere: GNU parallel on one machine, a Slurm array across many
// (docs/commands.md, "Simulating real problem sizes").
//
// WORKED EXAMPLE.
//   parallel tilesim run gemm --m 2048 --n 2048 --k 2048 --workgroups {} '>' part{#}.json ::: 0:256 256:512 512:768 768:1024
//   tilesim merge part*.json     # == tilesim run gemm --m 2048 --n 2048 --k 2048
//
// INVARIANTS: exit 2 with one line naming the file and the problem for an unreadable or malformed partial,
// partials of different runs, a missing or repeated slice; else 0, or 1 when the merged result is wrong.
#pragma once

#include <string>
#include <vector>

namespace tilesim::cli {

// `tilesim merge ...` (args after "merge"); returns the exit code.
int merge_command(const std::vector<std::string>& args);

// Its help text.
std::string merge_help();

}  // namespace tilesim::cli
