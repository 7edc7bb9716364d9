// tilesim/sim/models/lds_banks.test.cpp: the LDS bank model against hardware truth and the reference's laws.
//
// Runs with the repository root as working directory (meson's sim test sets it): the calibration files are
// read from data/calibration/ (truth_file.test.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/models/lds_banks.hpp"
#include "sim/models/lds_timing.hpp"
#include "sim/models/truth_file.test.hpp"

using namespace tilesim::sim;

namespace {

constexpr address_t off = no_address;

// A wave whose lane i reads/writes `width` bytes at address(i) (no_address: inactive).
wave_access wave(const arch_table& arch, access_kind kind, int width, const std::function<address_t(int)>& address) {
  wave_access w{"test", kind, memory_space::lds, width, {}};
  for (int lane = 0; lane < arch.wave_size; ++lane) w.address.push_back(address(lane));
  return w;
}

lds_cost cost(const char* arch, access_kind kind, int width, const std::function<address_t(int)>& address) {
  const arch_table& a = arch_named(arch);
  return lds_instruction_cost(a, wave(a, kind, width, address));
}

const access_kind ld = access_kind::load, st = access_kind::store;

using truth_file::read_patterns;

}  // namespace

TEST_CASE("sm90 reproduces every line of the H200 truth: wavefronts exactly, cycles within 5 %") {
  const arch_table& sm90 = arch_named("sm90");
  const auto truth = truth_file::read_tsv("data/calibration/h200-smem-known.truth.tsv").rows;
  const auto patterns = read_patterns("data/calibration/h200-smem-known.patterns", sm90);
  REQUIRE(patterns.size() == 46);
  REQUIRE(truth.size() == 46);
  int exact = 0;
  double worst = 0;
  std::string worst_name;
  for (const wave_access& p : patterns) {
    REQUIRE_MESSAGE(truth.count(p.label), p.label << " has no truth line");
    const auto& t = truth.at(p.label);
    const int wavefronts = std::stoi(t[3]);
    const double cycles = std::stod(t[4]);
    const lds_cost c = lds_instruction_cost(sm90, p);
    const double predicted = steady_cycles(sm90, p, c);
    const double error = std::abs(predicted - cycles) / cycles;
    CHECK_MESSAGE(c.wavefronts == wavefronts,
                  p.label << ": model " << c.wavefronts << " wavefronts, H200 " << wavefronts);
    CHECK_MESSAGE(error <= 0.05, p.label << ": model " << predicted << " cycles, H200 " << cycles);
    // Nsight's l1tex__data_bank_conflicts was wavefronts - 1/2/4 except for the paired loads (hardware/README).
    CHECK_MESSAGE(c.bank_conflicts == c.excess, p.label);
    exact += c.wavefronts == wavefronts;
    if (error > worst) worst = error, worst_name = p.label;
  }
  MESSAGE("H200 truth: " << exact << "/46 wavefronts exact; worst cycle error " << worst * 100 << " % (" << worst_name
                         << ")");
  CHECK(worst < 0.014);  // the fit documented in sim/arch/sm90.cpp
}

TEST_CASE("sm90 reproduces the H200 probe: counted wavefronts, hardware passes and bank conflicts, pipe cycles") {
  // data/calibration/README.md: 100 more patterns measured on the same H200 (repeated addresses, partial
  // warps, sub-word widths); cycles from an unrolled loop, where the LDS pipe is the only limit.
  const arch_table& sm90 = arch_named("sm90");
  const auto truth = truth_file::read_tsv("data/calibration/h200-smem-probe.truth.tsv").rows;
  const auto patterns = read_patterns("data/calibration/h200-smem-probe.patterns", sm90);
  REQUIRE(patterns.size() == 100);
  for (const wave_access& p : patterns) {
    REQUIRE_MESSAGE(truth.count(p.label), p.label << " has no truth line");
    const auto& t = truth.at(p.label);
    const lds_cost c = lds_instruction_cost(sm90, p);
    CHECK_MESSAGE(c.wavefronts == std::stoi(t[3]), p.label << ": counted " << c.wavefronts << ", Nsight " << t[3]);
    CHECK_MESSAGE(c.passes == std::stoi(t[4]), p.label << ": passes " << c.passes << ", hardware " << t[4]);
    CHECK_MESSAGE(c.bank_conflicts == std::stoi(t[5]),
                  p.label << ": conflicts " << c.bank_conflicts << ", hardware " << t[5]);
    const double measured = std::stod(t[6]);
    CHECK_MESSAGE(std::abs(lds_pipe_cycles(sm90, c) - measured) <= 0.07,
                  p.label << ": pipe " << lds_pipe_cycles(sm90, c) << " cycles, H200 " << measured);
  }
}

TEST_CASE("lanes sharing a 4-byte word are served by one broadcast, loads and stores (R 1.3)") {
  for (access_kind k : {ld, st}) {
    CHECK(cost("sm90", k, 4, [](int) { return 0; }).wavefronts == 1);
    CHECK(cost("sm90", k, 4, [](int l) { return 4 * (l / 2); }).wavefronts == 1);
    CHECK(cost("sm90", k, 1, [](int l) { return l % 4; }).wavefronts == 1);
    CHECK(cost("sm90", k, 2, [](int l) { return 2 * (l % 2); }).wavefronts == 1);
    CHECK(cost("gfx942", k, 4, [](int) { return 0; }).wavefronts == 2);  // 2 phases, each a broadcast
  }
}

TEST_CASE("a phase costs the most distinct words in one bank: 0 and 128 alternating is 2-way, stride 33 words is 1") {
  const lds_cost two = cost("sm90", ld, 4, [](int l) { return 128 * (l % 2); });
  CHECK(two.wavefronts == 2);
  CHECK(two.max_ways == 2);
  CHECK(two.excess == 1);
  CHECK(cost("sm90", ld, 4, [](int l) { return 132 * l; }).wavefronts == 1);
  const lds_cost all = cost("sm90", st, 4, [](int l) { return 128 * l; });
  CHECK(all.wavefronts == 32);
  CHECK(all.max_ways == 32);
  CHECK(all.ideal == 1);
}

TEST_CASE("sm90 8- and 16-byte accesses conflict only within their half / quarter warp (R 1.2)") {
  // 16 B: lanes 0-7 all on banks 0-3 (stride 128 B) -> 8-way in phase 0; other phases linear.
  const lds_cost q = cost("sm90", st, 16, [](int l) { return l < 8 ? address_t(128 * l) : address_t(2048 + 16 * l); });
  CHECK(q.wavefronts == 8 + 3);
  CHECK(q.ideal == 4);
  CHECK(q.max_ways == 8);
  // Lanes 0 and 16 on the same banks, different words, but in different phases: no conflict.
  CHECK(cost("sm90", st, 8, [](int l) { return l == 16 ? address_t(1024) : address_t(8 * l); }).wavefronts == 2);
  CHECK(cost("sm90", ld, 8, [](int l) { return 8 * l; }).ideal == 2);
  CHECK(cost("sm90", ld, 16, [](int l) { return 16 * l; }).ideal == 4);
}

TEST_CASE("sm90 LDS.128 pairs: Tn == Tn^1 for all lanes takes 2 wavefronts, (tid%4)*16 takes 4 (R 1.3)") {
  CHECK(cost("sm90", ld, 16, [](int l) { return 16 * (l / 2); }).wavefronts == 2);
  CHECK(cost("sm90", ld, 16, [](int l) { return 16 * ((l / 4) * 2 + l % 2); }).wavefronts == 2);  // Tn == Tn^2
  CHECK(cost("sm90", ld, 16, [](int l) { return 16 * (l % 4); }).wavefronts == 4);
  CHECK(cost("sm90", st, 16, [](int l) { return 16 * (l / 2); }).wavefronts == 4);  // stores never pair
}

TEST_CASE("sm90 counted wavefronts merge per half warp only when conflict-free; hardware passes pack the whole warp") {
  // Lanes 0-15 broadcast, 16-31 linear: the counter merges half 0 (3), the pipe does not pack (4 passes).
  const lds_cost half =
      cost("sm90", ld, 16, [](int l) { return l < 16 ? address_t(0) : address_t(256 + 16 * (l - 16)); });
  CHECK(half.wavefronts == 3);
  CHECK(half.passes == 4);
  CHECK(!half.packed);
  // Even lanes at 0, odd at 128: paired through lane^2, but 2-way: counted 8, packed 2 x 2 = 4 passes.
  const lds_cost odd_even = cost("sm90", ld, 16, [](int l) { return address_t(128 * (l % 2)); });
  CHECK(odd_even.wavefronts == 8);
  CHECK(odd_even.excess == 4);
  CHECK(odd_even.passes == 4);
  CHECK(odd_even.bank_conflicts == 2);
  CHECK(odd_even.packed);
}

TEST_CASE("phases with no active lane cost no wavefront but occupy the pipe (sm90 measured)") {
  const lds_cost first8 = cost("sm90", ld, 16, [](int l) { return l < 8 ? address_t(16 * l) : off; });
  CHECK(first8.wavefronts == 1);
  CHECK(first8.ideal == 1);
  CHECK(first8.passes == 1);
  CHECK(first8.pipe_slots == 4);
  const lds_cost lane0 = cost("sm90", ld, 16, [](int l) { return l == 0 ? address_t(0) : off; });
  CHECK(lane0.packed);  // a lone lane has no partner to disagree with
  CHECK(lane0.pipe_slots == 2);
  const lds_cost none = cost("sm90", ld, 16, [](int) { return off; });
  CHECK(none.wavefronts == 0);
  CHECK(none.pipe_slots == 0);
  CHECK(none.max_ways == 0);
  CHECK(steady_cycles(arch_named("sm90"), wave(arch_named("sm90"), ld, 16, [](int) { return off; })) == 0);
}

TEST_CASE("misaligned and sub-word accesses count every word they touch") {
  // 8 bytes at 4 + 128 l: words 1-2 of every 128-byte row, so banks 1 and 2 are 16-way in each half warp.
  CHECK(cost("sm90", st, 8, [](int l) { return address_t(4 + 128 * l); }).wavefronts == 32);
  // 2 bytes at byte 3 (lane 0 only): words 0 and 1, one each in banks 0 and 1.
  const arch_table& sm90 = arch_named("sm90");
  const wave_access lone = wave(sm90, ld, 2, [](int l) { return l == 0 ? address_t(3) : off; });
  const lds_detail d = lds_instruction_detail(sm90, lone);
  REQUIRE(d.phases.size() == 1);
  CHECK(d.phases[0].words[0] == std::vector<std::uint64_t>{0});
  CHECK(d.phases[0].words[1] == std::vector<std::uint64_t>{1});
  CHECK(cost("sm90", ld, 1, [](int l) { return address_t(128 * l); }).wavefronts == 32);
}

TEST_CASE("records that break wave_access's invariants are refused with a reason, not priced") {
  const arch_table& sm90 = arch_named("sm90");
  wave_access short_wave{"x", ld, memory_space::lds, 4, {0, 4, 8}};
  CHECK_THROWS_WITH_AS(lds_instruction_cost(sm90, short_wave), "sm90: the access has 3 lane addresses, a wave has 32",
                       std::invalid_argument);
  wave_access w12 = wave(sm90, ld, 12, [](int l) { return address_t(16 * l); });
  CHECK_THROWS_AS(lds_instruction_cost(sm90, w12), std::invalid_argument);
  wave_access huge = wave(sm90, ld, 16, [](int l) { return l == 3 ? address_t(off - 4) : off; });
  CHECK_THROWS_AS(lds_instruction_cost(sm90, huge), std::invalid_argument);
}

TEST_CASE("gfx942 reproduces the MI300X stride sweeps: SQ_LDS_BANK_CONFLICT per 64-read block = 64 x sum(ways - 1)") {
  // R 2.5 (nod-ai docs/empirical-lds/cdna3info.md): lane l reads at l * stride; the strides 256 and 512
  // (same source) saturate like 128.
  struct row {
    int width, stride, conflicts_per_block;
  };
  const row rows[] = {
      {4, 4, 0},     {4, 8, 128},    {4, 16, 384},   {4, 32, 896},    {4, 64, 1920},   {4, 128, 3968},
      {8, 8, 0},     {8, 16, 256},   {8, 32, 768},   {8, 64, 1792},   {8, 128, 3840},  {16, 16, 0},
      {16, 32, 512}, {16, 64, 1536}, {16, 128, 3584}, {4, 256, 3968},  {4, 512, 3968},  {8, 256, 3840},
      {8, 512, 3840}, {16, 256, 3584}, {16, 512, 3584}};
  int matched = 0;
  for (const row& r : rows) {
    const lds_cost c = cost("gfx942", ld, r.width, [&](int l) { return address_t(l) * address_t(r.stride); });
    CHECK_MESSAGE(64 * c.excess == r.conflicts_per_block,
                  "ds_read_b" << 8 * r.width << " stride " << r.stride << ": model " << 64 * c.excess << ", MI300X "
                              << r.conflicts_per_block);
    CHECK(c.ideal == 64 * r.width / 128);  // 2, 4, 8 phases
    matched += 64 * c.excess == r.conflicts_per_block;
  }
  MESSAGE("MI300X stride sweep: " << matched << "/21 rows (15 of R 2.5 + 6 saturated)");
}

TEST_CASE("gfx942 ds_read_b128 groups {0-3,20-23}...: a pattern 2-way under contiguous groups of 8 is conflict-free") {
  // chunk(l) = (l & 3) + 8 * bit2(l) + 4 * bit4(l) (16-byte chunks): lanes 0-3 and 4-7 share banks 0-15,
  // lanes 0-3 and 20-23 do not.
  auto chunked = [](int l) { return address_t(16 * ((l & 3) + 8 * ((l >> 2) & 1) + 4 * ((l >> 4) & 1))); };
  for (const char* a : {"gfx942", "gfx90a"}) {
    CAPTURE(a);
    const lds_cost read = cost(a, ld, 16, chunked);
    CHECK(read.wavefronts == 8);
    CHECK(read.excess == 0);
    const lds_cost write = cost(a, st, 16, chunked);  // ds_write_b128: contiguous groups of 8
    CHECK(write.wavefronts == 16);
    CHECK(write.max_ways == 2);
  }
}

TEST_CASE("gfx950 ds_read over 64 banks: b32 one phase of 64, b64 two of 32, b128 four non-contiguous groups") {
  CHECK(cost("gfx950", ld, 4, [](int l) { return address_t(4 * l); }).wavefronts == 1);
  // 128-byte stride: words 32 l land in banks 0 and 32 only, 32 distinct words each.
  CHECK(cost("gfx950", ld, 4, [](int l) { return address_t(128 * l); }).wavefronts == 32);
  CHECK(cost("gfx950", ld, 8, [](int l) { return address_t(8 * l); }).wavefronts == 2);
  CHECK(cost("gfx950", ld, 16, [](int l) { return address_t(16 * l); }).wavefronts == 4);
  // 32-byte stride: in phase 0, lanes 0-3 and 24-27 share banks (chunks 2l mod 16), as do 12-15 and 20-23.
  const lds_cost s32 = cost("gfx950", ld, 16, [](int l) { return address_t(32 * l); });
  CHECK(s32.wavefronts == 8);
  CHECK(s32.max_ways == 2);
  // Writes (assumed: 128-byte contiguous phases over 64 banks): 2 phases for b32, a 128-byte stride 16-way.
  CHECK(cost("gfx950", st, 4, [](int l) { return address_t(4 * l); }).wavefronts == 2);
  CHECK(cost("gfx950", st, 4, [](int l) { return address_t(128 * l); }).wavefronts == 32);
}

TEST_CASE("gfx90a uses the gfx942 tables (assumed): b64 stride 16 is 2-way in each of 4 phases") {
  const lds_cost c = cost("gfx90a", ld, 8, [](int l) { return address_t(16 * l); });
  CHECK(c.wavefronts == 8);
  CHECK(c.excess == 4);
}

TEST_CASE("AMD steady cycles: max(pipe slots, port cycles / 2) with R 2.2's ports (assumed timing)") {
  const arch_table& a = arch_named("gfx942");
  auto cycles = [&](access_kind k, int width, int stride) {
    return steady_cycles(a, wave(a, k, width, [&](int l) { return address_t(stride) * address_t(l); }));
  };
  CHECK(cycles(ld, 4, 4) == doctest::Approx(2));
  CHECK(cycles(st, 4, 4) == doctest::Approx(4));
  CHECK(cycles(ld, 16, 16) == doctest::Approx(8));
  CHECK(cycles(st, 16, 16) == doctest::Approx(10));
  CHECK(cycles(ld, 4, 128) == doctest::Approx(64));  // 2 phases x 32-way
}

TEST_CASE("the detail agrees with the cost, and the cost keeps its invariants, on random waves of every arch") {
  std::uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  for (const arch_table* a : all_arch_tables())
    for (int round = 0; round < 400; ++round) {
      const int width = 1 << (next() % 5);
      const access_kind k = next() % 2 ? ld : st;
      const int style = static_cast<int>(next() % 4);  // random, paired, misaligned, sparse
      const wave_access w = wave(*a, k, width, [&](int l) -> address_t {
        if (style == 3 && next() % 3 == 0) return off;
        const address_t base = (next() % 256) * address_t(width);
        if (style == 1) return address_t(width) * address_t((l / 2) * 7 % 64);
        if (style == 2) return base + next() % 4;
        return base;
      });
      CAPTURE(a->name);
      CAPTURE(width);
      CAPTURE(style);
      const lds_cost c = lds_instruction_cost(*a, w);
      const lds_detail d = lds_instruction_detail(*a, w);
      CHECK(d.cost.wavefronts == c.wavefronts);
      CHECK(c.excess == c.wavefronts - c.ideal);
      CHECK(c.excess >= 0);
      CHECK(c.ideal <= c.passes);
      CHECK(c.passes <= c.pipe_slots);
      CHECK(c.bank_conflicts >= 0);
      int sum = 0, ideal = 0, ways = 0;
      for (const lds_phase_detail& p : d.phases) {
        std::size_t most = 0;
        for (const auto& words : p.words) most = std::max(most, words.size());
        CHECK(static_cast<int>(most) == p.ways);
        sum += p.ways;
        ideal += !p.lanes.empty();
        ways = std::max(ways, p.ways);
      }
      CHECK(sum == c.wavefronts);
      CHECK(ideal == c.ideal);
      CHECK(ways == c.max_ways);
      if (a->name != "sm90") CHECK(c.passes == c.wavefronts);
    }
}

namespace {

// The probe's row address of lane l under each pattern (gpu/calibrate/ldmatrix_phase_probe.cu's row_address).
address_t probe_row_address(const std::string& pattern, int l) {
  const auto lane = static_cast<address_t>(l);
  if (pattern == "one-row") return 0;
  if (pattern == "distinct-rows") return lane * 16;
  if (pattern == "pairs") return (lane >> 1) * 16;
  if (pattern == "quads") return (lane >> 2) * 16;
  if (pattern == "two-way") return (lane & 3) * 16 + ((lane >> 2) & 1) * 128 + (lane >> 3) * 256;
  REQUIRE_MESSAGE(pattern == "eight-way", "unknown pattern " << pattern);
  return (lane & 7) * 128 + (lane >> 3) * 16;
}

// Replays one phase-probe recording (gpu/calibrate/{ld,st}matrix_phase_probe.cu): each row's instruction
// ("ldmatrix.x4", "stmatrix.x2", "LDS.128", "STS.128") at the pattern's row addresses; the model's counted
// wavefronts must equal Nsight's. The number of rows replayed per instruction family ("ldmatrix", "stmatrix", "LDS",
// "STS").
std::map<std::string, int> replay_phase_rows(const std::string& path) {
  const arch_table& sm90 = arch_named("sm90");
  std::ifstream f(path);
  REQUIRE_MESSAGE(f.good(), path << " is missing (run from the repository root)");
  std::map<std::string, int> rows;
  for (std::string line; std::getline(f, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("instruction\t", 0) == 0) continue;
    std::istringstream fields(line);
    std::string instruction, pattern;
    int instructions = 0, wavefronts = 0;
    fields >> instruction >> pattern >> instructions >> wavefronts;
    CAPTURE(path);
    CAPTURE(line);
    REQUIRE(instructions == 1);
    const bool matrix = instruction.rfind("ldmatrix.x", 0) == 0 || instruction.rfind("stmatrix.x", 0) == 0;
    REQUIRE_MESSAGE((matrix || instruction == "LDS.128" || instruction == "STS.128"), "unknown instruction " << instruction);
    const access_kind kind = instruction[0] == 's' || instruction[0] == 'S' ? st : ld;
    const int lanes = matrix ? 8 * std::stoi(instruction.substr(10)) : 32;
    wave_access w = wave(sm90, kind, 16, [&](int l) { return l < lanes ? probe_row_address(pattern, l) : no_address; });
    w.matrix_access = matrix;
    CHECK(lds_instruction_cost(sm90, w).wavefronts == wavefronts);
    ++rows[matrix ? instruction.substr(0, 8) : instruction.substr(0, 3)];
  }
  return rows;
}

bool file_exists(const char* path) { return std::ifstream(path).good(); }

}  // namespace

TEST_CASE("sm90 ldmatrix: each 8x8 matrix is its own phase and never merges, as an H200 counts it; LDS.128 pairs") {
  // data/calibration/h200-ldmatrix-phases.tsv: one instruction per launch, Nsight's wavefronts. Law: the model's
  // counted wavefronts equal the H200's on every row; ldmatrix.xN's address-giving lanes are 0 .. 8N-1.
  const std::map<std::string, int> rows = replay_phase_rows("data/calibration/h200-ldmatrix-phases.tsv");
  CHECK(rows.at("ldmatrix") == 18);
  CHECK(rows.at("LDS") == 6);
  CHECK(rows.size() == 2);
}

TEST_CASE("sm90 stmatrix: priced per 8x8 matrix phase, never merged; the H200's rows replayed once recorded") {
  const arch_table& sm90 = arch_named("sm90");
  // The law as the model states it, whatever is recorded: an stmatrix.xN costs what STS.128 at its N x 8 row
  // addresses costs (stores never merge), and the same phases as ldmatrix.xN: one row for all lanes N, an 8-way
  // conflict 8 N.
  for (int n : {1, 2, 4})
    for (const char* pattern : {"one-row", "distinct-rows", "pairs", "quads", "two-way", "eight-way"}) {
      CAPTURE(n);
      CAPTURE(pattern);
      auto rows = [&](int l) { return l < 8 * n ? probe_row_address(pattern, l) : no_address; };
      wave_access stsm = wave(sm90, st, 16, rows), ldsm = wave(sm90, ld, 16, rows);
      stsm.matrix_access = ldsm.matrix_access = true;
      const lds_cost c = lds_instruction_cost(sm90, stsm);
      CHECK(c.wavefronts == lds_instruction_cost(sm90, wave(sm90, st, 16, rows)).wavefronts);
      CHECK(c.wavefronts == lds_instruction_cost(sm90, ldsm).wavefronts);
      CHECK(c.ideal == n);
      const std::string p = pattern;
      CHECK(c.wavefronts == (p == "two-way" ? 2 * n : p == "eight-way" ? 8 * n : n));
    }
  // The measurement: data/calibration/h200-stmatrix-phases.tsv (gpu/calibrate/stmatrix_phase_probe.cu; data/
  // calibration/README.md says how). Until it exists the table says the store side is assumed; once it does, every
  // row must equal the model and the table must say measured.
  const std::string evidence(sm90.matrix_phases.evidence[1]);
  CAPTURE(evidence);
  if (!file_exists("data/calibration/h200-stmatrix-phases.tsv")) {
    MESSAGE("data/calibration/h200-stmatrix-phases.tsv not recorded yet: stmatrix rows skipped");
    CHECK(evidence.find("assumed, mirrors ldmatrix's measurement") == 0);
    return;
  }
  const std::map<std::string, int> rows = replay_phase_rows("data/calibration/h200-stmatrix-phases.tsv");
  CHECK(rows.count("stmatrix") == 1);
  if (rows.count("stmatrix")) CHECK(rows.at("stmatrix") == 18);
  CHECK(evidence.find("measured") == 0);
}
