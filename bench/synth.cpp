// tilesim/bench/synth.cpp: how long `tilesim synth` and `tilesim prove` take (issue 14's targets: synthesis of a
// 128x64 fp16 tile with MFMA or ldmatrix reads under 1 s; the CK LDS grid proof on one core under 60 s).
//
// BENCHMARKS.
//   synth/sm90_ldmatrix_128x64      warp-raked 16-byte writes, ldmatrix.x4 reads, every family
//   synth/gfx942_mfma_128x64        warp-raked writes, MFMA 32x32x8 A reads, every family
//   synth/gfx950_mfma_128x64        the same on gfx950's 64 banks
//   synth/sm90_two_readers_256x128  issue 36's target (under 1 s on one core): 256 x 128 fp16, warp-raked writes,
//                                   two readers (ldmatrix and down-rows), every family and the branch-and-bound
//   synth/gfx942_two_readers_256x128  the same with MFMA 32x32x8 and down-rows reads on gfx942
//   synth/sm90_ldmatrix_and_shuffled_256x128  256 x 128 fp16, readers ldmatrix and a random lane order: the ideal out
//                                   of reach, so the branch-and-bound runs (to the library's node limit)
//   synth/sm90_shuffled_32x64       issue 36's hard kind: writer and reader visit the 16-byte chunks in random lane
//                                   orders, the ideal out of reach: the branch-and-bound at the library's node limit
//   prove/ck_lds_bijective          the whole ck-lds bijective grid (7500 points), one shard
//   prove/ck_lds_conflict_free      the whole ck-lds conflict-free grid (6144 points, 4 arches), one shard
//   prove/cute_bijective            the whole cute bijective grid (26244 points)
//
// RUN: taskset -c 1 build-release/bench/synth --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

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

// Issue 36's two readers: read's instructions then read2's, each counted once.
synth_request two_readers(const char* arch, const char* read, const char* read2) {
  synth_request r;
  r.arch = &sim::arch_named(arch);
  r.tile = {256, 128, 2};
  r.writer = named_side("warp-raked", r.tile, 256, r.arch->wave_size, 8, sim::access_kind::store);
  r.reader = named_side(read, r.tile, 256, r.arch->wave_size, 8, sim::access_kind::load);
  for (tile_instruction& i : named_side(read2, r.tile, 256, r.arch->wave_size, 8, sim::access_kind::load).instructions)
    r.reader.instructions.push_back(std::move(i));
  return r;
}

// Every chunk once, in a fixed pseudo-random lane order per side (Fisher-Yates over mt19937).
synth_request shuffled(const char* arch, index_t rows, index_t cols) {
  synth_request r;
  r.arch = &sim::arch_named(arch);
  r.tile = {rows, cols, 2};
  std::mt19937 rng(36);
  for (tile_side* s : {&r.writer, &r.reader}) {
    const auto kind = s == &r.writer ? sim::access_kind::store : sim::access_kind::load;
    std::vector<index_t> order(static_cast<std::size_t>(rows * cols / 8));
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<index_t>(i);
    for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
    for (std::size_t i = 0; i < order.size(); i += static_cast<std::size_t>(r.arch->wave_size)) {
      tile_instruction ins{"i" + std::to_string(i), kind, 8, {}};
      for (std::size_t l = i; l < i + static_cast<std::size_t>(r.arch->wave_size); ++l)
        ins.lanes.push_back({order[l] * 8 / cols, order[l] * 8 % cols});
      s->instructions.push_back(std::move(ins));
    }
  }
  return r;
}

// Two readers where the ideal is out of reach: ldmatrix, then every chunk in a random lane order.
synth_request ldmatrix_and_shuffled() {
  synth_request r = two_readers("sm90", "ldmatrix", "down-rows");
  r.reader = named_side("ldmatrix", r.tile, 256, 32, 8, sim::access_kind::load);
  for (tile_instruction& i : shuffled("sm90", 256, 128).reader.instructions) r.reader.instructions.push_back(std::move(i));
  return r;
}

void bm_request(benchmark::State& state, const synth_request& r) {
  long long best = 0, bound = 0;
  for (auto _ : state) {
    const synth_result s = synthesize(r);
    best = s.best.total();
    bound = s.lower_bound;
  }
  state.counters["wavefronts"] = static_cast<double>(best);
  state.counters["lower_bound"] = static_cast<double>(bound);
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
BENCHMARK_CAPTURE(bm_request, sm90_two_readers_256x128, two_readers("sm90", "ldmatrix", "down-rows"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_request, gfx942_two_readers_256x128, two_readers("gfx942", "mfma", "down-rows"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_request, sm90_ldmatrix_and_shuffled_256x128, ldmatrix_and_shuffled())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_request, sm90_shuffled_32x64, shuffled("sm90", 32, 64))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_prove, ck_lds_bijective, "ck-lds", "bijective")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(bm_prove, ck_lds_conflict_free, "ck-lds", "conflict-free")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(bm_prove, cute_bijective, "cute", "bijective")->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
