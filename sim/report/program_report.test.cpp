// Laws of program_report.hpp on the copy program (kernel/copy/copy.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"
#include "sim/runs/copy_run.hpp"
#include "kernel/lds_sweep/lds_sweep.hpp"
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
  REQUIRE(row.barriers.size() == 1);  // between the LDS store and the LDS load
  CHECK(row.barriers[0].label == "barrier 1");
  CHECK(row.barriers[0].instances == 4);
  CHECK(row.barriers[0].wait >= 0);
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
  // A label is character data: markup in it is escaped, so the SVG stays well-formed.
  sim::wave_access odd = r.worst_lds;
  odd.label = "a<b & \"c\"";
  const std::string marked = bank_heat_map_svg(arch_named("gfx942"), odd);
  CHECK(marked.find(">a&lt;b &amp; &quot;c&quot;: gfx942") != std::string::npos);
  CHECK(marked.find("a<b") == std::string::npos);
}

TEST_CASE("where the cycles went: every row's cycles are its issue + LDS + global parts") {
  for (const char* arch : {"sm90", "gfx942"}) {
    const program_report r = copy_report(arch, programs::copy_lds_layout::row_major);
    for (const instruction_report& i : r.instructions) {
      CAPTURE(i.label);
      CHECK(i.issue_cycles >= 0);
      CHECK(i.lds_cycles >= 0);
      CHECK(i.global_cycles >= 0);
      CHECK(i.cycles == doctest::Approx(i.issue_cycles + i.lds_cycles + i.global_cycles));
      CHECK(i.issue_cycles >= 1);  // its own issue slot
      CHECK((i.space == memory_space::lds ? i.lds_cycles : i.global_cycles) > 0);
    }
    CHECK(!r.verdict.empty());
  }
}

// Thread t: loads in[t] ("first"), barrier, loads in[t] again ("again") and in[t + n] ("fresh"), stores the sum.
struct reuse_program {
  index_t n = 256;
  void operator()(thread_context& ctx) const {
    const auto in = global_buffer<float>(ctx, 0);
    const auto out = global_buffer<float>(ctx, 1);
    const index_t t = ctx.thread_id();
    ctx.label("first");
    float v = load_element(in, t);
    ctx.barrier();
    ctx.label("again");
    v += load_element(in, t);
    ctx.label("fresh");
    v += load_element(in, t + n);
    alu(ctx, alu_op::fma, 2);
    ctx.label("store");
    store_element(out, t, v);
  }
};

// The sm90 table with `processors` SMs, so that a small grid already fills them.
arch_table sm90_with(int processors) {
  arch_table a = arch_named("sm90");
  a.occupancy.processors = processors;
  return a;
}

program_report reuse_report(int grid, const arch_table& arch = arch_named("sm90")) {
  global_memory mem;
  mem.add<float>("in", 2 * 256 * index_t{grid}, 1.0f);
  mem.add<float>("out", 256, 0.0f);
  const run_result run = sim::run(launch{.grid = grid, .block = 256, .wave_size = 32}, std::move(mem), reuse_program{});
  return make_program_report(arch, run);
}

// Thread t: loads in[t], stores it to out[t], then states 3 FMAs after its last access (the program's tail).
struct tail_program {
  void operator()(thread_context& ctx) const {
    const auto in = global_buffer<float>(ctx, 0);
    const auto out = global_buffer<float>(ctx, 1);
    const index_t i = ctx.block_id() * 256 + ctx.thread_id();
    ctx.label("load");
    const float v = load_element(in, i);
    ctx.label("store");
    store_element(out, i, v);
    alu(ctx, alu_op::fma, 3);
  }
};

program_report tail_report(int grid) {
  global_memory mem;
  mem.add<float>("in", 256 * index_t{grid}, 1.0f);
  mem.add<float>("out", 256 * index_t{grid}, 0.0f);
  return make_program_report(arch_named("sm90"),
                             sim::run(launch{.grid = grid, .block = 256, .wave_size = 32}, std::move(mem), tail_program{}));
}

TEST_CASE("a workgroup's tail arithmetic stays its own: 4 workgroups on one runner put 4 x one's FMAs on the last access, none on the first") {
  const program_report one = tail_report(1), four = tail_report(4);
  CHECK(find(one, "load").alu.fma == 0);
  CHECK(find(one, "store").alu.fma > 0);
  CHECK(find(four, "load").alu.fma == 0);
  CHECK(find(four, "store").alu.fma == 4 * find(one, "store").alu.fma);
}

TEST_CASE("first touch vs reuse: a sector this SM loaded in an earlier interval is an L1 hit at L1 latency") {
  const program_report r = reuse_report(1);
  const instruction_report& again = find(r, "again");
  const instruction_report& fresh = find(r, "fresh");
  CHECK(again.l1_hit_sectors == again.sectors);
  CHECK(find(r, "first").l1_hit_sectors == 0);
  CHECK(fresh.l1_hit_sectors == 0);
  const global_timing& g = arch_named("sm90").global;
  CHECK(again.global_cycles < g.first_touch_latency);
  CHECK(fresh.global_cycles >= g.l2_hit_latency);  // not loaded before, but 1 KiB from "first": an L2 hit
  CHECK(fresh.global_cycles < g.first_touch_latency);
  CHECK(find(r, "store").alu.fma == 8 * 2);  // 8 warps, 2 FMAs each, issued before the store
}

// Thread t: loads in[t] ("first"), barrier, in[t + 256] ("near", 1 KiB on), barrier, in[t + far] ("far", a page on).
struct near_far_program {
  index_t far = 0;
  void operator()(thread_context& ctx) const {
    const auto in = global_buffer<float>(ctx, 0);
    const auto out = global_buffer<float>(ctx, 1);
    const index_t t = ctx.thread_id();
    ctx.label("first");
    float v = load_element(in, t);
    ctx.barrier();
    ctx.label("near");
    v += load_element(in, t + 256);
    ctx.barrier();
    ctx.label("far");
    v += load_element(in, t + far);
    ctx.label("store");
    store_element(out, t, v);
  }
};

// near_far_program on `arch`, one workgroup of 256 threads, `far` floats between "first" and "far".
program_report near_far_report(const arch_table& arch, index_t far) {
  global_memory mem;
  mem.add<float>("in", far + 256, 1.0f);
  mem.add<float>("out", 256, 0.0f);
  return make_program_report(arch, sim::run(launch{.grid = 1, .block = 256, .wave_size = 32}, std::move(mem),
                                            near_far_program{far}));
}

TEST_CASE("first touch near an earlier one: a sector not loaded, in a region this SM loaded from in an earlier interval, is an L2 hit") {
  const arch_table sm90 = arch_named("sm90");
  const global_timing& g = sm90.global;
  REQUIRE(g.l2_hit_latency > 0);
  REQUIRE(g.l2_hit_latency < g.first_touch_latency);
  const index_t far = 2 * g.near_region_bytes / 4;  // floats: the region after the next, whatever the buffer's base
  const program_report r = near_far_report(sm90, far);
  const instruction_report& near = find(r, "near");
  const instruction_report& far_load = find(r, "far");
  CHECK(near.l1_hit_sectors == 0);
  CHECK(far_load.l1_hit_sectors == 0);
  CHECK(near.global_cycles >= g.l2_hit_latency);
  CHECK(near.global_cycles < g.first_touch_latency);
  CHECK(far_load.global_cycles >= g.first_touch_latency);
  // Law: on an arch that prices no L2 hit (l2_hit_latency 0), the near load costs a first touch like the far one.
  arch_table no_rule = sm90;
  no_rule.global.l2_hit_latency = 0;
  const program_report plain = near_far_report(no_rule, far);
  CHECK(find(plain, "near").global_cycles >= g.first_touch_latency);
  CHECK(find(plain, "near").global_cycles == doctest::Approx(find(plain, "far").global_cycles));
}

TEST_CASE("occupancy: a grid larger than the SMs puts several workgroups on one SM, up to the thread limit") {
  const program_report one = reuse_report(1);
  CHECK(one.resident_workgroups == 1);
  CHECK(one.active_processors == 1);
  const arch_table two = sm90_with(2);
  const program_report many = reuse_report(2 * 3, two);  // 3 per SM: the grid limits
  CHECK(many.resident_workgroups == 3);
  CHECK(many.active_processors == 2);
  CHECK(many.resident_limit.find("the grid") == 0);
  const program_report full = reuse_report(2 * 12, two);  // 12 per SM wanted, 2048 / 256 = 8 fit
  CHECK(full.resident_workgroups == 8);
  CHECK(full.resident_limit.find("threads") == 0);
  global_memory mem;  // 128 registers x 256 threads: 65536 / 32768 = 2 workgroups fit
  mem.add<float>("in", 2 * 256 * 24, 1.0f);
  mem.add<float>("out", 256, 0.0f);
  const run_result run = sim::run(launch{.grid = 24, .block = 256, .wave_size = 32}, std::move(mem), reuse_program{});
  const program_report tight = make_program_report(two, run, 128);
  CHECK(tight.resident_workgroups == 2);
  CHECK(tight.resident_limit == "registers (128 per thread, 65536 per SM)");
  // Sharing an SM's load path and schedulers costs time: more resident workgroups, more cycles each.
  CHECK(many.cycles_per_workgroup > one.cycles_per_workgroup);
  CHECK(full.cycles_per_workgroup > many.cycles_per_workgroup);
}

TEST_CASE("verdicts: the conflicted LDS sweep is LDS-bound; the copy waits on global memory") {
  CHECK(copy_report("sm90", programs::copy_lds_layout::ck_xor).verdict.find("latency-bound") == 0);
  programs::lds_sweep_params p{};
  p.iterations = 64;  // row-major tile read down its rows: 4-way conflicted LDS.128 loads
  global_memory mem;
  mem.add<std::uint16_t>("in", 64 * 32, std::uint16_t{1});
  mem.add<std::uint16_t>("out", 64 * 32, std::uint16_t{0});
  const run_result run = sim::run(launch{.block = 256, .wave_size = 32}, std::move(mem),
                                  [&p](thread_context& ctx) { programs::lds_sweep<std::uint16_t, 8>(ctx, p); });
  const program_report r = make_program_report(arch_named("sm90"), run);
  CHECK(r.verdict.find("LDS-bound") == 0);
  CHECK(r.lds_busy > 0.9);
}
