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
#include "sim/pricing/partial_checks.hpp"
#include "sim/pricing/partial_report.hpp"

namespace tilesim::cli {

namespace {

// The meta fields `tilesim run` writes (run_stream.cpp), each required: anything else is not its partial.
void check_meta(const std::map<std::string, std::string>& meta, const std::string& file) {
  const std::string where = "merge: " + quoted(file, 256) + ": ";
  for (const char* key : {"command", "program", "result_right", "result_wrong", "elements", "checked", "exact"})
    if (!meta.count(key)) throw usage_error(where + "'meta." + key + "' is missing (not a partial of tilesim run)");
  for (const auto& [key, value] : meta)
    if (key != "command" && key != "program" && key != "result_right" && key != "result_wrong" && key != "elements" &&
        key != "checked" && key != "exact")
      throw usage_error(where + "'meta." + key + "' is not a field of tilesim run's partials");
  auto count = [&](const char* key) {
    const std::string& v = meta.at(key);
    const bool digits = !v.empty() && v.size() <= 18 && v.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) throw usage_error(where + "'meta." + key + "': " + quoted(v) + " is not a count (0, 1, 2, ...)");
    return std::stoll(v);
  };
  if (count("checked") > count("elements"))
    throw usage_error(where + "'meta.checked': " + meta.at("checked") + " is more than 'meta.elements' " + meta.at("elements"));
  if (meta.at("exact") != "yes" && meta.at("exact") != "no")
    throw usage_error(where + "'meta.exact': " + quoted(meta.at("exact")) + " is not yes or no");
}

}  // namespace

std::string merge_help() {
  return "usage: tilesim merge PARTIAL.json... [--json] [--svg FILE]\n"
         "\n"
         "Joins the partial reports of a sharded run (tilesim run copy|gemm ... --workgroups A:B, one per slice)\n"
         "into the report the unsharded command prints, byte for byte: the partials must come from the same\n"
         "command and together cover every SM set of the grid once (any order).\n"
         "  --json       print the report as one JSON object instead of text\n"
         "  --svg FILE   draw the bank heat map of the LDS instruction with the most excess wavefronts (FILE: a\n"
         "               new path or a regular file, replaced whole; - for stdout)\n"
         "Every field of a partial is checked against its range, the others and the arch before anything is merged.\n"
         "exit codes: 0 success; 1 the merged result is wrong, or an internal error; 2 bad command line, an\n"
         "unreadable or malformed partial, partials of different runs, a missing or repeated slice (one line on\n"
         "stderr naming the file, the field and the value).\n";
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
    if (f.rfind("--", 0) == 0) throw usage_error("merge: unknown option " + quoted(f) + " (its options: --json --svg)");
    std::ifstream in(f);
    if (!in) throw usage_error("merge: cannot read " + quoted(f, 256));
    std::stringstream text;
    text << in.rdbuf();
    if (in.bad()) throw usage_error("merge: reading " + quoted(f, 256) + " failed");
    try {
      parts.push_back(sim::parse_partial(text.str()));
      sim::check_partial(sim::arch_of(parts.back()), parts.back());
    } catch (const std::invalid_argument& e) {
      throw usage_error("merge: " + quoted(f, 256) + ": " + e.what());
    }
    check_meta(parts.back().meta, f);
    if (parts.back().meta.at("elements") != parts.front().meta.at("elements"))
      throw usage_error("merge: " + quoted(f, 256) + ": 'meta.elements' " + parts.back().meta.at("elements") + " differs from the first partial's " +
                        parts.front().meta.at("elements"));
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
