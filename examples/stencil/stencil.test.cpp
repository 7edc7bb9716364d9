// Laws of examples/stencil/stencil.hpp on the simulator (sm90 rules, wave 32): out is the 5-point sum, exactly, for
// both pitches; the halo's partial last step groups by instruction (no ambiguity; wave 4 diverges, its fifth load
// has lanes 0-3 only), and the halo loads' warp instructions and 32-byte sectors equal a brute-force count of what
// each warp's active lanes touch step by step (by ordinal, lanes 4-31's first store joined lanes 0-3's fifth load).
#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "examples/stencil/stencil.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;

namespace {

constexpr index_t tiles = 2;

template <index_t Pitch>
sim::run_result run_stencil(const std::vector<float>& in) {
  sim::global_memory m;
  const int src = m.add<float>("in", in);
  const int dst = m.add<float>("out", 32 * tiles * 32 * tiles, -1.0f);
  const examples::stencil<tiles, Pitch> program{src, dst};
  return sim::run(sim::launch_on("sm90", tiles * tiles, 256), std::move(m),
                  [&](sim::thread_context& ctx) { program(ctx); });
}

}  // namespace

TEST_CASE("stencil: out = the 5-point sum of the padded input, exactly, pitch 34 and 36; no race, no ambiguity") {
  const std::vector<float> in = examples::stencil_inputs(tiles, 7);
  const std::vector<float> want = examples::stencil_reference(tiles, in);
  for (const sim::run_result& r : {run_stencil<34>(in), run_stencil<36>(in)}) {
    CHECK(r.memory.get<float>(1) == want);
    CHECK(r.found.races == 0);
    CHECK(r.found.ambiguities == 0);
    CHECK(r.found.bounds_errors == 0);
  }
}

TEST_CASE("stencil: the halo's last step is wave 4's lanes 0-3; its loads and sectors are the brute-force count") {
  const std::vector<float> in = examples::stencil_inputs(tiles, 7);
  const sim::run_result r = run_stencil<34>(in);
  // Wave 4 of each workgroup: 5 halo loads, the last with lanes 0-3 only, then 5 stores the same.
  const sim::workgroup_record& w = r.workgroups[0];
  std::vector<const sim::wave_instruction*> loads;
  for (const sim::wave_instruction& i : w.waves[4].instructions)
    if (i.access.label == "halo load") loads.push_back(&i);
  REQUIRE(loads.size() == 5);
  CHECK(loads[4]->access.active_lanes() == 4);
  REQUIRE(w.divergences.size() == 1);
  CHECK(w.divergences[0].wave == 4);
  // Brute force: per workgroup, warp and step, the distinct sectors its lanes with i < 1156 touch.
  using prog = examples::stencil<tiles, 34>;
  long long instructions = 0, sectors = 0;
  for (index_t b = 0; b < tiles * tiles; ++b)
    for (index_t warp = 0; warp < 8; ++warp)
      for (index_t s = 0; s < prog::steps; ++s) {
        std::set<index_t> touched;
        for (index_t lane = 0; lane < 32; ++lane) {
          const index_t i = s * 256 + warp * 32 + lane;
          if (i >= prog::halo_elements) continue;
          const index_t origin = (b / tiles) * 32 * prog::padded + (b % tiles) * 32;
          touched.insert((origin + (i / prog::halo) * prog::padded + i % prog::halo) * 4 / 32);  // "in" is at base 0
        }
        instructions += !touched.empty();
        sectors += static_cast<long long>(touched.size());
      }
  const sim::program_report rep = sim::make_program_report(sim::arch_named("sm90"), r);
  long long got_instructions = 0, got_sectors = 0;
  for (const sim::instruction_report& i : rep.instructions)
    if (i.label == "halo load") got_instructions += i.instances, got_sectors += i.sectors;
  CHECK(got_instructions == instructions);
  CHECK(got_sectors == sectors);
  MESSAGE("halo loads: " << instructions << " warp instructions, " << sectors << " sectors (" << tiles * tiles
                         << " workgroups)");
}
