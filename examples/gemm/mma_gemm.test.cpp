// tilesim/examples/gemm/mma_gemm.test.cpp: the matrix-core GEMM example: C == Eigen, and what each layout costs.
#include <doctest/doctest.h>

#include <string>

#include "examples/gemm/mma_gemm_variants.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;

TEST_CASE("mma gemm example: C == A * B^T (Eigen, fp64) exactly for every layout, and every run is clean") {
  const std::vector<examples::mma_gemm_case> cases = examples::mma_gemm_cases();
  REQUIRE(cases.size() == 4);
  for (const examples::mma_gemm_case& c : cases) {
    CAPTURE(c.name);
    const examples::outcome o = examples::run_mma_gemm_case(c);
    CHECK(o.run.clean());
    CHECK_MESSAGE(o.passed, o.check);
    CHECK(o.check == "C == Eigen (max |err| 0)");
  }
}

TEST_CASE("mma gemm example: ldmatrix wavefronts per layout on sm90: row-major 4-way, CK 2024 2-way, padded and CK 2025 ideal") {
  struct expected {
    const char* name;
    long long per_ldmatrix;  // wavefronts of one ldmatrix.x4 (ideal 4)
  };
  const expected want[] = {{"mma.sync row-major, 128x128x32", 16},
                           {"mma.sync padded, 128x128x32", 4},
                           {"mma.sync ck-xor 2024, 128x128x32", 8},
                           {"mma.sync ck-xor 2025, 128x128x32", 4}};
  const std::vector<examples::mma_gemm_case> cases = examples::mma_gemm_cases();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(cases[i].name);
    REQUIRE(cases[i].name == want[i].name);
    const sim::program_report r = sim::make_program_report(sim::arch_named("sm90"), examples::run_mma_gemm_case(cases[i]).run);
    int seen = 0;
    for (const sim::instruction_report& line : r.instructions)
      if (line.label == "A ldmatrix" || line.label == "B ldmatrix") {
        CAPTURE(line.label);
        CHECK(line.ideal == 4 * line.instances);
        CHECK(line.wavefronts == want[i].per_ldmatrix * line.instances);
        ++seen;
      }
    CHECK(seen == 2);
  }
}

TEST_CASE("mma gemm example: halves_to_floats is exact") {
  CHECK(examples::halves_to_floats({0x3c00, 0xc000, 0x0000, 0x3800}) == std::vector<float>{1.0f, -2.0f, 0.0f, 0.5f});
}
