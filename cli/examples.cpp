// tilesim/cli/examples.cpp: see examples.hpp.
#include "cli/examples.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <set>

#include "util/args.hpp"
#include "util/output_file.hpp"
#include "examples/catalogue.hpp"

namespace tilesim::cli {

std::string examples_help() {
  return "usage: tilesim examples [--only EXAMPLE] [--arch ARCH] [--svg-dir DIR] [--no-svg]\n"
         "  Runs every reference program (examples/) in the simulator and prints one summary table:\n"
         "  example, variant, arch, LDS wavefronts ideal / actual, global sectors ideal / actual, predicted\n"
         "  cycles per workgroup, result check.\n"
         "  --only EXAMPLE  one example: lds-index-swap, cute-swizzle, morton, gemm, conv\n"
         "  --arch ARCH     the variants on one architecture: sm90, gfx90a, gfx942, gfx950\n"
         "  --svg-dir DIR   where the bank heat maps go (default tilesim-heatmaps; created if missing)\n"
         "  --no-svg        write no heat map\n"
         "  exit codes: 0 every check passed, 1 a check failed, 2 bad input\n";
}

int run_examples_command(const std::vector<std::string>& given) {
  std::vector<std::string> args = given;
  if (take_flag(args, "help") || take_flag(args, "h")) {
    std::cout << examples_help();
    return 0;
  }
  const std::optional<std::string> only = take_text_option(args, "only");
  const std::optional<std::string> arch = take_text_option(args, "arch");
  const std::optional<std::string> svg_option = take_text_option(args, "svg-dir");
  const bool no_svg = take_flag(args, "no-svg");
  if (!args.empty()) throw usage_error("unknown argument '" + args[0] + "' for examples (see tilesim examples --help)");
  if (no_svg && svg_option) throw usage_error("--svg-dir and --no-svg exclude each other");

  std::vector<examples::variant> chosen;
  std::set<std::string> known_examples, known_arches;
  for (examples::variant& v : examples::all_variants()) {
    known_examples.insert(v.example);
    known_arches.insert(v.arch);
    if ((!only || v.example == *only) && (!arch || v.arch == *arch)) chosen.push_back(std::move(v));
  }
  auto listed = [](const std::set<std::string>& s) {
    std::string out;
    for (const std::string& x : s) out += (out.empty() ? "" : ", ") + x;
    return out;
  };
  if (only && !known_examples.count(*only))
    throw usage_error("--only: no example '" + *only + "' (examples: " + listed(known_examples) + ")");
  if (arch && !known_arches.count(*arch))
    throw usage_error("--arch: no variant runs on '" + *arch + "' (arches: " + listed(known_arches) + ")");
  if (chosen.empty()) throw usage_error("--only " + *only + " --arch " + *arch + ": no variant is both");

  const std::string svg_dir = svg_option.value_or("tilesim-heatmaps");
  if (!no_svg) {
    std::error_code ec;
    std::filesystem::create_directories(svg_dir, ec);
    if (ec) throw usage_error("--svg-dir: cannot create '" + svg_dir + "': " + ec.message());
  }

  const bool terminal = isatty(STDERR_FILENO) == 1;
  std::vector<examples::summary_row> rows;
  int svgs = 0;
  std::optional<std::string> svg_error;  // the first heat map that could not be written: no more are tried
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const examples::variant& v = chosen[i];
    const std::string total = std::to_string(chosen.size());
    std::string counter = std::to_string(i + 1);
    counter.insert(0, total.size() - counter.size(), ' ');
    const std::string progress = "[" + counter + "/" + total + "] " + v.example + " " + v.name + " (" + v.arch + ")";
    if (terminal) std::cerr << "\r\033[K" << progress << std::flush;
    else std::cerr << progress << "\n";
    rows.push_back(examples::summarize(v, v.run()));
    const examples::summary_row& r = rows.back();
    if (!no_svg && r.report.has_worst_lds && !svg_error) {
      try {
        write_file_replacing((std::filesystem::path(svg_dir) / examples::heat_map_file_name(r)).string(),
                             sim::bank_heat_map_svg(sim::arch_named(r.arch), r.report.worst_lds), "--svg-dir");
        ++svgs;
      } catch (const usage_error& e) {
        svg_error = e.what();  // the table still comes; the error line and exit 2 after it
      }
    }
  }
  if (terminal) std::cerr << "\r\033[K" << std::flush;

  std::cout << examples::summary_table(rows);
  int failed = 0;
  for (const examples::summary_row& r : rows) failed += r.passed ? 0 : 1;
  std::cout << "\n" << rows.size() << " variants: " << rows.size() - failed << " passed, " << failed << " failed";
  if (!no_svg) std::cout << "; " << svgs << " bank heat maps in " << svg_dir << "/";
  std::cout << "\n";
  if (svg_error) {
    std::cout.flush();
    throw usage_error(*svg_error);
  }
  return failed ? 1 : 0;
}

}  // namespace tilesim::cli
