// tilesim/sim/models/global_coalescing.test.cpp: sectors and lines, hand-computed and against the H200.
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "sim/arch/arch.hpp"
#include "sim/models/global_coalescing.hpp"
#include "sim/patterns/pattern_file.hpp"

using namespace tilesim::sim;

namespace {

constexpr address_t off = no_address;

global_cost cost(int width, const std::function<address_t(int)>& address, const char* arch = "sm90") {
  const arch_table& a = arch_named(arch);
  wave_access w{"test", access_kind::load, memory_space::global, width, {}};
  for (int lane = 0; lane < a.wave_size; ++lane) w.address.push_back(address(lane));
  return global_instruction_cost(a, w);
}

}  // namespace

TEST_CASE("sectors are the distinct 32-byte blocks the active lanes touch; ideal is the bytes' minimum") {
  const global_cost linear4 = cost(4, [](int l) { return address_t(4 * l); });
  CHECK(linear4.sectors == 4);
  CHECK(linear4.lines == 1);
  CHECK(linear4.bytes == 128);
  CHECK(linear4.ideal_sectors == 4);
  CHECK(linear4.ideal_lines == 1);
  const global_cost stride32 = cost(4, [](int l) { return address_t(32 * l); });
  CHECK(stride32.sectors == 32);
  CHECK(stride32.lines == 8);
  CHECK(stride32.ideal_sectors == 4);
  CHECK(cost(16, [](int l) { return address_t(16 * l); }).sectors == 16);
  CHECK(cost(16, [](int l) { return address_t(16 * l); }).lines == 4);
  CHECK(cost(8, [](int l) { return address_t(16 * l); }).sectors == 16);  // half of each sector unused
}

TEST_CASE("a misaligned start costs one more sector; a broadcast costs one") {
  CHECK(cost(4, [](int l) { return address_t(4 + 4 * l); }).sectors == 5);
  CHECK(cost(4, [](int l) { return address_t(4 + 4 * l); }).lines == 2);
  CHECK(cost(4, [](int l) { return address_t(96 + 4 * l); }).sectors == 4);  // sector-aligned, line-crossing
  CHECK(cost(4, [](int l) { return address_t(96 + 4 * l); }).lines == 2);
  CHECK(cost(16, [](int l) { return address_t(16 + 16 * l); }).sectors == 17);
  const global_cost b = cost(16, [](int) { return address_t(0); });
  CHECK(b.sectors == 1);
  CHECK(b.bytes == 16);
  CHECK(b.ideal_sectors == 1);
  // A lane straddling a sector boundary (not a legal sm90 access, but the count is defined): 2 sectors.
  CHECK(cost(8, [](int l) { return l == 0 ? address_t(28) : off; }).sectors == 2);
}

TEST_CASE("inactive lanes touch nothing; a wave with none active touches no sector") {
  CHECK(cost(4, [](int l) { return l < 16 ? address_t(4 * l) : off; }).sectors == 2);
  CHECK(cost(16, [](int l) { return l % 8 == 0 ? address_t(16 * l) : off; }).sectors == 4);
  const global_cost none = cost(4, [](int) { return off; });
  CHECK(none.sectors == 0);
  CHECK(none.lines == 0);
  CHECK(none.ideal_sectors == 0);
}

TEST_CASE("overlapping lanes count their bytes once: pairs of lanes on the same 4 bytes touch 64 bytes, 2 sectors") {
  const global_cost g = cost(4, [](int l) { return address_t(2 * (l / 2) * 2); });
  CHECK(g.bytes == 64);
  CHECK(g.sectors == 2);
  CHECK(cost(2, [](int l) { return address_t(2 * l); }).sectors == 2);
  CHECK(cost(4, [](int l) { return address_t(4 * l); }, "gfx942").sectors == 8);  // 64 lanes x 4 B
}

TEST_CASE("sm90 sectors match all 40 measured lines of l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}") {
  std::ifstream truth("data/calibration/h200-global-probe.truth.tsv");
  std::ifstream patterns("data/calibration/h200-global-probe.patterns");
  REQUIRE_MESSAGE(truth.good(), "run from the repository root");
  REQUIRE(patterns.good());
  std::map<std::string, int> sectors;
  std::string line;
  std::getline(truth, line);
  while (std::getline(truth, line)) {
    std::stringstream s(line);
    std::string name, width, op, n;
    s >> name >> width >> op >> n;
    sectors[name] = std::stoi(n);
  }
  REQUIRE(sectors.size() == 40);
  const arch_table& sm90 = arch_named("sm90");
  pattern_reader reader(patterns, sm90, memory_space::global);
  wave_access a;
  int checked = 0;
  for (pattern_reader::result r; (r = reader.next(a)) != pattern_reader::result::end; ++checked) {
    REQUIRE_MESSAGE(r == pattern_reader::result::pattern, reader.error().text());
    const int model = global_instruction_cost(sm90, a).sectors;
    CHECK_MESSAGE(model == sectors.at(a.label), a.label << ": model " << model << ", H200 " << sectors.at(a.label));
  }
  CHECK(checked == 40);
}

TEST_CASE("records that break wave_access's invariants are refused") {
  const arch_table& sm90 = arch_named("sm90");
  CHECK_THROWS_AS(global_instruction_cost(sm90, wave_access{"x", access_kind::load, memory_space::global, 4, {0}}),
                  std::invalid_argument);
  CHECK_THROWS_AS(cost(32, [](int l) { return address_t(32 * l); }), std::invalid_argument);
  CHECK_THROWS_AS(cost(4, [](int l) { return l == 0 ? off - 2 : off; }), std::invalid_argument);
}
