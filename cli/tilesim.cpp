// tilesim/cli/tilesim.cpp: the `tilesim` command: subcommands, help texts, exit codes.
//
//   tilesim layout NAME [options]   one built-in layout as offset and bank grids (layouts.hpp, grid.hpp)
//   tilesim layouts [options]       every built-in layout with its defaults, under "== tilesim layout NAME"
//   tilesim encoding NAME|--encoding TEXT [options]
//                                   a tile distribution encoding explained: lengths, launch, load/store traits,
//                                   the (warp, lane) -> x table, optionally an SVG (encodings.hpp)
//   tilesim bank --arch ARCH [FILE|-]   LDS wavefronts and cycles of each pattern in a file (bank.hpp)
//   tilesim global --arch ARCH [FILE|-] global-memory sectors of each pattern in a file (bank.hpp)
//   tilesim run PROGRAM [options]       a built-in tile program on the simulator, priced per instruction (run.hpp)
//   tilesim merge PARTIAL.json...       the slices of a sharded `tilesim run`, joined into its report (merge.hpp)
//   tilesim examples [options]          the main job: every reference program (examples/), one table (examples.hpp)
//   tilesim tma-wgmma [options]         does a wgmma descriptor read what a TMA box wrote? (tma_wgmma.hpp)
//   tilesim --help, tilesim layout --help, tilesim encoding --help
//
// Exit codes: 0 success; 2 a usage mistake or parameters that spec/ rejects (one line on stderr, starting
// "tilesim: error: ", naming the option or rule and the values); 1 stdout could not be written, or an
// internal error (a bug: report it).
// Nothing a user types may crash or abort the program: every exception ends in one of these lines.
#include <exception>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "util/args.hpp"
#include "cli/bank.hpp"
#include "cli/examples.hpp"
#include "cli/merge.hpp"
#include "cli/run.hpp"
#include "cli/synth.hpp"
#include "cli/tma_wgmma.hpp"
#include "cli/encodings.hpp"
#include "cli/grid.hpp"
#include "cli/layouts.hpp"
#include "spec/rules.hpp"

namespace tilesim::cli {
namespace {

constexpr std::int64_t limit = std::int64_t{1} << 20;

// Options every layout (and `layouts`) accepts.
std::vector<option_spec> common_options() {
  return {
      {"elem-bytes", "bytes per element (ck-xor also derives MLdsLayer from it)", 2, 1, 16},
      {"banks", "LDS banks of 4 bytes: 32 on gfx9 (incl. gfx942) and NVIDIA, 64 on gfx950 (ck-xor uses it too)", 32, 1,
       1024},
      {"show", "which grids to print", 0, 0, 0, {"offsets", "banks", "both"}, "both"},
      {"group", "columns per group in the column-read conflict summary; 0: 16 bytes' worth of elements", 0, 0, limit},
      {"max-rows", "rows printed per grid, 0: all (summaries always cover the whole tile)", 32, 0, limit},
      {"max-cols", "columns printed per grid, 0: all", 64, 0, limit},
  };
}

std::vector<option_spec> with_common(std::vector<option_spec> own) {
  for (option_spec& s : common_options()) own.push_back(std::move(s));
  return own;
}

view_options view_from(const options& o) {
  view_options v;
  const std::string& show = o.word("show");
  v.show_offsets = show != "banks";
  v.show_banks = show != "offsets";
  v.max_rows = o.integer("max-rows");
  v.max_cols = o.integer("max-cols");
  v.group = o.integer("group");
  v.banks = {o.integer("elem-bytes"), o.integer("banks")};
  return v;
}

const char* const exit_codes =
    "exit codes:\n"
    "  0  success\n"
    "  1  the output could not be written, or an internal error (a bug in tilesim; please report it)\n"
    "  2  bad command line (unknown command, layout, encoding or option; missing, non-integer or out-of-range\n"
    "     value; a grid over 2^20 cells; a malformed encoding text; an unwritable --svg file) or parameters\n"
    "     spec/ rejects (the message names the rule and the values);\n"
    "     one line on stderr starting \"tilesim: error: \"\n";

void print_help(std::ostream& out) {
  out << "tilesim: run the reference tile programs in a GPU simulator, print tilesim's built-in 2-D LDS layouts\n"
         "(spec/layouts) as grids of element offsets and banks, and explain CK Tile tile distribution encodings.\n"
         "\n"
         "usage:\n"
         "  tilesim layout NAME [options]    print one layout; NAME is one of: "
      << layout_names()
      << "\n"
         "  tilesim examples [options]       the main job: run every reference program (examples/) in the\n"
         "                                   simulator, one summary table and bank heat maps (examples --help)\n"
         "  tilesim layouts [options]        print every layout with its default parameters (the common options\n"
         "                                   below apply to all of them)\n"
         "  tilesim encoding NAME [options]  explain a built-in tile distribution encoding; NAME is one of:\n"
         "                                   "
      << encoding_names()
      << "\n"
         "  tilesim encoding --encoding TEXT [options]\n"
         "                                   explain an encoding pasted in CK's spelling\n"
         "                                   (tile_distribution_encoding<sequence<...>, tuple<...>, ...>)\n"
         "  tilesim bank --arch ARCH [FILE|-]\n"
         "                                   LDS bank conflicts of single instructions: NAME WAVEFRONTS CYCLES\n"
         "                                   per pattern line (tilesim bank --help: format, models, errors)\n"
         "  tilesim global --arch ARCH [FILE|-]\n"
         "                                   global-memory sectors of single instructions: NAME SECTORS\n"
         "  tilesim run copy [options]       run a built-in tile program for every lane on the simulator: per\n"
         "                                   instruction wavefronts, N-way, wf/inst, sectors, cycles; races and\n"
         "                                   out-of-bounds accesses (tilesim run --help)\n"
         "  tilesim merge PARTIAL.json...    join the slices of a sharded tilesim run (--workgroups A:B) into\n"
         "                                   its report (tilesim merge --help)\n"
         "  tilesim synth [options]          the LDS layout that makes a tile's writer and reader conflict-free,\n"
         "                                   spelled for spec/, CK Tile and CuTe (tilesim synth --help)\n"
         "  tilesim prove CLAIM [options]    a layout claim over a whole parameter grid, sharded (tilesim prove --help)\n"
         "  tilesim tma-wgmma [options]      prove that a wgmma descriptor reads every element where a TMA box put\n"
         "                                   it, or name the first that differs and the field that fixes it\n"
         "                                   (tilesim tma-wgmma --help)\n"
         "  tilesim --help                   this text\n"
         "  tilesim layout --help            layouts, their options and defaults, the bank model\n"
         "  tilesim encoding --help          encodings, the accepted syntax, options, output, SVG\n"
         "\n"
      << exit_codes;
}

void print_layout_help(std::ostream& out) {
  out << "usage: tilesim layout NAME [--option VALUE | --option=VALUE]...\n"
         "\n"
         "Prints the layout's header (what it is, its parameters, element space, whether offsets are a bijection\n"
         "onto [0, element space)), its grid of element offsets (rows down, columns across), its grid of LDS\n"
         "banks and a column-read conflict summary.\n"
         "\n"
         "layouts and their options:\n";
  for (const layout_entry& e : layouts()) {
    out << "  " << e.name << ": " << e.summary << '\n';
    for (const option_spec& s : e.params) out << "      " << s.synopsis() << "  " << s.help << '\n';
  }
  out << "\ncommon options (every layout, and `tilesim layouts`):\n";
  for (const option_spec& s : common_options()) out << "      " << s.synopsis() << "  " << s.help << '\n';
  out << "\n"
         "bank grid: bank = (offset * elem_bytes / 4) mod banks, the bank of the element's first byte (banks are\n"
         "  4 bytes wide; elements under 4 bytes share a word, wider ones span several banks).\n"
         "column-read conflicts: per group of --group columns, suppose all rows read the group at once;\n"
         "  N = the most distinct 4-byte words that land in one bank (repeats of a word are broadcasts),\n"
         "  ideal = ceil(distinct words / banks); N == ideal is conflict-free. A layout property only: no wave\n"
         "  size, lane mapping or hardware phase split is modelled.\n"
         "grids larger than 2^20 cells are refused.\n"
         "\n"
      << exit_codes;
}

bool wants_help(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

int run_layout(const std::vector<std::string>& args) {
  if (wants_help(args)) {
    print_layout_help(std::cout);
    return 0;
  }
  if (args.empty() || args[0].rfind("-", 0) == 0)
    throw usage_error("layout needs a NAME before its options (one of: " + layout_names() + ")");
  const layout_entry* e = find_layout(args[0]);
  if (!e) throw usage_error("unknown layout '" + args[0] + "' (known: " + layout_names() + ")");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  const options o = parse_options(rest, with_common(e->params), "layout " + e->name);
  print_layout(std::cout, e->build(o), view_from(o));
  return 0;
}

int run_layouts(const std::vector<std::string>& args) {
  if (wants_help(args)) {
    print_help(std::cout);
    return 0;
  }
  (void)parse_options(args, common_options(), "layouts");  // layout-specific options are refused here
  // Each layout's own defaults plus the common options as given; all are built before anything is printed,
  // so a rejected combination (e.g. --banks 48 for ck-xor) leaves stdout empty.
  std::vector<std::pair<layout_grid, view_options>> built;
  for (const layout_entry& e : layouts()) {
    const options o = parse_options(args, with_common(e.params), "layout " + e.name);
    built.emplace_back(e.build(o), view_from(o));
  }
  for (std::size_t i = 0; i < built.size(); ++i) {
    std::cout << (i ? "\n" : "") << "== tilesim layout " << built[i].first.name << "\n\n";
    print_layout(std::cout, built[i].first, built[i].second);
  }
  return 0;
}

int run(const std::vector<std::string>& args) {
  if (args.empty())
    throw usage_error("no command given (commands: examples, layout, layouts, encoding, bank, global, run, merge, synth, prove, tma-wgmma; see tilesim --help)");
  const std::string& cmd = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    print_help(std::cout);
    return 0;
  }
  if (cmd == "layout") return run_layout(rest);
  if (cmd == "layouts") return run_layouts(rest);
  if (cmd == "examples") return run_examples_command(rest);
  if (cmd == "encoding") return run_encoding(rest);
  if (cmd == "bank") return run_bank(rest);
  if (cmd == "global") return run_global(rest);
  if (cmd == "run") return run_program_command(rest);
  if (cmd == "merge") return merge_command(rest);
  if (cmd == "synth") return run_synth_command(rest);
  if (cmd == "prove") return run_prove_command(rest);
  if (cmd == "tma-wgmma") return run_tma_wgmma_command(rest);
  throw usage_error("unknown command '" + cmd +
                    "' (commands: examples, layout, layouts, encoding, bank, global, run, merge, synth, prove, tma-wgmma; see tilesim --help)");
}

// spec_error::what() reads "tilesim: <rule text> (values)"; the cli prefix replaces its "tilesim: ".
std::string without_prefix(const std::string& s) {
  const std::string prefix = "tilesim: ";
  return s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s;
}

// An exception's text as the rest of one error line: the "tilesim: " prefixes of wrapped errors (a program's
// own, spec/'s) dropped, since the line has one already: the one the text starts with and each that follows a
// wrapper's ": " ("... threw: tilesim: xor_t: ..."); the same words inside a quoted value stay ("option --rows:
// 'tilesim: 4' is not an integer"); control characters escaped; cut after 2000 bytes.
std::string error_text(const std::string& what) {
  const std::string prefix = "tilesim: ";
  std::string s;
  s.reserve(what.size());
  for (std::size_t at = 0; at < what.size();) {
    if (what.compare(at, prefix.size(), prefix) == 0 && (at == 0 || (at >= 2 && what.compare(at - 2, 2, ": ") == 0))) {
      at += prefix.size();
      continue;
    }
    s += what[at++];
  }
  return escaped(s, 2000);
}

}  // namespace
}  // namespace tilesim::cli

int main(int argc, char** argv) {
  using namespace tilesim::cli;
  try {
    const int rc = run(std::vector<std::string>(argv + 1, argv + argc));
    if (!std::cout.flush()) {
      std::cerr << "tilesim: error: writing the output failed\n";
      return 1;
    }
    return rc;
  } catch (const usage_error& e) {
    std::cerr << "tilesim: error: " << error_text(e.what()) << '\n';
  } catch (const tilesim::spec_error& e) {
    std::cerr << "tilesim: error: spec/ rejects the parameters: " << error_text(without_prefix(e.what())) << '\n';
  } catch (const std::exception& e) {
    std::cerr << "tilesim: internal error: " << error_text(e.what()) << '\n';
    return 1;
  } catch (...) {
    std::cerr << "tilesim: internal error: unknown exception\n";
    return 1;
  }
  return 2;
}
