// Laws of hopper/tma_wgmma.hpp: known-good and known-bad TMA box + wgmma descriptor pairings.
#include <doctest/doctest.h>

#include "spec/hopper/tma_wgmma.hpp"

using namespace tilesim;
using namespace tilesim::hopper;

namespace {

// The known-good configuration: bf16 global 256 x 256 (K contiguous), box {64 (K), 64 (MN)}, SWIZZLE_128B at
// smem_base; the operand at K offset k_at through {natural start, LBO 16, SBO 1024, base 0, 128B}.
tma_wgmma_pair good_128b_k(bool is_b = false, index_t k_at = 0, index_t smem_base = 0) {
  tma_wgmma_pair p;
  p.map.rank = 2;
  p.map.elem_bytes = 2;
  p.map.global_dims[0] = 256, p.map.global_dims[1] = 256;
  p.map.global_strides[1] = 512;
  p.map.box_dims[0] = 64, p.map.box_dims[1] = 64;
  p.map.swizzle = tma_swizzle::b128;
  p.smem_base = smem_base;
  p.op = {is_b, 64, wgmma_type::bf16, operand_major::k};
  p.mapping = default_mapping(operand_major::k, 2);
  p.mapping.k_at = k_at;
  p.desc = {p.natural_start(), 16, 1024, 0, tma_swizzle::b128};
  return p;
}

bool has_fix(const fix_list& l, fix_field f, index_t value) {
  for (int i = 0; i < l.count; ++i)
    if (l.items[i].field == f && l.items[i].value == value) return true;
  return false;
}

}  // namespace

TEST_CASE("known good: 128B K-major bf16 64x64, A and B, every K step of 16 (start + 32 bytes each)") {
  for (const bool is_b : {false, true})
    for (index_t k_at = 0; k_at < 64; k_at += 16) {
      const tma_wgmma_pair p = good_128b_k(is_b, k_at, 2048);
      REQUIRE(p.check().what == rule::none);
      CHECK(p.desc.start == 2048 + 2 * k_at);
      CHECK(p.desc.encode() == (0x4000004000010000ull | static_cast<std::uint64_t>((2048 + 2 * k_at) >> 4)));
      CHECK(alignment_of(p).what == rule::none);
      CHECK(first_mismatch(p).ok);
      CHECK(consistent(p));
      CHECK(find_fixes(p).count == 0);
    }
}

TEST_CASE("the proof is a constant expression: the known-good pairing is consistent at compile time") {
  constexpr auto good = [] {
    tma_wgmma_pair p;
    p.map.rank = 2, p.map.elem_bytes = 2, p.map.global_dims[0] = 64, p.map.global_dims[1] = 64;
    p.map.global_strides[1] = 128, p.map.box_dims[0] = 64, p.map.box_dims[1] = 64, p.map.swizzle = tma_swizzle::b128;
    p.op = {false, 64, wgmma_type::bf16, operand_major::k};
    p.mapping = default_mapping(operand_major::k, 2);
    p.desc = {0, 16, 1024, 0, tma_swizzle::b128};
    return p;
  }();
  static_assert(consistent(good));
  constexpr tma_wgmma_pair bad = apply_fix(good, {fix_field::sbo, 512, 0});
  static_assert(first_mismatch(bad).mn == 8 && first_mismatch(bad).wgmma_address == 576);
  CHECK(consistent(good));
}

TEST_CASE("the worked example of the header: (mn 9, k 8) at k_at 16 is placed and read at 1184") {
  const tma_wgmma_pair p = good_128b_k(false, 16);
  const element_check e = check_element(p, 9, 8);
  CHECK(e.ok);
  CHECK(e.index.v[0] == 24);
  CHECK(e.index.v[1] == 9);
  CHECK(e.tma_address == 1184);
}

TEST_CASE("known bad: LBO and SBO swapped; the first mismatch is (mn 8, k 0) and SBO = 1024 fixes it") {
  tma_wgmma_pair p = good_128b_k(false, 16);
  p.desc.lbo = 1024;
  p.desc.sbo = 16;
  const element_check e = first_mismatch(p);
  REQUIRE_FALSE(e.ok);
  CHECK(e.mn == 8);
  CHECK(e.k == 0);
  CHECK(e.tma_address == 8 * 128 + 32);
  CHECK(e.wgmma_address == chunk_swizzle(3, 32 + 16));
  const fix_list fixes = find_fixes(p);
  CHECK(has_fix(fixes, fix_field::sbo, 1024));
  CHECK(has_fix(fixes, fix_field::lbo_sbo_swap, 16));
  CHECK_FALSE(fixes.has_pair);
  for (int i = 0; i < fixes.count; ++i) CHECK(consistent(apply_fix(p, fixes.items[i])));
}

TEST_CASE("known bad: the header's SBO 512 example: read at 608, put at 1056") {
  tma_wgmma_pair p = good_128b_k(false, 16);
  p.desc.sbo = 512;
  const element_check e = first_mismatch(p);
  CHECK(e.mn == 8);
  CHECK(e.wgmma_address == 608);
  CHECK(e.tma_address == 1056);
  const fix_list fixes = find_fixes(p);
  REQUIRE(fixes.count >= 1);
  CHECK(fixes.items[0].field == fix_field::sbo);
  CHECK(fixes.items[0].value == 1024);
}

TEST_CASE("known bad: wgmma's swizzle mode (64B) differs from TMA's (128B); either mode fixes it") {
  tma_wgmma_pair p = good_128b_k();
  p.desc.swizzle = tma_swizzle::b64;
  REQUIRE_FALSE(first_mismatch(p).ok);
  const fix_list fixes = find_fixes(p);
  CHECK(fixes.items[0].field == fix_field::wgmma_swizzle);
  CHECK(fixes.items[0].value == static_cast<index_t>(tma_swizzle::b128));
  // Only the wgmma side can change alone: a 128-byte inner box does not fit TMA's 64B span.
  CHECK_FALSE(has_fix(fixes, fix_field::tma_swizzle, static_cast<index_t>(tma_swizzle::b64)));
}

TEST_CASE("known bad: a destination 512 bytes off the 1024 repeat; aligned base or base offset 4 reads it") {
  const tma_wgmma_pair p = good_128b_k(false, 0, 512);  // start follows the base: 512
  const violation v = alignment_of(p);
  CHECK(v.what == rule::tma_smem_base_repeat);
  CHECK_FALSE(consistent(p));
  const element_check e = first_mismatch(p);
  REQUIRE_FALSE(e.ok);  // the pattern is anchored at 512, wgmma counts rows from the 1024 boundary
  CHECK(e.mn == 0);
  CHECK(e.tma_address == 512);
  CHECK(e.wgmma_address == 576);  // U = 512: row bits 4 move chunk 0 to chunk 4
  const fix_list fixes = find_fixes(p);
  REQUIRE(fixes.count >= 2);
  CHECK(fixes.items[0].field == fix_field::smem_base);
  CHECK(fixes.items[0].value == 0);
  CHECK(fixes.items[0].value2 == 0);
  CHECK(consistent(apply_fix(p, fixes.items[0])));
  CHECK(has_fix(fixes, fix_field::base_offset, 4));
  CHECK(ptx_base_offset(tma_swizzle::b128, 512) == 4);
  CHECK(first_mismatch(apply_fix(p, {fix_field::base_offset, 4, 0})).ok);
}

TEST_CASE("known good without swizzle: K-major core matrices from a 3-D box {8 (K in), 64 (MN), 2 (K out)}") {
  tma_wgmma_pair p;
  p.map.rank = 3;
  p.map.elem_bytes = 2;
  p.map.global_dims[0] = 8, p.map.global_dims[1] = 64, p.map.global_dims[2] = 2;
  p.map.global_strides[1] = 16, p.map.global_strides[2] = 16 * 64;
  p.map.box_dims[0] = 8, p.map.box_dims[1] = 64, p.map.box_dims[2] = 2;
  p.op = {false, 64, wgmma_type::f16, operand_major::k};
  p.mapping.k_dims[0] = 0, p.mapping.k_dims[1] = 2, p.mapping.n_k = 2;
  p.mapping.mn_dims[0] = 1, p.mapping.n_mn = 1;
  p.desc = {0, 64 * 16, 128, 0, tma_swizzle::none};  // LBO: the next 16 bytes of K; SBO: the next 8 rows
  REQUIRE(p.check().what == rule::none);
  CHECK(consistent(p));
  p.desc.lbo = 128, p.desc.sbo = 64 * 16;  // swapped
  const fix_list fixes = find_fixes(p);
  CHECK(has_fix(fixes, fix_field::lbo_sbo_swap, 64 * 16));
}

TEST_CASE("known good: MN-major bf16 B, n 128, 128B, from a 3-D box {64 (N in), 16 (K), 2 (N out)}") {
  tma_wgmma_pair p;
  p.map.rank = 3;
  p.map.elem_bytes = 2;
  p.map.global_dims[0] = 64, p.map.global_dims[1] = 16, p.map.global_dims[2] = 2;
  p.map.global_strides[1] = 128, p.map.global_strides[2] = 128 * 16;
  p.map.box_dims[0] = 64, p.map.box_dims[1] = 16, p.map.box_dims[2] = 2;
  p.map.swizzle = tma_swizzle::b128;
  p.op = {true, 128, wgmma_type::bf16, operand_major::mn};
  p.mapping = default_mapping(operand_major::mn, 3);
  p.desc = {0, 2048, 1024, 0, tma_swizzle::b128};  // LBO: next 64 N (an atom of 128 B x 16 K); SBO: next 8 K
  REQUIRE(p.check().what == rule::none);
  CHECK(consistent(p));
  p.desc.lbo = 1024, p.desc.sbo = 2048;
  CHECK(has_fix(find_fixes(p), fix_field::lbo_sbo_swap, 2048));  // value: the LBO after the swap
}

TEST_CASE("bad input: an operand that leaves the box, or dims named twice, is wgmma_mapping") {
  tma_wgmma_pair p = good_128b_k(false, 56);  // K 56..71 of a 64-wide box
  CHECK(p.check().what == rule::wgmma_mapping);
  p = good_128b_k();
  p.mapping.mn_dims[0] = 0;
  CHECK(p.check().what == rule::wgmma_mapping);
  p = good_128b_k();
  p.op.n = 72, p.op.is_b = true;
  CHECK(p.check().what == rule::wgmma_mapping);
}
