// Laws of grouping.hpp through whole runs: lanes that make the same access (site, label, kind, width) for the same
// time are one instruction (reconvergence by instruction, not by ordinal); divergence and ambiguity are reported;
// wide accesses split; masked lanes show no_address.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"

using namespace tilesim;
using namespace tilesim::sim;

namespace {

// Addresses 0, step, 2*step, ... for `lanes` lanes, the rest no_address, `size` entries.
std::vector<address_t> strided(int lanes, address_t step, int size, address_t start = 0) {
  std::vector<address_t> a(static_cast<std::size_t>(size), no_address);
  for (int l = 0; l < lanes; ++l) a[static_cast<std::size_t>(l)] = start + step * static_cast<address_t>(l);
  return a;
}

}  // namespace

TEST_CASE("grouping: 64 threads each storing 4 bytes to LDS[t] make exactly one instruction, addresses 4*lane") {
  const run_result r = run({.block = 64, .wave_size = 64}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(64);
    ctx.label("st");
    store_element(lds, ctx.thread_id(), 1.0f);
  });
  REQUIRE(r.workgroups[0].waves.size() == 1);
  const std::vector<wave_instruction>& ins = r.workgroups[0].waves[0].instructions;
  REQUIRE(ins.size() == 1);
  CHECK(ins[0].access.label == "st");
  CHECK(ins[0].access.kind == access_kind::store);
  CHECK(ins[0].access.space == memory_space::lds);
  CHECK(ins[0].access.width == 4);
  CHECK(ins[0].access.address == strided(64, 4, 64));
  CHECK(ins[0].interval == 0);
  CHECK(ins[0].buffer == 0);
  CHECK(r.clean());
  CHECK(r.uniform());
}

TEST_CASE("grouping: the same 64 threads at wave 32 make one instruction in each of two waves") {
  const run_result r = run({.block = 64, .wave_size = 32}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(64);
    store_element(lds, ctx.thread_id(), 1.0f);
  });
  REQUIRE(r.workgroups[0].waves.size() == 2);
  CHECK(r.workgroups[0].waves[1].instructions.size() == 1);
  CHECK(r.workgroups[0].waves[1].instructions[0].access.address == strided(32, 4, 32, 128));
}

TEST_CASE("divergence: lanes 0-15 make an extra access: reported as such, and the extra instruction has no_address elsewhere") {
  const run_result r = run({.block = 64, .wave_size = 64}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(128);
    store_element(lds, ctx.thread_id(), 1.0f);
    if (ctx.lane() < 16) store_element(lds, 64 + ctx.thread_id(), 2.0f);
  });
  const workgroup_record& w = r.workgroups[0];
  const std::vector<wave_instruction>& ins = w.waves[0].instructions;
  REQUIRE(ins.size() == 2);
  CHECK(ins[0].access.active_lanes() == 64);
  CHECK(ins[1].access.address == strided(16, 4, 64, 256));
  REQUIRE(w.divergences.size() == 1);
  const divergence& d = w.divergences[0];
  CHECK(d.wave == 0);
  CHECK(d.interval == 0);
  REQUIRE(d.lanes.size() == 2);
  CHECK(d.lanes[0].what == "1 instruction");
  CHECK(d.lanes[0].ids.size() == 48);
  CHECK(d.lanes[1].what == "2 instructions");
  CHECK(describe(d) == "divergent lanes in block 0 wave 0 interval 0: lanes 16-63: 1 instruction; lanes 0-15: 2 instructions");
  CHECK(w.ambiguities.empty());  // same label, width and kind: the grouping is not in doubt
  CHECK_FALSE(r.uniform());
  CHECK(r.clean());
}

TEST_CASE("reconvergence: the two sides of an if/else are two instructions, even with the same label and width") {
  const run_result r = run({.block = 32, .wave_size = 32}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(256);
    const float v = 1.0f;
    if (ctx.lane() < 8)
      lds.store(ctx.lane(), 1, &v, true);  // site A: lanes 0-7
    else
      lds.store(64 + ctx.lane(), 1, &v, true);  // site B: lanes 8-31
    lds.store(128 + ctx.lane(), 1, &v, true);  // every lane
  });
  const workgroup_record& w = r.workgroups[0];
  const std::vector<wave_instruction>& ins = w.waves[0].instructions;
  REQUIRE(ins.size() == 3);
  CHECK(ins[0].access.active_lanes() == 8);
  CHECK(ins[0].access.address[0] == 0);
  CHECK(ins[1].access.active_lanes() == 24);
  CHECK(ins[1].access.address[8] == 4 * 72);
  CHECK(ins[2].access.active_lanes() == 32);
  CHECK(w.ambiguities.empty());
  CHECK(w.divergences.empty());  // every lane made two instructions
}

TEST_CASE("reconvergence: a loop whose last step lanes 0-15 alone take, then stores every lane makes (a staged halo)") {
  // i = s*32 + lane < 80 for s < 3: every lane loads in steps 0-1, lanes 0-15 in step 2; then each lane stores
  // what it loaded. By ordinal, lanes 16-31's first store would have joined lanes 0-15's third load.
  global_memory mem;
  const int src = mem.add<float>("src", 96, 1.0f);
  const run_result r = run({.block = 32, .wave_size = 32}, std::move(mem), [&](thread_context& ctx) {
    auto g = ctx.global<float>(src);
    auto lds = ctx.lds<float>(96);
    float v[3] = {};
    int loaded = 0;
    for (int s = 0; s < 3; ++s) {
      const index_t i = s * 32 + ctx.lane();
      if (i < 80) g.load(i, 1, &v[loaded++], true);
    }
    for (int k = 0; k < loaded; ++k) lds.store(k * 32 + ctx.lane(), 1, &v[k], true);
  });
  const workgroup_record& w = r.workgroups[0];
  CHECK(w.ambiguities.empty());
  const std::vector<wave_instruction>& ins = w.waves[0].instructions;
  REQUIRE(ins.size() == 6);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(ins[k].access.space == memory_space::global);
    CHECK(ins[k + 3].access.space == memory_space::lds);
    CHECK(ins[k].access.active_lanes() == (k < 2 ? 32 : 16));
    CHECK(ins[k + 3].access.active_lanes() == ins[k].access.active_lanes());
  }
  CHECK(ins[5].access.address[0] == 4 * 64);
  CHECK(ins[5].access.address[16] == no_address);
}

TEST_CASE("reconvergence: an early exit and a data-dependent trip count group by site and occurrence") {
  const run_result r = run({.block = 4, .wave_size = 4}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(64);
    const float v = 1.0f;
    for (index_t k = 0; k <= ctx.lane(); ++k) lds.store(16 * k + ctx.lane(), 1, &v, true);  // lane l: l+1 steps
    if (ctx.lane() == 3) return;
    lds.store(48 + ctx.lane(), 1, &v, true);
  });
  const workgroup_record& w = r.workgroups[0];
  const std::vector<wave_instruction>& ins = w.waves[0].instructions;
  REQUIRE(ins.size() == 5);
  CHECK(ins[0].access.address == std::vector<address_t>{0, 4, 8, 12});
  CHECK(ins[1].access.address == std::vector<address_t>{no_address, 68, 72, 76});
  CHECK(ins[2].access.address == std::vector<address_t>{no_address, no_address, 136, 140});
  CHECK(ins[3].access.address == std::vector<address_t>{no_address, no_address, no_address, 204});  // still looping
  CHECK(ins[4].access.address == std::vector<address_t>{192, 196, 200, no_address});  // after the loop
  CHECK(w.ambiguities.empty());
  REQUIRE(w.divergences.size() == 1);
  CHECK(describe(w.divergences[0]) ==
        "divergent lanes in block 0 wave 0 interval 0: lanes 0: 2 instructions; lanes 1: 3 instructions; "
        "lanes 2-3: 4 instructions");
}

TEST_CASE("ambiguity: lanes that take an if/else's sides in different loop steps have no one issue order: reported") {
  // Lane 0 stores at X then Y; lane 1 at Y then X (the sides swap between steps): X's first occurrence and Y's
  // first occurrence are each behind the other in some lane.
  const run_result r = run({.block = 2, .wave_size = 2}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(64);
    const float v = 1.0f;
    for (int step = 0; step < 2; ++step) {
      ctx.label("swap");
      if ((step + ctx.lane()) % 2 == 0)
        lds.store(ctx.lane(), 1, &v, true);  // X
      else
        lds.store(32 + ctx.lane(), 1, &v, true);  // Y
    }
  });
  const workgroup_record& w = r.workgroups[0];
  REQUIRE(w.waves[0].instructions.size() == 2);
  REQUIRE(w.ambiguities.size() == 1);
  const ambiguity& a = w.ambiguities[0];
  CHECK(a.position == 0);
  REQUIRE(a.lanes.size() == 2);
  CHECK(describe(a) ==
        "ambiguous grouping in block 0 wave 0 interval 0 instruction 0: lanes 0: label 'swap', 4-byte lds store; "
        "lanes 1: label 'swap', 4-byte lds store, issued before their label 'swap', 4-byte lds store");
}

TEST_CASE("split: a 32-byte lane access is two 16-byte instructions at +0 and +16 (split_bytes 16); one at split 0") {
  auto program = [](thread_context& ctx) {
    auto lds = ctx.lds<float>(8 * 4);
    float v[8] = {};
    lds.load(8 * ctx.lane(), 8, v, true);
  };
  const run_result split = run({.block = 4, .wave_size = 4}, global_memory{}, program);
  const std::vector<wave_instruction>& ins = split.workgroups[0].waves[0].instructions;
  REQUIRE(ins.size() == 2);
  CHECK(ins[0].access.width == 16);
  CHECK(ins[0].access.address == std::vector<address_t>{0, 32, 64, 96});
  CHECK(ins[1].access.address == std::vector<address_t>{16, 48, 80, 112});
  CHECK(ins[1].position == 1);
  const run_result whole = run({.block = 4, .wave_size = 4, .split_bytes = 0}, global_memory{}, program);
  REQUIRE(whole.workgroups[0].waves[0].instructions.size() == 1);
  CHECK(whole.workgroups[0].waves[0].instructions[0].access.width == 32);
}

TEST_CASE("masking: an invalid LDS store shows no_address; an invalid global load still shows its address (CK loads, then zeroes)") {
  global_memory mem;
  const int g = mem.add<float>("g", 4, 7.0f);
  std::vector<float> seen(4, -1.0f);
  const run_result r = run({.block = 4, .wave_size = 4}, std::move(mem), [&](thread_context& ctx) {
    const bool valid = ctx.lane() != 2;
    auto lds = ctx.lds<float>(4);
    float v = 1.0f;
    lds.store(ctx.lane(), 1, &v, valid);
    ctx.global<float>(g).load(ctx.lane(), 1, &v, valid);
    seen[static_cast<std::size_t>(ctx.lane())] = v;
  });
  const std::vector<wave_instruction>& ins = r.workgroups[0].waves[0].instructions;
  REQUIRE(ins.size() == 2);
  CHECK(ins[0].access.address == std::vector<address_t>{0, 4, no_address, 12});
  CHECK(ins[1].access.address == std::vector<address_t>{0, 4, 8, 12});
  CHECK(seen == std::vector<float>{7.0f, 7.0f, 0.0f, 7.0f});  // the invalid vector is zeroed
  CHECK(r.clean());
}

TEST_CASE("masking (sm90 guard rules): an invalid global load shows no_address, and an instruction no lane takes is not issued") {
  global_memory mem;
  const int g = mem.add<float>("g", 4, 7.0f);
  std::vector<float> seen(4, -1.0f);
  launch l{.block = 4, .wave_size = 4};
  l.invalid_global_loads_issue = false;
  l.empty_instructions_issue = false;
  const run_result r = run(l, std::move(mem), [&](thread_context& ctx) {
    float v = 1.0f;
    ctx.alu(alu_op::fma, 3);
    ctx.global<float>(g).store(ctx.lane(), 1, &v, false);  // every lane invalid: no instruction, its FMAs go on
    ctx.global<float>(g).load(ctx.lane(), 1, &v, ctx.lane() != 2);
    seen[static_cast<std::size_t>(ctx.lane())] = v;
  });
  const std::vector<wave_instruction>& ins = r.workgroups[0].waves[0].instructions;
  REQUIRE(ins.size() == 1);
  CHECK(ins[0].position == 1);
  CHECK(ins[0].access.kind == access_kind::load);
  CHECK(ins[0].access.address == std::vector<address_t>{0, 4, no_address, 12});
  CHECK(ins[0].alu_before.fma == 3);  // the skipped store's arithmetic is carried to the next instruction
  CHECK(seen == std::vector<float>{7.0f, 7.0f, 0.0f, 7.0f});  // the data law is the same: the invalid vector is 0
  CHECK(r.clean());
}

TEST_CASE("buffer: an instruction whose lanes use two global buffers has buffer -1") {
  global_memory mem;
  mem.add<float>("a", 4);
  mem.add<float>("b", 4);
  const run_result r = run({.block = 4, .wave_size = 4}, std::move(mem), [](thread_context& ctx) {
    (void)load_element(ctx.global<float>(ctx.lane() < 2 ? 0 : 1), ctx.lane());
  });
  const wave_instruction& i = r.workgroups[0].waves[0].instructions.at(0);
  CHECK(i.buffer == -1);
  CHECK(i.access.address == std::vector<address_t>{0, 4, 256 + 8, 256 + 12});  // buffer b's base is 256
}

TEST_CASE("grouping: an stmatrix .x2 is one 16-byte LDS store of lanes 0-15's rows, flagged (and priced) as a matrix access") {
  const run_result r = run({.block = 32, .wave_size = 32}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<std::uint16_t>(512);
    stmatrix_fragment<2> f;
    f.r[0] = f.r[1] = static_cast<std::uint32_t>(ctx.lane());
    ctx.label("stsm");
    stmatrix<2>(ctx, lds, ctx.lane() * 8, f);  // row r of matrix i at lane 8i + r: 16 bytes per lane
    ctx.label("sts");
    std::uint16_t v[8] = {};
    store_vector<8>(lds, 256 + ctx.lane() * 8, v, true);
  });
  REQUIRE(r.workgroups[0].waves.size() == 1);
  const std::vector<wave_instruction>& ins = r.workgroups[0].waves[0].instructions;
  REQUIRE(ins.size() == 2);
  CHECK(ins[0].access.label == "stsm");
  CHECK(ins[0].access.kind == access_kind::store);
  CHECK(ins[0].access.width == 16);
  CHECK(ins[0].access.address == strided(16, 16, 32));  // lanes 16-31 give no address
  CHECK(ins[0].matrix_access);
  CHECK(ins[0].access.matrix_access);  // what sim/models/lds_banks prices per 8x8 matrix
  CHECK(ins[1].access.label == "sts");
  CHECK_FALSE(ins[1].matrix_access);
  CHECK_FALSE(ins[1].access.matrix_access);
  CHECK(r.clean());
}
