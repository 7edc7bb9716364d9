// tilesim/bench/run_program.cpp: how long the simulator takes to run one workgroup of a tile program.
//
// SUBJECT. One 256-thread workgroup per iteration, in the simulator (sim::run: fibers, barriers, recording
// every lane access, grouping into wave instructions, the race search) and then priced and timed
// (make_program_report: LDS bank model, global coalescing, the workgroup clock). Issue 4's target: a
// 256-thread GEMM tile's run under 10 ms per workgroup.
//
// BENCHMARKS (time per iteration = time per workgroup; items_per_second = lane accesses recorded per second;
// counters: instructions = wave instructions of the workgroup, lane_accesses = instructions x wave size).
//   gemm/engine/<layout>          kernel/gemm_tile/gemm_tile.hpp, 64 x 64 x 64 (2 K steps), wave 64, fp32
//   gemm/engine+report/<layout>   the same, then make_program_report(arch_named("gfx942"), run)
//   gemm_wave32/engine+report     64 x 64 x 64 on 8 waves of 32, priced on sm90
//   gemm_128/engine(+report)      a 128 x 128 block tile, k = 128 (4 K steps), ck_xor, wave 64, gfx942
//   copy/engine(+report)          kernel/copy/copy.hpp for comparison: fp16 64 x 32, lanes down rows,
//                                 ck_xor, wave 64, gfx942
// Before any timing, main() checks that each GEMM case's C equals the host reference and that every case
// runs clean (no race, no bounds error); a failure exits 1.
//
// RUN (release build; pin to one core on a shared machine):
//   meson setup build-hc-release --buildtype=release && ninja -C build-hc-release bench/run_program
//   taskset -c 1 build-hc-release/bench/run_program --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/runs/copy_run.hpp"
#include "sim/runs/gemm_tile_run.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;
using namespace tilesim::programs;

namespace {

// One benchmarked program: how to run one workgroup of it, and the arch that prices it.
struct gemm_case {
  gemm_params params;
  int wave_size = 64;
  const char* arch = "gfx942";
  std::vector<float> a, b;

  // The case with its operands made once (outside the timed loop).
  static gemm_case make(gemm_params p, int wave_size, const char* arch) {
    return {p, wave_size, arch, gemm_input(p.m * p.k, 1), gemm_input(p.n * p.k, 2)};
  }
  sim::run_result run() const { return run_gemm(gemm_launch(params, 256, wave_size), params, a, b); }
};

gemm_case gemm_64(gemm_lds_layout layout, int wave_size = 64, const char* arch = "gfx942") {
  gemm_params p;
  p.layout = layout;
  return gemm_case::make(p, wave_size, arch);
}

gemm_case gemm_128() {
  gemm_params p;
  p.m = p.n = p.k = p.m_per_block = p.n_per_block = 128;
  return gemm_case::make(p, 64, "gfx942");
}

copy_params copy_case() {
  copy_params p;
  p.layout = copy_lds_layout::ck_xor;
  return p;
}

const sim::launch copy_launch{.grid = 1, .block = 256, .wave_size = 64};

// Sets the per-workgroup counters from one run of the case.
void count(benchmark::State& state, const sim::run_result& r) {
  const double instructions = static_cast<double>(r.instruction_count());
  state.counters["instructions"] = instructions;
  state.counters["lane_accesses"] = instructions * r.config.wave_size;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * instructions * r.config.wave_size));
}

void bm_gemm_engine(benchmark::State& state, const gemm_case& c) {
  for (auto _ : state) {
    sim::run_result r = c.run();
    benchmark::DoNotOptimize(r.workgroups.data());
  }
  count(state, c.run());
}

void bm_gemm_report(benchmark::State& state, const gemm_case& c) {
  const sim::arch_table& arch = sim::arch_named(c.arch);
  for (auto _ : state) {
    const sim::run_result r = c.run();
    sim::program_report report = sim::make_program_report(arch, r);
    benchmark::DoNotOptimize(report.instructions.data());
  }
  count(state, c.run());
}

void bm_copy_engine(benchmark::State& state) {
  const copy_params p = copy_case();
  const std::vector<std::uint16_t> input = copy_input<std::uint16_t>(copy_elements(copy_launch, p));
  for (auto _ : state) {
    sim::run_result r = run_copy<std::uint16_t>(copy_launch, p, input);
    benchmark::DoNotOptimize(r.workgroups.data());
  }
  count(state, run_copy<std::uint16_t>(copy_launch, p, input));
}

void bm_copy_report(benchmark::State& state) {
  const copy_params p = copy_case();
  const std::vector<std::uint16_t> input = copy_input<std::uint16_t>(copy_elements(copy_launch, p));
  const sim::arch_table& arch = sim::arch_named("gfx942");
  for (auto _ : state) {
    const sim::run_result r = run_copy<std::uint16_t>(copy_launch, p, input);
    sim::program_report report = sim::make_program_report(arch, r);
    benchmark::DoNotOptimize(report.instructions.data());
  }
  count(state, run_copy<std::uint16_t>(copy_launch, p, input));
}

const gemm_case gemm_row_major = gemm_64(gemm_lds_layout::row_major);
const gemm_case gemm_padded = gemm_64(gemm_lds_layout::padded);
const gemm_case gemm_ck_xor = gemm_64(gemm_lds_layout::ck_xor);
const gemm_case gemm_wave32 = gemm_64(gemm_lds_layout::ck_xor, 32, "sm90");
const gemm_case gemm_large = gemm_128();

BENCHMARK_CAPTURE(bm_gemm_engine, row_major, gemm_row_major)->Name("gemm/engine/row_major")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_gemm_engine, padded, gemm_padded)->Name("gemm/engine/padded")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_gemm_engine, ck_xor, gemm_ck_xor)->Name("gemm/engine/ck_xor")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_gemm_report, row_major, gemm_row_major)
    ->Name("gemm/engine+report/row_major")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_gemm_report, padded, gemm_padded)->Name("gemm/engine+report/padded")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_gemm_report, ck_xor, gemm_ck_xor)->Name("gemm/engine+report/ck_xor")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_gemm_report, wave32, gemm_wave32)->Name("gemm_wave32/engine+report")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_gemm_engine, large, gemm_large)->Name("gemm_128/engine")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_gemm_report, large, gemm_large)->Name("gemm_128/engine+report")->Unit(benchmark::kMillisecond);
BENCHMARK(bm_copy_engine)->Name("copy/engine")->Unit(benchmark::kMillisecond);
BENCHMARK(bm_copy_report)->Name("copy/engine+report")->Unit(benchmark::kMillisecond);

// Whether every GEMM case computes C exactly and every case runs clean; prints what failed.
bool cases_hold() {
  bool ok = true;
  for (const gemm_case* c : {&gemm_row_major, &gemm_padded, &gemm_ck_xor, &gemm_wave32, &gemm_large}) {
    const sim::run_result r = c->run();
    if (!r.clean() || r.memory.get<float>(c->params.c) != reference_gemm(c->params, c->a, c->b)) {
      std::fprintf(stderr, "run_program: a GEMM case (layout %d, wave %d) is wrong or not clean\n",
                   static_cast<int>(c->params.layout), c->wave_size);
      ok = false;
    }
  }
  const copy_params p = copy_case();
  const std::vector<std::uint16_t> input = copy_input<std::uint16_t>(copy_elements(copy_launch, p));
  const sim::run_result r = run_copy<std::uint16_t>(copy_launch, p, input);
  if (!r.clean() || r.memory.get<std::uint16_t>(1) != input) {
    std::fprintf(stderr, "run_program: the copy case is wrong or not clean\n");
    ok = false;
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
