// Laws of examples/async_pipeline/async_pipeline.hpp on the simulator (sm90 rules): out is each slab's column sums,
// exactly; the pipeline is race-free, and dropping its wait (or waiting for one group too few) is a race the
// simulator names; each tile's copies are 4 global loads and 4 LDS stores per wave, both ideal, and the column reads
// are conflict-free.
#include <doctest/doctest.h>

#include <vector>

#include "examples/async_pipeline/async_pipeline.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;

namespace {

// The pipeline with its first wait made async_wait<2> (nothing waited for): the program a user gets wrong.
struct unwaited_pipeline {
  int in = 0, out = 1;
  template <class Ctx>
  void operator()(Ctx& ctx) const {
    const auto src = global_buffer<float>(ctx, in);
    const auto dst = global_buffer<float>(ctx, out);
    const auto lds = lds_buffer<float>(ctx, 4096);
    const index_t t = ctx.thread_id();
    ctx.label("stage");
    for (index_t i = 0; i < 4; ++i) {
      const index_t e = (4 * i + t / 64) * 256 + 4 * (t % 64);
      async_copy<4>(ctx, lds, e, src, ctx.block_id() * 4096 + e);
    }
    async_commit(ctx);
    async_wait<1>(ctx);  // one group committed: wait_group 1 waits for nothing
    ctx.barrier();
    ctx.label("column");
    float sum = 0.0f;
    for (index_t r = 0; r < 16; ++r) sum += load_element(lds, r * 256 + t);
    store_element(dst, ctx.block_id() * 256 + t, sum);
    async_wait<0>(ctx);
  }
};

}  // namespace

TEST_CASE("async pipeline: out = each slab's column sums, exactly, with no finding; copies ideal, reads conflict-free") {
  constexpr index_t grid = 2, tiles = 3;
  const std::vector<float> in = examples::async_pipeline_inputs(grid * tiles * 16 * 256, 7);
  sim::global_memory m;
  const int a = m.add<float>("in", in);
  const int b = m.add<float>("out", grid * 256, -1.0f);
  const examples::async_pipeline<tiles> program{a, b};
  const sim::run_result r = sim::run(sim::launch_on("sm90", grid, 256), std::move(m),
                                     [&](sim::thread_context& ctx) { program(ctx); });
  CHECK(r.clean());
  CHECK(r.uniform());
  CHECK(r.memory.get<float>(1) == examples::async_pipeline_sums(in, grid, tiles));
  const sim::program_report rep = sim::make_program_report(sim::arch_named("sm90"), r);
  long long global_loads = 0, lds_stores = 0, column_reads = 0;
  for (const sim::instruction_report& i : rep.instructions) {
    CAPTURE(i.label);
    if (i.label == "stage" && i.space == sim::memory_space::global) {
      global_loads += i.instances;
      CHECK(i.sectors == i.ideal_sectors);
    }
    if (i.label == "stage" && i.space == sim::memory_space::lds) {
      lds_stores += i.instances;
      CHECK(i.wavefronts == i.ideal);
    }
    if (i.label == "column") {
      column_reads += i.instances;
      CHECK(i.wavefronts == i.ideal);
    }
  }
  // 8 waves per workgroup; 4 copies per thread per tile; 16 reads per thread per tile.
  CHECK(global_loads == grid * 8 * tiles * 4);
  CHECK(lds_stores == grid * 8 * tiles * 4);
  CHECK(column_reads == grid * 8 * tiles * 16);
}

TEST_CASE("async pipeline: a wait that leaves the only group in flight is a race between 'stage' and 'column'") {
  const std::vector<float> in = examples::async_pipeline_inputs(4096, 1);
  sim::global_memory m;
  const int a = m.add<float>("in", in);
  const int b = m.add<float>("out", 256, -1.0f);
  const sim::run_result r = sim::run(sim::launch_on("sm90", 1, 256), std::move(m),
                                     [&](sim::thread_context& ctx) { unwaited_pipeline{a, b}(ctx); });
  REQUIRE(r.found.races > 0);
  const sim::race& x = r.workgroups[0].races[0];
  CHECK(x.space == sim::memory_space::lds);
  const bool named = (x.first.label == "stage" && x.second.label == "column") ||
                     (x.first.label == "column" && x.second.label == "stage");
  CHECK(named);
}
