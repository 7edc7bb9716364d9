// tilesim/cli/merge.cpp: see merge.hpp.
#include "cli/merge.hpp"

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "util/args.hpp"
#include "cli/run_output.hpp"
#include "cli/run_stream.hpp"
#include "sim/pricing/partial_report.hpp"

namespace tilesim::cli {

namespace {

// A meta field every partial of `tilesim run` has; usage_error naming the file when it is missing.
const std::string& field(const std::map<std::string, std::string>& meta, const std::string& key, const std::string& file) {
  const auto it = meta.find(key);
  if (it == meta.end()) throw usage_error("merge: " + file + ": the partial has no '" + key + "' (not from tilesim run)");
  return it->second;
}

}  // namespace

std::string merge_help() {
  return "usage: tilesim merge PARTIAL.json... [--json] [--svg FILE]\n"
         "\n"
         "Joins the partial reports of a sharded run (tilesim run copy|gemm ... --workgroups A:B, one per slice)\n"
         "into the report the unsharded command prints, byte for byte: the partials must come from the same\n"
         "command and together cover every SM set of the grid once (any order).\n"
         "  --json       print the report as one JSON object instead of text\n"
         "  --svg FILE   draw the bank heat map of the LDS instruction with the most excess wavefronts\n"
         "exit codes: 0 success; 1 the merged result is wrong, or an internal error; 2 bad command line, an\n"
         "unreadable or malformed partial, partials of different runs, a missing or repeated slice (one line on\n"
         "stderr naming the file and the problem).\n";
}

int merge_command(const std::vector<std::string>& all) {
  if (!all.empty() && (all[0] == "--help" || all[0] == "-h")) {
    std::cout << merge_help();
    return 0;
  }
  std::vector<std::string> files = all;
  const bool json = take_flag(files, "json");
  const std::optional<std::string> svg = take_text_option(files, "svg");
  if (files.empty()) throw usage_error("merge: no partial reports given (see tilesim merge --help)");
  std::vector<sim::partial_report> parts;
  for (const std::string& f : files) {
    if (f.rfind("--", 0) == 0) throw usage_error("merge: unknown option " + f + " (its options: --json --svg)");
    std::ifstream in(f);
    if (!in) throw usage_error("merge: cannot read '" + f + "'");
    std::stringstream text;
    text << in.rdbuf();
    try {
      parts.push_back(sim::parse_partial(text.str()));
    } catch (const std::invalid_argument& e) {
      throw usage_error("merge: " + f + ": " + e.what());
    }
    for (const char* key : {"program", "result_right", "result_wrong", "elements", "checked", "exact"}) field(parts.back().meta, key, f);
  }
  const sim::arch_table& arch = [&]() -> const sim::arch_table& {
    try {
      return sim::arch_named(parts.front().arch);
    } catch (const std::invalid_argument& e) {
      throw usage_error("merge: " + files.front() + ": " + e.what());
    }
  }();
  sim::merged_report m;
  try {
    m = sim::merge_partials(arch, std::move(parts));
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string("merge: ") + e.what());
  }
  result_check c;
  c.elements = parse_int(m.meta.at("elements"), "partial field 'elements'");
  for (const auto& meta : m.metas) {
    c.checked += parse_int(meta.at("checked"), "partial field 'checked'");
    c.exact = c.exact && meta.at("exact") == "yes";
  }
  const run_description d{m.meta.at("command"), m.meta.at("program"), m.meta.at("result_right"), m.meta.at("result_wrong")};
  return print_run_report(arch, m.report, c.exact && c.checked == c.elements, header_of(d, c), json, svg);
}

}  // namespace tilesim::cli
