// Laws of the synthesized example: every case copies exactly; each "synth" case is what synthesize() returns
// for the case's own writer and reader, and the engine's LDS wavefronts equal the synthesizer's prediction; and
// synth's price of a side under a layout is what the copy program costs in the engine (price_copy_case).
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "examples/synthesized/synthesized_variants.hpp"
#include "sim/synth/copy_sides.test.hpp"
#include "sim/synth/synth.hpp"

using namespace tilesim;
using namespace tilesim::examples;

TEST_CASE("synthesized example: every case copies exactly, costs what synth predicts, and synth picks the synth cases") {
  for (const copy_case& c : synthesized_cases()) {
    CAPTURE(c.name);
    CAPTURE(c.arch);
    const copy_lds_cost engine = price_copy_case(c);
    CHECK(run_copy_case(c).passed);
    synth::synth_request r;
    r.arch = &sim::arch_named(c.arch);
    r.tile = {c.params.rows, c.params.cols, 2};
    const int wave = r.arch->wave_size;
    r.writer = synth::named_side("warp-raked", r.tile, c.block, wave, 8, sim::access_kind::store);
    r.reader = synth::named_side(c.params.read == programs::copy_read_order::gemm_operand ? "mfma" : "down-rows", r.tile,
                                 c.block, wave, 8, sim::access_kind::load);
    const synth::synth_result s = synth::synthesize(r);
    CHECK(engine.store_ideal + engine.load_ideal == s.ideal);
    if (c.name.rfind("synth ", 0) == 0) {
      CHECK(c.name.find(s.best.layout.name()) != std::string::npos);
      CHECK(engine.store + engine.load == s.best.total());
      CHECK(s.reaches_ideal());
    } else if (c.params.layout == programs::copy_lds_layout::row_major) {
      CHECK(engine.store + engine.load == s.row_major.total());
    }
  }
}

TEST_CASE("synthesized example: the hand-picked derived Swizzle<2,3,2> is 2-way on the 64x32 down-rows read, synth's <2,3,3> 1-way") {
  const std::vector<copy_case> cases = synthesized_cases();
  const copy_lds_cost hand = price_copy_case(find_copy_case(cases, "hand derived Swizzle<2,3,2> 64x32, down-rows read", "sm90"));
  const copy_lds_cost synth = price_copy_case(find_copy_case(cases, "synth Swizzle<2,3,3> 64x32, down-rows read", "sm90"));
  CHECK(hand.load == 64);
  CHECK(hand.load_ways == 2);
  CHECK(synth.load == 32);
  CHECK(synth.load_ways == 1);
}

TEST_CASE("law: a side priced under a layout costs what the copy program costs in the engine (every lds-index-swap and cute-swizzle case)") {
  std::vector<std::pair<std::string, programs::copy_params>> cases;  // (arch, params)
  programs::copy_params p;
  p.rows = 128;
  p.cols = 32;
  p.read = programs::copy_read_order::gemm_operand;
  for (const char* arch : {"gfx942", "gfx950", "sm90"})
    for (auto layout : {programs::copy_lds_layout::row_major, programs::copy_lds_layout::padded,
                        programs::copy_lds_layout::ck_xor})
      for (auto order : {ck_lds_order::l_k0_2025, ck_lds_order::k0_l_2024}) {
        p.layout = layout;
        p.ck_order = order;
        p.lane_rows = std::string(arch) == "sm90" ? 16 : 32;
        p.ck_banks = std::string(arch) == "gfx950" ? 64 : 32;
        cases.push_back({arch, p});
      }
  p.cols = 64;
  p.layout = programs::copy_lds_layout::cute_swizzle;
  p.swizzle_base = 3;
  p.swizzle_shift = 3;
  for (int bits : {1, 2, 3}) {
    p.swizzle_bits = bits;
    p.lane_rows = 16;
    cases.push_back({"sm90", p});
  }
  p.read = programs::copy_read_order::lanes_down_rows;
  cases.push_back({"gfx942", p});
  for (const auto& [arch, params] : cases) {
    const copy_case c{"law case", arch, params, 256};
    const synth::synth_request r = synth::copy_request(arch, params);
    const synth::lds_layout l = synth::layout_of(params, *r.arch);
    const std::vector<index_t> off = synth::layout_offsets(l);
    const copy_lds_cost engine = price_copy_case(c);
    const std::string name = l.name();
    CAPTURE(c.arch);
    CAPTURE(name);
    CHECK(run_copy_case(c).passed);
    CHECK(synth::price_side(*r.arch, r.tile, r.writer, off).wavefronts == engine.store);
    CHECK(synth::price_side(*r.arch, r.tile, r.reader, off).wavefronts == engine.load);
  }
}
