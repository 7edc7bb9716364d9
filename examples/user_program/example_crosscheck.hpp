// tilesim/examples/user_program/example_crosscheck.hpp: what every example's NAME-crosscheck main shares.
//
// DEFINITION. An example's cross-check (stencil-crosscheck, row-sums-crosscheck, fp16-transpose-crosscheck) runs
// tilesim::gpu::crosscheck once per variant and takes the same arguments:
//   NAME-crosscheck [--report FILE] [--no-counters] [--seed N]
// parse_example_args reads them (a bad one: one line naming it, the usage, exit code 2); example_report joins
// the variants' one-point reports into one tilesim.crosscheck/1 document (points in order, the summary over all
// of them); finish_example writes it (--report) and gives the exit code: 0 all agreed, 1 a result, counter or
// twin differed, 77 no GPU (skipped, after the simulator's side was printed).
//
// WORKED EXAMPLE.
//   examples::example_args a;
//   if (const int code = examples::parse_example_args(argc, argv, "stencil-crosscheck", a); code >= 0) return code;
//   std::vector<gpu::user_report> reports = {check<stencil_packed>(a), check<stencil_padded>(a)};
//   return examples::finish_example(reports, a);   // "wrote FILE" when --report was given
//
// INVARIANTS: the joined summary's counts and errors are those of every point that ran (a point skipped for want
// of a GPU adds nothing); nothing is written when no point ran.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "gpu/user/user_crosscheck.hpp"
#include "util/args.hpp"

namespace tilesim::examples {

struct example_args {
  std::string report_path;         // --report FILE: the joined tilesim.crosscheck/1 document
  bool counters = true;            // --no-counters: no Nsight Compute pass
  std::uint64_t seed = 20261129;   // --seed N: the inputs' seed
};

// -1: go on; 0: --help printed; 2: a bad argument (named on stderr with the usage). Options: util/args.hpp.
inline int parse_example_args(int argc, char** argv, const char* tool, example_args& a) {
  const std::string usage = std::string("usage: ") + tool + " [--report FILE] [--no-counters] [--seed N]\n";
  auto bad = [&](const std::string& why) { return std::fprintf(stderr, "%s: %s\n%s", tool, why.c_str(), usage.c_str()), 2; };
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (cli::take_flag(args, "help")) return std::fputs(usage.c_str(), stdout), 0;
    a.report_path = cli::take_text_option(args, "report").value_or("");
    a.counters = !cli::take_flag(args, "no-counters");
    const std::optional<std::string> seed = cli::take_text_option(args, "seed");
    if (!args.empty()) return bad("unknown argument \"" + args[0] + "\"");
    if (seed) {
      std::size_t used = 0;
      try {
        a.seed = std::stoull(*seed, &used, 10);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != seed->size() || (*seed)[0] == '-')
        return bad("--seed needs a non-negative integer, not \"" + *seed + "\"");
    }
  } catch (const cli::usage_error& e) {
    return bad(e.what());
  }
  return -1;
}

// The reports that ran as one document: their points in order, the summary over all of them; null if none ran.
inline util::json_value example_report(const std::vector<gpu::user_report>& reports) {
  util::json_value doc;
  std::vector<double> errors;
  bool results = true, counters_measured = true, counters = true;
  for (const gpu::user_report& r : reports) {
    if (r.skipped || r.json.is_null()) continue;
    if (doc.is_null()) doc = r.json;
    else doc.at("points").push(r.json["points"].elements()[0]);
    const util::json_value& point = r.json["points"].elements()[0];
    if (const util::json_value* e = point.get("cycle_error")) errors.push_back(std::fabs(e->number()));
    results = results && r.results_equal;
    counters_measured = counters_measured && r.counters_measured;
    counters = counters && r.counters_equal;
  }
  if (doc.is_null()) return doc;
  util::json_value& s = doc.at("summary");
  s.at("points") = static_cast<long long>(doc["points"].elements().size());
  s.at("results_equal") = results;
  s.at("counters_measured") = counters_measured;
  s.at("counters_equal") = counters_measured ? util::json_value(counters) : util::json_value();
  std::sort(errors.begin(), errors.end());
  const std::size_t n = errors.size();
  const util::json_value median = n == 0 ? util::json_value() : util::json_value(n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2);
  s.at("median_abs_cycle_error") = median;
  util::json_value per = util::json_value::object{};
  if (n) per.set("user", median);
  s.at("median_abs_cycle_error_by_program") = per;
  s.at("max_abs_cycle_error") = n == 0 ? util::json_value() : util::json_value(errors.back());
  return doc;
}

// Writes the joined report (--report) and returns the exit code (see the top).
inline int finish_example(const std::vector<gpu::user_report>& reports, const example_args& a) {
  bool skipped = false, passed = true;
  for (const gpu::user_report& r : reports) skipped = skipped || r.skipped, passed = passed && r.passed();
  const util::json_value doc = example_report(reports);
  if (!a.report_path.empty() && !doc.is_null()) {
    std::ofstream f(a.report_path);
    f << util::dump(doc, 2) << "\n";
    if (!f) return std::fprintf(stderr, "could not write %s\n", a.report_path.c_str()), 2;
    std::printf("wrote %s\n", a.report_path.c_str());
  }
  return skipped ? 77 : passed ? 0 : 1;
}

}  // namespace tilesim::examples
