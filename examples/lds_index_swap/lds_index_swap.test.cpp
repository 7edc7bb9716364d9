// Laws of the LDS index-swapping example: every case copies exactly; the LDS wavefronts of the store and the
// load, priced on the case's arch, are the numbers the bank arithmetic of the header's essay gives.
#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "examples/lds_index_swap/lds_index_swap_variants.hpp"
#include "sim/models/lds_banks.hpp"
#include "sim/runs/copy_run.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;
using namespace tilesim::examples;

namespace {

// The case named `name` on `arch`.
const copy_case& find_case(const std::string& name, const std::string& arch) {
  static const std::vector<copy_case> cases = lds_index_swap_cases();
  return find_copy_case(cases, name, arch);
}

// Runs the case and prices its LDS store and load on its arch.
copy_lds_cost price(const copy_case& c, sim::run_result* keep = nullptr) { return price_copy_case(c, keep); }

// The first "lds load" instruction of wave 0.
sim::wave_access first_lds_load(const sim::run_result& r) {
  for (const sim::wave_instruction& i : r.workgroups[0].waves[0].instructions)
    if (i.access.label == "lds load") return i.access;
  FAIL("no lds load");
  return {};
}

}  // namespace

TEST_CASE("lds-index-swap: 22 cases, unique (name, arch), one workgroup of 256 threads, CK's 128 x 32 fp16 A tile; "
          "the ldmatrix.x4 cases read through ldmatrix, the others with per-lane 16-byte loads") {
  const std::vector<lds_index_swap_case> cases = lds_index_swap_cases();
  CHECK(cases.size() == 22);
  std::set<std::pair<std::string, std::string>> seen;
  for (const lds_index_swap_case& c : cases) {
    CAPTURE(c.name);
    CHECK(seen.insert({c.name, c.arch}).second);
    CHECK(c.block == 256);
    CHECK(c.params.rows == 128);
    CHECK(c.params.cols == 32);
    CHECK(c.params.vector == 8);
    const bool ldsm = c.name.find("ldmatrix.x4") != std::string::npos;
    CHECK(c.params.read == (ldsm ? programs::copy_read_order::ldmatrix_operand : programs::copy_read_order::gemm_operand));
    CHECK((!ldsm || c.arch == "sm90"));
    CHECK(c.params.lane_rows == (c.arch == "sm90" ? 16 : 32));
  }
  CHECK(lds_index_swap_variants().size() == cases.size());
}

TEST_CASE("lds-index-swap: every variant passes with output == input") {
  for (const variant& v : lds_index_swap_variants()) {
    CAPTURE(v.name);
    CAPTURE(v.arch);
    CHECK(v.example == "lds-index-swap");
    const outcome o = v.run();
    CHECK(o.passed);
    CHECK(o.check == "output == input");
    CHECK(o.run.clean());
  }
}

TEST_CASE("lds-index-swap: MLdsLayer is 2 on 32 banks and 4 on gfx950's 64 (CK's max(1, banks*4/KPerBlock/2))") {
  CHECK(ck_lds_xor_params{.m_per_block = 128, .k_per_block = 32, .k_pack = 8, .banks = 32}.layers() == 2);
  CHECK(ck_lds_xor_params{.m_per_block = 128, .k_per_block = 32, .k_pack = 8, .banks = 64}.layers() == 4);
  CHECK(find_case("ck-xor 2025, mfma read", "gfx950").params.ck_banks == 64);
  CHECK(find_case("ck-xor 2025 L=2, mfma read", "gfx950").params.ck_banks == 32);
}

TEST_CASE("lds-index-swap gfx942, hand-derived: the first ds_read_b128 phase (lanes 0-3, 20-23 = rows 0-3, 20-23, k0 = 0) hits bank quads 0 4 0 4 0 4 0 4 / 0 1 1 0 2 3 3 2 / 0 4 1 5 2 6 3 7") {
  // Quad of a 16-byte vector at byte address a: (a / 16) mod 8 on 32 banks (4 banks of 4 bytes per quad).
  auto quads = [](const std::string& name) {
    sim::run_result r;
    (void)price(find_case(name, "gfx942"), &r);
    const sim::wave_access a = first_lds_load(r);
    std::vector<int> q;
    for (int lane : {0, 1, 2, 3, 20, 21, 22, 23}) q.push_back(static_cast<int>(a.address[lane] / 16 % 8));
    const sim::lds_detail d = sim::lds_instruction_detail(sim::arch_named("gfx942"), a);
    CHECK(d.phases[0].lanes == std::vector<int>{0, 1, 2, 3, 20, 21, 22, 23});
    return std::make_pair(q, d.phases[0].ways);
  };
  // row-major: quad = (4m + k0) mod 8: even rows 0, odd rows 4; four lanes per quad.
  CHECK(quads("row-major, mfma read") == std::make_pair(std::vector<int>{0, 4, 0, 4, 0, 4, 0, 4}, 4));
  // 2024: s = 2*k0 + l = l, XOR m' = m/2: rows 0,1 -> 0,1; rows 2,3 (m' 1) -> 1,0; rows 20-23 (m' 10, 11) -> 2 3 3 2.
  CHECK(quads("ck-xor 2024, mfma read") == std::make_pair(std::vector<int>{0, 1, 1, 0, 2, 3, 3, 2}, 2));
  // 2025: s = 4l + k0 = 4l, XOR m': rows 0-3 -> 0 4 1 5; rows 20-23 (m' mod 8 = 2, 3) -> 2 6 3 7.
  CHECK(quads("ck-xor 2025, mfma read") == std::make_pair(std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7}, 1));
  // padded: 80-byte rows, quad = 5m mod 8: 0 5 2 7 | 100, 105, 110, 115 mod 8 = 4 1 6 3.
  CHECK(quads("padded, mfma read") == std::make_pair(std::vector<int>{0, 5, 2, 7, 4, 1, 6, 3}, 1));
}

TEST_CASE("lds-index-swap: LDS wavefronts actual / ideal of the store and the load, per case, as the bank arithmetic predicts") {
  // Ideal counts. Store: 128 x 32 / 256 threads = 16 elements = 2 vectors per thread = 2 store instructions
  // per wave. gfx9: ds_write_b128 = 8 phases of 8 lanes, 4 waves x 2 x 8 = 64; sm90: STS.128 = 4 phases of
  // 8 lanes, 8 warps x 2 x 4 = 64. Load: the gemm_operand read covers K16 per instruction, K = 32: 2 loads
  // per wave. gfx90a/gfx942 ds_read_b128 8 phases: 4 x 2 x 8 = 64; gfx950 4 phases of 16: 4 x 2 x 4 = 32;
  // sm90 LDS.128 (ldmatrix.x4 addressing) 4 phases: 8 x 2 x 4 = 64. Actual = ideal x the ways of every phase.
  struct expected {
    const char* name;
    const char* arch;
    long long store, store_ideal, load, load_ideal;
  };
  const expected table[] = {
      // gfx90a uses gfx942's phase tables (assumed in sim/arch/gfx90a.cpp), so both rows agree.
      // row-major: store phases = 2 rows x 64 B = 128 contiguous bytes (1-way); load 4-way (see the phase test).
      {"row-major, mfma read", "gfx90a", 64, 64, 256, 64},
      // padded: a store phase spans rows 2j, 2j+1 = 16-byte chunks 10j + {0..3} and 10j + {5..8}: chunk
      // 10j + 8 shares its quad with 10j (2-way); the load's quads 5m + k0 are all distinct (1-way).
      {"padded, mfma read", "gfx90a", 128, 64, 64, 64},
      // 2024: stores: rows 2j, 2j+1 share m', s = 2k0 + l takes all 8 values (1-way); loads 2-way.
      {"ck-xor 2024, mfma read", "gfx90a", 64, 64, 128, 64},
      {"ck-xor 2025, mfma read", "gfx90a", 64, 64, 64, 64},
      {"row-major, mfma read", "gfx942", 64, 64, 256, 64},
      {"padded, mfma read", "gfx942", 128, 64, 64, 64},
      {"ck-xor 2024, mfma read", "gfx942", 64, 64, 128, 64},  // reference §5.3: 2-way
      {"ck-xor 2025, mfma read", "gfx942", 64, 64, 64, 64},   // reference §5.3: 1-way
      // gfx950: 64 banks = 16 quads; a load phase takes rows {0-3, 12-15, 20-23, 24-27} (and shifts).
      // row-major: quad (4m + k0) mod 16 repeats every 4 rows: 4 rows per quad, 4-way.
      {"row-major, mfma read", "gfx950", 64, 64, 128, 32},
      // padded: quad (5m + k0) mod 16 is distinct over the 16 rows of a phase; stores: 2 rows x 80 B fit in
      // 256 bytes of banks (1-way).
      {"padded, mfma read", "gfx950", 64, 64, 32, 32},
      // L = 4, 2024: s = 4k0 + l XOR m' (m' = m/4): rows 0-3 (m' 0) -> 0 1 2 3, rows 12-15 (m' 3) -> 3 2 1 0:
      // every quad twice, 2-way.
      {"ck-xor 2024, mfma read", "gfx950", 64, 64, 64, 32},
      // L = 4, 2025: s = 4l + k0 XOR m': rows 0-3 -> 0 4 8 12, 12-15 -> 3 7 11 15, 20-23 -> 5 1 13 9,
      // 24-27 -> 6 2 14 10: 16 distinct quads, 1-way.
      {"ck-xor 2025, mfma read", "gfx950", 64, 64, 32, 32},
      // L = 2 on 64 banks: offset/8 = s + 8m', quad = s + 8*(m' mod 2). 2024 rows 0-3 -> 0 1 9 8, 12-15 ->
      // 6 7 14 15, 20-23 -> 2 3 11 10, 24-27 -> 4 5 13 12: 1-way. 2025: rows 12-15 -> 6 2 15 11 and rows
      // 20-23 -> 2 6 11 15 collide: 2-way.
      {"ck-xor 2024 L=2, mfma read", "gfx950", 64, 64, 32, 32},
      {"ck-xor 2025 L=2, mfma read", "gfx950", 64, 64, 64, 32},
      // sm90: a load phase is lanes 8i..8i+7 = 8 consecutive rows at one k0 (one ldmatrix 8x8 matrix).
      // row-major: quad (4m + k0) mod 8 = 2 values, 4-way. padded: 5m mod 8 over 8 rows, 1-way.
      // 2024: l ^ m' over rows 0-7 = 0 1 1 0 2 3 3 2, 2-way. 2025: 4l ^ m' = 0 4 1 5 2 6 3 7, 1-way.
      // Stores: 8 lanes = rows 2j, 2j+1 as on gfx9 (padded 2-way).
      {"row-major, LDS.128 at ldmatrix rows", "sm90", 64, 64, 256, 64},
      {"padded, LDS.128 at ldmatrix rows", "sm90", 128, 64, 64, 64},
      {"ck-xor 2024, LDS.128 at ldmatrix rows", "sm90", 64, 64, 128, 64},
      {"ck-xor 2025, LDS.128 at ldmatrix rows", "sm90", 64, 64, 64, 64},
      // ldmatrix.x4 itself: a phase is one 8x8 matrix, 8 rows of 16 bytes: the same rows as above, so the
      // same wavefronts (now op_ldsm).
      {"row-major, ldmatrix.x4", "sm90", 64, 64, 256, 64},
      {"padded, ldmatrix.x4", "sm90", 128, 64, 64, 64},
      {"ck-xor 2024, ldmatrix.x4", "sm90", 64, 64, 128, 64},
      {"ck-xor 2025, ldmatrix.x4", "sm90", 64, 64, 64, 64},
  };
  CHECK(std::size(table) == lds_index_swap_cases().size());
  for (const expected& e : table) {
    CAPTURE(e.name);
    CAPTURE(e.arch);
    const copy_lds_cost n = price(find_case(e.name, e.arch));
    CHECK(n.store == e.store);
    CHECK(n.store_ideal == e.store_ideal);
    CHECK(n.load == e.load);
    CHECK(n.load_ideal == e.load_ideal);
    // Every phase of an instruction conflicts alike here, so the worst phase's ways = actual / ideal.
    CHECK(n.store_ways == e.store / e.store_ideal);
    CHECK(n.load_ways == e.load / e.load_ideal);
  }
}
