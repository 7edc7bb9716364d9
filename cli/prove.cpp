// tilesim/cli/prove.cpp: `tilesim prove` (see synth.hpp and sim/synth/prove.hpp).
#include <fstream>
#include <iostream>
#include <sstream>

#include "util/args.hpp"
#include "cli/synth.hpp"
#include "sim/synth/prove.hpp"

namespace tilesim::cli {
namespace {

// "I/N" -> (I, N), 1 <= I <= N.
std::pair<int, int> parse_shard(const std::string& t) {
  const std::size_t slash = t.find('/');
  if (slash == std::string::npos) throw usage_error("--shard: '" + t + "' is not I/N");
  const std::int64_t i = parse_int(t.substr(0, slash), "--shard's I"), n = parse_int(t.substr(slash + 1), "--shard's N");
  if (n < 1 || n > 1000000 || i < 1 || i > n)
    throw usage_error("--shard " + t + ": need 1 <= I <= N <= 1000000");
  return {static_cast<int>(i), static_cast<int>(n)};
}

int print_report(const synth::prove_report& r, bool json) {
  if (json) {
    std::cout << synth::to_json(r);
    return r.failed ? 1 : 0;
  }
  const bool whole = static_cast<int>(r.merged.size()) == r.shards;
  std::cout << "claim: " << r.claim << " (grid of " << r.grid_points << " points"
            << (r.shards > 1 ? ", shards " + std::to_string(r.merged.size()) + " of " + std::to_string(r.shards) : "")
            << ")\n";
  if (!r.failed)
    std::cout << "holds on " << r.held << " points (" << r.skipped << " skipped: parameters the layout or its accesses reject)"
              << (whole ? "" : "; not every shard is in: this is part of the grid") << "\n";
  else
    std::cout << "FAILS on " << r.failed << " of " << r.checked - r.skipped << " points (" << r.skipped << " skipped)\n"
              << "first counterexample (point " << r.first->index << ", shrunk): " << r.first->point << "\n"
              << "  " << r.first->detail << "\n"
              << "  reproduce: " << r.first->reproduce << "\n";
  return r.failed ? 1 : 0;
}

}  // namespace

void print_prove_help(std::ostream& out) {
  out << "usage: tilesim prove ck-lds|cute [--claim bijective|conflict-free] [--read PATTERN] [--shard I/N]\n"
         "                     [--where NAME=V[|V...][,...]] [--only 'POINT'] [--json]\n"
         "       tilesim prove --merge REPORT.json... [--json]\n"
         "\n"
         "Checks a layout claim on every point of a parameter grid and prints \"holds on N points\" or the first\n"
         "counterexample, shrunk (each parameter moved to its smallest value that still fails) with a command that\n"
         "reproduces it. Grids:\n"
         "  ck-lds bijective       CK's XOR LDS layout over elem bytes 1/2/4 x MPerBlock 16..256 x KPerBlock 8..128 x\n"
         "                         KPack 1..16 x MLdsLayer (0 = derived, 1..8) x order 2025/2024 x banks 32/64: the\n"
         "                         spec/ descriptor is a bijection keeping each KPack vector contiguous\n"
         "  ck-lds conflict-free   the same layouts on sm90, gfx90a, gfx942, gfx950, one wave writing warp-raked and\n"
         "                         reading with --read (default: mfma on AMD, ldmatrix on sm90), KPack per access\n"
         "  cute bijective         every Swizzle<B,M,S> (B 0..5, M 0..5, S B..8) on every rows x cols up to 256 x 256\n"
         "  cute conflict-free     Swizzle<B,M,S> (M 3..5) on fp16 tiles 16..128 x 16..128 on every arch\n"
         "--shard I/N checks the points whose index mod N is I-1 (deterministic, balanced: a CI matrix, a Slurm\n"
         "array or GNU parallel runs the N shards); --json writes the shard's report, and --merge adds reports of\n"
         "the same claim and grid (refusing different grids and repeated shards). --where keeps some values of some\n"
         "parameters (arch by name, order by year: --where elem=2,kpack=8,arch=gfx942|gfx950); --only checks one point.\n"
         "exit codes: 0 the claim holds; 1 a counterexample; 2 bad input (one line on stderr).\n";
}

int run_prove_command(const std::vector<std::string>& all) {
  for (const std::string& a : all)
    if (a == "--help" || a == "-h") {
      print_prove_help(std::cout);
      return 0;
    }
  std::vector<std::string> args = all;
  const bool json = take_flag(args, "json");
  const bool merge = take_flag(args, "merge");
  try {
    if (merge) {
      if (args.empty()) throw usage_error("--merge needs report files");
      std::vector<synth::prove_report> parts;
      for (const std::string& f : args) {
        std::ifstream in(f);
        if (!in) throw usage_error("--merge: cannot read " + quoted(f, 256));
        std::stringstream text;
        text << in.rdbuf();
        try {
          parts.push_back(synth::parse_report(text.str()));
        } catch (const std::invalid_argument& e) {
          throw usage_error("--merge: " + quoted(f, 256) + ": " + e.what());
        }
      }
      return print_report(synth::merge_reports(parts), json);
    }
    const std::optional<std::string> kind = take_text_option(args, "claim");
    const std::optional<std::string> read = take_text_option(args, "read");
    const std::optional<std::string> shard = take_text_option(args, "shard");
    const std::optional<std::string> only = take_text_option(args, "only");
    const std::optional<std::string> where = take_text_option(args, "where");
    if (args.size() != 1 || args[0].rfind("-", 0) == 0)
      throw usage_error("prove needs one grid name (ck-lds or cute) and its options (see tilesim prove --help)");
    synth::claim c = synth::make_claim(args[0], kind.value_or("bijective"), read.value_or("default"));
    if (where) synth::restrict_claim(c, *where);
    const auto [i, n] = shard ? parse_shard(*shard) : std::pair{1, 1};
    return print_report(synth::run_claim(c, i, n, only), json);
  } catch (const std::invalid_argument& e) {
    if (dynamic_cast<const usage_error*>(static_cast<const std::exception*>(&e))) throw;
    throw usage_error(std::string("prove: ") + e.what());
  }
}

}  // namespace tilesim::cli
