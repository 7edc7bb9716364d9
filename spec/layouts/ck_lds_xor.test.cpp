// Laws of layouts/ck_lds_xor.hpp: CK Tile's XOR-preshuffled LDS layout for a K-major GEMM operand.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
// The essay's closed form: ((l*K0 + k0) XOR (m' mod (K0*L))) * KPack + m' * (KPerBlock*L) + kp.
constexpr index_t closed_form(const ck_lds_xor_params& p, index_t m, index_t k) {
  const index_t L = p.layers(), K0 = p.k0(), KP = p.k_pack;
  const index_t mp = m / L, l = m % L, k0 = k / KP, kp = k % KP;
  return ((l * K0 + k0) ^ (mp % (K0 * L))) * KP + mp * (p.k_per_block * L) + kp;
}

// The offsets of rows m = 0..3 at k = 0, 8, 16, 24 from the acceptance example.
constexpr index_t example[4][4] = {{0, 8, 16, 24}, {32, 40, 48, 56}, {72, 64, 88, 80}, {104, 96, 120, 112}};

// True when d reproduces the example table (usable in a constant expression).
template <class D>
constexpr bool matches_example(const D& d) {
  for (index_t m = 0; m < 4; ++m)
    for (index_t j = 0; j < 4; ++j)
      if (d.calculate_offset({m, 8 * j}) != example[m][j]) return false;
  return true;
}
}  // namespace

TEST_CASE("CK LDS XOR, fp16 MPerBlock=128 KPerBlock=32 KPack=8: MLdsLayer = 2 and K0 = 4") {
  constexpr ck_lds_xor_params p{128, 32, 8};
  static_assert(p.layers() == 2);
  static_assert(p.k0() == 4);
  CHECK(p.layers() == 2);
  CHECK(p.k0() == 4);
}

TEST_CASE("CK LDS XOR 128x32x8: m=0..3 at k=0,8,16,24 give 0 8 16 24 / 32 40 48 56 / 72 64 88 80 / 104 96 120 112") {
  const auto d = make_ck_lds_xor_descriptor({128, 32, 8});
  CHECK(d.lengths() == multi_index<2>{128, 32});
  CHECK(d.element_space_size == 4096);
  for (index_t m = 0; m < 4; ++m)
    for (index_t j = 0; j < 4; ++j) {
      CAPTURE(m);
      CAPTURE(j);
      CHECK(d.calculate_offset({m, 8 * j}) == example[m][j]);
    }
}

TEST_CASE("the compile-time ck_lds_xor_descriptor<{128, 32, 8}> folds the same offsets in static_assert") {
  constexpr const auto& d = ck_lds_xor_descriptor<ck_lds_xor_params{128, 32, 8}>;
  static_assert(d.calculate_offset({2, 0}) == 72);
  static_assert(d.calculate_offset({3, 24}) == 112);
  static_assert(d.calculate_offset({127, 31}) == closed_form(ck_lds_xor_params{128, 32, 8}, 127, 31));
  static_assert(matches_example(d));
  CHECK(matches_example(d));
}

namespace {
// Scans a 128x32 tile: how many offsets in [0, 4096) are hit exactly once, and how many differ from the
// closed form.
struct tile_scan {
  index_t hit_once = 0;
  int mismatches = 0;
};
tile_scan scan_128x32(const ck_lds_xor_params& p) {
  const auto d = make_ck_lds_xor_descriptor(p);
  std::vector<int> hits(4096, 0);
  tile_scan r;
  for (index_t m = 0; m < 128; ++m)
    for (index_t k = 0; k < 32; ++k) {
      const index_t o = d.calculate_offset({m, k});
      REQUIRE(o >= 0);
      REQUIRE(o < 4096);
      ++hits[o];
      r.mismatches += o != closed_form(p, m, k);
    }
  r.hit_once = std::count(hits.begin(), hits.end(), 1);
  return r;
}
}  // namespace

TEST_CASE("CK LDS XOR 128x32x8 is a bijection of the tile onto [0, 4096)") {
  CHECK(scan_128x32({128, 32, 8}).hit_once == 4096);
}

TEST_CASE("CK LDS XOR 128x32x8 agrees with the essay's closed form at every (m, k), and inverts") {
  const ck_lds_xor_params p{128, 32, 8};
  const auto d = make_ck_lds_xor_descriptor(p);
  int mismatches = 0, not_inverted = 0;
  for (index_t m = 0; m < 128; ++m)
    for (index_t k = 0; k < 32; ++k) {
      const index_t o = d.calculate_offset({m, k});
      mismatches += o != closed_form(p, m, k);
      const auto back = d.graph.top_index({o});
      not_inverted += !(back.found && back.index == multi_index<2>{m, k});
    }
  CHECK(mismatches == 0);
  CHECK(not_inverted == 0);
}

TEST_CASE("CK LDS XOR keeps a guaranteed vector of KPack elements with stride 1 on k and none on m") {
  const auto v = make_ck_lds_xor_descriptor({128, 32, 8}).top_vectors();
  CHECK(v[1] == vector_guarantee{8, 1});
  CHECK(v[0] == vector_guarantee{unknown, unknown});
  CHECK(make_ck_lds_xor_descriptor({64, 64, 4}).top_vectors()[1] == vector_guarantee{4, 1});
}

TEST_CASE("CK LDS XOR on gfx950 (64 banks): MLdsLayer = 4, a bijection that matches the closed form") {
  const ck_lds_xor_params p{.m_per_block = 128, .k_per_block = 32, .k_pack = 8, .banks = 64};
  CHECK(p.layers() == 4);
  const tile_scan scan = scan_128x32(p);
  CHECK(scan.mismatches == 0);
  CHECK(scan.hit_once == 4096);
}

TEST_CASE("CK LDS XOR derives MLdsLayer = max(1, 128 / KPerBlock / bytes) unless it is given") {
  CHECK(ck_lds_xor_params{128, 64, 8}.layers() == 1);
  CHECK(ck_lds_xor_params{128, 16, 8}.layers() == 4);
  CHECK(ck_lds_xor_params{128, 32, 8, 4}.layers() == 1);
  CHECK(ck_lds_xor_params{128, 32, 8, 2, 1}.layers() == 1);
  const auto flat = make_ck_lds_xor_descriptor({128, 32, 8, 2, 1});  // one tile row per LDS row: key m mod 4
  CHECK(flat.calculate_offset({1, 0}) == 32 + 8);
  CHECK(flat.calculate_offset({3, 8}) == 96 + 16);
}

TEST_CASE("CK LDS XOR rejects KPerBlock 30 with KPack 8, naming both") {
  const auto [broken, message] = error_of([] { (void)make_ck_lds_xor_descriptor({128, 30, 8}); });
  CHECK(broken == rule::ck_lds_k_pack_not_dividing);
  CHECK(message == "tilesim: ck_lds_xor: KPerBlock must be a multiple of KPack (KPerBlock = 30, KPack = 8)");
}

TEST_CASE("CK LDS XOR rejects K0*MLdsLayer = 6 (KPerBlock 48) because the xor would leave its range") {
  const auto [broken, message] = error_of([] { (void)make_ck_lds_xor_descriptor({128, 48, 8}); });
  CHECK(broken == rule::xor_length_not_power_of_two);
  CHECK(message == "tilesim: ck_lds_xor: xor_t: the second length L1 must be a power of two (K0*MLdsLayer = 6)");
}

TEST_CASE("CK LDS XOR rejects MPerBlock 127 (MLdsLayer 2) and a bank count of 48") {
  const auto odd_m = error_of([] { (void)make_ck_lds_xor_descriptor({127, 32, 8}); });
  CHECK(odd_m.first == rule::ck_lds_layers_not_dividing);
  CHECK(odd_m.second ==
        "tilesim: ck_lds_xor: MPerBlock must be a multiple of MLdsLayer (MPerBlock = 127, MLdsLayer = 2)");
  const ck_lds_xor_params banks48{.m_per_block = 128, .k_per_block = 32, .k_pack = 8, .banks = 48};
  const auto bad_banks = error_of([&] { (void)make_ck_lds_xor_descriptor(banks48); });
  CHECK(bad_banks.first == rule::ck_lds_banks_invalid);
  CHECK(bad_banks.second ==
        "tilesim: ck_lds_xor: the bank count must be a power of two and the element size >= 1 "
        "(banks = 48, element_bytes = 2, MLdsLayer = 0)");
}

// ---- The 2024 unmerge order (K0, L): s = k0*L + l instead of l*K0 + k0, before the same XOR. ----

namespace {
// The essay's 2024 closed form: ((k0*L + l) XOR (m' mod (K0*L))) * KPack + m' * (KPerBlock*L) + kp.
constexpr index_t closed_form_2024(const ck_lds_xor_params& p, index_t m, index_t k) {
  const index_t L = p.layers(), K0 = p.k0(), KP = p.k_pack;
  const index_t mp = m / L, l = m % L, k0 = k / KP, kp = k % KP;
  return ((k0 * L + l) ^ (mp % (K0 * L))) * KP + mp * (p.k_per_block * L) + kp;
}

// p with the 2024 order.
constexpr ck_lds_xor_params order_2024(ck_lds_xor_params p) {
  p.order = ck_lds_order::k0_l_2024;
  return p;
}

// The essay's 2024 table: rows m = 0..3 at k = 0, 8, 16, 24 of fp16 128x32x8.
constexpr index_t example_2024[4][4] = {{0, 16, 32, 48}, {8, 24, 40, 56}, {72, 88, 104, 120}, {64, 80, 96, 112}};

// How many offsets of [0, M*K) the descriptor of p hits exactly once, and whether every offset is inside.
struct bijection_scan {
  index_t hit_once = 0;
  index_t outside = 0;
};
bijection_scan scan_bijection(const ck_lds_xor_params& p) {
  const auto d = make_ck_lds_xor_descriptor(p);
  const index_t size = p.m_per_block * p.k_per_block;
  std::vector<int> hits(static_cast<std::size_t>(size), 0);
  bijection_scan r;
  for (index_t m = 0; m < p.m_per_block; ++m)
    for (index_t k = 0; k < p.k_per_block; ++k) {
      const index_t o = d.calculate_offset({m, k});
      if (o < 0 || o >= size)
        ++r.outside;
      else
        ++hits[static_cast<std::size_t>(o)];
    }
  r.hit_once = std::count(hits.begin(), hits.end(), 1);
  return r;
}

// Parameter sets for the bijection law: L = 2, 1, 4 (derived), 4 (64 banks), 4-byte elements, L given.
const ck_lds_xor_params bijection_cases[] = {
    {128, 32, 8},
    {64, 64, 4},
    {128, 16, 8},
    {.m_per_block = 128, .k_per_block = 32, .k_pack = 8, .banks = 64},
    {64, 32, 4, 4},
    {32, 16, 4, 2, 2},
};
}  // namespace

TEST_CASE("CK LDS XOR: the default order is 2025's (L, K0)") {
  CHECK(ck_lds_xor_params{128, 32, 8}.order == ck_lds_order::l_k0_2025);
}

TEST_CASE("CK LDS XOR, both orders: a bijection of the M x K tile onto [0, M*K) for six parameter sets") {
  for (const ck_lds_xor_params& base : bijection_cases)
    for (const ck_lds_order order : {ck_lds_order::l_k0_2025, ck_lds_order::k0_l_2024}) {
      ck_lds_xor_params p = base;
      p.order = order;
      CAPTURE(p.m_per_block);
      CAPTURE(p.k_per_block);
      CAPTURE(p.k_pack);
      CAPTURE(p.layers());
      CAPTURE(static_cast<int>(order));
      const bijection_scan s = scan_bijection(p);
      CHECK(s.outside == 0);
      CHECK(s.hit_once == p.m_per_block * p.k_per_block);
    }
}

TEST_CASE("CK LDS XOR 2024 order 128x32x8: m=0..3 at k=0,8,16,24 give 0 16 32 48 / 8 24 40 56 / 72 88 104 120 / 64 80 96 112") {
  const auto d = make_ck_lds_xor_descriptor(order_2024({128, 32, 8}));
  CHECK(d.element_space_size == 4096);
  for (index_t m = 0; m < 4; ++m)
    for (index_t j = 0; j < 4; ++j) {
      CAPTURE(m);
      CAPTURE(j);
      CHECK(d.calculate_offset({m, 8 * j}) == example_2024[m][j]);
    }
}

TEST_CASE("CK LDS XOR 2024 order agrees with its closed form at every (m, k) of 128x32x8 (32 and 64 banks) and 64x64x4") {
  const ck_lds_xor_params cases[] = {order_2024({128, 32, 8}),
                                     order_2024({.m_per_block = 128, .k_per_block = 32, .k_pack = 8, .banks = 64}),
                                     order_2024({64, 64, 4})};
  for (const ck_lds_xor_params& p : cases) {
    CAPTURE(p.layers());
    const auto d = make_ck_lds_xor_descriptor(p);
    int mismatches = 0, not_inverted = 0, same_as_2025 = 0;
    ck_lds_xor_params p2025 = p;
    p2025.order = ck_lds_order::l_k0_2025;
    for (index_t m = 0; m < p.m_per_block; ++m)
      for (index_t k = 0; k < p.k_per_block; ++k) {
        const index_t o = d.calculate_offset({m, k});
        mismatches += o != closed_form_2024(p, m, k);
        same_as_2025 += o == closed_form(p2025, m, k);
        const auto back = d.graph.top_index({o});
        not_inverted += !(back.found && back.index == multi_index<2>{m, k});
      }
    CHECK(mismatches == 0);
    CHECK(not_inverted == 0);
    // The orders agree only where they must: with L = 1 (64x64x4) s = k0 in both; else they differ somewhere.
    if (p.layers() == 1)
      CHECK(same_as_2025 == p.m_per_block * p.k_per_block);
    else
      CHECK(same_as_2025 < p.m_per_block * p.k_per_block);
  }
}

TEST_CASE("CK LDS XOR 2024 order folds in constant evaluation and keeps the KPack vector on k") {
  constexpr const auto& d = ck_lds_xor_descriptor<order_2024({128, 32, 8})>;
  static_assert(d.calculate_offset({3, 8}) == 80);  // m'=1, l=1, k0=1: s = 3, 3 XOR 1 = 2: 2*8 + 64
  static_assert(d.calculate_offset({127, 31}) == closed_form_2024(order_2024({128, 32, 8}), 127, 31));
  CHECK(d.calculate_offset({2, 0}) == 72);
  CHECK(make_ck_lds_xor_descriptor(order_2024({128, 32, 8})).top_vectors()[1] == vector_guarantee{8, 1});
}
