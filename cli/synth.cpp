// tilesim/cli/synth.cpp: `tilesim synth` (see synth.hpp).
#include "cli/synth.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "util/args.hpp"
#include "cli/encodings.hpp"
#include "util/output_file.hpp"
#include "sim/report/program_report.hpp"
#include "sim/synth/family_brute_force.hpp"
#include "sim/synth/synth.hpp"

namespace tilesim::cli {
namespace {

std::vector<option_spec> synth_options() {
  return {
      {"arch", "the machine: sm90 (wave 32), gfx90a, gfx942, gfx950 (wave 64)", 0, 0, 0,
       {"sm90", "gfx90a", "gfx942", "gfx950"}, "gfx942"},
      {"rows", "tile rows", 128, 1, 4096},
      {"cols", "tile columns (contiguous in the row-major view)", 32, 1, 4096},
      {"elem-bytes", "bytes per element", 2, 1, 16},
      {"vector", "elements per access of the built-in patterns and encodings; 0: 16 bytes' worth", 0, 0, 64},
      {"threads", "threads of the block that writes and reads the tile", 256, 1, 1024},
      {"write", "the writer as a built-in pattern (--write-encoding / --write-file replace it)", 0, 0, 0,
       {"warp-raked", "thread-raked", "block-raked", "down-rows", "mfma", "mfma16", "ldmatrix"}, "warp-raked"},
      {"read", "the reader as a built-in pattern; default: mfma on AMD, ldmatrix on sm90", 0, 0, 0,
       {"default", "warp-raked", "thread-raked", "block-raked", "down-rows", "mfma", "mfma16", "ldmatrix"}, "default"},
      {"budget", "nodes of the GF(2) search before it gives up (then no certificate)", 20000000, 1, 2000000000},
      {"read2", "a second reader, as a built-in pattern (--read2-file replaces it); none: only --read", 0, 0, 0,
       {"none", "warp-raked", "thread-raked", "block-raked", "down-rows", "mfma", "mfma16", "ldmatrix"}, "none"},
      {"write-weight", "how often a kernel issues the writer's instructions (the objective's weight)", 1, 0, 1000000},
      {"read-weight", "how often a kernel issues the reader's instructions", 1, 0, 1000000},
      {"read2-weight", "how often a kernel issues the second reader's instructions", 1, 0, 1000000},
      {"search-nodes", "nodes of each family's branch-and-bound before it stops (then the gap is stated)", 200000, 1,
       2000000000},
      {"search-ms", "milliseconds of the branch-and-bound, all families together, before it stops (then the gap is stated)", 5000, 1,
       600000},
  };
}

// Most members --verify prices per family.
constexpr long long verify_limit = 1'000'000;

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (c == '\n') o += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) o += ' ';
    else o += c;
  }
  return o + "\"";
}

std::vector<synth::layout_family> parse_families(const std::string& text) {
  std::vector<synth::layout_family> out;
  std::stringstream in(text);
  std::string w;
  while (std::getline(in, w, ',')) {
    if (w == "all") return {};
    if (w == "row-major") out.push_back(synth::layout_family::row_major);
    else if (w == "padded") out.push_back(synth::layout_family::padded);
    else if (w == "cute") out.push_back(synth::layout_family::cute);
    else if (w == "xor") out.push_back(synth::layout_family::xor_linear);
    else if (w == "ck") out.push_back(synth::layout_family::ck);
    else throw usage_error("--family: unknown family '" + w + "' (known: all, xor, cute, ck, padded, row-major; comma-separated)");
  }
  if (out.empty()) throw usage_error("--family: no family named");
  return out;
}

// One side from the options: a pattern file, an encoding text, or a built-in name.
synth::tile_side side_from(const std::string& which, const std::optional<std::string>& file,
                           const std::optional<std::string>& encoding, const std::string& name, const sim::arch_table& arch,
                           const synth::tile_shape& tile, index_t threads, index_t vector, sim::access_kind kind) {
  if (file && encoding) throw usage_error("--" + which + "-file and --" + which + "-encoding exclude each other");
  try {
    if (file) {
      std::ifstream in(*file);
      if (!in) throw usage_error("--" + which + "-file: cannot read '" + *file + "'");
      std::vector<std::string> errors;
      synth::tile_side s = synth::side_from_patterns(in, arch, tile, kind, "file " + *file, errors);
      if (!errors.empty()) throw usage_error("--" + which + "-file " + *file + ": " + errors.front());
      if (s.instructions.empty()) throw usage_error("--" + which + "-file " + *file + ": no pattern line");
      return s;
    }
    if (encoding)
      return synth::side_from_encoding(parse_ck_encoding(*encoding), tile, threads, arch.wave_size, vector, kind,
                                       which + " encoding");
    return synth::named_side(name, tile, threads, arch.wave_size, vector, kind);
  } catch (const std::invalid_argument& e) {
    if (dynamic_cast<const spec_error*>(&e)) throw;
    throw usage_error("--" + which + ": " + e.what());
  }
}

std::string cost_line(const synth::priced_layout& p) {
  return std::to_string(p.total()) + " wavefronts (write " + std::to_string(p.write.wavefronts) + ", " +
         std::to_string(p.write.max_ways) + "-way; read " + std::to_string(p.read.wavefronts) + ", " +
         std::to_string(p.read.max_ways) + "-way)";
}

// Why the ideal is or is not reachable by an XOR-linear layout, in lines.
// The rank bound weighs as the objective does (xor_bound.hpp), so it compares with the weighted answer.
std::vector<std::string> xor_lines(const synth::xor_analysis& x, long long ideal, const synth::priced_layout& best,
                                   bool unit_weights) {
  std::vector<std::string> v;
  if (!x.applicable) return {"not applicable: " + x.not_applicable};
  v.push_back("word address bits: " + std::to_string(x.low_bits) + " inside the vector (kept), " +
              std::to_string(x.bank_bits) + " bank bits, so " + std::to_string(x.free_bits) + " free; " +
              std::to_string(x.high_bits) + " above the vector, " + std::to_string(x.active_bits) + " of them in the " +
              std::to_string(x.forbidden) + " forbidden differences (word pairs of one phase that must not share a bank)");
  v.push_back("rank lower bound for every XOR-linear layout: " + std::to_string(x.lower_bound) + " wavefronts " +
              (unit_weights ? "(ideal " : "(weighted as the objective; ideal ") + std::to_string(ideal) + ")");
  if (x.unavoidable) v.push_back("unavoidable conflict: " + *x.unavoidable);
  for (std::size_t i = 0; i < x.rank_notes.size() && i < 4; ++i) v.push_back("  " + x.rank_notes[i]);
  if (x.rank_notes.size() > 4) v.push_back("  (" + std::to_string(x.rank_notes.size() - 4) + " more phases)");
  if (x.feasible)
    v.push_back(std::string("conflict-free XOR-linear layout: exists") +
                (x.graph_form ? " in graph form (row-major bank bits XOR M * higher bits)" : " (needs a bit permutation)") +
                ", found after " + std::to_string(x.nodes) + " search nodes");
  else if (x.exhaustive)
    v.push_back("conflict-free XOR-linear layout: none; certificate: the exhaustive search over every echelon form of "
                "the bank map (" + std::to_string(x.nodes) + " nodes) found each kernel hits a forbidden difference");
  else
    v.push_back("conflict-free XOR-linear layout: unknown (the search stopped after " + std::to_string(x.nodes) +
                " nodes; raise --budget)");
  if (!x.feasible && best.layout.family != synth::layout_family::padded && best.layout.family != synth::layout_family::padded_xor &&
      best.total() == x.lower_bound)
    v.push_back("the best layout meets the rank bound: no XOR-linear layout keeping the vectors does better");
  return v;
}

// The certificate (issue 36): per family its best, the lower bound proved over all its members, optimal or the gap;
// then the answer's family and the bound over every family searched.
std::vector<std::string> certificate_lines(const synth::synth_result& s) {
  std::vector<std::string> v;
  std::size_t w = 0;
  for (const synth::family_certificate& c : s.certificate) w = std::max(w, c.family.size());
  for (const synth::family_certificate& c : s.certificate) {
    std::string f = c.family;
    f.resize(w, ' ');
    v.push_back(f + "  best " + std::to_string(c.best) + ", lower bound " + std::to_string(c.lower_bound) + ": " +
                (c.optimal() ? "optimal" : "gap " + std::to_string(c.best - c.lower_bound)) + " (" + c.how + ")");
  }
  const long long b = s.best.total();
  const synth::family_certificate* mine = nullptr;
  for (const synth::family_certificate& c : s.certificate)
    if (c.family == s.best_family) mine = &c;
  v.push_back("answer: " + std::to_string(b) + " wavefronts in family " + s.best_family +
              (mine ? (mine->optimal() && mine->best == b ? ", optimal in it"
                                                          : ", its lower bound " + std::to_string(mine->lower_bound))
                    : std::string()) +
              "; over every family above: lower bound " + std::to_string(s.lower_bound) + ", " +
              (b == s.lower_bound ? "optimal" : "gap " + std::to_string(b - s.lower_bound)) +
              (s.old_best != b ? " (the enumerated candidates alone: " + std::to_string(s.old_best) + ")" : std::string()));
  return v;
}

std::string heat_maps(const sim::arch_table& arch, const synth::synth_request& r, const synth::synth_result& s) {
  std::string body;
  int y = 0, width = 0;
  for (const synth::priced_layout* p : {&s.row_major, &s.best}) {
    const std::vector<index_t> off = synth::layout_offsets(p->layout);
    for (const auto& [side, cost] : {std::pair{&r.writer, p->write}, std::pair{&r.reader, p->read}}) {
      if (cost.worst_instruction < 0) continue;
      sim::wave_access a = synth::wave_access_of(r.tile, side->instructions[static_cast<std::size_t>(cost.worst_instruction)], off);
      a.label = p->layout.name() + ", " + side->name + " '" + a.label + "'";
      for (char& ch : a.label)  // bank_heat_map_svg does not escape XML: Swizzle<..> would break the file
        if (ch == '<' || ch == '>' || ch == '&') ch = ch == '<' ? '(' : ch == '>' ? ')' : '+';
      std::string svg = sim::bank_heat_map_svg(arch, a);
      const auto h0 = svg.find("height=\"") + 8;
      const int h = std::stoi(svg.substr(h0));
      const auto w0 = svg.find("width=\"") + 7;
      width = std::max(width, std::stoi(svg.substr(w0)));
      svg.replace(0, 4, "<svg x=\"0\" y=\"" + std::to_string(y) + "\"");
      body += svg;
      y += h;
    }
  }
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(y) + "\">\n" + body + "</svg>\n";
}

}  // namespace

void print_synth_help(std::ostream& out) {
  out << "usage: tilesim synth [--option VALUE]... [--family LIST] [--write-encoding TEXT | --write-file FILE]\n"
         "                     [--read-encoding TEXT | --read-file FILE] [--read2-file FILE] [--json] [--svg FILE] [--verify]\n"
         "\n"
         "Finds the LDS layout of one tile that makes its writer and its reader cheapest on an architecture: the\n"
         "fewest LDS wavefronts summed over write + read (the simulator's bank model), ties to the simplest, among\n"
         "row-major, padding, every CuTe Swizzle<B,M,S>, CK's XOR preshuffle (KPack, MLdsLayer, both orders) and\n"
         "the XOR-linear layout a GF(2) search constructs. Prints it against row-major and the ideal, spelled as a\n"
         "spec/ descriptor, CK Tile code and CuTe Swizzle<B,M,S> (when it is one), with the checks it passed, and\n"
         "the XOR-linear analysis: whether any XOR-linear layout keeping the vectors is conflict-free, with a rank\n"
         "lower bound and, when none is, the exhaustive search as the certificate. Then it minimises by branch-and-\n"
         "bound over the row-XOR family (chunk = r*C + (c XOR f(r)), f linear), the graph-form XOR family and every\n"
         "GF(2)-linear bank map (and prices every padded row-XOR layout when there are few), and prints the\n"
         "certificate: per family its best, the lower bound proved over all its members (optimal, or the gap when\n"
         "--search-nodes / --search-ms cut the search), and the answer's. Every family's best is a layout: gf2 as\n"
         "make_gf2_linear_descriptor, padded-xor as make_padded_xor_descriptor (spec/layouts/; no CK Tile form).\n"
         "\n"
         "options:\n";
  for (const option_spec& s : synth_options()) out << "  " << s.synopsis() << "  " << s.help << '\n';
  out << "  --family LIST           comma-separated: all (default), xor, cute, ck, padded, row-major (row-major is\n"
         "                          always priced as the baseline; xor includes the searched row-xor, gf2 and\n"
         "                          padded-xor families)\n"
         "  --write-encoding TEXT   the writer as a CK tile distribution encoding (tilesim encoding --help), over the\n"
         "                          rows x cols tile, `--threads` threads, `--vector` elements per access\n"
         "  --read-encoding TEXT    the reader alike\n"
         "  --write-file FILE       the writer as a `tilesim bank` pattern file whose byte offsets address the\n"
         "                          ROW-MAJOR tile ((row*cols + col) * elem-bytes), one line per instruction\n"
         "  --read-file FILE        the reader alike\n"
         "  --json                  print the result as one JSON object\n"
         "  --svg FILE              bank heat maps of the worst write and read instruction, row-major then the best\n"
         "  --read2-file FILE       a second reader as a pattern file (its instructions join the reader's, weighted\n"
         "                          by --read2-weight)\n"
         "  --verify                build the answer by its spec/ descriptor and price it again; price every member\n"
         "                          of the row-xor, xor and gf2 families (up to 10^6 each) and check the certificate\n"
         "                          against them; exit 1 when either disagrees\n"
         "\n"
         "built-in patterns: warp-raked, thread-raked, block-raked (CK's raked tile loads: lanes along rows),\n"
         "down-rows (lanes down a column strip), mfma (MFMA 32x32x8 A operand: lane l reads row l%32, K vector\n"
         "l/32; wave 64), mfma16 (R = 16, wave 64), ldmatrix (ldmatrix.x4 rows: R = 16, wave 32).\n"
         "exit codes: 0 found; 2 bad input (one line on stderr); 1 an internal error.\n";
}

int run_synth_command(const std::vector<std::string>& all) {
  for (const std::string& a : all)
    if (a == "--help" || a == "-h") {
      print_synth_help(std::cout);
      return 0;
    }
  std::vector<std::string> args = all;
  const bool json = take_flag(args, "json");
  const bool verify = take_flag(args, "verify");
  const std::optional<std::string> svg = take_text_option(args, "svg");
  const std::optional<std::string> fam = take_text_option(args, "family");
  const std::optional<std::string> wenc = take_text_option(args, "write-encoding");
  const std::optional<std::string> renc = take_text_option(args, "read-encoding");
  const std::optional<std::string> wfile = take_text_option(args, "write-file");
  const std::optional<std::string> rfile = take_text_option(args, "read-file");
  const std::optional<std::string> r2file = take_text_option(args, "read2-file");
  const options o = parse_options(args, synth_options(), "synth");
  const sim::arch_table& arch = sim::arch_named(o.word("arch"));
  synth::synth_request r;
  r.arch = &arch;
  r.tile = {o.integer("rows"), o.integer("cols"), static_cast<int>(o.integer("elem-bytes"))};
  if (r.tile.rows * r.tile.cols > (index_t{1} << 22)) throw usage_error("synth: a tile over 2^22 elements is refused");
  const index_t vector = o.integer("vector") > 0 ? o.integer("vector") : std::max<index_t>(1, 16 / r.tile.elem_bytes);
  std::string read = o.word("read");
  if (read == "default") read = arch.wave_size == 32 ? "ldmatrix" : "mfma";
  r.writer = side_from("write", wfile, wenc, o.word("write"), arch, r.tile, o.integer("threads"), vector, sim::access_kind::store);
  r.reader = side_from("read", rfile, renc, read, arch, r.tile, o.integer("threads"), vector, sim::access_kind::load);
  if (o.word("read2") != "none" || r2file) {
    synth::tile_side second = side_from("read2", r2file, std::nullopt, o.word("read2"), arch, r.tile, o.integer("threads"),
                                        vector, sim::access_kind::load);
    for (synth::tile_instruction& i : second.instructions) {
      i.label = "2:" + i.label;
      i.weight = o.integer("read2-weight");
      r.reader.instructions.push_back(std::move(i));
    }
    r.reader.name += " + " + second.name;
  }
  r.write_weight = o.integer("write-weight");
  r.read_weight = o.integer("read-weight");
  if (r.write_weight == 0 && r.read_weight == 0) throw usage_error("synth: --write-weight and --read-weight are both 0");
  r.min_nodes = o.integer("search-nodes");
  r.min_seconds = static_cast<double>(o.integer("search-ms")) / 1000.0;
  if (fam) r.families = parse_families(*fam);
  r.search_budget = o.integer("budget");
  synth::synth_result s;
  try {
    s = synth::synthesize(r);
  } catch (const std::invalid_argument& e) {
    if (dynamic_cast<const spec_error*>(&e)) throw;
    throw usage_error(std::string("synth: ") + e.what());
  }
  if (svg) write_file_replacing(*svg, heat_maps(arch, r, s), "--svg");
  const synth::lds_layout& b = s.best.layout;
  const std::optional<std::string> cute = synth::cute_spelling(b);
  bool unit_weights = r.write_weight == 1 && r.read_weight == 1;
  for (const synth::tile_side* side : {&r.writer, &r.reader})
    for (const synth::tile_instruction& i : side->instructions) unit_weights = unit_weights && i.weight == 1;
  const std::vector<std::string> why = xor_lines(s.xor_info, s.ideal, s.best, unit_weights);
  if (json) {
    // docs/schema/synth.schema.json (version 1); a change of meaning bumps the version.
    std::cout << "{\"schema\": \"tilesim.synth/1\", \"arch\": " << json_string(std::string(arch.name)) << ", \"rows\": " << r.tile.rows << ", \"cols\": "
              << r.tile.cols << ", \"elem_bytes\": " << r.tile.elem_bytes << ", \"writer\": " << json_string(r.writer.name)
              << ", \"reader\": " << json_string(r.reader.name) << ",\n \"best\": {\"name\": " << json_string(b.name())
              << ", \"family\": " << json_string(synth::family_name(b.family)) << ", \"wavefronts\": " << s.best.total()
              << ", \"write\": " << s.best.write.wavefronts << ", \"read\": " << s.best.read.wavefronts
              << ", \"spec\": " << json_string(synth::spec_spelling(b)) << ", \"ck_tile\": " << json_string(synth::ck_spelling(b))
              << ", \"cute\": " << (cute ? json_string(*cute) : "null") << "},\n \"row_major\": {\"wavefronts\": "
              << s.row_major.total() << ", \"write\": " << s.row_major.write.wavefronts << ", \"read\": "
              << s.row_major.read.wavefronts << "}, \"ideal\": " << s.ideal << ", \"reaches_ideal\": "
              << (s.reaches_ideal() ? "true" : "false") << ", \"candidates\": " << s.candidates << ", \"checked\": "
              << json_string(s.checked) << ",\n \"xor\": {\"applicable\": " << (s.xor_info.applicable ? "true" : "false")
              << ", \"feasible\": " << (s.xor_info.feasible ? "true" : "false") << ", \"exhaustive\": "
              << (s.xor_info.exhaustive ? "true" : "false") << ", \"lower_bound\": " << s.xor_info.lower_bound
              << ", \"nodes\": " << s.xor_info.nodes << ", \"why\": [";
    for (std::size_t i = 0; i < why.size(); ++i) std::cout << (i ? ", " : "") << json_string(why[i]);
    std::cout << "]},\n \"certificate\": {\"family\": " << json_string(s.best_family) << ", \"lower_bound\": " << s.lower_bound
              << ", \"optimal\": " << (s.best.total() == s.lower_bound ? "true" : "false") << ", \"gap\": "
              << s.best.total() - s.lower_bound << ", \"enumerated_best\": " << s.old_best << ", \"write_weight\": "
              << r.write_weight << ", \"read_weight\": " << r.read_weight;
    if (s.ldmatrix)
      std::cout << ", \"ldmatrix_layout\": {\"name\": " << json_string(s.ldmatrix->layout.name()) << ", \"wavefronts\": "
                << s.ldmatrix->total() << ", \"spec\": " << json_string(synth::spec_spelling(s.ldmatrix->layout)) << "}";
    std::cout << ", \"families\": [";
    for (std::size_t i = 0; i < s.certificate.size(); ++i) {
      const synth::family_certificate& c = s.certificate[i];
      std::cout << (i ? ",\n  " : "\n  ") << "{\"family\": " << json_string(c.family) << ", \"best\": " << c.best
                << ", \"lower_bound\": " << c.lower_bound << ", \"optimal\": " << (c.optimal() ? "true" : "false")
                << ", \"how\": " << json_string(c.how) << "}";
    }
    std::cout << "]}}\n";
    return 0;
  }
  std::cout << "synth: " << r.tile.rows << " x " << r.tile.cols << " tile of " << r.tile.elem_bytes << "-byte elements on "
            << arch.name << " (" << arch.description << ")\n"
            << "  writer " << r.writer.name << ": " << r.writer.instructions.size() << " instructions, up to "
            << r.writer.max_elems() * r.tile.elem_bytes << " B/lane; reader " << r.reader.name << ": "
            << r.reader.instructions.size() << " instructions, up to " << r.reader.max_elems() * r.tile.elem_bytes
            << " B/lane\n"
            << "  " << s.candidates << " candidate layouts priced (" << s.rejected << " more would split a vector)\n"
            << "best: " << b.name() << " (" << synth::family_name(b.family) << "): " << cost_line(s.best) << "\n"
            << "  ideal " << s.ideal << ": " << (s.reaches_ideal() ? "reaches the ideal" : "does NOT reach the ideal")
            << "; row-major " << cost_line(s.row_major) << "\n"
            << "  checked: " << s.checked << "\n"
            << "spec/ descriptor:\n";
  const auto indent = [](const std::string& text) {
    std::string out = "  ";
    for (char c : text) out += c == '\n' ? std::string("\n  ") : std::string(1, c);
    return out + "\n";
  };
  std::cout << indent(synth::spec_spelling(b)) << "CK Tile:\n" << indent(synth::ck_spelling(b)) << "CuTe:\n  "
            << (cute ? *cute : "not a single CuTe Swizzle<B,M,S>") << "\n"
            << "XOR-linear analysis (GF(2) over the word address bits):\n";
  for (const std::string& l : why) std::cout << "  " << l << "\n";
  std::cout << "certificate (per family: its best, the lower bound proved over all its members):\n";
  for (const std::string& l : certificate_lines(s)) std::cout << "  " << l << "\n";
  if (s.ldmatrix) {  // its spec/ spelling's last line is the pasteable descriptor
    const std::string spelling = synth::spec_spelling(s.ldmatrix->layout);
    std::cout << "  ldmatrix family's best (" << s.ldmatrix->total() << "): " << spelling.substr(spelling.rfind('\n') + 1) << "\n";
  }
  if (!verify) return 0;
  // --verify: the answer priced again through the ordinary layout path (its spec/ descriptor, the bank model),
  // then the certificate's searched families against the brute force over every member.
  bool ok = true;
  {
    const std::vector<index_t> off = synth::descriptor_offsets(b);
    const long long again = r.write_weight * synth::price_side(arch, r.tile, r.writer, off).wavefronts +
                            r.read_weight * synth::price_side(arch, r.tile, r.reader, off).wavefronts;
    const std::optional<std::string> broken = synth::check_bijection(b, off);
    long long certified = -1;
    for (const synth::family_certificate& c : s.certificate)
      if (c.family == s.best_family) certified = c.best;
    const bool same = again == s.best.total() && (certified < 0 || certified == again);
    ok = ok && same && !broken;
    std::cout << "verify answer: " << b.name() << " built by its spec/ descriptor and priced in the bank model: " << again
              << " wavefronts" << (same ? " = the certificate's" : " AGAINST the certificate's " + std::to_string(s.best.total()))
              << (broken ? "; " + *broken : std::string()) << "\n";
  }
  for (const synth::family_optimum* f : {&s.minimum.row_xor, &s.minimum.graph, &s.minimum.gf2}) {
    if (!s.minimum.applicable || f->best < 0) continue;
    const std::string name = synth::xor_family_name(f->family);
    const synth::brute_force_result b = synth::brute_force_family(r, f->family, verify_limit);
    if (!b.best) {
      std::cout << "verify " << name << ": not run (" << (b.members < 0 ? std::string("over 2^62") : std::to_string(b.members))
                << " members, the limit is " << verify_limit << ")\n";
      continue;
    }
    const bool same = *b.best == f->best, below = f->lower_bound <= *b.best;
    ok = ok && below && (same || !f->exhaustive) && *b.best <= f->best;
    std::cout << "verify " << name << ": all " << b.members << " members priced in the bank model: optimum " << *b.best
              << (same ? " = the certificate's best" : " against the certificate's best " + std::to_string(f->best))
              << (below ? ", lower bound " + std::to_string(f->lower_bound) + " holds" : ", lower bound " + std::to_string(f->lower_bound) + " EXCEEDS it")
              << "\n";
  }
  if (!ok) {
    std::cerr << "synth: --verify: the certificate disagrees with the brute force\n";
    return 1;
  }
  return 0;
}

}  // namespace tilesim::cli
