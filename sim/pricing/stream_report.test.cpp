// Laws of stream_report.hpp: the streamed, threaded, sliced run prices exactly what run() + make_program_report
// price, and computes the same memory.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/runs/copy_run.hpp"
#include "sim/runs/gemm_tile_run.hpp"
#include "sim/pricing/partial_report.hpp"
#include "sim/pricing/stream_report.hpp"

using namespace tilesim;
using namespace tilesim::sim;

namespace {

// gfx942 with only `processors` CUs, so that small grids put several workgroups on one CU (sets of several).
arch_table small_arch(const char* base, int processors) {
  arch_table a = arch_named(base);
  a.occupancy.processors = processors;
  return a;
}

// The GEMM tile program's memory and parameters for m x n x k.
struct gemm_case {
  programs::gemm_params p;
  global_memory memory;
  launch l;
};

gemm_case gemm(index_t m, index_t n, index_t k, int wave_size) {
  gemm_case c;
  c.p.m = m, c.p.n = n, c.p.k = k;
  c.l = programs::gemm_launch(c.p, 256, wave_size);
  c.p.a = c.memory.add<float>("a", programs::gemm_input(m * k, 1));
  c.p.b = c.memory.add<float>("b", programs::gemm_input(n * k, 2));
  c.p.c = c.memory.add<float>("c", m * n, 0.0f);
  return c;
}

// A program that races between workgroups (every workgroup stores to out[t]) and within one (threads t and
// t + 1 store to the same LDS word), and strays outside its buffer (thread 0 stores one element past out).
const auto racy = [](thread_context& ctx) {
  auto lds = ctx.lds<float>(ctx.block_size());
  auto out = ctx.global<float>(0);
  const index_t t = ctx.thread_id();
  ctx.label("lds");
  const float v = static_cast<float>(ctx.block_id());
  lds.store(t / 2, 1, &v, true);
  ctx.barrier();
  ctx.label("out");
  out.store(t == 0 ? out.size() : t, 1, &v, true);
};

}  // namespace

TEST_CASE("stream: simulate() == make_program_report(run()) for the GEMM and copy programs, on 1, 2 and 3 threads") {
  // The law: pricing set by set as workgroups finish, on any number of threads, gives the report and the memory
  // of one pass over the kept run (the JSON holds every field of the report).
  const arch_table four = small_arch("gfx942", 4), sm90_three = small_arch("sm90", 3);
  struct named {
    const char* what;
    const arch_table* arch;
    int wave;
    index_t m, n, k;
  };
  for (const named& c : {named{"gfx942 x4, 256 x 192 x 64", &four, 64, 256, 192, 64},
                         named{"sm90 x3, 128 x 128 x 96", &sm90_three, 32, 128, 128, 96},
                         named{"gfx942, 128 x 64 x 32", &arch_named("gfx942"), 64, 128, 64, 32}}) {
    CAPTURE(c.what);
    gemm_case g = gemm(c.m, c.n, c.k, c.wave);
    const run_result kept = run(g.l, g.memory, [&](thread_context& ctx) { programs::gemm_tile(ctx, g.p); });
    const std::string want = to_json(make_program_report(*c.arch, kept));
    for (int jobs : {1, 2, 3}) {
      CAPTURE(jobs);
      const simulation s = simulate(*c.arch, g.l, g.memory, [&](thread_context& ctx) { programs::gemm_tile(ctx, g.p); },
                                    {.jobs = jobs});
      CHECK(to_json(s.report) == want);
      CHECK(s.memory.get<float>(g.p.c) == kept.memory.get<float>(g.p.c));
      CHECK(s.runs == 1);
      CHECK(s.clean());
    }
  }
  programs::copy_params p;
  p.layout = programs::copy_lds_layout::padded;
  const launch l{.grid = 11, .block = 256, .wave_size = 64};
  global_memory mem;
  p.input = mem.add<std::uint16_t>("in", programs::copy_input<std::uint16_t>(programs::copy_elements(l, p)));
  p.output = mem.add<std::uint16_t>("out", programs::copy_elements(l, p), std::uint16_t(0xffff));
  auto program = [&](thread_context& ctx) { programs::copy_tile<std::uint16_t>(ctx, p); };
  const run_result kept = run(l, mem, program);
  const simulation s = simulate(four, l, mem, program, {.jobs = 2, .registers_per_thread = 96});
  CHECK(to_json(s.report) == to_json(make_program_report(four, kept, 96)));
  CHECK(s.memory.get<std::uint16_t>(p.output) == kept.memory.get<std::uint16_t>(p.output));
}

TEST_CASE("stream: slices of the run order merge into the whole grid's report") {
  // The law behind sharding: parts priced by disjoint slices that cover the run order merge exactly.
  const arch_table four = small_arch("gfx942", 4);
  gemm_case g = gemm(256, 128, 32, 64);  // 8 workgroups: sets {0, 4}, {1, 5}, {2, 6}, {3, 7}
  auto program = [&](thread_context& ctx) { programs::gemm_tile(ctx, g.p); };
  const simulation whole = simulate(four, g.l, g.memory, program, {.jobs = 2});
  CHECK(run_order(plan_sets(four, g.l.grid, whole.res)) == std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7});
  report_part merged;
  grid_touch_map touches;
  std::vector<int> blocks;
  for (const auto& [first, last] : std::vector<std::pair<long long, long long>>{{0, 3}, {3, 5}, {5, 8}}) {
    simulation s = simulate(four, g.l, g.memory, program, {.jobs = 1, .first = first, .last = last});
    blocks.insert(blocks.end(), s.blocks.begin(), s.blocks.end());
    touches.merge(s.touches);
    merged.merge(std::move(s.part), g.l.max_reports);
  }
  CHECK(blocks == std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7});  // a slice takes the sets that start in it
  CHECK(touches == whole.touches);
  CHECK(to_json(finish_report(four, whole.res, std::move(merged), {}, g.l.max_reports)) == to_json(whole.report));
  // The same through partial reports written as JSON and read back, given in any order.
  std::vector<std::string> texts;
  for (const auto& [first, last] : std::vector<std::pair<long long, long long>>{{5, 8}, {0, 4}, {4, 5}})
    texts.push_back(to_json(make_partial(four, g.l, 0, simulate(four, g.l, g.memory, program, {.first = first, .last = last}),
                                         {{"command", "gemm"}})));
  std::vector<partial_report> parts;
  for (const std::string& t : texts) parts.push_back(parse_partial(t));
  CHECK(to_json(parts[1]) == texts[1]);  // exact round trip
  const merged_report m = merge_partials(four, parts);
  CHECK(to_json(m.report) == to_json(whole.report));
  CHECK(m.cross_races.empty());
  CHECK_THROWS_WITH_AS(merge_partials(four, {parts[0], parts[1]}),
                       "no partial priced set 2 of 4 (a --workgroups slice is missing)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(merge_partials(four, {parts[0], parts[1], parts[2], parts[2]}),
                       "partials 3 and 4 both priced set 2 (their --workgroups slices overlap)", std::invalid_argument);
  partial_report other = parts[2];
  other.meta["command"] = "copy";
  CHECK_THROWS_WITH_AS(merge_partials(four, {parts[0], other}),
                       "partial 2 is of another run: its command is 'copy', partial 1's 'gemm'", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_partial("{\"schema\": \"x\"}"),
                       "not a partial report: 'schema' must be \"tilesim.program-partial/1\"", std::invalid_argument);
  CHECK_THROWS_WITH_AS(simulate(four, g.l, g.memory, program, {.first = 5, .last = 9}),
                       "simulate: the slice [5, 9) must be a non-empty part of the grid's workgroups [0, 8)",
                       std::invalid_argument);
}

TEST_CASE("stream: races between and within workgroups and stray accesses are found as run() finds them") {
  // The law: the compact summary sends the grid through a one-thread rerun that keeps only the racing bytes'
  // touches, and the findings (listed up to max_reports per kind, in block order) equal run()'s.
  const arch_table two = small_arch("gfx942", 2);
  for (int max_reports : {2, 1000}) {
    CAPTURE(max_reports);
    global_memory mem;
    mem.add<float>("out", 128);
    const launch l{.grid = 5, .block = 128, .wave_size = 64, .max_reports = max_reports};
    const run_result kept = run(l, mem, racy);
    const program_report want = make_program_report(two, kept);
    REQUIRE(kept.grid_races.empty() == (max_reports == 2));  // with 2, races inside workgroups fill the list
    for (int jobs : {1, 2}) {
      const simulation s = simulate(two, l, mem, racy, {.jobs = jobs});
      CHECK(s.report.findings == want.findings);
      CHECK(s.report.finding_count == want.finding_count);
      CHECK(to_json(s.report) == to_json(want));
      CHECK(s.runs == 2);
      CHECK_FALSE(s.clean());
    }
  }
}

TEST_CASE("stream: a workgroup that allocates more LDS than workgroup 0 makes the plan again (same report)") {
  // Workgroup 3 allocates 40 KiB, the others 1 KiB: the resident count comes from the largest, as in
  // make_program_report, though workgroup 0 (which fixes the first plan) did not show it.
  auto program = [](thread_context& ctx) {
    auto lds = ctx.lds<float>(ctx.block_id() == 3 ? 10240 : 256);
    auto out = ctx.global<float>(0);
    const float v = 1;
    ctx.label("lds");
    lds.store(ctx.thread_id(), 1, &v, true);
    ctx.barrier();
    ctx.label("out");
    out.store(ctx.block_id() * ctx.block_size() + ctx.thread_id(), 1, &v, true);
  };
  const arch_table two = small_arch("gfx942", 2);
  global_memory mem;
  mem.add<float>("out", 6 * 256);
  const launch l{.grid = 6, .block = 256, .wave_size = 64};
  const run_result kept = run(l, mem, program);
  const simulation s = simulate(two, l, mem, program, {.jobs = 2});
  CHECK(to_json(s.report) == to_json(make_program_report(two, kept)));
  CHECK(s.runs == 2);
  CHECK(s.max_lds_bytes == 40960);
}

TEST_CASE("stream: a sample of SM sets estimates the grid: exact counts where sets of a behaviour are alike") {
  // 320 x 256 on 6 CUs: 20 workgroups in 2 sets of 4 (CUs 0, 1) and 4 sets of 3 (CUs 2-5), two behaviours. The
  // law: a behaviour whose sets price alike is estimated exactly (the GEMM tiles' counts do not depend on the
  // tile), with no error; the cycles estimate lies near the full run's.
  const arch_table six = small_arch("gfx942", 6);
  gemm_case g = gemm(320, 256, 64, 64);
  auto program = [&](thread_context& ctx) { programs::gemm_tile(ctx, g.p); };
  const simulation full = simulate(six, g.l, g.memory, program, {.jobs = 2});
  simulate_options o;
  o.jobs = 2;
  o.sample = 8;
  const simulation s = simulate(six, g.l, g.memory, program, o);
  REQUIRE(s.sample.has_value());
  CHECK(s.sample->grid == 20);
  CHECK(s.sample->workgroups == 14);  // 2 sets of each behaviour
  CHECK(s.sample->behaviours == 2);
  CHECK(s.report.workgroups == 20);
  CHECK(s.report.wavefronts == full.report.wavefronts);
  CHECK(s.report.sectors == full.report.sectors);
  CHECK(s.sample->wavefronts_error == 0);
  CHECK(s.sample->sectors_error == 0);
  REQUIRE(s.report.instructions.size() == full.report.instructions.size());
  for (std::size_t i = 0; i < s.report.instructions.size(); ++i) {
    CHECK(s.report.instructions[i].label == full.report.instructions[i].label);
    CHECK(s.report.instructions[i].instances == full.report.instructions[i].instances);
  }
  CHECK(std::abs(s.report.cycles_per_workgroup - full.report.cycles_per_workgroup) <=
        s.sample->cycles_error + 0.05 * full.report.cycles_per_workgroup);
  const std::string json = to_json(s.report, *s.sample);
  CHECK(json.find("\"schema\": \"tilesim.program-sample/1\"") != std::string::npos);
  CHECK(json.find("\"sample\": {\"workgroups\": 14") != std::string::npos);
  o.sample = 100;  // at least the grid: the full run
  CHECK(to_json(simulate(six, g.l, g.memory, program, o).report) == to_json(full.report));
}

TEST_CASE("stream: choose_sample covers every behaviour, spreads each one's sets and keeps to the budget") {
  // 12 sets: sizes 4 (sets 0-3) and 3 (4-11); classes split the sets of 3 by their first block's parity.
  std::vector<std::vector<int>> sets;
  for (int s = 0; s < 4; ++s) sets.push_back({4 * s, 4 * s + 1, 4 * s + 2, 4 * s + 3});
  for (int s = 0; s < 8; ++s) sets.push_back({16 + 3 * s, 17 + 3 * s, 18 + 3 * s});
  const sample_plan alike = choose_sample(sets, 12, {});
  CHECK(alike.sets_in == std::vector<long long>{4, 8});
  CHECK(alike.chosen_in == std::vector<long long>{2, 2});  // 2 of each (14 workgroups: the minimum beats K)
  CHECK(alike.selected == std::vector<char>{0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0});  // spread: 2nd and 4th of 4, 3rd and 7th of 8
  const sample_plan classes = choose_sample(sets, 30, [](int b) { return b >= 16 && (b - 16) / 3 % 2; });
  CHECK(classes.sets_in == std::vector<long long>{4, 4, 4});
  CHECK(classes.workgroups <= 30 + 8);
  for (long long n : classes.chosen_in) CHECK(n >= 2);
  const sample_plan all = choose_sample(sets, 40, {});
  CHECK(all.chosen_in == all.sets_in);
}
