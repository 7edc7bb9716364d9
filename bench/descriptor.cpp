// tilesim/bench/descriptor.cpp: what spec/'s descriptors cost against the index expression written by hand.
//
// SUBJECT. CK's XOR-preshuffled LDS layout, fp16, MPerBlock=128 KPerBlock=32 KPack=8 (so MLdsLayer L=2,
// K0=4), the worked example of spec/layouts/ck_lds_xor.hpp, in four builds of the same map:
//
//   descriptor, compile-time lengths   tilesim::ck_lds_xor_descriptor<ck_lds_xor_params{128, 32, 8}>
//   descriptor, run-time lengths       make_ck_lds_xor_descriptor(params), params read from volatiles
//   hand-written, compile-time         offset(m, k) = ((l*K0 + k0) XOR (m' mod (K0*L)))*KPack
//                                                      + m'*(KPerBlock*L) + kp,  m'=m/L l=m%L k0=k/KPack kp=k%KPack
//   hand-written, run-time             the same expression with L, K0, KPack, KPerBlock read from volatiles
//
// BENCHMARKS. offset/*: calculate_offset at all 128 x 32 (m, k) per iteration. walk/*: the 128 x 4 KPack
// vectors of the tile visited row by row, by make_coordinate once then move({0, 8}) along k and
// move({1, -24}) to the next row, against calculate_offset at each vector and the hand-written expression.
// Offsets are summed into a sink kept alive by benchmark::DoNotOptimize; the row index passes through
// opaque() (an empty asm, no memory clobber) so the compiler cannot fold a whole compile-time tile into one
// constant; opaque_row() then restores what it knows of a loop counter, m >= 0. The *_sign_unknown cases
// leave that out: then spec/'s floor division (exact for negative indices) and C++'s truncating `/` both
// need sign fix-ups, and the compiler handles them differently. Counter `per_offset` is time per offset
// (per vector for walk/*); items_per_second counts the same.
//
// Before any timing, main() checks that all builds agree at every (m, k) and that the walk visits the
// right offsets; a mismatch exits 1.
//
// RUN (release build; pin to one core on a shared machine):
//   meson setup build-release --buildtype=release && ninja -C build-release bench/descriptor
//   taskset -c 1 build-release/bench/descriptor --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdio>

#include "spec/spec.hpp"

using tilesim::index_t;

namespace {

constexpr index_t m_per_block = 128, k_per_block = 32, k_pack = 8;
constexpr tilesim::ck_lds_xor_params fixed_params{m_per_block, k_per_block, k_pack};
constexpr auto& fixed_desc = tilesim::ck_lds_xor_descriptor<fixed_params>;
constexpr index_t tile_elements = m_per_block * k_per_block;
constexpr index_t tile_vectors = m_per_block * (k_per_block / k_pack);

// Parameters the compiler cannot see: read once per benchmark, outside the timed loop.
volatile index_t v_m_per_block = m_per_block, v_k_per_block = k_per_block, v_k_pack = k_pack;

tilesim::ck_lds_xor_params run_time_params() { return {v_m_per_block, v_k_per_block, v_k_pack}; }

// Hides a value from the optimizer without touching memory ...
inline index_t opaque(index_t v) {
  asm volatile("" : "+r"(v));
  return v;
}
// ... but keeps what a loop counter's consumer knows: it is >= 0 (so floor and truncating division agree).
inline index_t opaque_row(index_t v) {
  v = opaque(v);
  if (v < 0) __builtin_unreachable();
  return v;
}

// The hand-written expression; with compile-time constants ...
constexpr index_t hand_offset(index_t m, index_t k) {
  constexpr index_t L = 2, K0 = 4, KP = 8, KPB = 32;
  const index_t mp = m / L, l = m % L, k0 = k / KP, kp = k % KP;
  return ((l * K0 + k0) ^ (mp % (K0 * L))) * KP + mp * (KPB * L) + kp;
}

// ... and its run-time twin.
struct hand_params {
  index_t L, K0, KP, KPB;
  index_t offset(index_t m, index_t k) const {
    const index_t mp = m / L, l = m % L, k0 = k / KP, kp = k % KP;
    return ((l * K0 + k0) ^ (mp % (K0 * L))) * KP + mp * (KPB * L) + kp;
  }
};

hand_params run_time_hand_params() {
  const tilesim::ck_lds_xor_params p = run_time_params();
  return {p.layers(), p.k0(), p.k_pack, p.k_per_block};
}

void per_offset_counters(benchmark::State& state, index_t per_iteration) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * per_iteration);
  state.counters["per_offset"] = benchmark::Counter(
      static_cast<double>(per_iteration), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Sums f(m, k) over the whole tile; SignKnown: the compiler may use m >= 0.
template <bool SignKnown = true, class F>
void tile_offsets(benchmark::State& state, F f) {
  for (auto _ : state) {
    index_t sink = 0;
    for (index_t m = 0; m < m_per_block; ++m) {
      const index_t mo = SignKnown ? opaque_row(m) : opaque(m);
      for (index_t k = 0; k < k_per_block; ++k) sink += f(mo, k);
    }
    benchmark::DoNotOptimize(sink);
  }
  per_offset_counters(state, tile_elements);
}

// Sums f(m, k) over the KPack vectors of the tile (k = 0, 8, 16, 24).
template <class F>
void tile_vectors_at(benchmark::State& state, F f) {
  for (auto _ : state) {
    index_t sink = 0;
    for (index_t m = 0; m < m_per_block; ++m) {
      const index_t mo = opaque_row(m);
      for (index_t k = 0; k < k_per_block; k += k_pack) sink += f(mo, k);
    }
    benchmark::DoNotOptimize(sink);
  }
  per_offset_counters(state, tile_vectors);
}

// Visits the same vectors by moving one coordinate: along k by KPack, then to the start of the next row.
// `desc()` returns the descriptor: for the compile-time one it names the constexpr variable itself, so the
// ids and lengths stay constants even where the compiler does not inline walk_sum into its caller.
template <class Desc>
index_t walk_sum(Desc desc) {
  const auto& d = desc();
  index_t sink = 0;
  auto c = d.make_coordinate({0, 0});
  const index_t row_back = -(k_per_block - k_pack);
  for (index_t m = 0; m < m_per_block; ++m) {
    for (index_t k = 0; k < k_per_block; k += k_pack) {
      sink += c.offset();
      if (k + k_pack < k_per_block) d.move(c, {0, k_pack});
    }
    d.move(c, {opaque(1), row_back});
  }
  return sink;
}

template <class Desc>
void walk_moves(benchmark::State& state, Desc desc) {
  for (auto _ : state) {
    index_t sink = walk_sum(desc);
    benchmark::DoNotOptimize(sink);
  }
  per_offset_counters(state, tile_vectors);
}

// ---- offset/*: calculate_offset at every element --------------------------------------------------------

void offset_descriptor_compile_time(benchmark::State& state) {
  tile_offsets(state, [](index_t m, index_t k) { return fixed_desc.calculate_offset({m, k}); });
}
void offset_descriptor_run_time(benchmark::State& state) {
  const auto d = tilesim::make_ck_lds_xor_descriptor(run_time_params());
  tile_offsets(state, [&](index_t m, index_t k) { return d.calculate_offset({m, k}); });
}
void offset_hand_written_compile_time(benchmark::State& state) {
  tile_offsets(state, [](index_t m, index_t k) { return hand_offset(m, k); });
}
void offset_hand_written_run_time(benchmark::State& state) {
  const hand_params h = run_time_hand_params();
  tile_offsets(state, [&](index_t m, index_t k) { return h.offset(m, k); });
}
void offset_descriptor_compile_time_sign_unknown(benchmark::State& state) {
  tile_offsets<false>(state, [](index_t m, index_t k) { return fixed_desc.calculate_offset({m, k}); });
}
void offset_hand_written_compile_time_sign_unknown(benchmark::State& state) {
  tile_offsets<false>(state, [](index_t m, index_t k) { return hand_offset(m, k); });
}
void offset_make_coordinate_compile_time(benchmark::State& state) {
  tile_offsets(state, [](index_t m, index_t k) { return fixed_desc.make_coordinate({m, k}).offset(); });
}

// ---- walk/*: one KPack vector after another --------------------------------------------------------------

constexpr auto fixed_source = []() -> const auto& { return fixed_desc; };

void walk_move_compile_time(benchmark::State& state) { walk_moves(state, fixed_source); }
void walk_move_run_time(benchmark::State& state) {
  const auto d = tilesim::make_ck_lds_xor_descriptor(run_time_params());
  walk_moves(
      state, [&]() -> const auto& { return d; });
}
void walk_recompute_compile_time(benchmark::State& state) {
  tile_vectors_at(state, [](index_t m, index_t k) { return fixed_desc.calculate_offset({m, k}); });
}
void walk_recompute_run_time(benchmark::State& state) {
  const auto d = tilesim::make_ck_lds_xor_descriptor(run_time_params());
  tile_vectors_at(state, [&](index_t m, index_t k) { return d.calculate_offset({m, k}); });
}
void walk_hand_written_compile_time(benchmark::State& state) {
  tile_vectors_at(state, [](index_t m, index_t k) { return hand_offset(m, k); });
}
void walk_hand_written_run_time(benchmark::State& state) {
  const hand_params h = run_time_hand_params();
  tile_vectors_at(state, [&](index_t m, index_t k) { return h.offset(m, k); });
}

BENCHMARK(offset_descriptor_compile_time)->Name("offset/descriptor_compile_time");
BENCHMARK(offset_hand_written_compile_time)->Name("offset/hand_written_compile_time");
BENCHMARK(offset_descriptor_run_time)->Name("offset/descriptor_run_time");
BENCHMARK(offset_hand_written_run_time)->Name("offset/hand_written_run_time");
BENCHMARK(offset_descriptor_compile_time_sign_unknown)->Name("offset/descriptor_compile_time_sign_unknown");
BENCHMARK(offset_hand_written_compile_time_sign_unknown)->Name("offset/hand_written_compile_time_sign_unknown");
BENCHMARK(offset_make_coordinate_compile_time)->Name("offset/make_coordinate_compile_time");
BENCHMARK(walk_move_compile_time)->Name("walk/move_compile_time");
BENCHMARK(walk_recompute_compile_time)->Name("walk/recompute_compile_time");
BENCHMARK(walk_hand_written_compile_time)->Name("walk/hand_written_compile_time");
BENCHMARK(walk_move_run_time)->Name("walk/move_run_time");
BENCHMARK(walk_recompute_run_time)->Name("walk/recompute_run_time");
BENCHMARK(walk_hand_written_run_time)->Name("walk/hand_written_run_time");

// All four builds must be the same map, and the walk must visit the same offsets, or the timings compare
// different work.
bool builds_agree() {
  const auto d = tilesim::make_ck_lds_xor_descriptor(run_time_params());
  const hand_params h = run_time_hand_params();
  index_t vector_sum = 0;
  for (index_t m = 0; m < m_per_block; ++m)
    for (index_t k = 0; k < k_per_block; ++k) {
      const index_t want = hand_offset(m, k);
      if (fixed_desc.calculate_offset({m, k}) != want || d.calculate_offset({m, k}) != want || h.offset(m, k) != want ||
          fixed_desc.make_coordinate({m, k}).offset() != want) {
        std::fprintf(stderr, "descriptor bench: the builds disagree at (m, k) = (%lld, %lld)\n",
                     static_cast<long long>(m), static_cast<long long>(k));
        return false;
      }
      if (k % k_pack == 0) vector_sum += want;
    }
  if (walk_sum(fixed_source) != vector_sum || walk_sum([&]() -> const auto& { return d; }) != vector_sum) {
    std::fprintf(stderr, "descriptor bench: the coordinate walk visits other offsets than the recomputation\n");
    return false;
  }
  // The worked example of spec/layouts/ck_lds_xor.hpp: m = 2 at k = 0, 8, 16, 24.
  static_assert(fixed_desc.calculate_offset({2, 0}) == 72 && fixed_desc.calculate_offset({2, 8}) == 64 &&
                fixed_desc.calculate_offset({2, 16}) == 88 && fixed_desc.calculate_offset({2, 24}) == 80);
  static_assert(hand_offset(2, 0) == 72 && hand_offset(2, 8) == 64 && hand_offset(2, 16) == 88 &&
                hand_offset(2, 24) == 80);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (!builds_agree()) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
