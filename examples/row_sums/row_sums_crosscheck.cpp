// tilesim/examples/row_sums/row_sums_crosscheck.cpp: the row reduction cross-checked on a GPU in one call.
//
//   row-sums-crosscheck [--report FILE] [--no-counters] [--seed N]
// Runs examples/row_sums/row_sums.hpp (128 rows of 256 floats, 16 workgroups) through tilesim::gpu::crosscheck
// (gpu/user/user_crosscheck.hpp): outputs bit for bit, Nsight Compute's counters and per-label source counters
// (a page without shared-memory columns: the program has no LDS) against the simulator's, cycles per block.
// Exit codes: 0 all agreed; 1 a result or counter differed; 2 bad arguments; 77 no GPU (skipped, after the
// simulator's side).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "examples/row_sums/row_sums.hpp"
#include "gpu/user/user_crosscheck.hpp"

namespace {
constexpr const char* usage_line = "usage: row-sums-crosscheck [--report FILE] [--no-counters] [--seed N]\n";
}

int main(int argc, char** argv) {
  using namespace tilesim;
  std::string report_path;
  bool counters = true;
  std::uint64_t seed = 20261129;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--report" && i + 1 < argc) report_path = argv[++i];
    else if (a == "--no-counters") counters = false;
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--help") return std::fputs(usage_line, stdout), 0;
    else return std::fprintf(stderr, "row-sums-crosscheck: unknown argument \"%s\"\n%s", a.c_str(), usage_line), 2;
  }
  gpu::user_buffers buffers;
  const int src = buffers.input<float>("in", examples::row_sums_inputs(128, seed));
  const int dst = buffers.output<float>("out", 128, -1.0f);
  gpu::crosscheck_options o;
  o.name = "row sums";
  o.counters = counters;
  o.seed = seed;
  const gpu::user_report r = gpu::crosscheck(examples::row_sums_128{src, dst}, {.grid = 16, .block = 256}, buffers, o);
  std::fputs(r.text.c_str(), stdout);
  if (!report_path.empty() && !r.json.is_null()) {
    std::ofstream f(report_path);
    f << gpu::dump(r.json, 2) << "\n";
    std::printf("wrote %s\n", report_path.c_str());
  }
  return r.skipped ? 77 : r.passed() ? 0 : 1;
}
