// Laws of stmatrix (kernel/model/stmatrix.hpp) through kernel/stmatrix_write/stmatrix_write.hpp: every register half
// lands at the row and element PTX names, plain and transposed, for x1, x2 and x4; stmatrix then ldmatrix of the
// same layout gives the registers back; the row stores are one LDS store instruction per stmatrix, marked as a
// matrix access and priced per 8x8 matrix phase.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernel/stmatrix_write/stmatrix_write.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;

namespace {

// Lane t's register i in workgroup b: distinct 16-bit halves everywhere (low 2k, high 2k + 1 for k = (b*32+t)*4+i).
std::uint32_t input_register(int b, int t, int i) {
  const auto k = static_cast<std::uint32_t>((b * 32 + t) * 4 + i);
  return (2 * k) | (2 * k + 1) << 16;
}

sim::run_result run_write(int grid, int count, bool trans, programs::read_back read, int wave = 32,
                          std::vector<std::uint32_t> in = {}) {
  if (in.empty())
    for (int b = 0; b < grid; ++b)
      for (int t = 0; t < 32; ++t)
        for (int i = 0; i < 4; ++i) in.push_back(input_register(b, t, i));
  sim::global_memory mem;
  mem.add<std::uint32_t>("in", in);
  mem.add<std::uint32_t>("out", static_cast<index_t>(grid) * 128, 0xFFFFFFFFu);
  programs::stmatrix_write_params p;
  p.count = count;
  p.trans = trans;
  p.read = read;
  return sim::run(sim::launch{.grid = grid, .block = 32, .wave_size = wave}, std::move(mem),
                  [&p](sim::thread_context& ctx) { programs::stmatrix_write(ctx, p); });
}

// The 16 x 16 tile stmatrix .x{count}[.trans] leaves, from PTX's definition inverted by hand: without .trans,
// element (r, c) of matrix i is half c % 2 of lane 4r + c / 2's register i; with .trans, half r % 2 of lane
// 4c + r / 2's register i. Matrix i is quadrant (rows 8 (i % 2) .., columns 8 (i / 2) ..); the rest stays 0.
std::vector<std::uint16_t> expected_tile(int b, int count, bool trans) {
  std::vector<std::uint16_t> tile(256, 0);
  for (int i = 0; i < count; ++i)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) {
        const int lane = trans ? 4 * c + r / 2 : 4 * r + c / 2, half = trans ? r % 2 : c % 2;
        tile[static_cast<std::size_t>((8 * (i % 2) + r) * 16 + 8 * (i / 2) + c)] =
            static_cast<std::uint16_t>(input_register(b, lane, i) >> (16 * half));
      }
  return tile;
}

}  // namespace

TEST_CASE("worked example: where each half of lane t's register goes (the inverse of ldmatrix's source)") {
  CHECK(stmatrix_destination(5, 0, 1, false).row_lane == 1);  // lane 5, high half: row 1, element 3
  CHECK(stmatrix_destination(5, 0, 1, false).element == 3);
  CHECK(stmatrix_destination(5, 0, 0, true).row_lane == 2);  // .trans: row 2, element (column) 1
  CHECK(stmatrix_destination(5, 0, 0, true).element == 1);
  CHECK(stmatrix_destination(31, 3, 1, false).row_lane == 31);
  CHECK(stmatrix_destination(31, 3, 1, false).element == 7);
}

TEST_CASE("stmatrix's destinations are a bijection: every row element of the 8 Count rows is written exactly once") {
  for (int count : {1, 2, 4})
    for (bool trans : {false, true}) {
      std::set<std::pair<int, int>> seen;
      for (int t = 0; t < 32; ++t)
        for (int i = 0; i < count; ++i)
          for (int half = 0; half < 2; ++half) {
            const ldmatrix_element e = stmatrix_destination(t, i, half, trans);
            CHECK(e.row_lane / 8 == i);  // matrix i's rows come from matrix i's register
            CHECK(e.element >= 0);
            CHECK(e.element < 8);
            seen.insert({e.row_lane, e.element});
          }
      CAPTURE(count);
      CAPTURE(trans);
      CHECK(seen.size() == static_cast<std::size_t>(8 * count * 8));
    }
}

TEST_CASE("worked example (x1): lane t's register 2t | (2t + 1) << 16 makes M[r][c] = 8r + c, .trans 8c + r") {
  std::vector<std::uint32_t> in(128, 0);
  for (int t = 0; t < 32; ++t)
    in[static_cast<std::size_t>(t * 4)] = static_cast<std::uint32_t>(2 * t) | static_cast<std::uint32_t>(2 * t + 1) << 16;
  for (bool trans : {false, true}) {
    const sim::run_result r = run_write(1, 1, trans, programs::read_back::whole_tile, 32, in);
    REQUIRE(r.clean());
    const std::vector<std::uint32_t> out = r.memory.get<std::uint32_t>(1);
    // Lane 5 reads (ldmatrix .x4) quadrant 0's M[1][2], M[1][3]: 10, 11, or transposed M[1][2] = 17, M[1][3] = 25.
    CHECK(out[5 * 4] == (trans ? (17u | 25u << 16) : (10u | 11u << 16)));
    CHECK(out[5 * 4 + 1] == 0);  // quadrants 1-3: only zeros
    CHECK(out[0] == (trans ? (0u | 8u << 16) : (0u | 1u << 16)));
  }
}

TEST_CASE("stmatrix .x1/.x2/.x4 (plain, .trans) puts each register half where PTX says; other quadrants stay 0") {
  for (int count : {1, 2, 4})
    for (bool trans : {false, true}) {
      CAPTURE(count);
      CAPTURE(trans);
      const sim::run_result r = run_write(2, count, trans, programs::read_back::whole_tile);
      REQUIRE(r.clean());
      const std::vector<std::uint32_t> out = r.memory.get<std::uint32_t>(1);
      for (int b = 0; b < 2; ++b) {
        const std::vector<std::uint16_t> tile = expected_tile(b, count, trans);
        for (int t = 0; t < 32; ++t)
          for (int q = 0; q < 4; ++q) {  // ldmatrix .x4 register q: quadrant q's (t/4, 2(t%4)), (t/4, 2(t%4)+1)
            const std::size_t at = static_cast<std::size_t>((8 * (q % 2) + t / 4) * 16 + 8 * (q / 2) + 2 * (t % 4));
            const std::uint32_t want = std::uint32_t{tile[at]} | std::uint32_t{tile[at + 1]} << 16;
            CAPTURE(b);
            CAPTURE(t);
            CAPTURE(q);
            CHECK(out[static_cast<std::size_t>((b * 32 + t) * 4 + q)] == want);
          }
      }
    }
}

TEST_CASE("round trip: stmatrix then ldmatrix of the same count, .trans and rows gives every lane its registers back") {
  for (int count : {1, 2, 4})
    for (bool trans : {false, true}) {
      CAPTURE(count);
      CAPTURE(trans);
      const sim::run_result r = run_write(2, count, trans, programs::read_back::same_layout);
      REQUIRE(r.clean());
      const std::vector<std::uint32_t> out = r.memory.get<std::uint32_t>(1);
      for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 32; ++t)
          for (int i = 0; i < 4; ++i)
            CHECK(out[static_cast<std::size_t>((b * 32 + t) * 4 + i)] == (i < count ? input_register(b, t, i) : 0u));
    }
}

TEST_CASE("an stmatrix is one LDS store instruction of 8 Count rows x 16 bytes, a matrix access, priced per matrix") {
  for (int count : {1, 2, 4}) {
    CAPTURE(count);
    const sim::run_result r = run_write(1, count, false, programs::read_back::same_layout);
    const sim::program_report rep = sim::make_program_report(sim::arch_named("sm90"), r);
    int found = 0;
    for (const sim::instruction_report& i : rep.instructions) {
      CAPTURE(i.label);
      if (i.label == "lds zero") CHECK_FALSE(i.matrix_access);
      if (i.label == "ldmatrix") CHECK(i.matrix_access);
      if (i.label != "stmatrix") continue;
      ++found;
      CHECK(i.instances == 1);
      CHECK(i.kind == sim::access_kind::store);
      CHECK(i.space == sim::memory_space::lds);
      CHECK(i.width == 16);
      CHECK(i.matrix_access);
      // Matrix i's 8 rows are 32 bytes apart: rows r and r + 4 share banks, so 2 wavefronts per matrix phase.
      CHECK(i.wavefronts == 2 * count);
      CHECK(i.ideal == count);
      CHECK(i.max_ways == 2);
    }
    CHECK(found == 1);
  }
}

TEST_CASE("stmatrix on a wave of 64 lanes is an error naming it, not a guess") {
  std::string message;
  try {
    (void)run_write(1, 4, false, programs::read_back::same_layout, 64);
  } catch (const sim::run_error& e) {
    message = e.what();
  }
  CHECK(message == "tilesim: block 0 wave 0: stmatrix needs a whole wave of 32 lanes (wave size 64, lanes in this "
                   "wave 32)");
}
