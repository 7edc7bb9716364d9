// tilesim/examples/stencil/stencil_crosscheck.cpp: the stencil cross-checked on a GPU in one call per pitch.
//
//   stencil-crosscheck [--report FILE] [--no-counters] [--seed N]
// Runs examples/stencil/stencil.hpp (a 4 x 4 grid of 32 x 32 tiles, halo pitch 34 and 36) through
// tilesim::gpu::crosscheck (gpu/user/user_crosscheck.hpp): the simulator and the GPU on the same inputs (integers
// from the seed, so the sums are exact), outputs compared bit for bit (the simulator's equal the host's stencil:
// stencil.test.cpp), Nsight
// Compute's counters and per-label source counters against the simulator's, cycles per block against the
// prediction. --report writes both points as one tilesim.crosscheck/1 document. Exit codes: 0 all agreed; 1 a
// result or counter differed; 2 bad arguments; 77 no GPU (skipped, after the simulator's side).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "examples/stencil/stencil.hpp"
#include "gpu/user/user_crosscheck.hpp"

namespace {

using namespace tilesim;

constexpr const char* usage_line = "usage: stencil-crosscheck [--report FILE] [--no-counters] [--seed N]\n";

// One pitch's point: the cross-check, its text printed.
template <class Program>
gpu::user_report check(const char* name, bool counters, std::uint64_t seed) {
  gpu::user_buffers buffers;
  const int src = buffers.input<float>("in", examples::stencil_inputs(4, seed));
  const int dst = buffers.output<float>("out", 128 * 128, -1.0f);
  gpu::crosscheck_options o;
  o.name = name;
  o.counters = counters;
  o.seed = seed;
  gpu::user_report r = gpu::crosscheck(Program{src, dst}, {.grid = 16, .block = 256, .wave_size = 32}, buffers, o);
  std::fputs(r.text.c_str(), stdout);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::string report_path;
  bool counters = true;
  std::uint64_t seed = 20261129;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--report" && i + 1 < argc) report_path = argv[++i];
    else if (a == "--no-counters") counters = false;
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--help") return std::fputs(usage_line, stdout), 0;
    else return std::fprintf(stderr, "stencil-crosscheck: unknown argument \"%s\"\n%s", a.c_str(), usage_line), 2;
  }
  bool skipped = false, passed = true;
  gpu::json_value doc;
  for (const bool padded : {false, true}) {
    const gpu::user_report r = padded ? check<examples::stencil_padded>("stencil, pitch 36", counters, seed)
                                      : check<examples::stencil_packed>("stencil, pitch 34", counters, seed);
    skipped = skipped || r.skipped;
    passed = passed && r.passed();
    if (r.skipped) continue;
    if (doc.is_null()) doc = r.json;
    else doc.at("points").push(r.json["points"].elements()[0]);
  }
  if (!report_path.empty() && !doc.is_null()) {
    std::ofstream f(report_path);
    f << gpu::dump(doc, 2) << "\n";
    std::printf("wrote %s\n", report_path.c_str());
  }
  return skipped ? 77 : passed ? 0 : 1;
}
