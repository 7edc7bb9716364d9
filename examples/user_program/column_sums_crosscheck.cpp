// tilesim/examples/user_program/column_sums_crosscheck.cpp: column_sums cross-checked on a GPU in one call each.
//
//   column-sums-crosscheck [--report FILE] [--no-counters] [--no-source-counters] [--seed N]
//                          [--layout row-major|swizzled|both] [--ncu-source FILE] [--sass FILE]
// Runs examples/user_program/column_sums.hpp (4 tiles of 64 x 64 fp32, row-major and Swizzle<2,3,7> LDS) through
// tilesim::gpu::crosscheck (gpu/user/user_crosscheck.hpp): the simulator and the GPU on the same inputs (integer
// values from the seed, so the sums are exact), outputs compared bit for bit, Nsight Compute's counters against
// the simulator's (unless --no-counters), cycles per block against the prediction. Prints what
// `tilesim-gpu crosscheck` prints per point; --report writes both points as one tilesim.crosscheck/1 document.
// Per instruction, Nsight Compute's source counters matched to the labels (live with the counters, unless
// --no-source-counters); --ncu-source FILE compares a saved source page (.csv) or report (.ncu-rep) of one
// layout's launch instead (--layout names it; scripts/recordings/record_user_source.sh records them), with or
// without a GPU; --sass FILE (nvdisasm -g -gi of the kernel built with -lineinfo) adds each label's program lines. Exit codes: 0 all agreed; 1 a result, counter or label differed; 2 bad arguments or an
// unreadable --ncu-source; 77 no GPU (skipped; with --ncu-source, after the per-instruction table).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "examples/user_program/column_sums.hpp"
#include "gpu/crosscheck/sass_lines.hpp"
#include "gpu/crosscheck/source_counters.hpp"
#include "gpu/user/user_crosscheck.hpp"

namespace {

using namespace tilesim;

constexpr const char* usage_line =
    "usage: column-sums-crosscheck [--report FILE] [--no-counters] [--no-source-counters] [--seed N]\n"
    "                              [--layout row-major|swizzled|both] [--ncu-source FILE] [--sass FILE]\n";

int usage(const std::string& why) {
  std::fprintf(stderr, "column-sums-crosscheck: %s\n%s", why.c_str(), usage_line);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string report_path, layout = "both", ncu_source, sass_listing;
  bool counters = true, source_counters = true;
  std::uint64_t seed = 20261124;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--report" && i + 1 < argc) report_path = argv[++i];
    else if (a == "--no-counters") counters = false;
    else if (a == "--no-source-counters") source_counters = false;
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--layout" && i + 1 < argc) layout = argv[++i];
    else if (a == "--ncu-source" && i + 1 < argc) ncu_source = argv[++i];
    else if (a == "--sass" && i + 1 < argc) sass_listing = argv[++i];
    else if (a == "--help") return std::fputs(usage_line, stdout), 0;
    else return usage("unknown argument \"" + a + "\"");
  }
  if (layout != "row-major" && layout != "swizzled" && layout != "both")
    return usage("--layout must be row-major, swizzled or both (got \"" + layout + "\")");
  if (!ncu_source.empty() && layout == "both")
    return usage("--ncu-source " + ncu_source + " is one launch's page: name its layout with --layout row-major|swizzled");
  try {  // bad input: exit 2 naming it, before any run
    if (!sass_listing.empty()) (void)gpu::read_sass_lines(sass_listing);
    if (!ncu_source.empty()) {
      std::vector<gpu::sass_row> rows = gpu::read_source_counters(ncu_source);
      if (!sass_listing.empty()) gpu::attach_source_lines(rows, gpu::read_sass_lines(sass_listing), sass_listing);
    }
  } catch (const std::exception& e) {
    return usage(e.what());
  }
  util::json_value doc;
  bool all_passed = true, skipped = false, source_differs = false;
  for (const bool swizzled : {false, true}) {
    if (layout != "both" && swizzled != (layout == "swizzled")) continue;
    gpu::user_buffers buffers;
    const int in = buffers.input<float>("in", examples::column_sums_inputs(4, seed));
    const int out = buffers.output<float>("out", 4 * 64, -1.0f);
    gpu::crosscheck_options o;
    o.name = swizzled ? "column sums, Swizzle<2,3,7>" : "column sums, row-major";
    o.counters = counters;
    o.source_counters = source_counters;
    o.ncu_source = ncu_source;
    o.sass_listing = sass_listing;
    o.seed = seed;
    const gpu::user_report r =
        gpu::crosscheck(examples::column_sums<4>{in, out, swizzled}, {.grid = 4, .block = 256, .wave_size = 32}, buffers, o);
    std::fputs(r.text.c_str(), stdout);
    skipped = skipped || r.skipped;
    all_passed = all_passed && r.passed();
    source_differs = source_differs || (r.source_compared && !r.source.all_equal);
    if (r.skipped || !r.gpu_error.empty()) continue;  // no GPU numbers to record (r.text says why)
    if (doc.is_null()) {
      doc = r.json;
    } else {
      doc.at("points").push(r.json["points"].elements()[0]);
      util::json_value& s = doc.at("summary");
      s.set("points", 2);
      s.set("results_equal", s["results_equal"].boolean() && r.results_equal);
      if (r.counters_measured) s.set("counters_equal", s["counters_equal"].boolean() && r.counters_equal);
      const double e0 = s["max_abs_cycle_error"].number(), e1 = r.json["summary"]["max_abs_cycle_error"].number();
      s.set("median_abs_cycle_error", (e0 + e1) / 2);
      s.set("max_abs_cycle_error", e0 > e1 ? e0 : e1);
      util::json_value per;
      per.set("user", (e0 + e1) / 2);
      s.set("median_abs_cycle_error_by_program", per);
    }
  }
  if (!report_path.empty() && !doc.is_null()) {
    std::ofstream f(report_path);
    f << util::dump(doc, 2) << "\n";
    std::printf("wrote %s\n", report_path.c_str());
  }
  if (source_differs) return 1;  // a label disagrees with Nsight's source counters, GPU or not
  return skipped ? 77 : all_passed ? 0 : 1;
}
