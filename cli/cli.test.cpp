// tilesim/cli/cli.test.cpp: the `tilesim` command, tested by running the built binary ($TILESIM).
//
// Each case spawns tilesim with stdout and stderr redirected to temporary files and checks the exit code and
// the text: golden cells of real layouts (the worked examples of spec/layouts/*.hpp), bank numbers worked out
// by hand below, and one case per class of bad input (exit 2, one stderr line naming the problem). A few
// cases call the parsing helpers directly (args.hpp, grid.hpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <algorithm>
#include <doctest/doctest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "util/args.hpp"
#include "cli/grid.hpp"
#include "cli/tilesim_process.test.hpp"

using namespace tilesim::testing;

namespace {

// The numbers of row `row` in the first grid after the line that starts with `section` ("offsets:", "banks:").
std::vector<long long> grid_row(const std::string& text, const std::string& section, long long row) {
  const std::vector<std::string> ls = lines(text);
  std::size_t i = 0;
  while (i < ls.size() && ls[i].rfind(section, 0) != 0) ++i;
  for (i += 3; i < ls.size(); ++i) {  // skip the section line, the column header and the rule
    const auto bar = ls[i].find(" |");
    if (bar == std::string::npos) break;
    std::istringstream label(ls[i].substr(0, bar));
    long long r = -1;
    label >> r;
    if (r != row) continue;
    std::istringstream cells(ls[i].substr(bar + 2));
    std::vector<long long> v;
    for (long long x; cells >> x;) v.push_back(x);
    return v;
  }
  FAIL("no row " << row << " in section " << section);
  return {};
}

std::vector<long long> pick(const std::vector<long long>& row, std::vector<int> cols) {
  std::vector<long long> v;
  for (int c : cols) v.push_back(row.at(static_cast<std::size_t>(c)));
  return v;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A bad command line: exit 2, nothing on stdout, one stderr line "tilesim: error: ..." holding every `part`.
void check_rejected(const std::vector<std::string>& args, const std::vector<std::string>& parts) {
  std::string shown;
  for (const std::string& a : args) shown += " '" + a + "'";
  CAPTURE(shown);
  const result r = run_tilesim(args);
  CAPTURE(r.err);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("tilesim: error: ", 0) == 0);
  CHECK(lines(r.err).size() == 1);
  for (const std::string& p : parts) CHECK_MESSAGE(contains(r.err, p), "missing '" << p << "'");
}

}  // namespace

TEST_CASE("--help and layout --help exit 0 and document commands, layouts, options, defaults and exit codes") {
  const result h = run_tilesim({"--help"});
  CHECK(h.code == 0);
  CHECK(h.err.empty());
  for (const char* s :
       {"tilesim layout NAME", "tilesim layouts", "tilesim examples", "exit codes", "row-major padded ck-xor cute-swizzle morton"})
    CHECK_MESSAGE(contains(h.out, s), s);

  const result l = run_tilesim({"layout", "--help"});
  CHECK(l.code == 0);
  for (const char* s :
       {"--m-per-block N (1..1048576, default 128)", "--k-per-block N (1..1048576, default 32)",
        "--k-pack N (1..1048576, default 8)", "--m-lds-layer N (0..1048576, default 0)", "--bits N (0..40, default 3)",
        "--shift N (-40..40, default 3)", "--row-length N (1..1048576, default 64)", "--pad N (0..1048576, default 1)",
        "--elem-bytes N (1..16, default 2)", "--banks N (1..1024, default 32)",
        "--show offsets|banks|both (default both)", "--max-cols", "--group", "exit codes", "2^20"})
    CHECK_MESSAGE(contains(l.out, s), s);
  CHECK(run_tilesim({"layout", "morton", "--help"}).code == 0);
  CHECK(run_tilesim({"help"}).code == 0);
}

TEST_CASE("morton 4x4: the exact offset grid of spec/layouts/morton.hpp") {
  const result r = run_tilesim({"layout", "morton", "--show", "offsets"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out ==
        "layout morton: Morton (Z-order) tile, 4 x 4 (make_morton_descriptor(4, 4))\n"
        "  offset bits interleave column bit i -> bit 2i and row bit i -> bit 2i+1; the longer side's extra bits go on "
        "top\n"
        "  top (r, c) in 4 x 4; element space 16; bijection onto [0, 16): yes\n"
        "offsets:\n"
        "r\\c |  0  1  2  3\n"
        "----+------------\n"
        "  0 |  0  1  4  5\n"
        "  1 |  2  3  6  7\n"
        "  2 |  8  9 12 13\n"
        "  3 | 10 11 14 15\n");
}

TEST_CASE("ck-xor defaults: the worked example of spec/layouts/ck_lds_xor.hpp") {
  const result r = run_tilesim({"layout", "ck-xor"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "MPerBlock=128 KPerBlock=32 KPack=8 MLdsLayer L=2 (derived"));
  CHECK(contains(r.out, "K0=KPerBlock/KPack=4"));
  CHECK(contains(r.out, "top (m, k) in 128 x 32; element space 4096; bijection onto [0, 4096): yes"));
  const std::vector<int> k = {0, 8, 16, 24};
  CHECK(pick(grid_row(r.out, "offsets:", 0), k) == std::vector<long long>{0, 8, 16, 24});
  CHECK(pick(grid_row(r.out, "offsets:", 1), k) == std::vector<long long>{32, 40, 48, 56});
  CHECK(pick(grid_row(r.out, "offsets:", 2), k) == std::vector<long long>{72, 64, 88, 80});
  CHECK(pick(grid_row(r.out, "offsets:", 3), k) == std::vector<long long>{104, 96, 120, 112});
  CHECK(grid_row(r.out, "offsets:", 2).size() == 32);
  // fp16, 32 banks: bank = offset/2 mod 32, so m=2 at k = 0 8 16 24 -> 36 32 44 40 mod 32.
  CHECK(pick(grid_row(r.out, "banks:", 2), k) == std::vector<long long>{4, 0, 12, 8});
  // Rows 32.. are cut by the default --max-rows 32, with a note; --max-rows 0 prints them all.
  CHECK(contains(r.out, "(m = 32..127 not shown; --max-rows 0 shows all 128)"));
  const result all = run_tilesim({"layout", "ck-xor", "--max-rows", "0", "--show", "offsets"});
  CHECK(grid_row(all.out, "offsets:", 127).size() == 32);
  // 128 rows x 16 B = 512 words over 32 banks: at least 16 per bank, and the XOR reaches exactly that.
  CHECK(
      contains(r.out, "column-read conflicts: N = 16 (ideal 16) in each of the 4 groups of 8 columns: conflict-free"));
}

TEST_CASE("ck-xor parameters: MLdsLayer follows --banks and --elem-bytes, or is given") {
  // 64 banks, fp16: L = 64*4/32/2 = 4, K0 = 4, K0*L = 16.
  const result r = run_tilesim({"layout", "ck-xor", "--banks", "64", "--show", "offsets"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "MLdsLayer L=4"));
  // m = 4: m' = 1, l = 0, key 1: k0 XOR 1 -> offsets 8 0 24 16, plus m'*KPerBlock*L = 128.
  CHECK(pick(grid_row(r.out, "offsets:", 4), {0, 8, 16, 24}) == std::vector<long long>{136, 128, 152, 144});
  const result given = run_tilesim({"layout", "ck-xor", "--m-lds-layer", "1", "--show", "offsets"});
  CHECK(contains(given.out, "MLdsLayer L=1 (given)"));
  CHECK(pick(grid_row(given.out, "offsets:", 1), {0, 8, 16, 24}) == std::vector<long long>{40, 32, 56, 48});
}

TEST_CASE("cute-swizzle defaults: Swizzle<3,3,3> on 8 x 64 fp16") {
  const result r = run_tilesim({"layout", "cute-swizzle"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "CuTe Swizzle<3,3,3> o (8,64):(64,1)"));
  CHECK(contains(r.out, "bijection onto [0, 512): yes"));
  const auto row1 = grid_row(r.out, "offsets:", 1);
  CHECK(std::vector<long long>(row1.begin(), row1.begin() + 8) ==
        std::vector<long long>{72, 73, 74, 75, 76, 77, 78, 79});
  const auto row3 = grid_row(r.out, "offsets:", 3);
  CHECK(std::vector<long long>(row3.begin() + 16, row3.begin() + 24) ==
        std::vector<long long>{200, 201, 202, 203, 204, 205, 206, 207});
  // Each row is 128 B = one bank row; chunk c of row r moves to c XOR r, so a 16 B column read of all 8 rows
  // hits 8 different 4-bank groups: conflict-free, where the plain row-major tile is 8-way.
  CHECK(contains(r.out, "N = 1 (ideal 1) in each of the 8 groups of 8 columns: conflict-free"));
  const result plain = run_tilesim({"layout", "row-major", "--rows", "8", "--cols", "64"});
  CHECK(contains(plain.out, "N = 8 (ideal 1) in each of the 8 groups of 8 columns: worst excess over ideal 7"));
}

TEST_CASE("padded defaults: rows start at 0 5 10 15 and the map is injective but not onto") {
  const result r = run_tilesim({"layout", "padded", "--show", "offsets"});
  CHECK(r.code == 0);
  for (long long row = 0; row < 4; ++row) CHECK(grid_row(r.out, "offsets:", row).at(0) == 5 * row);
  CHECK(contains(r.out, "element space 19; bijection onto [0, 19): no: injective, 16 of 19 offsets used"));
}

TEST_CASE("bank grids worked out by hand") {
  // 4 x 64 fp16 with a pad of 2 elements (one 4-byte word): offset 66r + c, byte 132r + 2c, word 33r + c/2,
  // bank (33r + c/2) mod 32 = (r + c/2) mod 32.
  const result p = run_tilesim({"layout", "padded", "--rows", "4", "--cols", "64", "--pad", "2", "--show", "banks"});
  CHECK(p.code == 0);
  CHECK(contains(p.out, "banks: 2 B elements, 32 banks x 4 B; bank = (offset*2/4) mod 32"));
  for (long long r = 0; r < 4; ++r) {
    const auto row = grid_row(p.out, "banks:", r);
    REQUIRE(row.size() == 64);
    for (int c = 0; c < 64; ++c) CHECK(row[static_cast<std::size_t>(c)] == (r + c / 2) % 32);
  }
  // One column per row (2 B): the four rows hit banks r + c/2, all different -> conflict-free. A 16 B read of
  // group g touches words 33r + 4g + j (j = 0..3) in banks r + 4g + j; bank 4g+3 gets one word from each row
  // ((r, j) = (0, 3), (1, 2), (2, 1), (3, 0)): N = 4 where 16 words over 32 banks need only 1.
  CHECK(contains(p.out, "N = 4 (ideal 1) in each of the 8 groups of 8 columns: worst excess over ideal 3"));
  const result p1 =
      run_tilesim({"layout", "padded", "--rows", "4", "--cols", "64", "--pad", "2", "--show", "banks", "--group", "1"});
  CHECK(contains(p1.out, "N = 1 (ideal 1) in each of the 64 groups of 1 column: conflict-free"));
  // Without the pad every row starts in bank 0: a 1-column read puts all four rows' words in one bank.
  const result u1 =
      run_tilesim({"layout", "row-major", "--rows", "4", "--cols", "64", "--show", "banks", "--group", "1"});
  CHECK(contains(u1.out, "N = 4 (ideal 1) in each of the 64 groups of 1 column: worst excess over ideal 3"));

  // fp32, 4 banks: bank = offset mod 4, so a 2 x 4 row-major tile repeats 0 1 2 3.
  const result f = run_tilesim(
      {"layout", "row-major", "--rows", "2", "--cols", "4", "--elem-bytes", "4", "--banks", "4", "--show", "banks"});
  CHECK(f.out ==
        "layout row-major: row-major tile, 2 x 4 (make_row_major_descriptor(2, 4))\n"
        "  offset(r, c) = r*cols + c = r*4 + c\n"
        "  top (r, c) in 2 x 4; element space 8; bijection onto [0, 8): yes\n"
        "banks: 4 B elements, 4 banks x 4 B; bank = (offset*4/4) mod 4\n"
        "r\\c | 0 1 2 3\n"
        "----+--------\n"
        "  0 | 0 1 2 3\n"
        "  1 | 0 1 2 3\n"
        "column-read conflicts: N = 2 (ideal 2) for the one group of 4 columns: conflict-free\n"
        "  (N = most distinct 4-byte words in one bank when all 2 rows read the same 4 columns (16 B per row) at once; "
        "ideal = ceil(distinct words / 4 banks); no wave or phase model)\n");
  // 1-byte elements: four share a word. Morton 4x4 offsets / 4: rows 0 0 1 1 | 0 0 1 1 | 2 2 3 3 | 2 2 3 3.
  const result b = run_tilesim({"layout", "morton", "--elem-bytes", "1", "--show", "banks"});
  CHECK(grid_row(b.out, "banks:", 1) == std::vector<long long>{0, 0, 1, 1});
  CHECK(grid_row(b.out, "banks:", 3) == std::vector<long long>{2, 2, 3, 3});
  // 8-byte elements cover two banks; the grid shows the first: morton 4x4 with 8 banks -> (2*offset) mod 8.
  const result w = run_tilesim({"layout", "morton", "--elem-bytes", "8", "--banks", "8", "--show", "banks"});
  CHECK(contains(w.out, "(the bank of each element's first byte)"));
  CHECK(grid_row(w.out, "banks:", 3) == std::vector<long long>{4, 6, 4, 6});  // offsets 10 11 14 15
}

TEST_CASE("--max-cols cuts wide grids with a note") {
  const result r = run_tilesim({"layout", "cute-swizzle", "--max-cols", "8", "--show", "offsets"});
  CHECK(r.code == 0);
  CHECK(grid_row(r.out, "offsets:", 1) == std::vector<long long>{72, 73, 74, 75, 76, 77, 78, 79});
  CHECK(contains(r.out, "(c = 8..63 not shown; --max-cols 0 shows all 64)"));
}

TEST_CASE("layouts prints every layout with its defaults, deterministically") {
  const result a = run_tilesim({"layouts"});
  CHECK(a.code == 0);
  CHECK(a.err.empty());
  std::size_t at = 0;
  for (const char* name : {"row-major", "padded", "ck-xor", "cute-swizzle", "morton"}) {
    const std::size_t found = a.out.find(std::string("== tilesim layout ") + name + "\n", at);
    CHECK_MESSAGE(found != std::string::npos, name);
    if (found != std::string::npos) at = found;
  }
  CHECK(run_tilesim({"layouts"}).out == a.out);
  // The same output as the single commands.
  CHECK(contains(a.out, run_tilesim({"layout", "morton"}).out));
  CHECK(contains(a.out, run_tilesim({"layout", "ck-xor"}).out));
  // Common options apply to every layout.
  const result b = run_tilesim({"layouts", "--banks", "64", "--show", "offsets"});
  CHECK(b.code == 0);
  CHECK(contains(b.out, "MLdsLayer L=4"));
  CHECK(!contains(b.out, "banks:"));
}

TEST_CASE("bad input: unknown commands, layouts and options") {
  check_rejected({}, {"no command"});
  check_rejected({"frobnicate"}, {"unknown command 'frobnicate'", "examples, layout, layouts"});
  check_rejected({"layout"}, {"layout needs a NAME", "ck-xor"});
  check_rejected({"layout", "--rows", "4"}, {"layout needs a NAME"});
  check_rejected({"layout", "zigzag"}, {"unknown layout 'zigzag'", "row-major padded ck-xor cute-swizzle morton"});
  check_rejected({"layout", "morton", "--pad", "1"}, {"unknown option --pad for layout morton", "--rows --cols"});
  check_rejected({"layout", "morton", "4"}, {"unexpected argument '4'"});
  check_rejected({"layout", "morton", "--rows", "4", "--rows", "8"}, {"option --rows is given twice"});
  check_rejected({"layouts", "--rows", "4"}, {"unknown option --rows for layouts"});
  check_rejected({"layouts", "--banks", "48"}, {"the bank count must be a power of two"});  // ck-xor; stdout empty
  check_rejected({"layout", "morton", "--show", "everything"},
                 {"option --show: 'everything' is not one of offsets|banks|both"});
}

TEST_CASE("bad input: missing and non-integer values") {
  check_rejected({"layout", "morton", "--rows"}, {"option --rows needs a value"});
  check_rejected({"layout", "morton", "--rows", "--cols", "4"}, {"option --rows needs a value"});
  check_rejected({"layout", "morton", "--rows", "8x"}, {"option --rows: '8x' is not an integer"});
  check_rejected({"layout", "morton", "--rows="}, {"option --rows: the value is empty"});
  check_rejected({"layout", "morton", "--rows", ""}, {"option --rows: the value is empty"});
  check_rejected({"layout", "morton", "--rows", "+4"}, {"'+4' is not an integer"});
  check_rejected({"layout", "morton", "--rows", " 4"}, {"' 4' is not an integer"});
  check_rejected({"layout", "morton", "--rows", "0x10"}, {"'0x10' is not an integer"});
  check_rejected({"layout", "morton", "--rows", "4.0"}, {"'4.0' is not an integer"});
  check_rejected({"layout", "morton", "--rows", "99999999999999999999"}, {"does not fit in a 64-bit integer"});
}

TEST_CASE("bad input: values out of range and grids over 2^20 cells") {
  check_rejected({"layout", "morton", "--rows", "0"}, {"option --rows must be in [1, 1048576] (got 0)"});
  check_rejected({"layout", "morton", "--rows", "-4"}, {"option --rows must be in [1, 1048576] (got -4)"});
  check_rejected({"layout", "morton", "--elem-bytes", "32"}, {"option --elem-bytes must be in [1, 16] (got 32)"});
  check_rejected({"layout", "ck-xor", "--banks", "0"}, {"option --banks must be in [1, 1024] (got 0)"});
  check_rejected({"layout", "padded", "--pad", "-1"}, {"option --pad must be in [0, 1048576] (got -1)"});
  check_rejected({"layout", "cute-swizzle", "--shift", "41"}, {"option --shift must be in [-40, 40] (got 41)"});
  check_rejected({"layout", "row-major", "--rows", "2048", "--cols", "1024"},
                 {"2048 x 1024 grid has 2097152 cells", "limit of 1048576"});
  check_rejected({"layout", "ck-xor", "--m-per-block", "4096", "--k-per-block", "4096"}, {"16777216 cells"});
}

TEST_CASE("bad input: parameters that spec/ rejects name the rule and the values") {
  check_rejected({"layout", "morton", "--rows", "3"},
                 {"spec/ rejects", "morton: both lengths must be powers of two (rows = 3, cols = 4)"});
  check_rejected({"layout", "ck-xor", "--k-pack", "5"},
                 {"KPerBlock must be a multiple of KPack (KPerBlock = 32, KPack = 5)"});
  check_rejected({"layout", "ck-xor", "--m-lds-layer", "3"},
                 {"MPerBlock must be a multiple of MLdsLayer", "MLdsLayer = 3"});
  check_rejected({"layout", "ck-xor", "--banks", "48"}, {"the bank count must be a power of two", "banks = 48"});
  check_rejected({"layout", "ck-xor", "--k-per-block", "24"}, {"must be a power of two", "K0*MLdsLayer = 6"});
  check_rejected({"layout", "cute-swizzle", "--bits", "4"}, {"swizzle: |S| must be >= B (B = 4, S = 3)"});
  check_rejected({"layout", "cute-swizzle", "--rows", "3"},
                 {"the length must be a multiple of the block", "length = 192, block = 512"});
  check_rejected({"layout", "cute-swizzle", "--bits", "20", "--base", "20", "--shift", "20"}, {"exceeds 2^40"});
}

TEST_CASE("parse_int is strict") {
  using tilesim::cli::parse_int;
  using tilesim::cli::usage_error;
  CHECK(parse_int("123", "x") == 123);
  CHECK(parse_int("-3", "x") == -3);
  CHECK(parse_int("9223372036854775807", "x") == INT64_MAX);
  CHECK(parse_int("-9223372036854775808", "x") == INT64_MIN);
  for (const char* bad : {"", "8x", "x8", " 8", "8 ", "+8", "0x10", "1e3", "-", "9223372036854775808"})
    CHECK_THROWS_AS(parse_int(bad, "x"), usage_error);
}

TEST_CASE("bank_of: bank = (offset * elem_bytes / 4) mod banks") {
  const tilesim::cli::bank_model fp16{2, 32}, fp32{4, 32}, fp8{1, 64};
  CHECK(fp16.bank_of(3) == 1);   // byte 6, word 1
  CHECK(fp16.bank_of(64) == 0);  // byte 128, word 32
  CHECK(fp32.bank_of(33) == 1);
  CHECK(fp8.bank_of(259) == 0);  // byte 259, word 64
}

// ---------------------------------------------------------------------------------------------------------
// tilesim encoding (cli/encodings.hpp): the reference tables of ck-tile-semantics.md §3.3-3.6 read back from
// the thread tables, the load/store traits of §3.3-3.4, CK's spelling in and out, bad input, and the SVG.

namespace {

// One row of an encoding thread table: the access cells "(0, 0..7)" and the note after them.
struct thread_row {
  std::vector<std::string> cells;
  std::string note;
};

// The row labelled `ids` ({warp, lane}, {lane} for one P dim, {warp, lane, r} under R) in any thread table.
thread_row encoding_row(const std::string& text, const std::vector<long long>& ids) {
  for (const std::string& l : lines(text)) {
    const auto bar = l.find(" |");
    if (bar == std::string::npos) continue;
    std::istringstream label(l.substr(0, bar));
    std::vector<long long> got;
    for (long long v; label >> v;) got.push_back(v);
    if (got != ids || !label.eof()) continue;
    thread_row row;
    const std::string rest = l.substr(bar + 2);
    std::size_t end = 0;
    for (std::size_t open = rest.find('('); open != std::string::npos; open = rest.find('(', end)) {
      if (open > end && rest.substr(end, open - end).find_first_not_of(' ') != std::string::npos) break;  // a note
      end = rest.find(')', open) + 1;
      row.cells.push_back(rest.substr(open, end - open));
    }
    const auto note = rest.find_first_not_of(' ', end);
    if (note != std::string::npos) row.note = rest.substr(note);
    return row;
  }
  FAIL("no thread row labelled with " << ids.size() << " ids starting " << ids.at(0));
  return {};
}

// The text from the CK spelling on: what an encoding prints independently of how it was given.
std::string from_spelling(const std::string& text) {
  const auto at = text.find("\ntile_distribution_encoding<");
  return at == std::string::npos ? "" : text.substr(at + 1);
}

// The CK spelling line of an encoding's output.
std::string spelling_of(const std::string& text) { return lines(from_spelling(text)).at(0); }

std::size_t count_of(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (auto at = s.find(part); at != std::string::npos; at = s.find(part, at + part.size())) ++n;
  return n;
}

// Well-formedness of the XML subset tilesim writes: one root element, every tag closed in order, attribute
// values quoted and free of '<', and no raw '<' or stray '&' in text. Returns "" or what is wrong.
std::string xml_problem(const std::string& s) {
  std::vector<std::string> open;
  int roots = 0;
  auto name_at = [&](std::size_t& i) {
    const std::size_t from = i;
    while (i < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == ':' || s[i] == '_'))
      ++i;
    return s.substr(from, i - from);
  };
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '&') {
      const auto semi = s.find(';', i);
      const std::string entity = semi == std::string::npos ? "" : s.substr(i, semi - i + 1);
      if (entity != "&lt;" && entity != "&gt;" && entity != "&amp;" && entity != "&quot;")
        return "stray '&' at " + std::to_string(i);
      i = semi + 1;
      continue;
    }
    if (s[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(s[i]))) return "text outside the root";
      ++i;
      continue;
    }
    if (s.compare(i, 2, "<?") == 0) {
      i = s.find("?>", i);
      if (i == std::string::npos) return "unclosed <?";
      i += 2;
      continue;
    }
    if (s.compare(i, 2, "</") == 0) {
      i += 2;
      const std::string name = name_at(i);
      if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open";
      open.pop_back();
      if (i >= s.size() || s[i] != '>') return "bad closing tag " + name;
      ++i;
      continue;
    }
    ++i;
    const std::string name = name_at(i);
    if (name.empty()) return "raw '<' at " + std::to_string(i);
    if (open.empty() && ++roots > 1) return "two root elements";
    for (;;) {
      while (i < s.size() && s[i] == ' ') ++i;
      if (s.compare(i, 2, "/>") == 0) {
        i += 2;
        break;
      }
      if (i < s.size() && s[i] == '>') {
        open.push_back(name);
        ++i;
        break;
      }
      const std::string attr = name_at(i);
      if (attr.empty() || i + 1 >= s.size() || s[i] != '=' || s[i + 1] != '"') return "bad attribute in <" + name;
      const auto close_quote = s.find('"', i + 2);
      if (close_quote == std::string::npos || s.substr(i + 2, close_quote - i - 2).find('<') != std::string::npos)
        return "bad attribute value in <" + name;
      i = close_quote + 1;
    }
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  return roots == 1 ? "" : "no root element";
}

const std::string docs_4x4_spelling =
    "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>, tuple<sequence<1>, sequence<2>>, "
    "tuple<sequence<0>, sequence<0>>, sequence<1, 2>, sequence<1, 1>>";

}  // namespace

TEST_CASE("encoding --help and --help document the command, the names, the CK syntax and the options") {
  const result h = run_tilesim({"--help"});
  CHECK(h.code == 0);
  for (const char* s : {"tilesim encoding NAME", "tilesim encoding --encoding TEXT", "tilesim encoding --help",
                        "docs-4x4 warp-raked block-raked thread-raked copy-r mfma-32x32x8-a mfma-32x32x8-c"})
    CHECK_MESSAGE(contains(h.out, s), s);
  const result e = run_tilesim({"encoding", "--help"});
  CHECK(e.code == 0);
  CHECK(e.err.empty());
  for (const char* s : {"tilesim encoding --encoding TEXT",
                        "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>", "ck_tile::", "trailing {}",
                        "--vector N|unknown (default unknown)", "packed view", "--order linear|snake (default linear)",
                        "--warp-size N (1..1024, default 64)", "--threads N (0..1048576, default 0)",
                        "--threads N (1..1048576, default 256)", "--vec-size N (1..1048576, default 8)", "--svg FILE",
                        "--max-threads", "--max-extra", "warp-raked:", "mfma-32x32x8-c:", "exit codes"})
    CHECK_MESSAGE(contains(e.out, s), s);
  CHECK(run_tilesim({"encoding", "warp-raked", "--help"}).out == e.out);
}

TEST_CASE("encoding warp-raked --vector 8: the §3.4 rows, one 8-wide access per thread, every element once") {
  const result r = run_tilesim({"encoding", "warp-raked", "--vector", "8", "--max-threads", "0"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(spelling_of(r.out) ==
        "tile_distribution_encoding<sequence<1>, tuple<sequence<4, 1, 16>, sequence<4, 8>>, tuple<sequence<1>, "
        "sequence<1, 2>>, tuple<sequence<0>, sequence<2, 0>>, sequence<1, 2>, sequence<1, 1>>");
  using cells = std::vector<std::string>;
  CHECK(encoding_row(r.out, {0, 0}).cells == cells{"(0, 0..7)"});
  CHECK(encoding_row(r.out, {0, 1}).cells == cells{"(0, 8..15)"});
  CHECK(encoding_row(r.out, {0, 3}).cells == cells{"(0, 24..31)"});
  CHECK(encoding_row(r.out, {0, 4}).cells == cells{"(1, 0..7)"});
  CHECK(encoding_row(r.out, {0, 63}).cells == cells{"(15, 24..31)"});
  CHECK(encoding_row(r.out, {1, 0}).cells == cells{"(16, 0..7)"});
  CHECK(encoding_row(r.out, {3, 63}).cells == cells{"(63, 24..31)"});
  for (const char* s :
       {"X1 = VecSize = 8; X0 = cols/X1 = 4 lanes per row; rows per warp = warp size/X0 = 16; warps = "
        "256/64 = 4; iterations = rows/(16*4) = 1",
        "P1 (lane) = merge(H0[2], H1[0]): length 16 x 4 = 64",
        "X lengths 64 x 32 = 2048 elements; P lengths 4 x 64 = 256 threads; Y lengths 1 x 8 = 8 "
        "elements per thread (d = 8*y0 + y1)",
        "launch: 256 threads in warps of 64 (4 warps); P needs 4 warps x 64 lanes: ok, no thread beyond P",
        "vector Y dim: Y1 = H1[1], the last H component of X1: gcd(8, 8) = 8 scalars per vector",
        "accesses per thread: 8 elements / 8 = 1; first y of each: (0, 0)",
        "coverage: each of the 2048 elements is held by exactly 1 thread"})
    CHECK_MESSAGE(contains(r.out, s), s);
  CHECK(!contains(r.out, "extra threads"));
  // The default table stops after 64 threads, with a note.
  const result cut = run_tilesim({"encoding", "warp-raked"});
  CHECK(contains(cut.out, "(192 more threads of P not shown; --max-threads 0 shows all 256)"));
}

TEST_CASE("encoding warp-raked --threads 256 --rows 16 --cols 32 --vec-size 8: CK 2025's clamp, X1 = 2") {
  // CK: static_encoding_pattern.hpp (2025, TileDistributionEncodingPattern2D<256, 16, 32, 8, warp_raked>):
  // LargestVec = 32*16/256 = 2, X1 = 2, X0 = 16, Y2 = 4, Y0 = 4, Y1 = 1.
  const result r = run_tilesim({"encoding", "warp-raked", "--threads", "256", "--rows", "16", "--cols", "32",
                                "--vec-size", "8", "--vector", "8", "--max-threads", "0"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(spelling_of(r.out) ==
        "tile_distribution_encoding<sequence<1>, tuple<sequence<4, 1, 4>, sequence<16, 2>>, tuple<sequence<1>, "
        "sequence<1, 2>>, tuple<sequence<0>, sequence<2, 0>>, sequence<1, 2>, sequence<1, 1>>");
  for (const char* s :
       {"X1 = min(VecSize 8, rows*cols/threads = 2) = 2 (CK 2025 clamps); X0 = cols/X1 = 16 lanes per row; rows per "
        "warp = warp size/X0 = 4; warps = 256/64 = 4; iterations = rows/(4*4) = 1",
        "row = 4*warp + 4*y0 + lane/16  (a warp's rows are adjacent), col = 2*(lane%16) + y1",
        "vector Y dim: Y1 = H1[1], the last H component of X1: gcd(8, 2) = 2 scalars per vector",
        "coverage: each of the 512 elements is held by exactly 1 thread"})
    CHECK_MESSAGE(contains(r.out, s), s);
  using cells = std::vector<std::string>;
  CHECK(encoding_row(r.out, {0, 0}).cells == cells{"(0, 0..1)"});
  CHECK(encoding_row(r.out, {0, 17}).cells == cells{"(1, 2..3)"});
  CHECK(encoding_row(r.out, {3, 63}).cells == cells{"(15, 30..31)"});
}

TEST_CASE("encoding block-raked and thread-raked: the row formulas of patterns.hpp, read from the table") {
  const result b = run_tilesim({"encoding", "block-raked", "--rows", "128", "--vector", "8", "--max-threads", "0"});
  CHECK(b.code == 0);
  CHECK(contains(b.out, "row = 64*y0 + 16*warp + lane/4"));
  // Two accesses (y0 = 0, 1), 64 rows apart: one pass covers the block's 64 rows.
  CHECK(encoding_row(b.out, {1, 0}).cells == std::vector<std::string>{"(16, 0..7)", "(80, 0..7)"});
  const result t = run_tilesim({"encoding", "thread-raked", "--rows", "128", "--vector", "8", "--max-threads", "0"});
  CHECK(contains(t.out, "row = 32*warp + 2*(lane/4) + y0"));
  CHECK(encoding_row(t.out, {0, 4}).cells == std::vector<std::string>{"(2, 0..7)", "(3, 0..7)"});
  CHECK(encoding_row(t.out, {3, 63}).cells == std::vector<std::string>{"(126, 24..31)", "(127, 24..31)"});
  for (const result* r : {&b, &t}) CHECK(contains(r->out, "each of the 4096 elements is held by exactly 1 thread"));
}

TEST_CASE("encoding docs-4x4: the §3.3 table; the docs' 128-thread launch puts unmasked lane 5 at (0, 10)") {
  const result r = run_tilesim({"encoding", "docs-4x4"});
  CHECK(r.code == 0);
  using cells = std::vector<std::string>;
  CHECK(encoding_row(r.out, {0, 0}).cells == cells{"(0, 0)", "(0, 1)", "(1, 0)", "(1, 1)"});
  CHECK(encoding_row(r.out, {0, 1}).cells == cells{"(0, 2)", "(0, 3)", "(1, 2)", "(1, 3)"});
  CHECK(encoding_row(r.out, {1, 0}).cells == cells{"(2, 0)", "(2, 1)", "(3, 0)", "(3, 1)"});
  CHECK(encoding_row(r.out, {1, 1}).cells == cells{"(2, 2)", "(2, 3)", "(3, 2)", "(3, 3)"});
  CHECK(contains(r.out, "launch: 128 threads in warps of 64 (2 warps); P needs 2 warps x 2 lanes: ok, 124 extra"));
  CHECK(contains(r.out, "extra threads, not masked: 124 of the 128 launched threads lie beyond P"));
  const thread_row lane5 = encoding_row(r.out, {0, 5});
  CHECK(lane5.cells == cells{"(0, 10)", "(0, 11)", "(1, 10)", "(1, 11)"});
  CHECK(lane5.note == "outside the tile");
  CHECK(contains(r.out, "(116 more not listed; --max-extra 0 lists all 124)"));
  // Exactly P: no extra threads.
  const result exact = run_tilesim({"encoding", "docs-4x4", "--threads", "4", "--warp-size", "2"});
  CHECK(exact.code == 0);
  CHECK(contains(exact.out, "ok, no thread beyond P"));
  CHECK(!contains(exact.out, "extra threads, not masked"));
  // Warps beyond P (threads 128..191 are warp 2) sit below the tile.
  const result more = run_tilesim({"encoding", "docs-4x4", "--threads", "192", "--max-extra", "0"});
  CHECK(encoding_row(more.out, {2, 0}).cells == cells{"(4, 0)", "(4, 1)", "(5, 0)", "(5, 1)"});
}

TEST_CASE("encoding docs-4x4 vectors: scalar with 4 accesses by default, 2 x 2 with --vector 4 (gcd(4, 2))") {
  const result s = run_tilesim({"encoding", "docs-4x4"});
  CHECK(contains(s.out, "--vector unknown: X1 states no vector guarantee"));
  CHECK(contains(s.out, "vector Y dim: none, scalar accesses"));
  CHECK(contains(s.out, "accesses per thread: 4 elements / 1 = 4; first y of each: (0, 0) (0, 1) (1, 0) (1, 1)"));
  const result v = run_tilesim({"encoding", "docs-4x4", "--vector", "4"});
  CHECK(v.code == 0);
  CHECK(contains(v.out, "vector Y dim: Y1 = H1[1], the last H component of X1: gcd(4, 2) = 2 scalars per vector"));
  CHECK(contains(v.out, "accesses per thread: 4 elements / 2 = 2; first y of each: (0, 0) (1, 0)"));
  CHECK(encoding_row(v.out, {1, 1}).cells == std::vector<std::string>{"(2, 2..3)", "(3, 2..3)"});
  CHECK(run_tilesim({"encoding", "docs-4x4", "--vector", "unknown"}).out == s.out);
  // A guarantee of 3 shares no factor with the Y length 2: scalar, with the reason.
  CHECK(contains(run_tilesim({"encoding", "docs-4x4", "--vector", "3"}).out, "Y1 = H1[1] but gcd(3, 2) = 1"));
}

TEST_CASE("encoding --order snake: CK 2024's curve turns back on odd rows") {
  const result r = run_tilesim({"encoding", "thread-raked", "--rows", "128", "--vector", "4", "--order", "snake"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "first y of each: (0, 0) (0, 4) (1, 4) (1, 0)"));
  CHECK(encoding_row(r.out, {0, 0}).cells ==
        std::vector<std::string>{"(0, 0..3)", "(0, 4..7)", "(1, 4..7)", "(1, 0..3)"});
}

TEST_CASE("encoding copy-r: under R = <2> warps 2, 3 are replicas of warps 0, 1") {
  const result r = run_tilesim({"encoding", "copy-r", "--max-threads", "0"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "P0 (warp) = merge(R[0], H0[0]): length 2 x 2 = 4"));
  const thread_row w0 = encoding_row(r.out, {0, 9, 0}), w2 = encoding_row(r.out, {2, 9, 1});
  CHECK(w0.cells.at(15) == "(9, 15)");  // y = (1, 7): d = 15, the 16th scalar access
  CHECK(w2.cells == w0.cells);
  CHECK(w2.note == "replica of (0, 9)");
  CHECK(encoding_row(r.out, {1, 0, 0}).cells.at(0) == "(16, 0)");
  CHECK(encoding_row(r.out, {1, 0, 0}).note.empty());
  CHECK(contains(r.out, "each of the 2048 elements is held by exactly 2 threads; 128 of the 256 threads are replicas"));
}

TEST_CASE("encoding mfma-32x32x8-a/-c: lane 32 v0 = A(0,4), lane 63 c[15] = C(31,31); one P dim = lane") {
  const result a = run_tilesim({"encoding", "mfma-32x32x8-a", "--max-threads", "0"});
  CHECK(a.code == 0);
  CHECK(encoding_row(a.out, {32}).cells == std::vector<std::string>{"(0, 4)", "(0, 5)", "(0, 6)", "(0, 7)"});
  CHECK(contains(a.out, "P needs 64 lanes of one warp"));
  const result c = run_tilesim({"encoding", "mfma-32x32x8-c", "--max-threads", "0"});
  CHECK(encoding_row(c.out, {63}).cells.at(15) == "(31, 31)");
  CHECK(encoding_row(c.out, {0}).cells.at(4) == "(8, 0)");  // c[4]: i = 1, j = 0 -> m = 8
  // A second warp repeats the first: P0 is the lane only.
  const result two = run_tilesim({"encoding", "mfma-32x32x8-a", "--threads", "128", "--max-extra", "0"});
  CHECK(encoding_row(two.out, {1, 32}).note ==
        "inside the tile: the same elements as lane 32 (NDimP = 1 ignores the warp)");
}

TEST_CASE("encoding --encoding: CK's spelling round-trips, with or without ck_tile::, spaces and {}") {
  for (const char* name :
       {"docs-4x4", "warp-raked", "block-raked", "thread-raked", "copy-r", "mfma-32x32x8-a", "mfma-32x32x8-c"}) {
    CAPTURE(name);
    const result built = run_tilesim({"encoding", name, "--vector", "4"});
    REQUIRE(built.code == 0);
    const std::string spelling = spelling_of(built.out);
    const result given = run_tilesim({"encoding", "--encoding", spelling, "--vector", "4"});
    CHECK(given.code == 0);
    CHECK(spelling_of(given.out) == spelling);                    // output spelling == input
    CHECK(from_spelling(given.out) == from_spelling(built.out));  // and everything computed from it
  }
  const result plain = run_tilesim({"encoding", "--encoding", docs_4x4_spelling});
  CHECK(plain.out.rfind("encoding given with --encoding\n" + docs_4x4_spelling + "\n", 0) == 0);
  const result pasted =
      run_tilesim({"encoding",
                   "--encoding=ck_tile::tile_distribution_encoding<ck_tile::sequence<>,\n  ck_tile::tuple<"
                   "ck_tile::sequence<2,2>,ck_tile::sequence<2,2>>,tuple<sequence<1>,sequence<2>>,tuple<sequence<0>,"
                   "sequence<0>>,sequence<1,2>,sequence<1,1> >{}"});
  CHECK(pasted.code == 0);
  CHECK(pasted.out == plain.out);
  CHECK(run_tilesim({"encoding", docs_4x4_spelling}).out == plain.out);  // a NAME with '<' is TEXT
}

TEST_CASE("encoding --encoding: a malformed text names the column and the token") {
  check_rejected({"encoding", "--encoding", "tile_distribution_encoding<sequence<>, tuple<sequence<2, x>>"},
                 {"--encoding: column 58: expected an integer in HsLengthss, found 'x'", "sequence<2, x>"});
  check_rejected({"encoding", "--encoding", docs_4x4_spelling.substr(0, docs_4x4_spelling.size() - 1)},
                 {"column 175: expected '>' closing tile_distribution_encoding after its 6 arguments, found the end "
                  "of the text"});
  check_rejected({"encoding", "--encoding", "tile_distribution_encoding<sequence<>; tuple"},
                 {"column 38: unexpected character ';'"});
  check_rejected({"encoding", "--encoding", "sequence<1>"},
                 {"column 1: expected tile_distribution_encoding<...>, found 'sequence'"});
  check_rejected({"encoding", "--encoding", "tile_distribution_encoding<sequence<2u>"},
                 {"column 37: expected an integer in RsLengths, found '2u'"});
  check_rejected({"encoding", "--encoding", "tile_distribution_encoding<sequence<99999999999999999999>"},
                 {"column 37: '99999999999999999999' does not fit in a 64-bit integer"});
  check_rejected({"encoding", "--encoding", "tile_distribution_encoding<sequence<>, sequence<2>"},
                 {"column 40: expected tuple<sequence<...>, ...> (HsLengthss), found 'sequence'"});
  check_rejected({"encoding", "--encoding", docs_4x4_spelling + " x"}, {"expected the end of the text, found 'x'"});
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>, tuple<sequence<1>, "
                  "sequence<2>>, tuple<sequence<0>>, sequence<1, 2>, sequence<1, 1>>"},
                 {"--encoding: Ps2RHssMajor lists 2 P dims but Ps2RHssMinor 1"});
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>>, tuple<sequence<1, 1>>, "
                  "tuple<sequence<0>>, sequence<>, sequence<>>"},
                 {"--encoding: P0 has 2 majors (Ps2RHssMajor) but 1 minors (Ps2RHssMinor)"});
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>>, tuple<sequence<1>>, "
                  "tuple<sequence<0>>, sequence<1, 1>, sequence<1>>"},
                 {"--encoding: Ys2RHsMajor has 2 entries but Ys2RHsMinor 1"});
}

TEST_CASE("encoding --encoding: an invalid encoding is rejected with spec/'s rule and values") {
  // The CK docs' invalid example: Ys2RHsMajor = sequence<2, 4> names X dim 3 of a 2-D tile.
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>, tuple<sequence<1>, "
                  "sequence<2>>, tuple<sequence<0>, sequence<0>>, sequence<2, 4>, sequence<1, 1>>"},
                 {"spec/ rejects the parameters: encoding: a P or Y names an (major, minor) that is no R or H "
                  "component (Y = 1, major = 4, minor = 1)"});
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>, tuple<sequence<1>, "
                  "sequence<2>>, tuple<sequence<0>, sequence<0>>, sequence<1>, sequence<1>>"},
                 {"encoding: an H component is named by no P or Y (major = 2, minor = 1, length = 2)"});
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>>, tuple<sequence<1>>, "
                  "tuple<sequence<0>>, sequence<1>, sequence<0>>"},
                 {"encoding: an R or H component is named by two P/Y entries (Y = 0, major = 1, minor = 0)"});
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2, 2>>, tuple<sequence<1>, sequence<1>, "
                  "sequence<1>>, tuple<sequence<0>, sequence<1>, sequence<2>>, sequence<>, sequence<>>"},
                 {"encoding: there must be 1 P dim (lane) or 2 (warp, lane) (P dims = 3)"});
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<0, 2>>, tuple<sequence<1>>, "
                  "tuple<sequence<0>>, sequence<1>, sequence<1>>"},
                 {"every length must be >= 1"});
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<2048>, sequence<1024>>, tuple<sequence<1>>, "
                  "tuple<sequence<0>>, sequence<2>, sequence<0>>"},
                 {"the tile (X lengths 2048 x 1024) has more than 1048576 elements (2^20), the limit"});
}

TEST_CASE("encoding: bad launches, pattern parameters and options exit 2 with one line") {
  check_rejected({"encoding", "docs-4x4", "--threads", "64"},
                 {"spec/ rejects the parameters: encoding: the P lengths need more warps or lanes than the launch has "
                  "(P warps = 2, P lanes = 2, threads = 64, warp size = 64)"});
  check_rejected({"encoding", "mfma-32x32x8-c", "--warp-size", "32"}, {"P lanes = 64, threads = 32, warp size = 32"});
  check_rejected({"encoding", "warp-raked", "--cols", "30"},
                 {"encoding pattern: every split must be exact", "(cols = 30, vector = 8)"});
  check_rejected({"encoding", "block-raked", "--rows", "96"}, {"(rows = 96, rows per pass = threads/X0 = 64)"});
  check_rejected({"encoding", "warp-raked", "--rows", "16", "--cols", "22", "--vec-size", "11", "--threads", "64"},
                 {"(cols = 22, X1 = min(vector, rows*cols/threads) = 5)"});
  check_rejected({"encoding", "thread-raked", "--threads", "200"}, {"(threads = 200, warp size = 64)"});
  check_rejected({"encoding"}, {"encoding needs a NAME or --encoding TEXT", "docs-4x4 warp-raked"});
  check_rejected({"encoding", "zigzag"}, {"unknown encoding 'zigzag'", "mfma-32x32x8-a"});
  check_rejected({"encoding", "docs-4x4", "--encoding", docs_4x4_spelling},
                 {"give a NAME or --encoding TEXT, not both"});
  check_rejected({"encoding", "docs-4x4", "--rows", "4"}, {"unknown option --rows for encoding docs-4x4"});
  check_rejected({"encoding", "docs-4x4", "--vector", "0"},
                 {"option --vector must be unknown or in [1, 1048576] (got 0)"});
  check_rejected({"encoding", "docs-4x4", "--vector", "four"},
                 {"option --vector: 'four' is neither an integer nor 'unknown'"});
  check_rejected({"encoding", "docs-4x4", "--vector"}, {"option --vector needs a value"});
  check_rejected({"encoding", "docs-4x4", "--vector", "4", "--vector=2"}, {"option --vector is given twice"});
  check_rejected({"encoding", "docs-4x4", "--order", "zigzag"},
                 {"option --order: 'zigzag' is not one of linear|snake"});
  check_rejected({"encoding", "docs-4x4", "--svg="}, {"option --svg: the value is empty"});
  check_rejected({"encoding", "--encoding"}, {"option --encoding needs a value"});
}

TEST_CASE("encoding --svg: one cell per element, well-formed, boxes per vector access, renders with rsvg-convert") {
  const std::string path = temp_path("tilesim-svg");
  const result r = run_tilesim({"encoding", "warp-raked", "--vector", "8", "--svg", path});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out == run_tilesim({"encoding", "warp-raked", "--vector", "8"}).out);  // the text is the same
  const std::string svg = slurp(path);
  CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(xml_problem(svg).empty());
  CAPTURE(xml_problem(svg));
  CHECK(count_of(svg, "<rect class=\"cell") == 64 * 32);
  CHECK(count_of(svg, "<rect class=\"vec\"") == 256);  // one 8-wide access per thread
  CHECK(count_of(svg, ">3:63</text>") == 8);           // thread (3, 63) labels its 8 cells
  CHECK(contains(svg, "tilesim encoding warp-raked: X 64 x 32"));
  CHECK(contains(svg, "tile_distribution_encoding&lt;sequence&lt;1&gt;"));
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") == 0) {
    const std::string png = temp_path("tilesim-png");
    CHECK(std::system(("rsvg-convert '" + path + "' -o '" + png + "'").c_str()) == 0);
    CHECK(slurp(png).rfind("\x89PNG", 0) == 0);
    unlink(png.c_str());
  } else {
    MESSAGE("rsvg-convert not installed: the SVG was checked for well-formedness only");
  }
  // Replicated cells are marked: under R = <2> every element of copy-r is held twice.
  const result c = run_tilesim({"encoding", "copy-r", "--svg", path});
  CHECK(c.code == 0);
  const std::string replicated = slurp(path);
  CHECK(xml_problem(replicated).empty());
  CHECK(count_of(replicated, "<rect class=\"cell rep\"") == 32 * 64);
  CHECK(count_of(replicated,
                 " \xC3\x97"
                 "2</text>") == 32 * 64);  // "d5 ×2"
  unlink(path.c_str());
}

TEST_CASE("encoding --svg: refused for non-2-D tiles and unwritable paths; a failure keeps the old file") {
  const std::string path = temp_path("tilesim-svg");
  {
    std::ofstream f(path);
    f << "keep";
  }
  check_rejected({"encoding", "--encoding",
                  "tile_distribution_encoding<sequence<>, tuple<sequence<4>>, tuple<sequence<1>>, tuple<sequence<0>>, "
                  "sequence<>, sequence<>>",
                  "--svg", path},
                 {"--svg draws 2-D tiles only; this encoding has 1 X dim"});
  check_rejected({"encoding", "docs-4x4", "--threads", "64", "--svg", path}, {"P warps = 2"});
  CHECK(slurp(path) == "keep");
  check_rejected({"encoding", "docs-4x4", "--svg", "/nonexistent-dir/x.svg"},
                 {"--svg: cannot write '/nonexistent-dir/x.svg': No such file or directory"});
  const char* tmp = std::getenv("TMPDIR");
  check_rejected({"encoding", "docs-4x4", "--svg", tmp ? tmp : "/tmp"}, {"--svg: ", "is not a regular file (a directory)"});
  unlink(path.c_str());
}

// `tilesim tma-wgmma` (cli/tma_wgmma.cpp; the proof is spec/hopper/tma_wgmma.hpp).
TEST_CASE("tma-wgmma: 0 when consistent, 1 naming the first element and the fixing field, 2 on bad input") {
  const std::vector<std::string> good = {"tma-wgmma", "--type", "bf16", "--box", "64,64", "--tma-swizzle", "128B",
                                         "--operand", "A", "--major", "k", "--swizzle", "128B", "--sbo", "1024"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = good;
    for (std::string& e : extra) {
      const auto it = std::find(a.begin(), a.end(), e);
      if (it != a.end() && e.rfind("--", 0) == 0) a.erase(it, it + 2);  // a later value replaces the default one
      a.push_back(e);
    }
    return a;
  };
  const result ok = run_tilesim(with({"--k-at", "16"}));
  CHECK(ok.code == 0);
  CHECK(ok.err.empty());
  CHECK(contains(ok.out, "descriptor 0x4000004000010002: start 32, LBO 16 (unused), SBO 1024"));
  CHECK(contains(ok.out, "consistent: all 1024 elements wgmma reads are the elements TMA put there"));

  // LBO and SBO swapped: the first element of the second 8-row group differs; SBO is named first.
  std::vector<std::string> swapped = good;
  swapped.erase(swapped.end() - 2, swapped.end());
  for (const char* s : {"--lbo", "1024", "--sbo", "16"}) swapped.push_back(s);
  const result bad = run_tilesim(swapped);
  CHECK(bad.code == 1);
  CHECK(contains(bad.out, "NOT consistent: element (mn 8, k 0) = box (0, 8) = global (0, 8): TMA put it at byte 1024, "
                          "wgmma reads byte 16"));
  CHECK(contains(bad.out, "  fix: --sbo 1024  (SBO: bytes from one 8-row group of M/N to the next)"));
  CHECK(contains(bad.out, "  fix: --lbo 16 --sbo 1024  (LBO and SBO swapped"));

  // The swizzle modes disagree; the destination is 512 bytes off the 1024-byte repeat.
  const result swz = run_tilesim(with({"--swizzle", "64B"}));
  CHECK(swz.code == 1);
  CHECK(contains(swz.out, "  fix: --swizzle 128B"));
  const result base = run_tilesim(with({"--smem-base", "512", "--json"}));
  CHECK(base.code == 1);
  CHECK(contains(base.out, "\"alignment\": \"tma: with swizzle the shared-memory destination must be aligned"));
  CHECK(contains(base.out, "{\"field\": \"smem_base\", \"options\": \"--smem-base 0 --start 0\""));
  CHECK(contains(base.out, "{\"field\": \"base_offset\", \"options\": \"--base-offset 4\""));

  check_rejected({"tma-wgmma", "--box", "64,64"}, {"tma-wgmma needs --type"});
  check_rejected(with({"--box", "128,64"}), {"inner box dimension in bytes must not exceed the swizzle span",
                                             "inner bytes = 256, span = 128"});
  check_rejected(with({"--sbo", "1000"}), {"SBO = 1000"});
  check_rejected(with({"--box", "64,32"}), {"MN end = 64", "MN in box = 32"});
  check_rejected(with({"--box", "64,6x"}), {"option --box: '6x' is not an integer"});
  check_rejected(with({"--type", "tf32", "--major", "mn", "--box", "32,64"}), {"16-bit types"});
  check_rejected({"tma-wgmma", "--type", "bf16", "--box", "64,64", "--tma-swizzle", "128B", "--operand", "A", "--major",
                  "k", "--descriptor", "0x4000004000018000"},
                 {"sets reserved bits 0x8000"});
}
