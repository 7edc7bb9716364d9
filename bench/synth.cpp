// tilesim/bench/synth.cpp: how long `tilesim synth` and `tilesim prove` take (issue 14's targets: synthesis of a
// 128x64 fp16 tile with MFMA or ldmatrix reads under 1 s; the CK LDS grid proof on one core under 60 s).
//
// BENCHMARKS.
//   synth/sm90_ldmatrix_128x64      warp-raked 16-byte writes, ldmatrix.x4 reads, every family
//   synth/gfx942_mfma_128x64        warp-raked writes, MFMA 32x32x8 A reads, every family
//   synth/gfx950_mfma_128x64        the same on gfx950's 64 banks
//   prove/ck_lds_bijective          the whole ck-lds bijective grid (7500 points), one shard
//   prove/ck_lds_conflict_free      the whole ck-lds conflict-free grid (6144 points, 4 arches), one shard
//   prove/cute_bijective            the whole cute bijective grid (26244 points)
//
// RUN: taskset -c 1 build-release/bench/synth --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "sim/synth/prove.hpp"
#include "sim/synth/synth.hpp"

using namespace tilesim;
using namespace tilesim::synth;

namespace {

synth_request request(const char* arch, const char* read) {
  synth_request r;
  r.arch = &sim::arch_named(arch);
  r.tile = {128, 64, 2};
  r.writer = named_side("warp-raked", r.tile, 256, r.arch->wave_size, 8, sim::access_kind::store);
  r.reader = named_side(read, r.tile, 256, r.arch->wave_size, 8, sim::access_kind::load);
  return r;
}

void bm_synth(benchmark::State& state, const char* arch, const char* read) {
  const synth_request r = request(arch, read);
  for (auto _ : state) benchmark::DoNotOptimize(synthesize(r).best.total());
}

void bm_prove(benchmark::State& state, const char* grid, const char* kind) {
  const claim c = make_claim(grid, kind);
  for (auto _ : state) benchmark::DoNotOptimize(run_claim(c, 1, 1).checked);
  state.counters["points"] = static_cast<double>(c.points());
}

}  // namespace

BENCHMARK_CAPTURE(bm_synth, sm90_ldmatrix_128x64, "sm90", "ldmatrix")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_synth, gfx942_mfma_128x64, "gfx942", "mfma")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_synth, gfx950_mfma_128x64, "gfx950", "mfma")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_prove, ck_lds_bijective, "ck-lds", "bijective")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(bm_prove, ck_lds_conflict_free, "ck-lds", "conflict-free")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(bm_prove, cute_bijective, "cute", "bijective")->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
