// tilesim/cli/synth.test.cpp: `tilesim synth` and `tilesim prove`, tested by running the built binary ($TILESIM).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli/tilesim_process.test.hpp"

using namespace tilesim::testing;

namespace {
bool has(const result& r, const std::string& s) { return r.out.find(s) != std::string::npos; }
}  // namespace

TEST_CASE("synth on sm90, 128x64 fp16 ldmatrix reads: Swizzle<3,3,3> = SW128, 256 wavefronts = ideal, three spellings") {
  const result r = run_tilesim({"synth", "--arch", "sm90", "--rows", "128", "--cols", "64"});
  CHECK(r.code == 0);
  CHECK(has(r, "best: Swizzle<3,3,3> (cute): 256 wavefronts"));
  CHECK(has(r, "ideal 256: reaches the ideal; row-major 1152 wavefronts"));
  CHECK(has(r, "auto lds = make_cute_swizzle_descriptor(3, 3, 3, 128, 64);"));
  CHECK(has(r, "make_xor_transform(make_tuple(number<8>{}, number<8>{}))"));
  CHECK(has(r, "Swizzle<3,4,3> on byte addresses (the SW128 atom)"));
  CHECK(has(r, "conflict-free XOR-linear layout: exists"));
}

TEST_CASE("synth --family ck on gfx942 gives CK's 2025 order, and --json carries the same") {
  const result r = run_tilesim({"synth", "--arch", "gfx942", "--family", "ck", "--json"});
  CHECK(r.code == 0);
  CHECK(has(r, "\"name\": \"ck-xor 2025 KPack 8 L 2\""));
  CHECK(has(r, "\"wavefronts\": 128"));
  CHECK(has(r, "\"reaches_ideal\": true"));
}

TEST_CASE("synth --svg writes the before/after heat maps") {
  const std::string path = temp_path("synth-svg");
  const result r = run_tilesim({"synth", "--arch", "gfx942", "--svg", path});
  CHECK(r.code == 0);
  const std::string svg = slurp(path);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("row-major, mfma") != std::string::npos);
  CHECK(svg.find("Swizzle(2,3,3), mfma") != std::string::npos);
}

TEST_CASE("synth reads a side from a pattern file of the row-major tile, and reports a malformed line (exit 2)") {
  const std::string path = temp_path("synth-pattern");
  {
    std::ofstream f(path);
    f << "col 4 load";
    for (int l = 0; l < 32; ++l) f << ' ' << l * 128;  // 32 x 32 fp32: lane l at (l, 0)
    f << '\n';
  }
  const result r = run_tilesim({"synth", "--arch", "sm90", "--rows", "32", "--cols", "32", "--elem-bytes", "4",
                                "--vector", "1", "--write", "warp-raked", "--read-file", path});
  CHECK(r.code == 0);
  CHECK(has(r, "reaches the ideal"));
  {
    std::ofstream f(path);
    f << "bad 4 load 1 2 3\n";
  }
  const result bad = run_tilesim({"synth", "--arch", "sm90", "--read-file", path});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("tilesim: error: --read-file") == 0);
}

TEST_CASE("synth refuses bad input with one line and exit 2") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"synth", "--arch", "sm90", "--read", "mfma"},
        {"synth", "--family", "spiral"},
        {"synth", "--rows", "100"},
        {"synth", "--write-encoding", "garbage"},
        {"synth", "--bogus", "1"}}) {
    const result r = run_tilesim(args);
    CAPTURE(args[1]);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("tilesim: error: ", 0) == 0);
    CHECK(lines(r.err).size() == 1);
  }
}

TEST_CASE("prove: ck-lds is a bijection on its whole grid; sharded runs merge to the same counts") {
  const result whole = run_tilesim({"prove", "ck-lds"});
  CHECK(whole.code == 0);
  CHECK(has(whole, "holds on 7192 points (308 skipped"));
  std::vector<std::string> merge = {"prove", "--merge"};
  for (int i = 1; i <= 3; ++i) {
    const result s = run_tilesim({"prove", "ck-lds", "--shard", std::to_string(i) + "/3", "--json"});
    CHECK(s.code == 0);
    const std::string path = temp_path(("shard" + std::to_string(i)).c_str());
    std::ofstream(path) << s.out;
    merge.push_back(path);
  }
  const result m = run_tilesim(merge);
  CHECK(m.code == 0);
  CHECK(has(m, "holds on 7192 points (308 skipped"));
  merge.push_back(merge.back());
  const result twice = run_tilesim(merge);
  CHECK(twice.code == 2);
  CHECK(twice.err.find("given twice") != std::string::npos);
}

TEST_CASE("prove: a failing claim prints the shrunk counterexample with a command that reproduces it (exit 1)") {
  const result r = run_tilesim({"prove", "ck-lds", "--claim", "conflict-free"});
  CHECK(r.code == 1);
  CHECK(has(r, "first counterexample"));
  const std::string key = "reproduce: tilesim prove ck-lds --claim conflict-free --only '";
  const std::size_t at = r.out.find(key);
  REQUIRE(at != std::string::npos);
  const std::size_t end = r.out.find('\'', at + key.size());
  const std::string point = r.out.substr(at + key.size(), end - at - key.size());
  const result again = run_tilesim({"prove", "ck-lds", "--claim", "conflict-free", "--only", point});
  CHECK(again.code == 1);
  CHECK(has(again, "FAILS on 1 of 1 points"));
}

TEST_CASE("prove --where: CK's own layout (derived MLdsLayer, 2025 order, fp16 KPack 8) is conflict-free on every arch; 2024 is not") {
  const result holds = run_tilesim({"prove", "ck-lds", "--claim", "conflict-free", "--where", "elem=2,kpack=8,order=2025,layers=0"});
  CHECK(holds.code == 0);
  CHECK(has(holds, "holds on 64 points (0 skipped"));
  const result fails = run_tilesim({"prove", "ck-lds", "--claim", "conflict-free", "--where", "elem=2,kpack=8,order=2024,layers=0"});
  CHECK(fails.code == 1);
  CHECK(has(fails, "ck-xor 2024 KPack 8"));
  const result bad = run_tilesim({"prove", "ck-lds", "--where", "arch=sm90"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("has no parameter 'arch'") != std::string::npos);
}

TEST_CASE("prove --merge reads schema tilesim.prove/1 and reports written before it, and refuses another version") {
  const result s1 = run_tilesim({"prove", "ck-lds", "--shard", "1/2", "--json"});
  const result s2 = run_tilesim({"prove", "ck-lds", "--shard", "2/2", "--json"});
  REQUIRE(s1.code == 0);
  REQUIRE(s2.code == 0);
  CHECK(s1.out.rfind("{\"schema\": \"tilesim.prove/1\", ", 0) == 0);
  const std::string field = "\"schema\": \"tilesim.prove/1\", ";
  std::string old_form = s1.out, other = s1.out;
  old_form.erase(old_form.find(field), field.size());
  other.replace(other.find("prove/1"), 7, "prove/2");
  const std::string p_old = temp_path("prove-old"), p_other = temp_path("prove-other"), p2 = temp_path("prove-s2");
  std::ofstream(p_old) << old_form;
  std::ofstream(p_other) << other;
  std::ofstream(p2) << s2.out;
  const result merged = run_tilesim({"prove", "--merge", p_old, p2});
  CHECK(merged.code == 0);
  CHECK(has(merged, "holds on 7192 points (308 skipped"));
  const result refused = run_tilesim({"prove", "--merge", p_other, p2});
  CHECK(refused.code == 2);
  CHECK(refused.err.find("a prove report of schema \"tilesim.prove/2\" (this tilesim reads tilesim.prove/1)") != std::string::npos);
}

namespace {
// Issue 36's kind of problem: every 16-byte chunk of a rows x (8*chunks) fp16 tile visited once, in a fixed
// pseudo-random lane order (own Fisher-Yates over mt19937, the same on every standard library), as a pattern file.
std::string shuffled_patterns(const std::string& name, const char* op, int rows, int chunks, int wave, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<int> order(static_cast<std::size_t>(rows * chunks));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
  const std::string path = temp_path(name.c_str());
  std::ofstream f(path);
  for (std::size_t i = 0; i < order.size(); i += static_cast<std::size_t>(wave)) {
    f << name << i << " 16 " << op;
    for (std::size_t l = i; l < i + static_cast<std::size_t>(wave); ++l) f << ' ' << order[l] * 16;
    f << '\n';
  }
  return path;
}
}  // namespace

TEST_CASE("synth's certificate where the ideal is out of reach: the branch-and-bound beats the enumerated candidates, --verify agrees") {
  // Law: the answer is never worse than the enumerated candidates; its family's optimum is proved (optimal) and
  // equals the brute force over every member (--verify).
  const std::string w = shuffled_patterns("cert-w", "store", 16, 8, 32, 1), r = shuffled_patterns("cert-r", "load", 16, 8, 32, 2);
  const result t = run_tilesim({"synth", "--arch", "sm90", "--rows", "16", "--cols", "64", "--write-file", w, "--read-file", r, "--verify"});
  CHECK(t.code == 0);
  CHECK(has(t, "does NOT reach the ideal"));
  CHECK(has(t, "certificate (per family: its best, the lower bound proved over all its members):"));
  CHECK(has(t, "(the enumerated candidates alone: "));
  CHECK(has(t, "verify row-xor: all 4096 members priced in the bank model: optimum "));
  CHECK(has(t, "= the certificate's best"));
  CHECK(!has(t, "EXCEEDS"));
  const result j = run_tilesim({"synth", "--arch", "sm90", "--rows", "16", "--cols", "64", "--write-file", w, "--read-file", r, "--json"});
  CHECK(j.code == 0);
  CHECK(has(j, "\"certificate\": {\"family\": "));
  CHECK(has(j, "{\"family\": \"row-xor\", \"best\": "));
}

TEST_CASE("synth with two readers and weights; bad weights are one error line (exit 2)") {
  const result t = run_tilesim({"synth", "--arch", "sm90", "--rows", "128", "--cols", "64", "--read", "ldmatrix", "--read2",
                                "down-rows", "--read-weight", "2"});
  CHECK(t.code == 0);
  CHECK(has(t, "reader ldmatrix + down-rows"));
  const result both0 = run_tilesim({"synth", "--arch", "sm90", "--write-weight", "0", "--read-weight", "0"});
  CHECK(both0.code == 2);
  CHECK(both0.err.find("--write-weight and --read-weight are both 0") != std::string::npos);
  const result neg = run_tilesim({"synth", "--arch", "sm90", "--read2-weight", "-1"});
  CHECK(neg.code == 2);
}

namespace {
// README's scrambled 16 x 64 fp16 problem: lane i of the side visits chunk (k * m mod 131) for the k-th value below 128.
std::string scrambled_patterns(const std::string& name, const char* op, int m) {
  std::vector<int> o;
  for (int k = 0; k < 131; ++k)
    if (const int v = k * m % 131; v < 128) o.push_back(v * 16);
  const std::string path = temp_path(name.c_str());
  std::ofstream f(path);
  for (std::size_t i = 0; i < o.size(); ++i) f << (i % 32 ? " " : name + std::to_string(i / 32) + " 16 " + op + " ") << o[i] << (i % 32 == 31 ? "\n" : "");
  return path;
}
}  // namespace

TEST_CASE("synth answers with a gf2 layout when it is the cheapest: pasteable, rebuilt by --verify at the certified number") {
  // Law (issue 36 item 1): the gf2 optimum is a layout; its spec/ descriptor, priced again, costs the certificate's number.
  const std::string w = scrambled_patterns("gf2-w", "store", 45), r = scrambled_patterns("gf2-r", "load", 17);
  const result t = run_tilesim({"synth", "--arch", "sm90", "--rows", "16", "--cols", "64", "--write-file", w, "--read-file", r, "--verify"});
  CHECK(t.code == 0);
  CHECK(has(t, "  answer: 56 wavefronts in family gf2, optimal in it; over every family above: lower bound 56, optimal"));
  CHECK(has(t, "auto lds = make_gf2_linear_descriptor(16, 64, 3, gf2_matrix{7, {"));
  CHECK(has(t, "built by its spec/ descriptor and priced in the bank model: 56 wavefronts = the certificate's"));
  CHECK(has(t, "  ldmatrix    best 56, lower bound 56: optimal"));
  const result j = run_tilesim({"synth", "--arch", "sm90", "--rows", "16", "--cols", "64", "--write-file", w, "--read-file", r, "--json"});
  CHECK(j.code == 0);
  CHECK(has(j, "\"family\": \"gf2\", \"wavefronts\": 56"));
  CHECK(has(j, "{\"family\": \"ldmatrix\", \"best\": 56"));
}
