// tilesim/sim/arch/arch.test.cpp: the per-arch tables hold their invariants and the published lane groups.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"

using namespace tilesim::sim;

TEST_CASE("every arch table passes its invariants: phases partition the wave, every (kind, width) has a rule") {
  for (const arch_table* a : all_arch_tables()) {
    CAPTURE(a->name);
    const auto broken = check_arch_table(*a);
    CHECK_MESSAGE(!broken, (broken ? *broken : ""));
    for (access_kind k : {access_kind::load, access_kind::store})
      for (int w : {1, 2, 4, 8, 16}) {
        const lds_phase_rule& r = a->lds_rule(k, w);
        CHECK(r.kind == k);
        CHECK(r.width == w);
      }
  }
}

TEST_CASE("arch_named finds the four tables and names the known ones for anything else") {
  CHECK(arch_named("sm90").wave_size == 32);
  CHECK(arch_named("gfx90a").wave_size == 64);
  CHECK(arch_named("gfx942").banks == 32);
  CHECK(arch_named("gfx950").banks == 64);
  CHECK(arch_names() == "sm90, gfx90a, gfx942, gfx950");
  try {
    (void)arch_named("sm91");
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "unknown architecture 'sm91' (known: sm90, gfx90a, gfx942, gfx950)");
  }
  CHECK_THROWS_AS((void)arch_named("sm90").lds_rule(access_kind::load, 12), std::invalid_argument);
}

TEST_CASE("sm90 phases are 32/16/8 contiguous lanes for 4/8/16 bytes; only 8/16-byte loads pair lanes (R 1.2)") {
  const arch_table& a = arch_named("sm90");
  CHECK(a.lds_rule(access_kind::load, 4).phases.size() == 1);
  CHECK(a.lds_rule(access_kind::load, 8).phases.size() == 2);
  CHECK(a.lds_rule(access_kind::load, 16).phases.size() == 4);
  CHECK(a.lds_rule(access_kind::load, 16).phases[1] == arch_data::lanes(8, 15));
  CHECK(a.lds_rule(access_kind::load, 16).merge == lds_merge::sm90_pairs);
  CHECK(a.lds_rule(access_kind::load, 8).merge == lds_merge::sm90_pairs);
  CHECK(a.lds_rule(access_kind::store, 16).merge == lds_merge::none);
  CHECK(a.lds_rule(access_kind::load, 4).merge == lds_merge::none);
}

TEST_CASE("gfx942 ds_read_b128 phases are the non-contiguous groups of R 2.3, in issue order") {
  const lds_phase_rule& r = arch_named("gfx942").lds_rule(access_kind::load, 16);
  REQUIRE(r.phases.size() == 8);
  CHECK(r.phases[0] == std::vector<int>{0, 1, 2, 3, 20, 21, 22, 23});
  CHECK(r.phases[1] == std::vector<int>{32, 33, 34, 35, 52, 53, 54, 55});
  CHECK(r.phases[2] == std::vector<int>{4, 5, 6, 7, 16, 17, 18, 19});
  CHECK(r.phases[7] == std::vector<int>{44, 45, 46, 47, 56, 57, 58, 59});
  CHECK(arch_named("gfx942").lds_rule(access_kind::store, 16).phases[1] == arch_data::lanes(8, 15));
}

TEST_CASE("gfx950 reads: b32 one phase of 64, b64 two of 32, b128 four non-contiguous groups of 16 (R 2.3)") {
  const arch_table& a = arch_named("gfx950");
  CHECK(a.lds_rule(access_kind::load, 4).phases.size() == 1);
  CHECK(a.lds_rule(access_kind::load, 8).phases.size() == 2);
  const lds_phase_rule& r = a.lds_rule(access_kind::load, 16);
  REQUIRE(r.phases.size() == 4);
  CHECK(r.phases[0] == arch_data::lanes({{0, 3}, {12, 15}, {20, 23}, {24, 27}}));
  CHECK(r.phases[2] == arch_data::lanes({{4, 7}, {8, 11}, {16, 19}, {28, 31}}));
  CHECK(r.banks == 64);
}

TEST_CASE("rules with no source say so: every AMD write table but ds_write_b128 on gfx942 is 'assumed'") {
  auto assumed = [](const lds_phase_rule& r) { return r.evidence.find("assumed, not measured") == 0; };
  CHECK(assumed(arch_named("gfx942").lds_rule(access_kind::store, 4)));
  CHECK(assumed(arch_named("gfx942").lds_rule(access_kind::store, 8)));
  CHECK(!assumed(arch_named("gfx942").lds_rule(access_kind::store, 16)));
  CHECK(assumed(arch_named("gfx950").lds_rule(access_kind::store, 16)));
  CHECK(assumed(arch_named("gfx90a").lds_rule(access_kind::load, 16)));
  CHECK(!assumed(arch_named("sm90").lds_rule(access_kind::load, 16)));
}

TEST_CASE("check_arch_table rejects a lane twice, a lane missing, pair merging over unaligned groups and a region of no power of two") {
  arch_table a = arch_named("sm90");
  a.lds_rules[0].phases = {arch_data::lanes(0, 31), {5}};
  CHECK(check_arch_table(a).value_or("").find("names lane 5 twice") != std::string::npos);
  a = arch_named("sm90");
  a.lds_rules[0].phases = {arch_data::lanes(0, 30)};
  CHECK(check_arch_table(a).value_or("").find("leaves lane 31 in no phase") != std::string::npos);
  a = arch_named("sm90");
  a.lds_rules[4].phases = {arch_data::lanes(0, 5), arch_data::lanes(6, 13), arch_data::lanes(14, 21),
                           arch_data::lanes(22, 31)};
  CHECK(check_arch_table(a).value_or("").find("aligned block") != std::string::npos);
  a = arch_named("gfx942");
  a.lds_rules.pop_back();
  CHECK(check_arch_table(a).value_or("").find("needs exactly one LDS rule") != std::string::npos);
  CHECK_THROWS_AS(arch_data::finish_arch_table(a), std::logic_error);
  a = arch_named("sm90");
  a.global.near_region_bytes = 3 << 20;  // an L2 hit priced over regions that are no power of two
  CHECK(check_arch_table(a).value_or("").find("near_region_bytes 3145728 must be a power of two") != std::string::npos);
  a.global.l2_hit_latency = 0;  // no L2 hit priced: the region is not used
  CHECK(!check_arch_table(a).has_value());
}

TEST_CASE("guard rules: sm90 masks invalid global loads and skips empty warp instructions (measured); gfx9 keeps CK's") {
  const arch_table& sm90 = arch_named("sm90");
  CHECK_FALSE(sm90.guards.invalid_global_loads_issue);
  CHECK_FALSE(sm90.guards.empty_instructions_issue);
  CHECK(std::string(sm90.guards.evidence).find("measured") == 0);
  for (const char* name : {"gfx90a", "gfx942", "gfx950"}) {
    const arch_table& a = arch_named(name);
    CAPTURE(name);
    CHECK(a.guards.invalid_global_loads_issue);
    CHECK(a.guards.empty_instructions_issue);
    CHECK_FALSE(a.guards.evidence.empty());
  }
  launch l;
  apply_guard_rules(sm90, l);
  CHECK(l.wave_size == 32);
  CHECK_FALSE(l.invalid_global_loads_issue);
  CHECK_FALSE(l.empty_instructions_issue);
  apply_guard_rules(arch_named("gfx942"), l);
  CHECK(l.wave_size == 64);
  CHECK(l.invalid_global_loads_issue);
  CHECK(l.empty_instructions_issue);
}

TEST_CASE("8x8 matrix instructions: sm90 says where ldmatrix's phases come from and that stmatrix's mirror them; AMD has none") {
  const arch_table& sm90 = arch_named("sm90");
  CHECK(std::string(sm90.matrix_phases.evidence[0]).find("measured (H200, h200-ldmatrix-phases.tsv)") == 0);
  CHECK_FALSE(sm90.matrix_phases.evidence[1].empty());  // "assumed, ..." or, once recorded, "measured ..."
  for (const char* amd : {"gfx90a", "gfx942", "gfx950"}) {
    CAPTURE(amd);
    CHECK(arch_named(amd).matrix_phases.evidence[0].empty());
    CHECK(arch_named(amd).matrix_phases.evidence[1].empty());
  }
}
