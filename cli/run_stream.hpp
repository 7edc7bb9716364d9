// tilesim/cli/run_stream.hpp: `tilesim run`'s host-side options: threads, slices (shards), progress on stderr.
//
// DEFINITION. Every `tilesim run` simulates through sim::simulate (sim/pricing/stream_report.hpp): the grid's
// workgroups stream through worker threads and are priced set by set. The options here choose how:
//   --jobs N           worker threads, 0 (the default) one per core; the output is the same for every N
//   --workgroups A:B   run positions A .. B-1 of the run order only (whole SM sets: a set belongs to the slice
//                      holding its first workgroup) and print a partial report (JSON) instead of the report;
//                      `tilesim merge` joins the partials of all slices into the report one process prints
//   --sample K         price about K workgroups, whole SM sets of every behaviour (the program names a
//                      workgroup's class: the GEMM's edge and interior tiles), and print the grid's report
//                      extrapolated from them, with a "sample:" line giving the 95 % error of the totals
//   --progress         a progress line on stderr even when stderr is not a terminal (on a terminal it is
//                      shown anyway once a run has taken a second)
// The flag `--threads` keeps its meaning (threads per workgroup, the GPU's); CPU threads are `--jobs`, as in
// make and GNU parallel.
//
// WORKED EXAMPLE. tilesim run gemm --m 2048 --n 2048 --k 2048 --workgroups 0:512 > part0.json
//                 tilesim run gemm --m 2048 --n 2048 --k 2048 --workgroups 512:1024 > part1.json
//                 tilesim merge part0.json part1.json      # == tilesim run gemm --m 2048 --n 2048 --k 2048
//
// INVARIANTS: a bad value is a usage_error naming the option (exit 2); the partial's "command" names every
// option of the program with its value, so partials of different runs are refused by the merge.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "util/args.hpp"
#include "sim/engine/global_memory.hpp"
#include "sim/pricing/stream_report.hpp"

namespace tilesim::cli {

struct host_options {
  int jobs = 0;
  std::optional<std::pair<long long, long long>> workgroups;  // --workgroups A:B
  long long sample = 0;                                       // --sample K
  bool progress = false;
};

// Removes --jobs, --workgroups, --sample and --progress from args (usage_error for bad values).
host_options take_host_options(std::vector<std::string>& args);
// Their lines in `tilesim run --help`.
std::string host_options_help();

// sim::simulate's options for a grid of `grid` workgroups (usage_error when --workgroups lies outside it);
// `behaviour` classes a workgroup for --sample.
sim::simulate_options simulate_options_for(const host_options& h, int grid, int registers,
                                           std::function<int(int)> behaviour = {});

// "run gemm --arch gfx942 --k 64 ...": the program and every option's value (the partials' identity).
std::string command_line(const std::string& program, const std::vector<option_spec>& specs, const options& o);

// What a run checked: elements compared with the expected result, and whether all were equal.
struct result_check {
  long long elements = 0;  // of the whole output
  long long checked = 0;   // compared (all of them, or those the slice's workgroups wrote)
  bool exact = true;
};

// Compares global buffer `slot` with `expected`: every element for the whole grid, else those the simulated
// workgroups wrote (s.touches.written()).
template <class T>
result_check check_output(const sim::simulation& s, int slot, const std::vector<T>& expected, bool whole) {
  const std::span<const T> got = s.memory.elements<T>(slot);
  result_check c{static_cast<long long>(expected.size()), 0, got.size() == expected.size()};
  if (!c.exact) return c;
  if (whole && !s.sample) {
    c.checked = c.elements;
    c.exact = std::equal(got.begin(), got.end(), expected.begin());
    return c;
  }
  const sim::address_t base = s.memory.info(slot).base, size = sizeof(T);
  for (const auto& [b, e] : s.touches.written()) {
    const sim::address_t end = base + size * expected.size();
    if (e <= base || b >= end) continue;
    for (sim::address_t i = (std::max(b, base) - base) / size; i < (std::min(e, end) - base + size - 1) / size; ++i) {
      ++c.checked;
      c.exact = c.exact && std::memcmp(&got[i], &expected[i], sizeof(T)) == 0;
    }
  }
  return c;
}

// How the run describes itself: the first header line and the result's two wordings.
struct run_description {
  std::string command;       // command_line(...)
  std::string program_line;  // "program gemm: C (64 x 64) = ... on gfx942 (...)"
  std::string right, wrong;  // "C == host reference", "C DIFFERS FROM THE HOST REFERENCE"
};

// The two header lines of a whole run's report.
std::string header_of(const run_description& d, const result_check& c);

// Prints the report (whole grid) or the partial report (--workgroups); returns the exit code.
int print_simulation(const sim::arch_table& arch, const sim::launch& l, int registers, const sim::simulation& s,
                     const run_description& d, const result_check& c, bool json, const std::optional<std::string>& svg,
                     const host_options& h);

}  // namespace tilesim::cli
