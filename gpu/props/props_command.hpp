// tilesim/gpu/props/props_command.hpp: `tilesim-gpu props` and `tilesim-gpu props-pass` (issue 18).
//
// DEFINITION.
//   tilesim-gpu props --cases N --seed S [--report FILE] [...]
//     draws N tile programs (props_generators.hpp), compiles each to the kernel a user would ship with NVRTC
//     on every core (rtc_compiler.hpp; modules cached by source hash), and for every case checks, GPU against
//     simulator: outputs bit for bit (output == input over the tensor, no element lost), the simulator's
//     findings (no race, bounds error, misaligned access; each element stored reader-replication times),
//     Nsight Compute's shared-memory wavefronts and instructions and global sectors and instructions
//     against the simulator's (one ncu run over the whole batch: props-pass under ncu), and clock64 cycles per
//     block against the prediction (a distribution, not a pass/fail). compute-sanitizer memcheck and racecheck
//     run props-pass over a sample. A failing case is shrunk (shrink.hpp), each step recompiled and rerun on
//     the GPU, and printed as a C++ snippet, its kernel source and a command line that replays it.
//   tilesim-gpu props-pass --cases-file FILE [--cache DIR] [--compiler nvrtc|nvcc]
//     what ncu and compute-sanitizer run: each case's kernel once, untimed, one line each (exit 1 if an output
//     differs). FILE is a JSON array of cases (props_json.hpp).
// Nsight Compute runs through gpu/crosscheck's count_with_ncu, the simulator's totals through its predicted_counters.
//
// WORKED EXAMPLE. tilesim-gpu props --cases 500 --seed 1 --report gpu/recordings/props-h100.json
//
// INVARIANTS: exit 0 only when every property held for every case; 1 otherwise; 2 for bad options; 77 no GPU.
#pragma once

#include <string>
#include <vector>

namespace tilesim::gpu::props {

int props_command(std::vector<std::string> args, const std::string& command_line);
int props_pass_command(std::vector<std::string> args);

}  // namespace tilesim::gpu::props
