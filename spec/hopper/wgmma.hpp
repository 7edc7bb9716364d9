// tilesim/spec/hopper/wgmma.hpp: the wgmma shared-memory matrix descriptor and the layouts it denotes.
//
// `wgmma.mma_async` (sm90) reads a shared-memory operand through a 64-bit matrix descriptor (PTX ISA,
// "Matrix Descriptor Format"; Mojo's WGMMADescriptor restates the same bits):
//
//   bits  0-13  start address >> 4        bits 32-45  SBO (stride dimension byte offset) >> 4
//   bits 16-29  LBO (leading dim.) >> 4   bits 49-51  base offset (swizzled modes only)
//   bits 62-63  layout type: 0 none (interleave), 1 128B swizzle, 2 64B swizzle, 3 32B swizzle
//
// (each address field is (x & 0x3FFFF) >> 4; every other bit is 0). The operand is A (m64 x K) or B (n x K,
// n = 8..256 in steps of 8), K being 32 bytes of elements: k16 for f16/bf16, k8 for tf32, k32 for 8-bit
// types. It is built of core matrices of 8 rows x 16 bytes. With T = 16 / element bytes and W the swizzle
// span (32/64/128 bytes), the PTX ISA's canonical layouts ("Canonical Layouts", in CuTe notation) are, as
// byte offsets u(mn, k) from the start address (mn the M or N index, k the K index, kb = k * element bytes,
// mb = mn * element bytes):
//
//   K-major, none:      (mn/8) SBO + (kb/16) LBO + (mn%8) 16 + kb%16        ((8,m),(T,2k)):((1T,SBO),(1,LBO))
//   K-major, W:         (mn/8) SBO + (mn%8) W + kb          LBO unused     ((8,m),(T,2k)):((W/16 T,SBO),(1,T))
//   MN-major, none:     (mb/16) SBO + (k/8) LBO + (k%8) 16 + mb%16          ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
//   MN-major, W:        (mb/W) LBO + (k/8) SBO + (k%8) W + mb%W             ((T,W/16,m),(8,k)):((1,T,LBO),(W/16 T,SBO))
//
// so LBO and SBO swap roles between K-major and swizzled MN-major (cutlass #1688, MatmulTutorial #10). The
// address read is then U = start + u with the chunk XOR of tma.hpp, counted from the base offset:
//
//   address = U XOR (((U >> 7) - base_offset) mod 2^B) << 4        (B = 3, 2, 1 for 128B, 64B, 32B)
//
// which with base offset 0 is CuTe's Swizzle<B,4,3> on the byte address, and which, for a pattern anchored at
// P, reads it right when base offset = (P >> 7) & 7 (the PTX ISA's formula; 0 when P is on the 1024/512/256
// boundary). Only MN-major f16/bf16 exists (imm-trans-a/b); tf32 and 8-bit operands are K-major only.
//
// Worked example: bf16 A, K-major, 128B, SBO 1024, start 0: (mn 9, k 8) has u = 1*1024 + 1*128 + 16 = 1168,
// row bits (1168 >> 7) & 7 = 1, chunk 1 ^ 1 = 0: address 1152, where tma.hpp's example box {64, 64} put
// element (8, 9). The descriptor {start 0, LBO 16, SBO 1024, base 0, 128B} encodes as 0x4000004000010000.
//
// Invariants: decode(encode(d)) == d for every d whose fields are in range (multiples of 16 below 2^18, base
// offset 0..7); for a fixed descriptor, (mn, k) -> address is injective over the operand (the canonical
// layout is; the XOR permutes each aligned repeat). Whether the hardware honours a non-zero base offset this
// way is the PTX ISA's description, not measured here.
#pragma once

#include <cstdint>

#include "spec/config.hpp"
#include "spec/hopper/tma.hpp"
#include "spec/rules.hpp"

namespace tilesim::hopper {

// The descriptor's 2-bit layout type for a swizzle mode: none 0, 128B 1, 64B 2, 32B 3.
TILESIM_HOST_DEVICE constexpr std::uint64_t layout_type_code(tma_swizzle s) {
  return s == tma_swizzle::none ? 0 : static_cast<std::uint64_t>(4 - swizzle_bits(s));
}
// The swizzle mode of a layout type code (0..3).
TILESIM_HOST_DEVICE constexpr tma_swizzle swizzle_of_layout_type(std::uint64_t code) {
  return code == 0 ? tma_swizzle::none : static_cast<tma_swizzle>(4 - static_cast<int>(code & 3));
}

inline constexpr index_t descriptor_address_limit = index_t{1} << 18;  // 14 bits of 16-byte units

// A decoded matrix descriptor, every field in bytes (base offset in 0..7).
struct matrix_descriptor {
  index_t start = 0;
  index_t lbo = 0;
  index_t sbo = 0;
  int base_offset = 0;
  tma_swizzle swizzle = tma_swizzle::none;

  TILESIM_HOST_DEVICE constexpr bool operator==(const matrix_descriptor& o) const {
    return start == o.start && lbo == o.lbo && sbo == o.sbo && base_offset == o.base_offset && swizzle == o.swizzle;
  }

  // The first field out of the encodable range, with its value.
  TILESIM_HOST_DEVICE constexpr violation check() const {
    const index_t fields[3] = {start, lbo, sbo};
    const char* names[3] = {"start address", "LBO", "SBO"};
    for (int i = 0; i < 3; ++i)
      if (fields[i] < 0 || fields[i] >= descriptor_address_limit || fields[i] % 16 != 0)
        return broken_unless(false, rule::wgmma_field_range, "wgmma descriptor", {names[i], fields[i]});
    return broken_unless(base_offset >= 0 && base_offset <= 7, rule::wgmma_field_range, "wgmma descriptor",
                         {"base offset", base_offset});
  }
  // The 64-bit value (fields checked first).
  TILESIM_HOST_DEVICE constexpr std::uint64_t encode() const {
    require(check());
    return (static_cast<std::uint64_t>(start) >> 4) | ((static_cast<std::uint64_t>(lbo) >> 4) << 16) |
           ((static_cast<std::uint64_t>(sbo) >> 4) << 32) | (static_cast<std::uint64_t>(base_offset) << 49) |
           (layout_type_code(swizzle) << 62);
  }
};

// Bits no field owns (14-15, 30-31, 46-48, 52-61); a descriptor with any of them set is not canonical.
inline constexpr std::uint64_t descriptor_reserved_bits =
    (std::uint64_t{3} << 14) | (std::uint64_t{3} << 30) | (std::uint64_t{7} << 46) | (std::uint64_t{0x3ff} << 52);

// The fields of a 64-bit descriptor; decode(0x4000004000010000) == {0, 16, 1024, 0, 128B}.
TILESIM_HOST_DEVICE constexpr matrix_descriptor decode_descriptor(std::uint64_t bits) {
  matrix_descriptor d;
  d.start = static_cast<index_t>(bits & 0x3fff) << 4;
  d.lbo = static_cast<index_t>((bits >> 16) & 0x3fff) << 4;
  d.sbo = static_cast<index_t>((bits >> 32) & 0x3fff) << 4;
  d.base_offset = static_cast<int>((bits >> 49) & 7);
  d.swizzle = swizzle_of_layout_type(bits >> 62);
  return d;
}

enum class operand_major : int { k = 0, mn = 1 };
enum class wgmma_type : int { f16, bf16, tf32, e4m3, e5m2, s8, u8 };

// Bytes per element: 2 (f16, bf16), 4 (tf32), 1 (e4m3, e5m2, s8, u8).
TILESIM_HOST_DEVICE constexpr index_t elem_bytes(wgmma_type t) {
  return t == wgmma_type::tf32 ? 4 : (t == wgmma_type::f16 || t == wgmma_type::bf16) ? 2 : 1;
}

// One shared-memory operand of one wgmma: A (m64 x K) or B (n x K).
struct wgmma_operand {
  bool is_b = false;
  index_t n = 64;  // B only
  wgmma_type type = wgmma_type::bf16;
  operand_major major = operand_major::k;

  TILESIM_HOST_DEVICE constexpr index_t rows() const { return is_b ? n : 64; }
  // K of one instruction: 32 bytes of elements.
  TILESIM_HOST_DEVICE constexpr index_t k_elems() const { return 32 / elem_bytes(type); }
  TILESIM_HOST_DEVICE constexpr index_t eb() const { return elem_bytes(type); }

  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = broken_unless(!is_b || (n >= 8 && n <= 256 && n % 8 == 0), rule::wgmma_shape, "wgmma operand",
                                    {"n", n}))
      return v;
    return broken_unless(major == operand_major::k || eb() == 2, rule::wgmma_mn_major_type, "wgmma operand",
                         {"element bytes", eb()});
  }
};

// The canonical layout's byte offset of (mn, k) from the start address, before the swizzle (table above).
TILESIM_HOST_DEVICE constexpr index_t canonical_offset(operand_major major, tma_swizzle s, index_t eb, index_t lbo,
                                                       index_t sbo, index_t mn, index_t k) {
  const index_t kb = k * eb, mb = mn * eb, w = swizzle_span(s);
  if (major == operand_major::k) {
    if (s == tma_swizzle::none) return (mn / 8) * sbo + (kb / 16) * lbo + (mn % 8) * 16 + kb % 16;
    return (mn / 8) * sbo + (mn % 8) * w + kb;
  }
  if (s == tma_swizzle::none) return (mb / 16) * sbo + (k / 8) * lbo + (k % 8) * 16 + mb % 16;
  return (mb / w) * lbo + (k / 8) * sbo + (k % 8) * w + mb % w;
}

// The address wgmma reads for (mn, k) of `op` through descriptor d.
TILESIM_HOST_DEVICE constexpr index_t wgmma_address(const matrix_descriptor& d, const wgmma_operand& op, index_t mn,
                                                    index_t k) {
  const index_t u = d.start + canonical_offset(op.major, d.swizzle, op.eb(), d.lbo, d.sbo, mn, k);
  return chunk_swizzle(swizzle_bits(d.swizzle), u, d.base_offset);
}

// Whether a field changes any address of the operand (LBO is unused for swizzled K-major, SBO for 8 rows...).
TILESIM_HOST_DEVICE constexpr bool lbo_used(const wgmma_operand& op, tma_swizzle s) {
  if (op.major == operand_major::k) return s == tma_swizzle::none;
  return s == tma_swizzle::none || op.rows() * op.eb() > swizzle_span(s);
}
TILESIM_HOST_DEVICE constexpr bool sbo_used(const wgmma_operand& op, tma_swizzle s) {
  if (op.major == operand_major::k || s == tma_swizzle::none) return op.rows() > 8;
  return op.k_elems() > 8;
}

}  // namespace tilesim::hopper
