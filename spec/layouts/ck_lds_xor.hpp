// tilesim/spec/layouts/ck_lds_xor.hpp: CK Tile's XOR-preshuffled LDS layout for a K-major GEMM operand.
//
// DEFINITION (CK's universal GEMM policy). An MPerBlock x KPerBlock tile of elements of `element_bytes` is
// stored as rows of KPerBlock*L elements, L = MLdsLayer rows of the tile per LDS row; K is cut into
// K0 = KPerBlock/KPack vectors of KPack elements. The (l, k0) pair of an element is unmerged into one index
// of the K0*L vectors of its LDS row, which is XOR-ed with the LDS row:
//
//   L  = max(1, banks*4 / KPerBlock / element_bytes)      (enough rows to fill one bank row of banks*4 bytes)
//   m' = m / L,  l = m mod L,  k0 = k / KPack,  kp = k mod KPack
//   2025 order (L, K0), the default:  s = l*K0 + k0
//   2024 order (K0, L):               s = k0*L + l
//   offset(m, k) = (s XOR (m' mod (K0*L))) * KPack + m' * (KPerBlock*L) + kp
//
// built as four descriptor steps: naive (K0*L, M/L, KPack) -> xor on (M/L, K0*L) -> unmerge (L, K0), or
// (K0, L) in the 2024 order -> merge (M/L, L) into m and (K0, KPack) into k. The two orders differ only in
// which of l and k0 is the slow digit of s: in 2025 the L rows sharing an LDS row take its halves (row l
// holds vectors l*K0 .. l*K0+K0-1 before the XOR), in 2024 they interleave vector by vector.
//
// WORKED EXAMPLE. fp16, MPerBlock=128, KPerBlock=32, KPack=8: L = 2, K0 = 4. Offsets of rows m=0..3 at
// k = 0, 8, 16, 24:
//   2025 (L, K0):  m=0: 0 8 16 24    m=1: 32 40 48 56   m=2: 72 64 88 80    m=3: 104 96 120 112
//   2024 (K0, L):  m=0: 0 16 32 48   m=1: 8 24 40 56    m=2: 72 88 104 120  m=3: 64 80 96 112
// (rows 2 and 3 share LDS row 1 and are XOR-ed with key 1). E.g. 2024, m=3, k=8: m'=1, l=1, k0=1,
// s = 1*2 + 1 = 3, 3 XOR 1 = 2, offset 2*8 + 1*64 = 80. Both maps are bijections onto [0, 4096). Read as
// 16-byte bank quads (offset/8 mod 8 on 32 banks), the MFMA A read's first phase (rows 0-3 and 20-23 at
// k0 = 0) lands on quads 0 4 1 5 2 6 3 7 in the 2025 order and 0 1 1 0 2 3 3 2 in the 2024 order (2-way).
//
// INVARIANTS: in either order a bijection of the tile onto [0, MPerBlock*KPerBlock) whenever K0*L is a power
// of two (else the xor rule rejects it); the K dim keeps a guaranteed vector of KPack elements with stride 1.
#pragma once

#include "spec/descriptor.hpp"
#include "spec/transforms/merge.hpp"
#include "spec/transforms/pass_through.hpp"
#include "spec/transforms/unmerge.hpp"
#include "spec/transforms/xor.hpp"

namespace tilesim {

// CK's unmerge order of the XOR-ed vector index: (L, K0) since 2025, (K0, L) in 2024 (see the essay).
enum class ck_lds_order { l_k0_2025, k0_l_2024 };

struct ck_lds_xor_params {
  index_t m_per_block;
  index_t k_per_block;
  index_t k_pack;
  index_t element_bytes = 2;
  index_t m_lds_layer = 0;  // 0: derive as CK does from the bank count
  index_t banks = 32;       // 32 on gfx9 (incl. gfx942), 64 on gfx950
  ck_lds_order order = ck_lds_order::l_k0_2025;  // unmerge order: s = l*K0 + k0 (2025) or k0*L + l (2024)

  // MLdsLayer: the given one, or max(1, banks*4 / KPerBlock / element_bytes).
  TILESIM_HOST_DEVICE constexpr index_t layers() const {
    if (m_lds_layer > 0) return m_lds_layer;
    const index_t derived = banks * 4 / k_per_block / element_bytes;
    return derived > 1 ? derived : 1;
  }
  TILESIM_HOST_DEVICE constexpr index_t k0() const { return k_per_block / k_pack; }

  TILESIM_HOST_DEVICE constexpr violation check() const {
    const char* where = "ck_lds_xor";
    if (violation v = check_lengths(where, multi_index<3>{m_per_block, k_per_block, k_pack})) return v;
    if (violation v = broken_unless(is_power_of_two(banks) && element_bytes >= 1 && m_lds_layer >= 0,
                                    rule::ck_lds_banks_invalid, where, {"banks", banks}, {"element_bytes", element_bytes},
                                    {"MLdsLayer", m_lds_layer}))
      return v;
    if (violation v = broken_unless(k_per_block % k_pack == 0, rule::ck_lds_k_pack_not_dividing, where,
                                    {"KPerBlock", k_per_block}, {"KPack", k_pack}))
      return v;
    if (violation v = broken_unless(m_per_block % layers() == 0, rule::ck_lds_layers_not_dividing, where,
                                    {"MPerBlock", m_per_block}, {"MLdsLayer", layers()}))
      return v;
    return broken_unless(is_power_of_two(k0() * layers()), rule::xor_length_not_power_of_two, where,
                         {"K0*MLdsLayer", k0() * layers()});
  }
};

// The descriptor for run-time parameters; top (m, k), element space MPerBlock*KPerBlock.
TILESIM_HOST_DEVICE constexpr auto make_ck_lds_xor_descriptor(const ck_lds_xor_params& p) {
  require(p.check());
  const index_t L = p.layers(), K0 = p.k0(), KP = p.k_pack, M = p.m_per_block;
  auto stored = make_naive_descriptor<3>({K0 * L, M / L, KP}, {KP, p.k_per_block * L, 1}, KP, 1);
  auto swizzled = transform_descriptor(stored, step(make_xor(M / L, K0 * L), {1, 0}, {1, 0}),
                                       step(make_pass_through(KP), {2}, {2}));
  // Unmerge s into (l, k0) at new dims 0 and 2: s = l*K0 + k0 (2025) or s = k0*L + l (2024).
  const bool order_2024 = p.order == ck_lds_order::k0_l_2024;
  auto split = transform_descriptor(
      swizzled,
      step(order_2024 ? make_unmerge<2>({K0, L}) : make_unmerge<2>({L, K0}), {0},
           order_2024 ? multi_index<2>{2, 0} : multi_index<2>{0, 2}),
      step(make_pass_through(M / L), {1}, {1}), step(make_pass_through(KP), {2}, {3}));
  return transform_descriptor(split, step(make_merge<2>({M / L, L}), {1, 0}, {0}),
                              step(make_merge<2>({K0, KP}), {2, 3}, {1}));
}

// The descriptor for compile-time parameters: each rule is a static_assert, offsets fold to constants.
template <ck_lds_xor_params P>
  requires(static_require<P>())
inline constexpr auto ck_lds_xor_descriptor = make_ck_lds_xor_descriptor(P);

}  // namespace tilesim
