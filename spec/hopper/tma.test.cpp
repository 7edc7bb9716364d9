// Laws of hopper/tma.hpp: the TMA tiled tensor map, its driver rules, its placement and its alignment rules.
#include <doctest/doctest.h>

#include <vector>

#include "spec/hopper/tma.hpp"
#include "spec/rules.hpp"
#include "spec/transforms/swizzle.hpp"

using namespace tilesim;
using namespace tilesim::hopper;

namespace {

// A 2-D map: dims {d0, d1} (innermost first), packed rows, box {b0, b1}.
constexpr tma_map map_2d(index_t eb, index_t d0, index_t d1, index_t b0, index_t b1, tma_swizzle s) {
  tma_map m;
  m.rank = 2;
  m.elem_bytes = eb;
  m.global_dims[0] = d0;
  m.global_dims[1] = d1;
  m.global_strides[1] = d0 * eb;
  m.box_dims[0] = b0;
  m.box_dims[1] = b1;
  m.swizzle = s;
  return m;
}

}  // namespace

TEST_CASE("SWIZZLE_128B, bf16 box {64, 8}: chunk c of row r lands in chunk c ^ r; element (8, 1) at 144 -> 128") {
  constexpr tma_map m = map_2d(2, 64, 8, 64, 8, tma_swizzle::b128);
  static_assert(m.check().what == rule::none);
  static_assert(m.smem_offset({{8, 1}}) == 128);
  for (index_t r = 0; r < 8; ++r)
    for (index_t c = 0; c < 8; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(m.smem_offset({{c * 8, r}}) == r * 128 + (c ^ r) * 16);
    }
}

TEST_CASE("the TMA swizzle of each mode is CuTe's Swizzle<B,4,3> on byte offsets (B = 0, 1, 2, 3)") {
  // The law: tma_place_offset(mode, o) == swizzle_offset(B, 4, 3, o) for every byte offset o; checked over
  // four repeats of the largest pattern and far away.
  for (const tma_swizzle s : {tma_swizzle::none, tma_swizzle::b32, tma_swizzle::b64, tma_swizzle::b128}) {
    CAPTURE(swizzle_bits(s));
    for (index_t o = 0; o < 4096; ++o) REQUIRE(tma_place_offset(s, o) == swizzle_offset(swizzle_bits(s), 4, 3, o));
    for (index_t o = (index_t{1} << 40) - 2048; o < (index_t{1} << 40); o += 7)
      REQUIRE(tma_place_offset(s, o) == swizzle_offset(swizzle_bits(s), 4, 3, o));
  }
  static_assert(tma_place_offset(tma_swizzle::b32, 128) == 144);  // bit 7 flips bit 4
  static_assert(tma_place_offset(tma_swizzle::b64, 256) == 288);  // bits [7,9) = 2 flip bits [4,6)
}

TEST_CASE("the swizzle is an involution that permutes each aligned repeat and keeps bytes in their chunk") {
  for (const tma_swizzle s : {tma_swizzle::b32, tma_swizzle::b64, tma_swizzle::b128}) {
    const index_t rep = swizzle_repeat(s);
    CHECK(rep == (index_t{128} << swizzle_bits(s)));
    for (index_t block = 0; block < 3; ++block) {
      std::vector<bool> hit(rep, false);
      for (index_t o = block * rep; o < (block + 1) * rep; ++o) {
        const index_t p = tma_place_offset(s, o);
        REQUIRE(tma_place_offset(s, p) == o);
        REQUIRE(p / rep == block);
        REQUIRE(p % 16 == o % 16);
        hit[p % rep] = true;
      }
      for (bool h : hit) REQUIRE(h);
    }
  }
}

TEST_CASE("placement is a bijection from the loaded box onto [0, box_bytes()), element strides included") {
  tma_map m;
  m.rank = 3;
  m.elem_bytes = 2;
  m.global_dims[0] = 256, m.global_dims[1] = 40, m.global_dims[2] = 9;
  m.global_strides[1] = 512, m.global_strides[2] = 512 * 40;
  m.box_dims[0] = 32, m.box_dims[1] = 10, m.box_dims[2] = 5;
  m.elem_strides[1] = 3, m.elem_strides[2] = 2;  // 4 and 3 rows land
  m.swizzle = tma_swizzle::b64;
  REQUIRE(m.check().what == rule::none);
  CHECK(m.loaded(1) == 4);
  CHECK(m.loaded(2) == 3);
  CHECK(m.box_bytes() == 64 * 4 * 3);
  std::vector<int> hits(m.box_bytes(), 0);
  for (index_t z = 0; z < 3; ++z)
    for (index_t y = 0; y < 4; ++y)
      for (index_t x = 0; x < 32; ++x) {
        const index_t o = m.smem_offset({{x, y, z}});
        REQUIRE(o >= 0);
        REQUIRE(o + 2 <= m.box_bytes());
        hits[o] += 1;
      }
  for (index_t o = 0; o < m.box_bytes(); o += 2) REQUIRE(hits[o] == 1);
}

TEST_CASE("tma_place_global: an element stride of 3 over a box of 8 loads the corner, +3 and +6 only") {
  tma_map m = map_2d(4, 64, 64, 4, 8, tma_swizzle::none);
  m.elem_strides[1] = 3;
  const index_t corner[5] = {0, 10, 0, 0, 0};
  for (const index_t y : {10, 13, 16}) {
    const index_t g[5] = {2, y, 0, 0, 0};
    const tma_placement p = tma_place_global(m, corner, g);
    CHECK(p.found);
    CHECK(p.offset == (y - 10) / 3 * 16 + 8);
  }
  for (const index_t y : {9, 11, 19}) {
    const index_t g[5] = {2, y, 0, 0, 0};
    CHECK_FALSE(tma_place_global(m, corner, g).found);
  }
}

TEST_CASE("a box past the tensor's edge is placed all the same; its outside elements are the fill") {
  const tma_map m = map_2d(2, 64, 100, 64, 8, tma_swizzle::b128);
  const index_t corner[5] = {0, 96, 0, 0, 0};  // rows 96..103 of 100
  const index_t inside[5] = {5, 99, 0, 0, 0}, outside[5] = {5, 100, 0, 0, 0};
  CHECK_FALSE(tma_place_global(m, corner, inside).out_of_bounds);
  const tma_placement p = tma_place_global(m, corner, outside);
  CHECK(p.found);
  CHECK(p.out_of_bounds);
  CHECK(p.offset == tma_place_offset(tma_swizzle::b128, 4 * 128 + 10));
}

TEST_CASE("the driver's rules are named with their values") {
  const auto broken = [](tma_map m) { return m.check().what; };
  tma_map good = map_2d(2, 64, 64, 64, 64, tma_swizzle::b128);
  CHECK(broken(good) == rule::none);
  tma_map m = good;
  m.rank = 6;
  CHECK(broken(m) == rule::tma_rank);
  m = good, m.elem_bytes = 3;
  CHECK(broken(m) == rule::tma_elem_bytes);
  m = good, m.box_dims[1] = 257;
  CHECK(broken(m) == rule::tma_box_dim);
  m = good, m.elem_strides[0] = 9;
  CHECK(broken(m) == rule::tma_elem_stride);
  m = good, m.global_strides[1] = 24;
  CHECK(broken(m) == rule::tma_global_stride);
  m = good, m.global_dims[0] = 0;
  CHECK(broken(m) == rule::tma_global_dim);
  m = good, m.box_dims[0] = 12, m.swizzle = tma_swizzle::none;  // 24 bytes
  CHECK(broken(m) == rule::tma_inner_box_bytes);
  m = good, m.box_dims[0] = 128;  // 256 bytes with a 128-byte span
  const violation v = m.check();
  CHECK(v.what == rule::tma_inner_box_span);
  CHECK(spec_error::format(v) == "tilesim: tma: with swizzle the inner box dimension in bytes must not exceed the "
                                 "swizzle span (inner bytes = 256, span = 128)");
  m = good, m.box_dims[0] = 32, m.swizzle = tma_swizzle::b32;  // 64 bytes > 32
  CHECK(broken(m) == rule::tma_inner_box_span);
}

TEST_CASE("destination alignment: 128 bytes always, the repeat (256/512/1024) with swizzle") {
  CHECK(tma_smem_alignment(tma_swizzle::none, 128).what == rule::none);
  CHECK(tma_smem_alignment(tma_swizzle::none, 64).what == rule::tma_smem_base_128);
  CHECK(tma_smem_alignment(tma_swizzle::b32, 256).what == rule::none);
  CHECK(tma_smem_alignment(tma_swizzle::b32, 384).what == rule::tma_smem_base_repeat);
  CHECK(tma_smem_alignment(tma_swizzle::b64, 512).what == rule::none);
  CHECK(tma_smem_alignment(tma_swizzle::b128, 1024).what == rule::none);
  const violation v = tma_smem_alignment(tma_swizzle::b128, 512);
  CHECK(v.what == rule::tma_smem_base_repeat);
  CHECK(spec_error::format(v).find("(smem base = 512, repeat = 1024, base mod repeat = 512)") != std::string::npos);
  // The PTX ISA's base offset of a pattern starting there: 0 on the boundary, else (addr >> 7) & 7.
  CHECK(ptx_base_offset(tma_swizzle::b128, 512) == 4);
  CHECK(ptx_base_offset(tma_swizzle::b128, 2048) == 0);
  CHECK(ptx_base_offset(tma_swizzle::b64, 512) == 0);
  CHECK(ptx_base_offset(tma_swizzle::b32, 384) == 3);
  CHECK(ptx_base_offset(tma_swizzle::none, 384) == 0);
}
