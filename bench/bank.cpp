// tilesim/bench/bank.cpp: lane-accesses per second of the LDS and global models and of `tilesim bank`'s loop.
//
// SUBJECT. A generated pattern set (deterministic): widths 1/2/4/8/16 mixed, loads and stores, offsets
// random, strided (conflicting and not), broadcast, paired (sm90's merge paths) and partly inactive. One
// "lane-access" is one lane of one pattern; items_per_second counts them (32 per sm90 pattern, 64 per AMD).
//
// BENCHMARKS.
//   lds_cost/<arch>        lds_instruction_cost alone over 4096 in-memory patterns
//   lds_cost_cycles/<arch> lds_instruction_cost + steady_cycles (what `tilesim bank` computes per line)
//   global_cost/sm90       global_instruction_cost
//   parse/sm90             pattern_reader over the same patterns as text (no pricing)
//   bank_loop/<arch>       text in, "NAME WAVEFRONTS CYCLES" lines out, as `tilesim bank` does minus the I/O
//
// END TO END. `--write-patterns FILE N ARCH` writes N generated lines for `tilesim bank` and exits:
//   meson setup build-ha-release --buildtype=release && ninja -C build-ha-release bench/bank cli/tilesim
//   build-ha-release/bench/bank --write-patterns /tmp/big.patterns 1000000 sm90
//   time taskset -c 1 build-ha-release/cli/tilesim bank --arch sm90 /tmp/big.patterns > /dev/null
// (lane-accesses per second = 32 000 000 / the elapsed seconds).
//
// RUN: taskset -c 1 build-ha-release/bench/bank --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/models/global_coalescing.hpp"
#include "sim/models/lds_banks.hpp"
#include "sim/models/lds_timing.hpp"
#include "sim/patterns/pattern_file.hpp"

using namespace tilesim::sim;

namespace {

// The i-th generated pattern for `arch`, as a pattern-file line (no newline).
std::string pattern_line(const arch_table& arch, std::uint64_t i) {
  std::uint64_t state = i * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 33);
  };
  const int width = 1 << (next() % 5);
  const bool load = next() % 2;
  const int style = static_cast<int>(next() % 6);
  const std::uint32_t stride = width * (1 + next() % 33);
  std::string s = "p";  // appended piece by piece: g++ 12 -O3 warns (-Wrestrict, falsely) on "p" + std::string
  s += std::to_string(i);
  s += ' ';
  s += std::to_string(width);
  s += load ? " load" : " store";
  for (int lane = 0; lane < arch.wave_size; ++lane) {
    std::uint32_t off;
    switch (style) {
      case 0: off = (next() % 4096) * width; break;                          // random
      case 1: off = lane * stride; break;                                    // strided
      case 2: off = lane * width; break;                                     // linear
      case 3: off = 64 * width; break;                                       // broadcast
      case 4: off = (lane / 2) * stride; break;                              // paired
      default: off = next() % 4 == 0 ? 4294967295u : lane * 2 * width; break;  // partly inactive
    }
    s += ' ';
    s += std::to_string(off);
  }
  return s;
}

std::string pattern_text(const arch_table& arch, int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += pattern_line(arch, static_cast<std::uint64_t>(i)) + "\n";
  return text;
}

std::vector<wave_access> patterns(const arch_table& arch, int n) {
  std::istringstream in(pattern_text(arch, n));
  pattern_reader reader(in, arch, memory_space::lds);
  std::vector<wave_access> v;
  wave_access a;
  while (reader.next(a) == pattern_reader::result::pattern) v.push_back(a);
  return v;
}

constexpr int set_size = 4096;

void bm_lds_cost(benchmark::State& state, const char* arch_name) {
  const arch_table& arch = arch_named(arch_name);
  const std::vector<wave_access> set = patterns(arch, set_size);
  for (auto _ : state)
    for (const wave_access& a : set) benchmark::DoNotOptimize(lds_instruction_cost(arch, a));
  state.SetItemsProcessed(state.iterations() * set_size * arch.wave_size);
}

void bm_lds_cost_cycles(benchmark::State& state, const char* arch_name) {
  const arch_table& arch = arch_named(arch_name);
  const std::vector<wave_access> set = patterns(arch, set_size);
  for (auto _ : state)
    for (const wave_access& a : set) {
      const lds_cost c = lds_instruction_cost(arch, a);
      benchmark::DoNotOptimize(steady_cycles(arch, a, c));
    }
  state.SetItemsProcessed(state.iterations() * set_size * arch.wave_size);
}

void bm_global_cost(benchmark::State& state) {
  const arch_table& arch = arch_named("sm90");
  const std::vector<wave_access> set = patterns(arch, set_size);
  for (auto _ : state)
    for (const wave_access& a : set) benchmark::DoNotOptimize(global_instruction_cost(arch, a));
  state.SetItemsProcessed(state.iterations() * set_size * arch.wave_size);
}

void bm_parse(benchmark::State& state) {
  const arch_table& arch = arch_named("sm90");
  const std::string text = pattern_text(arch, set_size);
  wave_access a;
  for (auto _ : state) {
    std::istringstream in(text);
    pattern_reader reader(in, arch, memory_space::lds);
    while (reader.next(a) == pattern_reader::result::pattern) benchmark::DoNotOptimize(a.address.data());
  }
  state.SetItemsProcessed(state.iterations() * set_size * arch.wave_size);
}

void bm_bank_loop(benchmark::State& state, const char* arch_name) {
  const arch_table& arch = arch_named(arch_name);
  const std::string text = pattern_text(arch, set_size);
  wave_access a;
  std::string out;
  for (auto _ : state) {
    std::istringstream in(text);
    pattern_reader reader(in, arch, memory_space::lds);
    out.clear();
    while (reader.next(a) == pattern_reader::result::pattern) {
      const lds_cost c = lds_instruction_cost(arch, a);
      char buf[64];
      out += a.label;
      out += ' ';
      out.append(buf, std::to_chars(buf, buf + sizeof buf, c.wavefronts).ptr);
      out += ' ';
      out.append(buf, std::to_chars(buf, buf + sizeof buf, steady_cycles(arch, a, c), std::chars_format::fixed, 3).ptr);
      out += '\n';
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * set_size * arch.wave_size);
}

BENCHMARK_CAPTURE(bm_lds_cost, sm90, "sm90")->Name("lds_cost/sm90");
BENCHMARK_CAPTURE(bm_lds_cost, gfx942, "gfx942")->Name("lds_cost/gfx942");
BENCHMARK_CAPTURE(bm_lds_cost, gfx950, "gfx950")->Name("lds_cost/gfx950");
BENCHMARK_CAPTURE(bm_lds_cost_cycles, sm90, "sm90")->Name("lds_cost_cycles/sm90");
BENCHMARK_CAPTURE(bm_lds_cost_cycles, gfx942, "gfx942")->Name("lds_cost_cycles/gfx942");
BENCHMARK(bm_global_cost)->Name("global_cost/sm90");
BENCHMARK(bm_parse)->Name("parse/sm90");
BENCHMARK_CAPTURE(bm_bank_loop, sm90, "sm90")->Name("bank_loop/sm90");
BENCHMARK_CAPTURE(bm_bank_loop, gfx942, "gfx942")->Name("bank_loop/gfx942");

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--write-patterns") == 0) {
    if (argc != 5) {
      std::fprintf(stderr, "usage: bank --write-patterns FILE N ARCH\n");
      return 2;
    }
    std::ofstream out(argv[2]);
    const arch_table& arch = arch_named(argv[4]);
    const long n = std::stol(argv[3]);
    for (long i = 0; i < n; ++i) out << pattern_line(arch, static_cast<std::uint64_t>(i)) << '\n';
    return out ? 0 : 1;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
