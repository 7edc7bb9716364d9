// Laws of examples/fp16_transpose/fp16_transpose.hpp on the simulator (sm90 rules, wave 32): out is the transpose of
// in, bit for bit, under all three LDS layouts, with no race, ambiguity or stray access; per warp instruction the
// 16-byte tile store is 4 wavefronts (512 bytes, the least) under every layout, and the column read's eight
// 2-byte loads (rows 8 apart) are 8-way on the row-major and padded tiles, 1 wavefront under Swizzle<3,3,6>, as a
// brute-force count of the distinct 4-byte LDS words per bank says; every global access is 16 sectors (512
// contiguous-by-row bytes, 32-byte sectors).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "examples/fp16_transpose/fp16_transpose.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;

namespace {

constexpr index_t tiles = 2;

template <examples::transpose_lds Layout>
sim::run_result run_transpose(const std::vector<std::uint16_t>& in) {
  sim::global_memory m;
  const int src = m.add<std::uint16_t>("in", in);
  const int dst = m.add<std::uint16_t>("out", static_cast<index_t>(in.size()), std::uint16_t{0xffff});
  const examples::fp16_transpose<tiles, Layout> program{src, dst};
  return sim::run(sim::launch_on("sm90", tiles * tiles, 256), std::move(m),
                  [&](sim::thread_context& ctx) { program(ctx); });
}

// Brute force: the column read's wavefronts for one warp and load j: the most distinct 4-byte words on one bank.
template <examples::transpose_lds Layout>
long long column_read_ways(index_t warp, index_t j) {
  using prog = examples::fp16_transpose<tiles, Layout>;
  std::map<index_t, std::set<index_t>> words_of_bank;
  for (index_t lane = 0; lane < 32; ++lane) {
    const index_t q = warp * 32 + lane, x = q / 8, k = q % 8;
    const index_t word = prog::lds_layout::calculate_offset({k * 8 + j, x}) * 2 / 4;
    words_of_bank[word % 32].insert(word);
  }
  std::size_t ways = 0;
  for (const auto& [bank, words] : words_of_bank) ways = std::max(ways, words.size());
  return static_cast<long long>(ways);
}

template <examples::transpose_lds Layout>
void check_layout(const char* name, long long column_ways) {
  CAPTURE(name);
  const std::vector<std::uint16_t> in = examples::transpose_inputs(tiles, 11);
  const sim::run_result r = run_transpose<Layout>(in);
  CHECK(r.memory.get<std::uint16_t>(1) == examples::transpose_reference(tiles, in));
  CHECK(r.found.races == 0);
  CHECK(r.found.ambiguities == 0);
  CHECK(r.found.bounds_errors == 0);
  CHECK(r.clean());
  // The brute-force count is the same for every warp and load; the simulator's per-label sums must equal it.
  for (index_t warp = 0; warp < 8; ++warp)
    for (index_t j = 0; j < 8; ++j) CHECK(column_read_ways<Layout>(warp, j) == column_ways);
  const sim::program_report rep = sim::make_program_report(sim::arch_named("sm90"), r);
  struct sums {
    long long instances = 0, wavefronts = 0, sectors = 0;
  };
  std::map<std::string, sums> by_label;  // a label's rows summed (the report has one row per program instruction)
  for (const sim::instruction_report& i : rep.instructions) {
    sums& s = by_label[i.label];
    s.instances += i.instances, s.wavefronts += i.wavefronts, s.sectors += i.sectors;
  }
  REQUIRE(by_label.size() == 4);
  const long long warps = tiles * tiles * 8;
  CHECK(by_label["column read"].instances == warps * 2 * 8);
  CHECK(by_label["column read"].wavefronts == warps * 2 * 8 * column_ways);
  CHECK(by_label["tile store"].wavefronts == warps * 2 * 4);
  CHECK(by_label["tile load"].sectors == warps * 2 * 16);
  CHECK(by_label["out store"].sectors == warps * 2 * 16);
}

}  // namespace

TEST_CASE("fp16 transpose: out = in transposed, bit for bit; the column read is 8-way, 8-way, 1-way by layout") {
  check_layout<examples::transpose_lds::row_major>("row-major", 8);
  check_layout<examples::transpose_lds::padded>("padded 72", 8);
  check_layout<examples::transpose_lds::swizzled>("Swizzle<3,3,6>", 1);
}
