// tilesim/cli/cli.test.cpp: the `tilesim` command, tested by running the built binary ($TILESIM).
//
// Each case spawns tilesim with stdout and stderr redirected to temporary files and checks the exit code and
// the text: golden cells of real layouts (the worked examples of spec/layouts/*.hpp), bank numbers worked out
// by hand below, and one case per class of bad input (exit 2, one stderr line naming the problem). A few
// cases call the parsing helpers directly (args.hpp, grid.hpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/grid.hpp"

extern char** environ;

namespace {

struct result {
  int code = -1;  // exit status; -1 when killed by a signal
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs $TILESIM with `args`; stdout and stderr go to files so large outputs cannot block a pipe.
result run_tilesim(const std::vector<std::string>& args) {
  const char* exe = std::getenv("TILESIM");
  REQUIRE_MESSAGE(exe != nullptr, "set TILESIM to the tilesim binary (meson test does)");
  const char* tmp = std::getenv("TMPDIR");
  std::string out_path = std::string(tmp ? tmp : "/tmp") + "/tilesim-out-XXXXXX";
  std::string err_path = std::string(tmp ? tmp : "/tmp") + "/tilesim-err-XXXXXX";
  const int out_fd = mkstemp(out_path.data()), err_fd = mkstemp(err_path.data());
  REQUIRE(out_fd >= 0);
  REQUIRE(err_fd >= 0);

  std::vector<std::string> argv_s = {exe};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, exe, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_fd);
  close(err_fd);
  REQUIRE_MESSAGE(spawned == 0, "cannot start " << exe);
  int status = 0;
  waitpid(pid, &status, 0);

  result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  unlink(out_path.c_str());
  unlink(err_path.c_str());
  return r;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

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
       {"tilesim layout NAME", "tilesim examples", "exit codes", "row-major padded ck-xor cute-swizzle morton"})
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

TEST_CASE("examples prints every layout with its defaults, deterministically") {
  const result a = run_tilesim({"examples"});
  CHECK(a.code == 0);
  CHECK(a.err.empty());
  std::size_t at = 0;
  for (const char* name : {"row-major", "padded", "ck-xor", "cute-swizzle", "morton"}) {
    const std::size_t found = a.out.find(std::string("== tilesim layout ") + name + "\n", at);
    CHECK_MESSAGE(found != std::string::npos, name);
    if (found != std::string::npos) at = found;
  }
  CHECK(run_tilesim({"examples"}).out == a.out);
  // The same output as the single commands.
  CHECK(contains(a.out, run_tilesim({"layout", "morton"}).out));
  CHECK(contains(a.out, run_tilesim({"layout", "ck-xor"}).out));
  // Common options apply to every layout.
  const result b = run_tilesim({"examples", "--banks", "64", "--show", "offsets"});
  CHECK(b.code == 0);
  CHECK(contains(b.out, "MLdsLayer L=4"));
  CHECK(!contains(b.out, "banks:"));
}

TEST_CASE("bad input: unknown commands, layouts and options") {
  check_rejected({}, {"no command"});
  check_rejected({"frobnicate"}, {"unknown command 'frobnicate'", "layout, examples"});
  check_rejected({"layout"}, {"layout needs a NAME", "ck-xor"});
  check_rejected({"layout", "--rows", "4"}, {"layout needs a NAME"});
  check_rejected({"layout", "zigzag"}, {"unknown layout 'zigzag'", "row-major padded ck-xor cute-swizzle morton"});
  check_rejected({"layout", "morton", "--pad", "1"}, {"unknown option --pad for layout morton", "--rows --cols"});
  check_rejected({"layout", "morton", "4"}, {"unexpected argument '4'"});
  check_rejected({"layout", "morton", "--rows", "4", "--rows", "8"}, {"option --rows is given twice"});
  check_rejected({"examples", "--rows", "4"}, {"unknown option --rows for examples"});
  check_rejected({"examples", "--banks", "48"}, {"the bank count must be a power of two"});  // ck-xor; stdout empty
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
