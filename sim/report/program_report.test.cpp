// Laws of program_report.hpp on the copy program (sim/programs/copy.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "sim/programs/copy_run.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;
using namespace tilesim::sim;

namespace {
program_report copy_report(const char* arch_name, programs::copy_lds_layout layout) {
  const arch_table& arch = arch_named(arch_name);
  const launch l{.block = 256, .wave_size = arch.wave_size};
  programs::copy_params p{};
  p.layout = layout;
  const run_result r = programs::run_copy<std::uint16_t>(
      l, p, programs::copy_input<std::uint16_t>(programs::copy_elements(l, p)));
  return make_program_report(arch, r);
}

const instruction_report& find(const program_report& r, const std::string& label) {
  for (const auto& i : r.instructions)
    if (i.label == label) return i;
  FAIL("no instruction labelled " << label);
  return r.instructions.front();
}
}  // namespace

TEST_CASE("copy on gfx942 (ROCm blog, §2.7): row-major 64x32 fp16 reads 2-way, writes conflict-free; XOR fixes the reads") {
  const program_report row = copy_report("gfx942", programs::copy_lds_layout::row_major);
  const program_report xr = copy_report("gfx942", programs::copy_lds_layout::ck_xor);
  REQUIRE(row.instructions.size() == 4);
  const instruction_report& a = find(row, "lds load");
  CHECK(a.instances == 4);
  CHECK(a.ideal == 4 * 8);        // ds_read_b128: 8 phases per wave
  CHECK(a.wavefronts == 4 * 16);
  CHECK(a.max_ways == 2);
  CHECK(find(row, "lds store").excess == 0);
  const instruction_report& b = find(xr, "lds load");
  CHECK(b.excess == 0);
  CHECK(b.max_ways == 1);
  CHECK(xr.cycles_per_workgroup < row.cycles_per_workgroup);
}

TEST_CASE("report totals are the sums of its instructions, and ideal never exceeds actual") {
  for (const char* arch : {"sm90", "gfx90a", "gfx942", "gfx950"}) {
    const program_report r = copy_report(arch, programs::copy_lds_layout::padded);
    long long wf = 0, ideal = 0, sectors = 0;
    for (const auto& i : r.instructions) {
      CHECK(i.ideal <= i.wavefronts);
      CHECK(i.ideal_sectors <= i.sectors);
      CHECK(i.cycles > 0);
      wf += i.wavefronts;
      ideal += i.ideal;
      sectors += i.sectors;
    }
    CHECK(r.wavefronts == wf);
    CHECK(r.ideal == ideal);
    CHECK(r.sectors == sectors);
    CHECK(r.excess == r.wavefronts - r.ideal);
    CHECK(r.finding_count == 0);
  }
}

TEST_CASE("global instructions of the copy touch exactly the tile's sectors (64x32 fp16 = 4096 B = 128 sectors)") {
  const program_report r = copy_report("sm90", programs::copy_lds_layout::row_major);
  CHECK(find(r, "global load").sectors == 128);
  CHECK(find(r, "global store").ideal_sectors == 128);
}

TEST_CASE("JSON names every instruction and the totals; the heat map has one cell per (phase, bank)") {
  const program_report r = copy_report("gfx942", programs::copy_lds_layout::row_major);
  const std::string j = to_json(r);
  CHECK(j.find("\"label\": \"lds load\"") != std::string::npos);
  CHECK(j.find("\"cycles_per_workgroup\"") != std::string::npos);
  REQUIRE(r.has_worst_lds);
  const std::string svg = bank_heat_map_svg(arch_named("gfx942"), r.worst_lds);
  std::size_t cells = 0;
  for (std::size_t at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) ++cells;
  CHECK(cells == 8 * 32);
}
