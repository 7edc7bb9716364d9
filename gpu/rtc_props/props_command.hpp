// tilesim/gpu/rtc_props/props_command.hpp: `tilesim-gpu props` and `tilesim-gpu props-pass` (issue 18).
//
// DEFINITION.
//   tilesim-gpu props --cases N --seed S [--report FILE] [...]
//     draws N tile programs (props_generators.hpp; --kinds copy,stencil,reduce,loop lets them be stencils,
//     shuffle reductions and multi-tile loops beside copies: props_case.hpp; default copy), compiles each to the kernel a user would ship with NVRTC
//     on every core (rtc_compiler.hpp; modules cached by source hash), and for every case checks, GPU against
//     simulator: outputs bit for bit (output == the kind's host reference over the tensor: a copy's is the input,
//     no element lost), the simulator's
//     findings (no race, bounds error, misaligned access; each element stored reader-replication times),
//     Nsight Compute's shared-memory wavefronts and instructions and global sectors and instructions
//     against the simulator's (props-pass under ncu, in batches of --counters-batch kernels until
//     --counters-deadline: counters_pass.hpp), and clock64 cycles per block against the prediction (a
//     distribution, not a pass/fail). Compiling runs in --compile-jobs worker processes (compile_batch.hpp). compute-sanitizer memcheck and racecheck
//     run props-pass over a sample. A failing case is shrunk (shrink.hpp), each step recompiled and rerun on
//     the GPU, and printed as a C++ snippet, its kernel source and a command line that replays it. --pairs runs each
//     drawn case beside its layout twin and reports which layout is faster, predicted against measured
//     (layout_pairs.hpp).
//   tilesim-gpu props --counters-only --report FILE [--counters-batch K] [--counters-deadline S]
//     measures the counters an earlier run left pending and rewrites its report (counters_pass.hpp).
//   tilesim-gpu props-pass --cases-file FILE [--cache DIR] [--compiler nvrtc|nvcc]
//     what ncu and compute-sanitizer run: each case's kernel once, untimed, one line each (exit 1 if an output
//     differs). FILE is a JSON array of cases (props_json.hpp). `props-pass --compile-worker DIR ...` is one of
//     compile_batch's worker processes (internal).
// Nsight Compute runs through gpu/crosscheck's ncu_program and read_ncu_csv (counters_pass.cpp), the simulator's totals
// through its predicted_counters.
//
// WORKED EXAMPLE. tilesim-gpu props --cases 500 --seed 1 --report data/recordings/props-h100.json
//
// INVARIANTS: exit 0 only when every property held for every case; 1 otherwise; 2 for bad options; 77 no GPU.
#pragma once

#include <string>
#include <vector>

namespace tilesim::gpu::props {

int props_command(std::vector<std::string> args, const std::string& command_line);
int props_pass_command(std::vector<std::string> args);

}  // namespace tilesim::gpu::props
