// Laws of ldmatrix (kernel/model/ldmatrix.hpp) through kernel/ldmatrix_read/ldmatrix_read.hpp: every lane's registers are
// the elements PTX assigns it, plain and transposed; the row reads are one priced 16-byte LDS instruction.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "kernel/ldmatrix_read/ldmatrix_read.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;

namespace {
sim::run_result run_read(int grid, bool trans, std::vector<std::uint16_t>& in, int wave = 32) {
  in.resize(static_cast<std::size_t>(grid) * 256);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<std::uint16_t>(k * 7 + 3);
  sim::global_memory mem;
  mem.add<std::uint16_t>("in", in);
  mem.add<std::uint32_t>("out", static_cast<index_t>(grid) * 128, 0xFFFFFFFFu);
  programs::ldmatrix_read_params p;
  p.trans = trans;
  return sim::run(sim::launch{.grid = grid, .block = 32, .wave_size = wave}, std::move(mem),
                  [&p](sim::thread_context& ctx) { programs::ldmatrix_read(ctx, p); });
}
}  // namespace

TEST_CASE("worked example: the element each half of lane t's register comes from") {
  CHECK(ldmatrix_source(5, 0, 0, false).row_lane == 1);
  CHECK(ldmatrix_source(5, 0, 0, false).element == 2);
  CHECK(ldmatrix_source(5, 0, 1, false).element == 3);
  CHECK(ldmatrix_source(5, 0, 0, true).row_lane == 2);  // .trans: rows 2 and 3, element (column) 1
  CHECK(ldmatrix_source(5, 0, 1, true).row_lane == 3);
  CHECK(ldmatrix_source(5, 0, 1, true).element == 1);
  CHECK(ldmatrix_source(31, 3, 1, false).row_lane == 31);
}

TEST_CASE("ldmatrix .x4: lane t's register i holds quadrant i's (t/4, 2(t%4)) and (t/4, 2(t%4)+1); .trans the transpose") {
  for (bool trans : {false, true}) {
    CAPTURE(trans);
    std::vector<std::uint16_t> in;
    const sim::run_result r = run_read(2, trans, in);
    CHECK(r.clean());
    const std::vector<std::uint32_t> out = r.memory.get<std::uint32_t>(1);
    for (int b = 0; b < 2; ++b)
      for (int t = 0; t < 32; ++t)
        for (int i = 0; i < 4; ++i) {
          auto element = [&](int row, int col) {  // quadrant i's (row, col)
            return std::uint32_t{in[static_cast<std::size_t>(b * 256 + (8 * (i % 2) + row) * 16 + 8 * (i / 2) + col)]};
          };
          const std::uint32_t want = trans ? element(2 * (t % 4), t / 4) | element(2 * (t % 4) + 1, t / 4) << 16
                                           : element(t / 4, 2 * (t % 4)) | element(t / 4, 2 * (t % 4) + 1) << 16;
          CAPTURE(b);
          CAPTURE(t);
          CAPTURE(i);
          CHECK(out[static_cast<std::size_t>((b * 32 + t) * 4 + i)] == want);
        }
  }
}

TEST_CASE("ldmatrix's row reads are one LDS instruction of 32 x 16 bytes, priced by the LDS model: 2-way on row-major") {
  std::vector<std::uint16_t> in;
  const sim::run_result r = run_read(1, false, in);
  const sim::program_report rep = sim::make_program_report(sim::arch_named("sm90"), r);
  bool found = false;
  for (const sim::instruction_report& i : rep.instructions) {
    if (i.label != "ldmatrix") continue;
    found = true;
    CHECK(i.instances == 1);
    CHECK(i.width == 16);
    CHECK(i.space == sim::memory_space::lds);
    // Each 8-lane phase reads one quadrant's 8 rows, 32 bytes apart: rows r and r + 4 are 128 bytes apart, on
    // the same banks, so 2 wavefronts per phase where 512 distinct bytes need 4 in all.
    CHECK(i.wavefronts == 8);
    CHECK(i.ideal == 4);
    CHECK(i.max_ways == 2);
  }
  CHECK(found);
}

TEST_CASE("ldmatrix on a wave of 64 lanes is an error, not a guess") {
  std::vector<std::uint16_t> in;
  std::string message;
  try {
    (void)run_read(1, false, in, 64);
  } catch (const sim::run_error& e) {
    message = e.what();
  }
  CHECK(message == "tilesim: block 0 wave 0: ldmatrix needs a whole wave of 32 lanes (wave size 64, lanes in this "
                   "wave 32)");
}
