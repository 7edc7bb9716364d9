// tilesim/examples/gemm/gemm.test.cpp: the 32x32x8 tile-window GEMM: C == Eigen, and what each layout costs.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "examples/gemm/gemm_variants.hpp"
#include "sim/runs/gemm_tile_run.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;
using examples::gemm_case;

namespace {

// The report line of `label` (fails the test when the program never issued it).
const sim::instruction_report& line(const sim::program_report& r, const std::string& label) {
  for (const sim::instruction_report& i : r.instructions)
    if (i.label == label) return i;
  FAIL("no instruction labelled '" << label << "'");
  throw;
}

}  // namespace

TEST_CASE("gemm example: C == A * B^T (Eigen, fp64) for every layout and arch, and the run is clean") {
  const std::vector<gemm_case> cases = examples::gemm_cases();
  REQUIRE(cases.size() == 6);
  for (const gemm_case& c : cases) {
    CAPTURE(c.name);
    CAPTURE(c.arch);
    const examples::outcome o = examples::run_gemm_case(c);
    CHECK(o.run.clean());
    CHECK_MESSAGE(o.passed, o.check);
    CHECK(o.check == "C == Eigen (max |err| 0)");  // small-integer inputs: every partial sum is exact
  }
}

TEST_CASE("gemm example: the Eigen check names the first element that is off, and catches NaN") {
  programs::gemm_params p = examples::gemm_32x32x8(programs::gemm_lds_layout::ck_xor);
  const std::vector<float> a = programs::gemm_input(p.m * p.k, 1), b = programs::gemm_input(p.n * p.k, 2);
  std::vector<float> c = programs::reference_gemm(p, a, b);
  CHECK(examples::check_gemm_against_eigen(p, a, b, c).passed);
  c[static_cast<std::size_t>(3 * p.n + 7)] += 1;
  examples::gemm_check bad = examples::check_gemm_against_eigen(p, a, b, c);
  CHECK_FALSE(bad.passed);
  CHECK(bad.text.rfind("C(3, 7) = ", 0) == 0);
  c[static_cast<std::size_t>(3 * p.n + 7)] = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(examples::check_gemm_against_eigen(p, a, b, c).passed);
}

// LDS wavefronts (actual / ideal) of each labelled instruction, summed over the four workgroups' eight steps.
// Worked by hand for the A fragment read ("A lds load", 16 bytes per lane, lanes 0-7 on rows 0-7 of one K
// vector, lanes with equal lane % 8 on the same row): a row of the 32 x 8-float A tile is 32 bytes.
//   gfx942 row-major: ds_read_b128 phase {0-3, 20-23} reads rows 0-3 and 4-7; row r starts at bank 8r mod 32,
//     so rows r and r+4 share 4 banks: 16 wavefronts per instruction, ideal 8 (1 KiB / 128 B); 256
//     instructions -> 4096 / 2048.
//   sm90 row-major: a quarter warp (8 lanes x 16 B) reads rows 0-7, rows r and r+4 are 128 B apart: 2-way,
//     8 wavefronts per instruction, ideal 4; 512 instructions -> 4096 / 2048.
//   padded (a 16-byte pad: rows 48 B apart) and ck-xor spread those rows over all banks: ideal.
// The padded layout pays instead on the stores: the write pattern puts two lanes on each row (8 floats per
// row, 4 per lane), so lanes 0-7 store rows 0-3 at 48 r + {0, 16} bytes, 16-byte bank groups 0 1 3 4 6 7 9 10,
// i.e. groups 1 and 9 (= 1 mod 8) collide: 2-way.
TEST_CASE("gemm example: LDS wavefronts per instruction and layout (actual / ideal)") {
  struct expected {
    long long a_store, a_store_ideal, a_load, a_load_ideal, b_load, b_load_ideal;
  };
  const std::map<std::pair<std::string, std::string>, expected> table = {
      {{"row-major, 32x32x8", "sm90"}, {256, 256, 4096, 2048, 1024, 1024}},
      {{"padded, 32x32x8", "sm90"}, {512, 256, 2048, 2048, 1024, 1024}},
      {{"ck-xor, 32x32x8", "sm90"}, {256, 256, 2048, 2048, 1024, 1024}},
      {{"row-major, 32x32x8", "gfx942"}, {256, 256, 4096, 2048, 2048, 2048}},
      {{"padded, 32x32x8", "gfx942"}, {512, 256, 2048, 2048, 2048, 2048}},
      {{"ck-xor, 32x32x8", "gfx942"}, {256, 256, 2048, 2048, 2048, 2048}},
  };
  for (const gemm_case& c : examples::gemm_cases()) {
    CAPTURE(c.name);
    CAPTURE(c.arch);
    const auto want = table.find({c.name, c.arch});
    REQUIRE(want != table.end());
    const sim::program_report r = sim::make_program_report(sim::arch_named(c.arch), examples::run_gemm_case(c).run);
    CHECK(line(r, "A lds store").wavefronts == want->second.a_store);
    CHECK(line(r, "A lds store").ideal == want->second.a_store_ideal);
    CHECK(line(r, "B lds store").wavefronts == want->second.a_store);  // B's tile is A's shape
    CHECK(line(r, "A lds load").wavefronts == want->second.a_load);
    CHECK(line(r, "A lds load").ideal == want->second.a_load_ideal);
    CHECK(line(r, "B lds load").wavefronts == want->second.b_load);
    CHECK(line(r, "B lds load").ideal == want->second.b_load_ideal);
  }
}

// Global sectors: A and B are read in whole 32-byte sectors (1024 each, ideal); C's 4-byte stores cover 4
// consecutive columns of 8 rows per sm90 instruction (8 sectors for 128 bytes: 1024 vs ideal 512), and 8
// columns of 8 rows per gfx942 instruction (8 sectors for 256 bytes: ideal).
TEST_CASE("gemm example: global sectors of the C store show the warp tile's shape") {
  for (const gemm_case& c : examples::gemm_cases()) {
    CAPTURE(c.name);
    CAPTURE(c.arch);
    const sim::program_report r = sim::make_program_report(sim::arch_named(c.arch), examples::run_gemm_case(c).run);
    CHECK(line(r, "A global load").sectors == 1024);
    CHECK(line(r, "A global load").ideal_sectors == 1024);
    CHECK(line(r, "C global store").sectors == (c.arch == "sm90" ? 1024 : 512));
    CHECK(line(r, "C global store").ideal_sectors == 512);
  }
}
