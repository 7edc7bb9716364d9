// tilesim/gpu/crosscheck/ncu.hpp: counting a program's kernels with Nsight Compute, and reading its CSV.
//
// DEFINITION. count_with_ncu(extra, command) runs `ncu --csv --clock-control none --metrics M EXTRA COMMAND`
// (M = counter_metrics(), crosscheck.hpp: shared-memory wavefronts and instructions, global sectors and
// instructions, local sectors, ldmatrix apart) and returns one ncu_launch per profiled kernel launch, in
// ncu's ID order, with the counters filled from its "Metric Name" / "Metric Value" rows. COMMAND's own output
// is kept aside and shown only when ncu fails. `tilesim-gpu crosscheck` runs its counters pass this way;
// gpu/user's crosscheck re-runs the user's own program (its counters pass) this way.
//
// WORKED EXAMPLE. count_with_ncu("--kernel-name regex:copy", "/proc/self/exe counters-pass --seed 1") on an
// H100: {{0, "void tilesim::gpu::copy_fp16_kernel<0>(tilesim::gpu::kernel_args)", {lds_wavefronts_ld 512, ...}}, ...}.
//
// INVARIANTS: every launch of the result has every metric of counter_metrics() that ncu reported (values with
// thousands separators read exactly); a failing ncu (status != 0, no CSV) is a device_error quoting its output;
// the temporary folder of ncu's CSV and output is removed either way.
#pragma once

#include <string>
#include <vector>

#include "gpu/crosscheck/crosscheck.hpp"

namespace tilesim::gpu {

struct ncu_launch {
  std::size_t id = 0;     // ncu's "ID": the profiled launch's index in the process
  std::string kernel;     // its "Kernel Name" (demangled)
  counters measured;
};

// Nsight Compute: $NCU, else `ncu` on PATH, else CUDA's default install paths; a device_error without one.
std::string ncu_program();

// The fields of one CSV line, quotes removed: split_csv("\"a,b\",c") == {"a,b", "c"}.
std::vector<std::string> split_csv(const std::string& line);

// The launches of ncu's --csv output in `csv_path` (see the top).
std::vector<ncu_launch> read_ncu_csv(const std::string& csv_path);

// Runs COMMAND under ncu with the counter metrics (see the top); env_prefix ("A=1 ") goes before ncu.
std::vector<ncu_launch> count_with_ncu(const std::string& extra_ncu_args, const std::string& command,
                                       const std::string& env_prefix = "");

}  // namespace tilesim::gpu
