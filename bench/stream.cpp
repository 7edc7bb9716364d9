// tilesim/bench/stream.cpp: how fast the streamed simulator (sim::simulate) runs a whole GEMM, per worker count.
//
// SUBJECT. sim::simulate (sim/pricing/stream_report.hpp) runs a grid's workgroups on worker threads and prices
// each SM set as it completes. Issue 15's targets are measured here and with the command line (docs/commands.md,
// "Simulating real problem sizes"): a workgroup of the 64 x 64 x 64 GEMM tile on one core, and `--jobs 2`
// against `--jobs 1` on a grid big enough to keep two workers busy.
//
// BENCHMARKS (wall-clock time per iteration; counters: workgroups per second, lane accesses per second).
//   workgroup/gemm_64/jobs:1    one 64 x 64 x 64 workgroup, simulate() on one worker, priced on gfx942
//   grid/gemm_512x512x128/jobs:N  64 workgroups (512 x 512, K = 128), simulate() on N workers (1, 2, 4)
// Before any timing main() checks that each case's C equals the host reference, that the report of
// --jobs 2 equals that of --jobs 1 byte for byte, and that the runs are clean; a failure exits 1.
//
// RUN (release build; pin the one-core case, give the grid cases the cores they may use):
//   meson setup build-release --buildtype=release && ninja -C build-release bench/stream
//   taskset -c 1 build-release/bench/stream --benchmark_filter=workgroup --benchmark_repetitions=5
//   taskset -c 0,1 build-release/bench/stream --benchmark_filter=grid --benchmark_repetitions=3
// (add --benchmark_report_aggregates_only=true for the medians alone)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/runs/gemm_tile_run.hpp"
#include "sim/pricing/stream_report.hpp"

using namespace tilesim;
using namespace tilesim::programs;

namespace {

// A GEMM problem with its operands made once (outside the timed loop).
struct gemm_problem {
  gemm_params params;
  std::vector<float> a, b;

  static gemm_problem make(index_t m, index_t n, index_t k) {
    gemm_problem g;
    g.params.m = m, g.params.n = n, g.params.k = k;
    g.a = gemm_input(m * k, 1);
    g.b = gemm_input(n * k, 2);
    return g;
  }

  // The whole grid through simulate() on `jobs` workers, priced on gfx942.
  sim::simulation run(int jobs) const {
    gemm_params p = params;
    sim::global_memory mem;
    p.a = mem.add<float>("a", a);
    p.b = mem.add<float>("b", b);
    p.c = mem.add<float>("c", p.m * p.n, 0.0f);
    const sim::launch l = gemm_launch(p, 256, 64);
    sim::simulate_options o;
    o.jobs = jobs;
    return sim::simulate(sim::arch_named("gfx942"), l, std::move(mem),
                         [&p](sim::thread_context& ctx) { gemm_tile(ctx, p); }, o);
  }
};

const gemm_problem one_tile = gemm_problem::make(64, 64, 64);
const gemm_problem grid_512 = gemm_problem::make(512, 512, 128);

// Sets the rate counters from one run of the problem.
void count(benchmark::State& state, const gemm_problem& g) {
  const sim::simulation s = g.run(1);
  long long instructions = 0;
  for (const sim::instruction_report& i : s.report.instructions) instructions += i.instances;
  state.counters["workgroups"] = benchmark::Counter(static_cast<double>(s.report.workgroups),
                                                    benchmark::Counter::kIsIterationInvariantRate);
  state.counters["lane_accesses"] = benchmark::Counter(static_cast<double>(instructions) * 64,
                                                       benchmark::Counter::kIsIterationInvariantRate);
}

void bm_simulate(benchmark::State& state, const gemm_problem* g) {
  const int jobs = static_cast<int>(state.range(0));
  for (auto _ : state) {
    sim::simulation s = g->run(jobs);
    benchmark::DoNotOptimize(s.report.instructions.data());
  }
  count(state, *g);
}

BENCHMARK_CAPTURE(bm_simulate, workgroup, &one_tile)
    ->Name("workgroup/gemm_64")
    ->ArgName("jobs")
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(bm_simulate, grid, &grid_512)
    ->Name("grid/gemm_512x512x128")
    ->ArgName("jobs")
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Whether both problems compute C exactly, run clean, and price the same on 1 and 2 workers.
bool cases_hold() {
  bool ok = true;
  for (const gemm_problem* g : {&one_tile, &grid_512}) {
    const sim::simulation one = g->run(1), two = g->run(2);
    if (!one.clean() || one.memory.get<float>(2) != reference_gemm(g->params, g->a, g->b) ||
        sim::to_json(one.report) != sim::to_json(two.report)) {
      std::fprintf(stderr, "stream: the %lld x %lld x %lld GEMM is wrong, not clean, or differs between 1 and 2 jobs\n",
                   static_cast<long long>(g->params.m), static_cast<long long>(g->params.n),
                   static_cast<long long>(g->params.k));
      ok = false;
    }
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (!cases_hold()) return 1;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
