// Tests of sim/synth/realise_layout: a bank map completed to a layout keeps the banks the search priced, and
// synthesize() answers with a gf2 or padded-xor layout, checked through its spec/ descriptor, when one is cheaper.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include "sim/synth/realise_layout.hpp"
#include "sim/synth/synth.hpp"

using namespace tilesim;
using namespace tilesim::synth;

TEST_CASE("complete_bank_map: the header's example, L = (0 1 1) -> A = {2, 1, 5}; rank below f -> empty") {
  // Law: A's first f rows are L, the other rows the unit rows of L's non-pivot bits, lowest first.
  CHECK(complete_bank_map({0, 1, 1}, 1) == std::vector<std::uint32_t>{2, 1, 5});
  CHECK(complete_bank_map({0, 0, 0}, 1).empty());
  // Graph form [I | M]: A = [I M; 0 I], the xor family's map.
  CHECK(complete_bank_map({1, 2, 3, 1}, 2) == std::vector<std::uint32_t>{1, 2, 3 | 4, 1 | 8});
}

TEST_CASE("complete_bank_map: every L of rank f over m <= 6 bits gives an invertible A whose low f bits are L h") {
  // Law: for every h, (A h) mod 2^f == L h, and A permutes [0, 2^m).
  int checked = 0;
  for (int m = 1; m <= 6; ++m)
    for (int f = 1; f <= std::min(m, 3); ++f) {
      std::mt19937 rng(static_cast<unsigned>(m * 7 + f));
      for (int trial = 0; trial < 40; ++trial) {
        std::vector<std::uint32_t> l(static_cast<std::size_t>(m));
        for (std::uint32_t& c : l) c = static_cast<std::uint32_t>(rng()) & ((1u << f) - 1u);
        const std::vector<std::uint32_t> a = complete_bank_map(l, f);
        if (a.empty()) continue;  // rank below f
        std::vector<int> hits(std::size_t{1} << m, 0);
        int wrong_bank = 0;
        for (std::uint32_t h = 0; h < (1u << m); ++h) {
          std::uint32_t ah = 0, lh = 0;
          for (int j = 0; j < m; ++j)
            if ((h >> j) & 1u) ah ^= a[static_cast<std::size_t>(j)], lh ^= l[static_cast<std::size_t>(j)];
          ++hits[ah];
          wrong_bank += (ah & ((1u << f) - 1u)) != lh;
        }
        CHECK(wrong_bank == 0);
        CHECK(std::count(hits.begin(), hits.end(), 1) == (1 << m));
        ++checked;
      }
    }
  CHECK(checked > 200);
}

namespace {

// Every 16-byte chunk of the tile once, in a random order, wave lanes per instruction.
tile_side shuffled_side(const tile_shape& t, int wave, sim::access_kind kind, std::mt19937& rng) {
  const int vec = 16 / t.elem_bytes;
  const index_t chunks = t.elements() / vec;
  std::vector<index_t> order(static_cast<std::size_t>(chunks));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  tile_side s;
  s.name = kind == sim::access_kind::store ? "shuffled write" : "shuffled read";
  for (index_t i = 0; i < chunks; i += wave) {
    tile_instruction ins{"i" + std::to_string(i / wave), kind, vec, {}};
    for (int l = 0; l < wave && i + l < chunks; ++l) {
      const index_t k = order[static_cast<std::size_t>(i + l)];
      ins.lanes.push_back({k * vec / t.cols, k * vec % t.cols});
    }
    s.instructions.push_back(std::move(ins));
  }
  return s;
}

}  // namespace

TEST_CASE("synthesize: a gf2 or padded-xor answer is a layout whose spec/ descriptor costs the certified number") {
  // Law: whenever the answer's family is gf2 or padded-xor, descriptor_offsets(answer) priced in the bank model
  // equals the answer's total and that family's certified best; on 12 shuffled sm90 / gfx942 tiles at least one
  // answer is such a layout (the README's 16 x 64 problem is one: gf2 56 against row-xor 58).
  int realised = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    synth_request r;
    r.arch = &sim::arch_named(seed % 2 ? "sm90" : "gfx942");
    r.tile = {16, 32, 2};
    std::mt19937 rng(seed);
    r.writer = shuffled_side(r.tile, r.arch->wave_size, sim::access_kind::store, rng);
    r.reader = shuffled_side(r.tile, r.arch->wave_size, sim::access_kind::load, rng);
    r.min_nodes = 200'000;
    r.min_seconds = 30.0;
    const synth_result s = synthesize(r);
    CAPTURE(seed);
    CAPTURE(s.best.layout.name());
    if (s.best_family != "gf2" && s.best_family != "padded-xor") continue;
    ++realised;
    const std::vector<index_t> off = descriptor_offsets(s.best.layout);
    CHECK(!check_bijection(s.best.layout, off));
    const long long again = price_side(*r.arch, r.tile, r.writer, off).wavefronts + price_side(*r.arch, r.tile, r.reader, off).wavefronts;
    CHECK(again == s.best.total());
    for (const family_certificate& c : s.certificate)
      if (c.family == s.best_family) CHECK(c.best == again);
    CHECK(!has_ck_spelling(s.best.layout));
    CHECK(spec_spelling(s.best.layout).find(s.best_family == "gf2" ? "make_gf2_linear_descriptor" : "make_padded_xor_descriptor") !=
          std::string::npos);
  }
  CHECK(realised >= 1);
}

TEST_CASE("synthesize on sm90: the ldmatrix family keeps every 16-byte chunk whole and is bounded by gf2") {
  // Law: with 4-byte sides the ldmatrix family is gf2 on 16-byte chunks: its layout keeps each aligned 8-element
  // fp16 chunk contiguous, costs its certified best, and best >= gf2's best, lower bound >= gf2's lower bound.
  int checked = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    synth_request r;
    r.arch = &sim::arch_named("sm90");
    r.tile = {16, 32, 2};
    std::mt19937 rng(seed);
    // 4-byte accesses (2 fp16) in random orders: finer chunks than ldmatrix allows.
    for (tile_side* side : {&r.writer, &r.reader}) {
      const sim::access_kind kind = side == &r.writer ? sim::access_kind::store : sim::access_kind::load;
      std::vector<index_t> order(256);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      side->name = side == &r.writer ? "w" : "r";
      for (index_t i = 0; i < 256; i += 32) {
        tile_instruction ins{"i" + std::to_string(i / 32), kind, 2, {}};
        for (int l = 0; l < 32; ++l) ins.lanes.push_back({order[static_cast<std::size_t>(i + l)] * 2 / 32, order[static_cast<std::size_t>(i + l)] * 2 % 32});
        side->instructions.push_back(std::move(ins));
      }
    }
    r.min_seconds = 30.0;
    const synth_result s = synthesize(r);
    CAPTURE(seed);
    if (!s.ldmatrix) continue;  // the enumerated best reached the ideal: nothing searched
    ++checked;
    const family_certificate *ld = nullptr, *gf2 = nullptr;
    for (const family_certificate& c : s.certificate) {
      if (c.family == "ldmatrix") ld = &c;
      if (c.family == "gf2") gf2 = &c;
    }
    REQUIRE(ld);
    REQUIRE(gf2);
    CHECK(ld->best == s.ldmatrix->total());
    CHECK(ld->best >= gf2->best);
    CHECK(ld->lower_bound >= gf2->lower_bound);
    CHECK(ld->lower_bound <= ld->best);
    const std::vector<index_t> off = descriptor_offsets(s.ldmatrix->layout);
    CHECK(!check_bijection(s.ldmatrix->layout, off));
    int split = 0;
    for (std::size_t e = 0; e < off.size(); ++e)
      if (e % 8) split += off[e] != off[e - 1] + 1;
    CHECK(split == 0);
    CHECK(s.ldmatrix->layout.keep_bits == 3);
  }
  CHECK(checked >= 3);
}

TEST_CASE("the rank bound is linear in the weights: bound(w, r) == w * bound(1, 0) + r * bound(0, 1), instruction weights too") {
  // Law (xor_bound.hpp, issue 36 item 2): each phase's bound counts as often as the objective counts the phase.
  // sm90 32 x 32 fp32, 16-byte row writes, a scalar column read (4 passes per phase: 32 words on 3 free bank bits).
  synth_request r;
  r.arch = &sim::arch_named("sm90");
  r.tile = {32, 32, 4};
  r.writer = named_side("warp-raked", r.tile, 256, 32, 4, sim::access_kind::store);
  for (index_t c = 0; c < 32; ++c) {
    tile_instruction col{"col" + std::to_string(c), sim::access_kind::load, 1, {}};
    for (index_t l = 0; l < 32; ++l) col.lanes.push_back({l, c});
    col.weight = 1 + c % 3;  // instruction weights 1, 2, 3
    r.reader.instructions.push_back(col);
  }
  r.reader.name = "cols";
  const xor_analysis w = analyse_xor(*r.arch, r.tile, r.writer, r.reader, 4, 20'000'000, 1, 0);
  const xor_analysis rd = analyse_xor(*r.arch, r.tile, r.writer, r.reader, 4, 20'000'000, 0, 1);
  const xor_analysis both = analyse_xor(*r.arch, r.tile, r.writer, r.reader, 4, 20'000'000, 3, 5);
  REQUIRE(both.applicable);
  CHECK(w.lower_bound == 32);                         // 8 writes of 4 phases, 1 pass each
  CHECK(rd.lower_bound == 4 * (11 * 1 + 11 * 2 + 10 * 3));  // every column read at least 4 passes, weighted 1/2/3
  CHECK(both.lower_bound == 3 * w.lower_bound + 5 * rd.lower_bound);
  // ... and it stays below the weighted answer synth prices.
  r.write_weight = 3;
  r.read_weight = 5;
  const synth_result s = synthesize(r);
  CHECK(s.xor_info.lower_bound == both.lower_bound);
  CHECK(s.xor_info.lower_bound <= s.best.total());
}
