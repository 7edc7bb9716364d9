// tilesim/spec/hopper/tma_wgmma.hpp: does wgmma read the elements TMA wrote? A proof over the whole operand.
//
// A pairing is a TMA box (tma.hpp: the map, the shared-memory destination `smem_base`, the box corner in
// global coordinates) and one wgmma operand read through a descriptor (wgmma.hpp), plus how the operand sits
// in the box: its K index runs over the box dims `k_dims` (mixed radix over their loaded extents, the first
// fastest), its MN index over `mn_dims`, starting at `k_at` and `mn_at`; other dims stay at index 0.
// The pairing is consistent when the destination obeys the alignment rules and, for every operand element
// (mn, k), the address wgmma reads equals smem_base + the offset where TMA placed that box element. TMA's
// placement is injective, so equal addresses mean the same element. An element whose global coordinate lies
// outside the tensor holds the fill value: it still counts as "the element TMA put there".
//
// Worked example (the known-good 128B K-major bf16 64x64): box {64 (K), 64 (M)}, SWIZZLE_128B, base 0; the
// A operand at k_at = 16 through {start 32, LBO 16, SBO 1024, base 0, 128B}: (mn 9, k 8) is box element
// (24, 9), dense offset 9*128 + 48 = 1200, placed at 1200 ^ (1 << 4) = 1184; wgmma reads U = 32 + 1024 + 128
// + 16 = 1200, the same XOR, 1184. With SBO 512 instead, (mn 8, k 0) is read at U = 32 + 512 = 544, XOR-ed to
// 608, but was put at 1056: the first mismatch; find_fixes names SBO = 1024 as the one-field fix.
//
// Invariants: first_mismatch() visits every element in (mn, k) order and reports the first that differs;
// every fix find_fixes() returns makes the element proof pass when applied (apply_fix), and a smem_base fix
// satisfies the alignment rules too; one-field fixes are searched exhaustively over each field's range.
#pragma once

#include "spec/hopper/tma.hpp"
#include "spec/hopper/wgmma.hpp"

namespace tilesim::hopper {

// Which box dims carry the operand's K and MN indices, and where the operand starts along each.
struct operand_mapping {
  int k_dims[tma_max_rank] = {0, 0, 0, 0, 0};
  int n_k = 1;
  int mn_dims[tma_max_rank] = {1, 0, 0, 0, 0};
  int n_mn = 1;
  index_t k_at = 0;
  index_t mn_at = 0;
};

// The usual mapping: K-major puts K on dim 0 and MN on dims 1.., MN-major MN on dims 0, 2.. and K on dim 1.
TILESIM_HOST_DEVICE constexpr operand_mapping default_mapping(operand_major major, int rank) {
  operand_mapping m;
  m.n_k = 0;
  m.n_mn = 0;
  for (int d = 0; d < rank; ++d) {
    const bool k_dim = major == operand_major::k ? d == 0 : d == 1;
    if (k_dim) m.k_dims[m.n_k++] = d;
    else m.mn_dims[m.n_mn++] = d;
  }
  return m;
}

// Spreads `value` over the loaded extents of dims (first fastest); false when it does not fit the box.
TILESIM_HOST_DEVICE constexpr bool spread_index(const tma_map& m, const int* dims, int n, index_t value,
                                                box_index& out) {
  for (int i = 0; i < n; ++i) {
    const index_t ext = m.loaded(dims[i]);
    if (i + 1 < n) {
      out.v[dims[i]] = value % ext;
      value /= ext;
    } else {
      out.v[dims[i]] = value;
      if (value >= ext) return false;
    }
  }
  return n > 0 ? true : value == 0;
}

struct tma_wgmma_pair {
  tma_map map{};
  index_t smem_base = 0;
  index_t corner[tma_max_rank] = {0, 0, 0, 0, 0};
  wgmma_operand op{};
  matrix_descriptor desc{};
  operand_mapping mapping{};

  // The box element that holds operand element (mn, k); false when it lies outside the box.
  TILESIM_HOST_DEVICE constexpr bool box_index_of(index_t mn, index_t k, box_index& out) const {
    out = box_index{};
    return spread_index(map, mapping.k_dims, mapping.n_k, mapping.k_at + k, out) &&
           spread_index(map, mapping.mn_dims, mapping.n_mn, mapping.mn_at + mn, out);
  }
  // The start address that points at operand element (0, 0) before the swizzle: smem_base + its dense offset.
  TILESIM_HOST_DEVICE constexpr index_t natural_start() const {
    box_index i;
    box_index_of(0, 0, i);
    return smem_base + map.dense_offset(i);
  }
  // Bad input: the map, the operand, the descriptor's ranges, or a mapping that leaves the box.
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = map.check()) return v;
    if (violation v = op.check()) return v;
    if (violation v = desc.check()) return v;
    bool seen[tma_max_rank] = {};
    const int* lists[2] = {mapping.k_dims, mapping.mn_dims};
    const int counts[2] = {mapping.n_k, mapping.n_mn};
    for (int l = 0; l < 2; ++l) {
      if (counts[l] < 1 || counts[l] > map.rank)
        return broken_unless(false, rule::wgmma_mapping, "tma-wgmma", {"dims listed", counts[l]}, {"rank", map.rank});
      for (int i = 0; i < counts[l]; ++i) {
        const int d = lists[l][i];
        if (d < 0 || d >= map.rank || seen[d])
          return broken_unless(false, rule::wgmma_mapping, "tma-wgmma", {"dim", d}, {"rank", map.rank});
        seen[d] = true;
      }
    }
    box_index last;
    if (mapping.k_at < 0 || mapping.mn_at < 0 || !box_index_of(op.rows() - 1, op.k_elems() - 1, last)) {
      index_t k_box = 1, mn_box = 1;
      for (int i = 0; i < mapping.n_k; ++i) k_box *= map.loaded(mapping.k_dims[i]);
      for (int i = 0; i < mapping.n_mn; ++i) mn_box *= map.loaded(mapping.mn_dims[i]);
      return broken_unless(false, rule::wgmma_mapping, "tma-wgmma", {"K end", mapping.k_at + op.k_elems()},
                           {"K in box", k_box}, {"MN end", mapping.mn_at + op.rows()}, {"MN in box", mn_box});
    }
    return {};
  }
};

// One operand element compared: where TMA put it and where wgmma reads it.
struct element_check {
  bool ok = true;
  index_t mn = 0, k = 0;
  box_index index{};
  bool out_of_bounds = false;
  index_t tma_address = 0, wgmma_address = 0;
};

// Compares one element.
TILESIM_HOST_DEVICE constexpr element_check check_element(const tma_wgmma_pair& p, index_t mn, index_t k) {
  element_check e;
  e.mn = mn;
  e.k = k;
  p.box_index_of(mn, k, e.index);
  e.out_of_bounds = p.map.out_of_bounds(p.corner, e.index);
  e.tma_address = p.smem_base + p.map.smem_offset(e.index);
  e.wgmma_address = wgmma_address(p.desc, p.op, mn, k);
  e.ok = e.tma_address == e.wgmma_address;
  return e;
}

// The first element (in mn, then k order) wgmma reads from elsewhere than TMA put it; ok when none.
TILESIM_HOST_DEVICE constexpr element_check first_mismatch(const tma_wgmma_pair& p) {
  for (index_t mn = 0; mn < p.op.rows(); ++mn)
    for (index_t k = 0; k < p.op.k_elems(); ++k) {
      const element_check e = check_element(p, mn, k);
      if (!e.ok) return e;
    }
  return {};
}

// Elements of the operand that TMA filled (outside the global tensor).
TILESIM_HOST_DEVICE constexpr index_t fill_elements(const tma_wgmma_pair& p) {
  index_t n = 0;
  for (index_t mn = 0; mn < p.op.rows(); ++mn)
    for (index_t k = 0; k < p.op.k_elems(); ++k) {
      box_index i;
      p.box_index_of(mn, k, i);
      n += p.map.out_of_bounds(p.corner, i) ? 1 : 0;
    }
  return n;
}

// The alignment rules of the destination (tma.hpp).
TILESIM_HOST_DEVICE constexpr violation alignment_of(const tma_wgmma_pair& p) {
  return tma_smem_alignment(p.map.swizzle, p.smem_base);
}

// Consistent: aligned and no mismatching element.
TILESIM_HOST_DEVICE constexpr bool consistent(const tma_wgmma_pair& p) {
  return !alignment_of(p) && first_mismatch(p).ok;
}

enum class fix_field : int { wgmma_swizzle, base_offset, sbo, lbo, lbo_sbo_swap, start, tma_swizzle, smem_base };

// One field set to a value; lbo_sbo_swap needs no value; smem_base moves the start along (value2 = new start).
struct fix {
  fix_field field = fix_field::sbo;
  index_t value = 0;
  index_t value2 = 0;
};

// The pair with a fix applied.
TILESIM_HOST_DEVICE constexpr tma_wgmma_pair apply_fix(tma_wgmma_pair p, const fix& f) {
  switch (f.field) {
    case fix_field::wgmma_swizzle: p.desc.swizzle = static_cast<tma_swizzle>(f.value); break;
    case fix_field::base_offset: p.desc.base_offset = static_cast<int>(f.value); break;
    case fix_field::sbo: p.desc.sbo = f.value; break;
    case fix_field::lbo: p.desc.lbo = f.value; break;
    case fix_field::lbo_sbo_swap: {
      const index_t t = p.desc.lbo;
      p.desc.lbo = p.desc.sbo;
      p.desc.sbo = t;
      break;
    }
    case fix_field::start: p.desc.start = f.value; break;
    case fix_field::tma_swizzle: p.map.swizzle = static_cast<tma_swizzle>(f.value); break;
    case fix_field::smem_base:
      p.smem_base = f.value;
      p.desc.start = f.value2;
      break;
  }
  return p;
}

// Up to 12 one-field fixes, each enough alone; or (has_pair) two fixes that only work together.
struct fix_list {
  fix items[12] = {};
  int count = 0;
  bool has_pair = false;
  fix pair[2] = {};
  TILESIM_HOST_DEVICE constexpr void add(fix f) {
    if (count < 12) items[count++] = f;
  }
};

namespace detail {
// True when the fixed pair reads every element right (alignment is judged apart, except for smem_base).
TILESIM_HOST_DEVICE constexpr bool fixes_elements(const tma_wgmma_pair& p, const fix& f) {
  const tma_wgmma_pair q = apply_fix(p, f);
  if (q.desc.check() || q.map.check()) return false;
  return first_mismatch(q).ok;
}
// The first value in [0, 2^18) step 16 that fixes the elements when put in field f, or -1.
TILESIM_HOST_DEVICE constexpr index_t search_16(const tma_wgmma_pair& p, fix_field f, index_t skip) {
  for (index_t v = 0; v < descriptor_address_limit; v += 16)
    if (v != skip && fixes_elements(p, {f, v, 0})) return v;
  return -1;
}
}  // namespace detail

// Every one-field change that makes each element right (searched over the field's whole range); when none,
// the pairs (wgmma swizzle, SBO / LBO / start). A misaligned destination adds its smem_base fix.
TILESIM_HOST_DEVICE constexpr fix_list find_fixes(const tma_wgmma_pair& p) {
  fix_list out;
  if (alignment_of(p)) {
    const index_t rep = swizzle_repeat(p.map.swizzle);
    const index_t down = p.smem_base - floor_mod(p.smem_base, rep), up = down + rep;
    const index_t bases[2] = {down, up};
    for (const index_t base : bases) {
      const fix f{fix_field::smem_base, base, p.desc.start + (base - p.smem_base)};
      if (base >= 0 && detail::fixes_elements(p, f)) {
        out.add(f);
        break;
      }
    }
  }
  if (first_mismatch(p).ok) return out;
  const int before = out.count;
  for (int s = 0; s < 4; ++s)
    if (static_cast<tma_swizzle>(s) != p.desc.swizzle && detail::fixes_elements(p, {fix_field::wgmma_swizzle, s, 0}))
      out.add({fix_field::wgmma_swizzle, s, 0});
  if (p.desc.swizzle != tma_swizzle::none)
    for (int b = 0; b < 8; ++b)
      if (b != p.desc.base_offset && detail::fixes_elements(p, {fix_field::base_offset, b, 0})) {
        out.add({fix_field::base_offset, b, 0});
        break;
      }
  if (sbo_used(p.op, p.desc.swizzle))
    if (const index_t v = detail::search_16(p, fix_field::sbo, p.desc.sbo); v >= 0) out.add({fix_field::sbo, v, 0});
  if (lbo_used(p.op, p.desc.swizzle))
    if (const index_t v = detail::search_16(p, fix_field::lbo, p.desc.lbo); v >= 0) out.add({fix_field::lbo, v, 0});
  if (p.desc.lbo != p.desc.sbo && detail::fixes_elements(p, {fix_field::lbo_sbo_swap, 0, 0}))
    out.add({fix_field::lbo_sbo_swap, p.desc.sbo, p.desc.lbo});
  if (const index_t v = detail::search_16(p, fix_field::start, p.desc.start); v >= 0)
    out.add({fix_field::start, v, 0});
  for (int s = 0; s < 4; ++s)
    if (static_cast<tma_swizzle>(s) != p.map.swizzle && detail::fixes_elements(p, {fix_field::tma_swizzle, s, 0}))
      out.add({fix_field::tma_swizzle, s, 0});
  if (out.count > before) return out;
  // Two fields: the wgmma swizzle (each other mode) with SBO, LBO or the start address.
  for (int s = 0; s < 4; ++s) {
    if (static_cast<tma_swizzle>(s) == p.desc.swizzle) continue;
    const tma_wgmma_pair q = apply_fix(p, {fix_field::wgmma_swizzle, s, 0});
    const fix_field fields[3] = {fix_field::sbo, fix_field::lbo, fix_field::start};
    for (const fix_field f : fields) {
      const index_t v = detail::search_16(q, f, -1);
      if (v >= 0) {
        out.has_pair = true;
        out.pair[0] = {fix_field::wgmma_swizzle, s, 0};
        out.pair[1] = {f, v, 0};
        return out;
      }
    }
  }
  return out;
}

}  // namespace tilesim::hopper
