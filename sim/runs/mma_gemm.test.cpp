// Laws of mma_gemm.hpp: C equals the host reference exactly for every LDS layout (and both CK orders); the
// ldmatrix reads hand each lane exactly the elements mma.sync's encodings name; on sm90 row_major's ldmatrix
// is 4-way and padded / ck_xor 2025 are conflict-free; the constant (kernel) form makes the same accesses as
// the run-time form; splits that are not exact stop the run naming the values.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/engine/same_accesses.test.hpp"
#include "sim/runs/mma_gemm_run.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;
using namespace tilesim::programs;

namespace {

struct mma_case {
  mma_gemm_params params;
  std::vector<std::uint16_t> a, b;
  sim::run_result result;
};

mma_case run_case(const mma_gemm_params& p, int block) {
  std::vector<std::uint16_t> a = mma_gemm_input(p.m * p.k, 1), b = mma_gemm_input(p.n * p.k, 2);
  sim::run_result r = run_mma_gemm(mma_gemm_launch(p, block), p, a, b);
  return {p, std::move(a), std::move(b), std::move(r)};
}

mma_gemm_params with_layout(gemm_lds_layout layout, ck_lds_order order = ck_lds_order::l_k0_2025) {
  mma_gemm_params p;
  p.k = 64;  // 2 K steps
  p.layout = layout;
  p.ck_order = order;
  return p;
}

}  // namespace

TEST_CASE("mma gemm: mma_gemm_input is gemm_input as fp16 bits; the split of 128 x 128 x 32 on 8 warps is 2 x 4 of 4 x 4 tiles") {
  CHECK(mma_gemm_input(2, 0) == std::vector<std::uint16_t>{0xc000, 0x4000});
  const mma_gemm_grid g = make_mma_gemm_grid(mma_gemm_params{}, 256, 32);
  CHECK(g.m_warps == 2);
  CHECK(g.n_warps == 4);
  CHECK(g.m_iter == 4);
  CHECK(g.n_iter == 4);
  CHECK(g.k_iter == 2);
  CHECK(mma_gemm_step_mmas(g) == 32);
  CHECK(mma_gemm_workgroups(mma_gemm_params{}) == 4);
  // Worked example: lane 5 of warp 1 owns C(1, 32 + 2) at (mi, ni, h, e) = 0 and C(16*3 + 8 + 1, 32 + 8*3 + 3) last.
  const tile_distribution_encoding c = make_mma_gemm_c_encoding(g);
  CHECK(c.x_of({1, 5}, {0, 0, 0, 0})[0] == 1);
  CHECK(c.x_of({1, 5}, {0, 0, 0, 0})[1] == 34);
  CHECK(c.x_of({1, 5}, {3, 3, 1, 1})[0] == 57);
  CHECK(c.x_of({1, 5}, {3, 3, 1, 1})[1] == 59);
}

TEST_CASE("mma gemm: ldmatrix.x4 at the program's addresses gives each lane mma.sync's A and B fragment elements") {
  // Law: the element an address lane's row holds at column j, handed out by ldmatrix_source, is the one the
  // encodings (spec/distribution/warp_gemm_encodings.hpp) give that lane's register half.
  const tile_distribution_encoding a = make_mma_m16n8k16_a_encoding(), b = make_mma_m16n8k16_b_encoding();
  for (int lane = 0; lane < 32; ++lane)
    for (int reg = 0; reg < 4; ++reg)
      for (int half = 0; half < 2; ++half) {
        const ldmatrix_element e = ldmatrix_source(lane, reg, half, false);
        const auto want_a = a.x_of({lane, 0}, a.y_of(2 * reg + half));
        CHECK(ldmatrix_a_row(e.row_lane) == want_a[0]);
        CHECK(ldmatrix_a_col(e.row_lane) + e.element == want_a[1]);
        // B: registers 0, 1 are the first n8 tile's b0, b1, registers 2, 3 the second's (rows 8..15).
        const auto want_b = b.x_of({lane, 0}, b.y_of(2 * (reg % 2) + half));
        CHECK(ldmatrix_b_row(e.row_lane) == want_b[0] + 8 * (reg / 2));
        CHECK(ldmatrix_b_col(e.row_lane) + e.element == want_b[1]);
      }
}

TEST_CASE("mma gemm: the spec/ mma encodings equal the engine's fragment position maps (kernel/model/mma.hpp)") {
  const tile_distribution_encoding a = make_mma_m16n8k16_a_encoding(), b = make_mma_m16n8k16_b_encoding(),
                                   c = make_mma_m16n8k16_c_encoding();
  for (int lane = 0; lane < 32; ++lane)
    for (int d = 0; d < 8; ++d) {
      const auto x = a.x_of({lane, 0}, a.y_of(d));
      CHECK(mma_a_position(lane, d / 2, d % 2).row == x[0]);
      CHECK(mma_a_position(lane, d / 2, d % 2).col == x[1]);
      if (d >= 4) continue;
      const auto xb = b.x_of({lane, 0}, b.y_of(d)), xc = c.x_of({lane, 0}, c.y_of(d));
      CHECK(mma_b_position(lane, d / 2, d % 2).col == xb[0]);  // (k, n) vs the encoding's (n, k)
      CHECK(mma_b_position(lane, d / 2, d % 2).row == xb[1]);
      CHECK(mma_c_position(lane, d).row == xc[0]);
      CHECK(mma_c_position(lane, d).col == xc[1]);
    }
}

TEST_CASE("mma gemm: C == A * B^T exactly for row_major, padded, ck_xor 2025 and 2024 (256 x 256 x 64, 4 workgroups)") {
  for (const mma_gemm_params& p :
       {with_layout(gemm_lds_layout::row_major), with_layout(gemm_lds_layout::padded), with_layout(gemm_lds_layout::ck_xor),
        with_layout(gemm_lds_layout::ck_xor, ck_lds_order::k0_l_2024)}) {
    CAPTURE(static_cast<int>(p.layout));
    const mma_case c = run_case(p, 256);
    CHECK(c.result.clean());
    CHECK(c.result.memory.get<float>(2) == reference_mma_gemm(p, c.a, c.b));
  }
}

TEST_CASE("mma gemm: a 64 x 64 x 32 block tile on 4 warps (2 x 2 of 2 x 4 mma tiles) is exact too") {
  mma_gemm_params p;
  p.m = p.n = 128;
  p.k = 96;
  p.m_per_block = p.n_per_block = 64;
  const mma_gemm_grid g = make_mma_gemm_grid(p, 128, 32);
  CHECK(g.m_iter == 2);
  CHECK(g.n_iter == 4);
  const mma_case c = run_case(p, 128);
  CHECK(c.result.memory.get<float>(2) == reference_mma_gemm(p, c.a, c.b));
}

TEST_CASE("mma gemm: on sm90 row_major's ldmatrix is 4-way (16 wavefronts per x4, ideal 4); padded and ck_xor 2025 "
          "conflict-free; padded pays on its row-wise LDS stores (2-way)") {
  struct expected {
    gemm_lds_layout layout;
    long long per_instruction;  // wavefronts of one ldmatrix.x4
    int ways;
    long long store_factor;     // LDS store wavefronts / ideal
  };
  // An ldmatrix phase is 8 address lanes, rows r..r+7 at one K: 64-byte rows put rows r and r+2 on the same
  // 4 banks (4-way); padded rows are 80 bytes (8 distinct 16-byte bank groups); ck_xor 2025 XORs the 16-byte
  // chunk with the row pair (spec/layouts/ck_lds_xor.hpp's worked example). The stores write two whole rows per
  // 8-lane phase: 80-byte rows make the second overlap the first's banks 0-3 (2-way), 64-byte rows do not.
  for (const expected& t : {expected{gemm_lds_layout::row_major, 16, 4, 1}, expected{gemm_lds_layout::padded, 4, 1, 2},
                            expected{gemm_lds_layout::ck_xor, 4, 1, 1}}) {
    CAPTURE(static_cast<int>(t.layout));
    const mma_case c = run_case(with_layout(t.layout), 256);
    const sim::program_report r = sim::make_program_report(sim::arch_named("sm90"), c.result);
    int checked = 0;
    for (const sim::instruction_report& i : r.instructions) {
      if (i.label == "A ldmatrix" || i.label == "B ldmatrix") {
        CAPTURE(i.label);
        CHECK(i.wavefronts == t.per_instruction * i.instances);
        CHECK(i.ideal == 4 * i.instances);
        CHECK(i.max_ways == t.ways);
        CHECK(i.matrix_access);  // what Nsight Compute counts as op_ldsm
        ++checked;
      } else if (i.label == "A lds store" || i.label == "B lds store") {
        CHECK_FALSE(i.matrix_access);
        CHECK(i.wavefronts == t.store_factor * i.ideal);
      }
    }
    CHECK(checked == 2);
  }
}

TEST_CASE("mma gemm: the compiled form (constant<mma_gemm_shape>) makes the same accesses and C as the run-time form") {
  static constexpr mma_gemm_params p = [] {
    mma_gemm_params q;
    q.k = 64;
    return q;
  }();
  const std::vector<std::uint16_t> a = mma_gemm_input(p.m * p.k, 1), b = mma_gemm_input(p.n * p.k, 2);
  auto run_with = [&](auto program) {
    sim::global_memory mem;
    mem.add<std::uint16_t>("a", a);
    mem.add<std::uint16_t>("b", b);
    mem.add<float>("c", p.m * p.n, 0.0f);
    return sim::run(mma_gemm_launch(p, 256), std::move(mem), program);
  };
  const sim::run_result dynamic = run_with([](sim::thread_context& ctx) { mma_gemm(ctx, p); });
  const sim::run_result fixed =
      run_with([](sim::thread_context& ctx) { mma_gemm(ctx, constant<mma_gemm_shape{p, 256, 32}>{}); });
  sim::testing::check_same_accesses(dynamic, fixed);
  CHECK(dynamic.memory.get<float>(2) == fixed.memory.get<float>(2));
}

TEST_CASE("mma gemm: a split that is not exact stops the run naming the values; wave 64 is refused (mma.sync is sm90's)") {
  CHECK_THROWS_WITH_AS(make_mma_gemm_grid(mma_gemm_params{}, 256, 64),
                       doctest::Contains("(warp size = 64, mma.sync's warp = 32)"), spec_error);
  mma_gemm_params p;
  p.k_per_block = 24;
  p.k = 48;
  CHECK_THROWS_WITH_AS(make_mma_gemm_grid(p, 256, 32), doctest::Contains("(K per block = 24, mma K = 16)"), spec_error);
  mma_gemm_params q;
  q.n_per_block = 96;  // 4 N warps need multiples of 64 columns
  q.n = 192;
  try {
    (void)run_case(q, 256);
    FAIL("no run_error");
  } catch (const sim::run_error& e) {
    CHECK(e.why == sim::run_error::reason::program_threw);
    CHECK(std::string(e.what()).find("(N per block = 96, N warps * 16 = 64)") != std::string::npos);
  }
  sim::launch two = mma_gemm_launch(mma_gemm_params{}, 256);
  two.grid = 2;
  CHECK_THROWS_WITH_AS(run_mma_gemm(two, mma_gemm_params{}, mma_gemm_input(256 * 256, 1), mma_gemm_input(256 * 256, 2)),
                       "mma gemm: the grid must be one workgroup per block tile (grid = 2, tiles = 4)",
                       std::invalid_argument);
}
