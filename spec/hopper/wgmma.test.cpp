// Laws of hopper/wgmma.hpp: the matrix descriptor's bits and the canonical layouts of the PTX ISA.
#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "spec/hopper/wgmma.hpp"
#include "spec/rules.hpp"
#include "spec/transforms/swizzle.hpp"

using namespace tilesim;
using namespace tilesim::hopper;

namespace {

// A CuTe layout ((s0, s1, ...), (t0, t1, ...)) : ((d0, d1, ...), (e0, e1, ...)) evaluated at (row, col), each
// coordinate split colexicographically over its mode's shape. Units are elements.
struct cute_mode {
  std::vector<index_t> shape, stride;
  index_t at(index_t c) const {
    index_t off = 0;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      off += (c % shape[i]) * stride[i];
      c /= shape[i];
    }
    return off;
  }
};

// The law for one PTX ISA example: canonical_offset(...) == element bytes * exact layout, over the example's
// whole shape (rows x cols of the example; the swizzle aside, which is tested separately on byte addresses).
void check_example(operand_major major, tma_swizzle s, index_t eb, index_t lbo, index_t sbo, const cute_mode& mn,
                   const cute_mode& k, index_t rows, index_t cols) {
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      REQUIRE(canonical_offset(major, s, eb, lbo, sbo, r, c) == eb * (mn.at(r) + k.at(c)));
    }
}

}  // namespace

TEST_CASE("{start 0, LBO 16, SBO 1024, base 0, 128B} encodes as 0x4000004000010000 and decodes back") {
  constexpr matrix_descriptor d{0, 16, 1024, 0, tma_swizzle::b128};
  static_assert(d.encode() == 0x4000004000010000ull);
  static_assert(decode_descriptor(0x4000004000010000ull) == d);
  // Bit positions: start >> 4 in 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset 49-51, type 62-63.
  CHECK(matrix_descriptor{0x3fff0, 0, 0, 0, tma_swizzle::none}.encode() == 0x3fffull);
  CHECK(matrix_descriptor{0, 0x3fff0, 0, 0, tma_swizzle::none}.encode() == 0x3fffull << 16);
  CHECK(matrix_descriptor{0, 0, 0x3fff0, 0, tma_swizzle::none}.encode() == 0x3fffull << 32);
  CHECK(matrix_descriptor{0, 0, 0, 7, tma_swizzle::none}.encode() == 7ull << 49);
  CHECK(layout_type_code(tma_swizzle::none) == 0);
  CHECK(layout_type_code(tma_swizzle::b128) == 1);
  CHECK(layout_type_code(tma_swizzle::b64) == 2);
  CHECK(layout_type_code(tma_swizzle::b32) == 3);
  for (std::uint64_t c = 0; c < 4; ++c) CHECK(layout_type_code(swizzle_of_layout_type(c)) == c);
}

TEST_CASE("decode(encode(d)) == d for in-range fields; encode leaves the reserved bits 0") {
  int n = 0;
  for (index_t start = 0; start < descriptor_address_limit; start += 16 * 997)
    for (index_t lbo : {index_t{0}, index_t{16}, index_t{2048}, descriptor_address_limit - 16})
      for (index_t sbo : {index_t{16}, index_t{1024}, index_t{8192}, descriptor_address_limit - 16})
        for (int bo = 0; bo < 8; bo += 3)
          for (const tma_swizzle s : {tma_swizzle::none, tma_swizzle::b32, tma_swizzle::b64, tma_swizzle::b128}) {
            const matrix_descriptor d{start, lbo, sbo, bo, s};
            const std::uint64_t bits = d.encode();
            REQUIRE(decode_descriptor(bits) == d);
            REQUIRE((bits & descriptor_reserved_bits) == 0);
            ++n;
          }
  CHECK(n > 1000);
}

TEST_CASE("fields outside the encodable range are refused, naming the field and value") {
  CHECK(matrix_descriptor{8, 16, 16, 0, tma_swizzle::none}.check().what == rule::wgmma_field_range);
  CHECK(matrix_descriptor{0, 24, 16, 0, tma_swizzle::none}.check().what == rule::wgmma_field_range);
  CHECK(matrix_descriptor{0, 16, descriptor_address_limit, 0, tma_swizzle::none}.check().what == rule::wgmma_field_range);
  const violation v = matrix_descriptor{0, 16, 16, 8, tma_swizzle::b128}.check();
  CHECK(spec_error::format(v) == "tilesim: wgmma descriptor: start, LBO and SBO must be multiples of 16 in [0, 2^18), "
                                 "base offset in 0..7 (base offset = 8)");
}

TEST_CASE("canonical layouts equal the PTX ISA's worked examples (Canonical Layouts, Examples)") {
  // K-major, no swizzle, tf32: ((8,2),(4,4)):((4,32),(1,64)), LBO = 64*4, SBO = 32*4.
  check_example(operand_major::k, tma_swizzle::none, 4, 256, 128, {{8, 2}, {4, 32}}, {{4, 4}, {1, 64}}, 16, 16);
  // K-major, 32B, tf32: ((8,2),(4,4)):((8,64),(1,4)), SBO = 64*4 (LBO unused).
  check_example(operand_major::k, tma_swizzle::b32, 4, 12345 * 16, 256, {{8, 2}, {8, 64}}, {{4, 4}, {1, 4}}, 16, 8);
  // MN-major, no swizzle, bf16: ((8,1,2),(8,2)):((1,8,64),(8,128)), LBO = 128*2, SBO = 64*2.
  check_example(operand_major::mn, tma_swizzle::none, 2, 256, 128, {{8, 1, 2}, {1, 8, 64}}, {{8, 2}, {8, 128}}, 16, 16);
  // MN-major, 32B, bf16: ((8,2,2),(8,2)):((1,8,128),(16,256)), LBO = 128*2, SBO = 256*2.
  check_example(operand_major::mn, tma_swizzle::b32, 2, 256, 512, {{8, 2, 2}, {1, 8, 128}}, {{8, 2}, {16, 256}}, 32, 16);
  // MN-major, 64B, bf16: ((8,4,2),(8,2)):((1,8,256),(32,512)), LBO = 256*2, SBO = 512*2.
  check_example(operand_major::mn, tma_swizzle::b64, 2, 512, 1024, {{8, 4, 2}, {1, 8, 256}}, {{8, 2}, {32, 512}}, 64,
                16);
  // MN-major, 128B, bf16 (the 64B example's pattern at W = 128): ((8,8,2),(8,2)):((1,8,LBO/2),(64,SBO/2)).
  check_example(operand_major::mn, tma_swizzle::b128, 2, 2048, 1024, {{8, 8, 2}, {1, 8, 1024}}, {{8, 2}, {64, 512}},
                128, 16);
  // K-major, 128B, bf16: ((8,m),(8,2k)):((64,SBO/2),(1,8)) with SBO = 1024.
  check_example(operand_major::k, tma_swizzle::b128, 2, 16, 1024, {{8, 8}, {64, 512}}, {{8, 2}, {1, 8}}, 64, 16);
}

TEST_CASE("with base offset 0 the address is CuTe's Swizzle<B,4,3> of start + canonical offset") {
  const wgmma_operand a{false, 64, wgmma_type::bf16, operand_major::k};
  for (const tma_swizzle s : {tma_swizzle::b32, tma_swizzle::b64, tma_swizzle::b128})
    for (const index_t start : {index_t{0}, index_t{32}, index_t{1024 + 96}}) {
      const matrix_descriptor d{start, 16, 8 * swizzle_span(s), 0, s};
      for (index_t mn = 0; mn < 64; ++mn)
        for (index_t k = 0; k < 16; ++k) {
          const index_t u = start + canonical_offset(a.major, s, 2, d.lbo, d.sbo, mn, k);
          REQUIRE(wgmma_address(d, a, mn, k) == swizzle_offset(swizzle_bits(s), 4, 3, u));
        }
    }
}

TEST_CASE("the worked example: bf16 A, K-major, 128B, SBO 1024: (mn 9, k 8) is read at 1152") {
  constexpr wgmma_operand a{false, 64, wgmma_type::bf16, operand_major::k};
  constexpr matrix_descriptor d{0, 16, 1024, 0, tma_swizzle::b128};
  static_assert(canonical_offset(operand_major::k, tma_swizzle::b128, 2, 16, 1024, 9, 8) == 1168);
  static_assert(wgmma_address(d, a, 9, 8) == 1152);
}

TEST_CASE("a base offset b reads a pattern anchored at a start P with (P >> 7) & 7 == b as if it were aligned") {
  // The law: for P on a 128-byte boundary, chunk_swizzle(B, P + o, ptx_base_offset(P)) == P + chunk_swizzle(B, o).
  for (const tma_swizzle s : {tma_swizzle::b32, tma_swizzle::b64, tma_swizzle::b128})
    for (index_t p = 0; p < 4096; p += 128) {
      const index_t bo = (p >> 7) & 7;
      for (index_t o = 0; o < 2048; o += 16)
        REQUIRE(chunk_swizzle(swizzle_bits(s), p + o, bo) == p + chunk_swizzle(swizzle_bits(s), o));
    }
}

TEST_CASE("every operand's addresses are distinct; MN-major is refused for types other than 16-bit") {
  for (const wgmma_type t : {wgmma_type::bf16, wgmma_type::tf32, wgmma_type::e4m3})
    for (const tma_swizzle s : {tma_swizzle::none, tma_swizzle::b32, tma_swizzle::b128}) {
      const wgmma_operand b{true, 128, t, operand_major::k};
      REQUIRE(b.check().what == rule::none);
      const matrix_descriptor d{256, s == tma_swizzle::none ? 128 * 16 : 16, s == tma_swizzle::none ? 128 : 8 * swizzle_span(s), 2, s};
      std::set<index_t> seen;
      for (index_t mn = 0; mn < b.rows(); ++mn)
        for (index_t k = 0; k < b.k_elems(); ++k) REQUIRE(seen.insert(wgmma_address(d, b, mn, k)).second);
    }
  CHECK(wgmma_operand{true, 64, wgmma_type::tf32, operand_major::mn}.check().what == rule::wgmma_mn_major_type);
  CHECK(wgmma_operand{true, 12, wgmma_type::bf16, operand_major::k}.check().what == rule::wgmma_shape);
  CHECK(wgmma_operand{true, 264, wgmma_type::bf16, operand_major::k}.check().what == rule::wgmma_shape);
  CHECK(wgmma_operand{false, 0, wgmma_type::e5m2, operand_major::k}.k_elems() == 32);
}
