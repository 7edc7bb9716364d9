// tilesim/cli/hostile.test.cpp: the hostile inputs of issue 38, through the built binary ($TILESIM).
//
// The law every case checks: input that travels between machines (partial reports, proof shards), output
// paths and option values can be anything; tilesim answers each with exit 0 or one "tilesim: error: " line
// naming the file, the field and the value (escaped, cut when long) and exit 2, never an internal error, a
// signal, an allocation the input's size does not justify, or a replaced symlink or device node.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/tilesim_process.test.hpp"

using namespace tilesim::testing;

namespace {

// A temporary file holding `text`.
std::string file_with(const std::string& text) {
  const std::string path = temp_path("tilesim-hostile");
  std::ofstream(path) << text;
  return path;
}

// `text` with the first `from` replaced by `to` (the test fails when `from` is absent).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "no '" << from << "' in the partial");
  return text.replace(at, from.size(), to);
}

// Exit 2 and exactly one error line on stderr holding every one of `needles`.
void check_one_error(const result& r, const std::vector<std::string>& needles) {
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.rfind("tilesim: error: ", 0) == 0);
  for (const std::string& n : needles) CHECK_MESSAGE(r.err.find(n) != std::string::npos, "'" << n << "' not in: " << r.err);
}

// The partial report of a whole 4-workgroup copy on sm90 (one slice covering every set).
const std::string& whole_partial() {
  static const std::string text = [] {
    const result r = run_tilesim({"run", "copy", "--grid", "4", "--arch", "sm90", "--workgroups", "0:4"});
    REQUIRE(r.code == 0);
    return r.out;
  }();
  return text;
}

// `tilesim merge FILE` of `text`, with extra arguments first.
result merge_text(const std::string& text, std::vector<std::string> extra = {}) {
  const std::string path = file_with(text);
  extra.insert(extra.begin(), "merge");
  extra.push_back(path);
  const result r = run_tilesim(extra);
  unlink(path.c_str());
  return r;
}

}  // namespace

TEST_CASE("merge: a whole-grid partial merges alone (the mutations below start from a good file)") {
  const result r = merge_text(whole_partial());
  CHECK(r.code == 0);
  CHECK(r.out.find("result: output == input (8192 elements)") != std::string::npos);
}

TEST_CASE("merge: a partial without meta.command is refused naming the file and the field (was internal error map::at)") {
  const std::string p = whole_partial();
  const std::size_t b = p.find("\"command\": \""), e = p.find("\", ", b + 12);
  REQUIRE(b != std::string::npos);
  const result r = merge_text(p.substr(0, b) + p.substr(e + 3));
  check_one_error(r, {"merge: ", "tilesim-hostile", "'meta.command'"});
}

TEST_CASE("merge: set counts the grid cannot hold are refused before anything is allocated") {
  // total_sets is derived from grid, residency and the arch; a partial cannot claim more sets than workgroups.
  for (const std::string sets : {"1000000000", "4294967297", "-1", "0", "5"}) {
    INFO(sets);
    const result r = merge_text(replaced(whole_partial(), "\"total_sets\": 4", "\"total_sets\": " + sets));
    check_one_error(r, {"'total_sets'", sets});
  }
  const result ranges = merge_text(replaced(whole_partial(), "\"sets\": [[0, 4]]", "\"sets\": [[0, 1000000000]]"));
  check_one_error(ranges, {"'sets'", "1000000000"});
}

TEST_CASE("merge: a worst LDS access the arch cannot issue is refused (width, lane count), not drawn") {
  // LDS widths are 1, 2, 4, 8 or 16 bytes per lane; an access has one address per lane of the arch's wave.
  for (const std::string width : {"3", "0", "-4", "1024"}) {
    INFO(width);
    const std::string bad = replaced(whole_partial(), "\"space\": \"lds\", \"width\": 16, \"address\"",
                                     "\"space\": \"lds\", \"width\": " + width + ", \"address\"");
    check_one_error(merge_text(bad), {"'worst.width'", width});
    check_one_error(merge_text(bad, {"--svg", "/tmp/tilesim-hostile-never.svg"}), {"'worst.width'", width});
  }
  const std::string p = whole_partial();
  const std::size_t b = p.find("\"address\": [") + 12, e = p.find(']', b);
  check_one_error(merge_text(p.substr(0, b) + "0, 16, 32, 48, 64" + p.substr(e)), {"'worst.address'", "5", "32"});
}

TEST_CASE("merge: impossible counts are refused, not reported as if real") {
  const std::vector<std::pair<std::pair<std::string, std::string>, std::string>> cases = {
      {{"\"elements\": \"8192\"", "\"elements\": \"-1\""}, "'meta.elements'"},
      {{"\"elements\": \"8192\"", "\"elements\": \"many\""}, "'meta.elements'"},
      {{"\"checked\": \"8192\"", "\"checked\": \"9000\""}, "'meta.checked'"},
      {{"\"exact\": \"yes\"", "\"exact\": \"maybe\""}, "'meta.exact'"},
      {{"\"grid\": 4,", "\"grid\": -5,"}, "'grid'"},
      {{"\"block\": 256,", "\"block\": 0,"}, "'block'"},
      {{"\"registers\": 0,", "\"registers\": -1,"}, "'registers'"},
      {{"\"arch\": \"sm90\"", "\"arch\": \"sm91\""}, "'arch'"},
      {{"\"max_reports\": 1000", "\"max_reports\": -3"}, "'max_reports'"},
      {{"\"workgroups\": 4, \"waves", "\"workgroups\": 7, \"waves"}, "'workgroups'"},
  };
  for (const auto& c : cases) {  // (no structured binding: clang 14 cannot capture one in doctest's INFO)
    const auto& [edit, field] = c;
    const std::string replacement = edit.second;
    INFO(replacement);
    check_one_error(merge_text(replaced(whole_partial(), edit.first, edit.second)), {field});
  }
}

TEST_CASE("merge: reading JSON is linear in its size (200k object members; a quadratic duplicate check took minutes)" *
          doctest::timeout(30)) {
  // A complexity law, not a speed target: 2e10 key comparisons cannot finish in the timeout, 2e5 can.
  std::string meta = "\"meta\": {";
  for (int k = 0; k < 200000; ++k) meta += "\"k" + std::to_string(k) + "\": \"v\", ";
  const result r = merge_text(replaced(whole_partial(), "\"meta\": {", meta));
  CHECK(r.code == 2);  // the extra members are not fields of tilesim run
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("'meta.k0'") != std::string::npos);
  const result twice = merge_text(replaced(whole_partial(), "\"meta\": {", "\"meta\": {\"command\": \"x\", "));
  check_one_error(twice, {"member 'command' given twice"});
}

TEST_CASE("prove --merge: malformed shard lists and shard numbers outside 1..N are one error line naming file and field") {
  const result shard = run_tilesim({"prove", "cute", "--shard", "1/50", "--json"});
  REQUIRE(shard.code == 0);
  const std::vector<std::pair<std::pair<std::string, std::string>, std::string>> cases = {
      {{"\"merged\": \"1\"", "\"merged\": \"2147483648\""}, "'merged'"},
      {{"\"merged\": \"1\"", "\"merged\": \"x\""}, "'merged'"},
      {{"\"merged\": \"1\"", "\"merged\": \"51\""}, "'merged'"},
      {{"\"merged\": \"1\"", "\"merged\": \"1,1\""}, "'merged'"},
      {{"\"shard\": 1,", "\"shard\": 51,"}, "'shard'"},
      {{"\"shard\": 1,", "\"shard\": -3,"}, "'shard'"},
      {{"\"shards\": 50,", "\"shards\": 0,"}, "'shards'"},
      {{"\"checked\": 525", "\"checked\": -525"}, "'checked'"},
      {{"\"held\": 159", "\"held\": 160"}, "'held'"},
      {{"\"grid_points\": 26244", "\"grid_points\": 10"}, "'grid_points'"},
      {{"\"claim\": \"cute bijective\"", "\"claim\": 7"}, "'claim'"},
  };
  for (const auto& c : cases) {  // (no structured binding: clang 14 cannot capture one in doctest's INFO)
    const auto& [edit, field] = c;
    const std::string replacement = edit.second;
    INFO(replacement);
    const std::string path = file_with(replaced(shard.out, edit.first, edit.second));
    const result r = run_tilesim({"prove", "--merge", path});
    check_one_error(r, {"--merge: '" + path + "': ", field});
    CHECK(r.err.find("internal error") == std::string::npos);
    unlink(path.c_str());
  }
}

TEST_CASE("--svg refuses to replace a symlink, a FIFO or a directory (exit 2, the target untouched); - is stdout") {
  namespace fs = std::filesystem;
  const std::string partial = file_with(whole_partial());
  const std::string dir = temp_path("tilesim-svgdir");
  unlink(dir.c_str());
  REQUIRE(mkdir(dir.c_str(), 0700) == 0);
  const std::string target = dir + "/target", link = dir + "/link", fifo = dir + "/fifo", sub = dir + "/sub";
  std::ofstream(target) << "keep";
  REQUIRE(symlink(target.c_str(), link.c_str()) == 0);
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  REQUIRE(mkdir(sub.c_str(), 0700) == 0);
  const std::vector<std::vector<std::string>> commands = {
      {"encoding", "docs-4x4"}, {"synth", "--arch", "gfx942"}, {"run", "copy", "--arch", "sm90"}, {"merge", partial}};
  for (const std::vector<std::string>& c : commands) {
    for (const std::string& path : {link, fifo, sub}) {
      std::vector<std::string> args = c;
      args.insert(args.end(), {"--svg", path});
      INFO(args[0] << " --svg " << path);
      const result r = run_tilesim(args);
      check_one_error(r, {"--svg", path, "not a regular file"});
      CHECK(r.out.empty());
    }
    CHECK(fs::is_symlink(link));
    CHECK(fs::is_fifo(fifo));
    CHECK(fs::is_directory(sub));
    CHECK(slurp(target) == "keep");
    std::vector<std::string> args = c;
    args.insert(args.end(), {"--svg", "-"});
    const result out = run_tilesim(args);
    INFO(c[0] << " --svg -");
    CHECK(out.code == 0);
    CHECK(out.out.find("<svg") != std::string::npos);
    CHECK(!fs::exists("-"));
  }
  fs::remove_all(dir);
  unlink(partial.c_str());
}

TEST_CASE("error lines: option values are escaped and cut, so one error is one short line") {
  const result newline = run_tilesim({"layout", "morton", "--rows", "4\nx"});
  check_one_error(newline, {"'4\\nx'"});
  const result escape = run_tilesim({"layout", "morton", "--rows", "\x1b[2J"});
  check_one_error(escape, {"'\\x1b[2J'"});
  CHECK(escape.err.find('\x1b') == std::string::npos);
  const result name = run_tilesim({"layout", "morton", "--" + std::string(100000, 'r'), "4"});
  check_one_error(name, {"unknown option --rrrr", "(100000 bytes)"});
  CHECK(name.err.size() < 1000);
  const result word = run_tilesim({"run", "copy", "--arch", std::string(5000, 'a') + "\t"});
  check_one_error(word, {"option --arch"});
  CHECK(word.err.size() < 1000);
}

TEST_CASE("error lines: one prefix, even when the program's own error is wrapped (run copy)") {
  const result r = run_tilesim({"run", "copy", "--vector", "3"});
  check_one_error(r, {"tilesim: error: run copy: block 0 thread 0 (wave 0, lane 0) threw: encoding pattern: "});
  CHECK(r.err.find("tilesim: ", 1) == std::string::npos);
}

// Law: only wrappers' prefixes go; a value the user gave keeps every character, "tilesim: " included.
TEST_CASE("error lines: a quoted value keeps the words 'tilesim: '") {
  const result r = run_tilesim({"layout", "morton", "--rows", "tilesim: 4"});
  check_one_error(r, {"option --rows: 'tilesim: 4' is not an integer"});
}

TEST_CASE("encoding: an empty P or X is named as empty, not as too many components") {
  const std::string empty_p =
      "tile_distribution_encoding<sequence<1>, tuple<sequence<4, 1, 16>, sequence<4, 8>>, tuple<sequence<>, "
      "sequence<1, 2>>, tuple<sequence<>, sequence<2, 0>>, sequence<1, 2>, sequence<1, 1>>";
  const result p = run_tilesim({"encoding", "--encoding", empty_p});
  check_one_error(p, {"P0", "empty"});
  CHECK(p.err.find("too many") == std::string::npos);
  const std::string empty_h =
      "tile_distribution_encoding<sequence<1>, tuple<sequence<4, 1, 16>, sequence<>>, tuple<sequence<1>, "
      "sequence<1, 2>>, tuple<sequence<0>, sequence<2, 0>>, sequence<1, 2>, sequence<1, 1>>";
  const result h = run_tilesim({"encoding", "--encoding", empty_h});
  check_one_error(h, {"X1", "empty"});
  CHECK(h.err.find("too many") == std::string::npos);
  const std::string no_x =
      "tile_distribution_encoding<sequence<1>, tuple<>, tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<0>, "
      "sequence<2, 0>>, sequence<1, 2>, sequence<1, 1>>";
  const result x = run_tilesim({"encoding", "--encoding", no_x});
  check_one_error(x, {"no X dim"});
  CHECK(x.err.find("too many") == std::string::npos);
}

TEST_CASE("bank: a read error on stdin is reported (exit 2), not taken for an empty input") {
  // stdin is a directory: read() fails with EISDIR, as it fails with EBADF when stdin is closed.
  const result r = run_tilesim_stdin_from({"bank", "--arch", "sm90", "-"}, "/");
  check_one_error(r, {"reading stdin failed"});
}

TEST_CASE("examples: a heat map that cannot be written still leaves the table on stdout, then one error line (exit 2)") {
  namespace fs = std::filesystem;
  const std::string dir = temp_path("tilesim-heatmaps");
  unlink(dir.c_str());
  const fs::path blocker = fs::path(dir) / "morton_morton-T-8-transforms-8x4-reads-LDS-in-Z-order_sm90.svg";
  fs::create_directories(blocker);
  const result r = run_tilesim({"examples", "--only", "morton", "--arch", "sm90", "--svg-dir", dir});
  CHECK(r.code == 2);
  CHECK(r.out.find("4 variants: 4 passed, 0 failed") != std::string::npos);
  std::vector<std::string> errors;
  for (const std::string& l : lines(r.err))
    if (l.rfind("tilesim: error: ", 0) == 0) errors.push_back(l);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("--svg-dir") != std::string::npos);
  CHECK(fs::is_directory(blocker));
  fs::remove_all(dir);
}

TEST_CASE("generated inputs: truncated and byte-flipped partials and shards give exit 0 or 2 with one error line") {
  // The law of "Done when": whatever the file holds, merge and prove --merge answer it or refuse it in one line;
  // never an internal error (exit 1 with a good result is impossible here: each mutation of a passing partial
  // either still passes, is refused, or changes the result check, which is exit 1 with a report on stdout).
  const result shard = run_tilesim({"prove", "cute", "--shard", "1/50", "--json"});
  REQUIRE(shard.code == 0);
  std::uint32_t state = 38;  // a fixed LCG: the same mutations every run
  auto next = [&state] { return state = state * 1664525u + 1013904223u; };
  for (const auto& pair : {std::pair<std::string, std::string>{"merge", whole_partial()},
                           std::pair<std::string, std::string>{"prove", shard.out}}) {
    const std::string command = pair.first;  // a named copy: clang 14 cannot capture a binding in doctest's INFO
    const std::string& good = pair.second;
    for (int k = 0; k < 60; ++k) {
      std::string text = good;
      if (k % 2 == 0) {
        text.resize(next() % good.size());  // cut anywhere
      } else {
        for (int flips = 0; flips < 3; ++flips) text[next() % text.size()] = static_cast<char>(next() % 256);
      }
      const std::string path = file_with(text);
      const result r = command == "merge" ? run_tilesim({"merge", path}) : run_tilesim({"prove", "--merge", path});
      INFO(command << " mutation " << k << " (reproduce: keep " << path << ")");
      CHECK(r.code != -1);
      CHECK(r.err.find("internal error") == std::string::npos);
      if (r.code == 2) {
        CHECK(lines(r.err).size() == 1);
        CHECK(r.err.rfind("tilesim: error: ", 0) == 0);
      } else {
        CHECK(r.code <= 1);
        CHECK(r.err.empty());
      }
      if (r.code != -1 && r.err.find("internal error") == std::string::npos) unlink(path.c_str());  // else kept to reproduce
    }
  }
}
