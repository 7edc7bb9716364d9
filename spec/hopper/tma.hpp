// tilesim/spec/hopper/tma.hpp: the Hopper TMA tiled tensor map and where it puts each element in shared memory.
//
// A tiled tensor map (what cuTensorMapEncodeTiled encodes on the host) describes a global tensor of rank 1-5:
// its dims (innermost first), the byte strides of dims 1..rank-1 (dim 0 is contiguous), an element size, a box
// (boxDim[d] elements are traversed along dim d), element strides (every es[d]-th of them is loaded, so
// ceil(boxDim[d] / es[d]) land in shared memory), a swizzle mode and an out-of-bounds fill (zero or NaN).
// `cp.async.bulk.tensor` copies the box whose corner is at the given global coordinates to a shared-memory
// destination: the loaded elements are packed densely, dim 0 fastest, and then the swizzle permutes 16-byte
// chunks inside each span: with B = 1, 2, 3 for 32B, 64B, 128B,
//
//   placed(o) = o XOR (((o >> 7) & (2^B - 1)) << 4)       (o: the byte offset in the dense box)
//
// i.e. bits [4, 4+B) ^= bits [7, 7+B): CuTe's Swizzle<B,4,3> on byte addresses (Swizzle<3,4,3> for 128B;
// spec/transforms/swizzle.hpp's swizzle_offset(B, 4, 3, o) is the same function, tested). The pattern
// repeats every 2^(B+7) bytes (256/512/1024).
//
// Worked example, SWIZZLE_128B, bf16, box {64, 8} (rows of 128 bytes = 8 chunks): chunk c of row r lands in
// chunk c ^ r. The 4x4 corner (rows 0-3, chunks 0-3) holds the chunk numbers
//      0 1 2 3 | 1 0 3 2 | 2 3 0 1 | 3 2 1 0
// and element (dim0 = 8, dim1 = 1) at dense offset 1*128 + 8*2 = 144 (row 1, chunk 1) is placed at 128.
//
// Invariants: placed() is an involution that permutes every aligned 2^(B+7)-byte block and never moves a byte
// inside its 16-byte chunk; the placement is a bijection from the loaded box onto [0, box_bytes()).
// Rules (driver, CUDA Driver API cuTensorMapEncodeTiled): rank 1..5; global dims 1..2^32; global strides
// multiples of 16 below 2^40; box dims 1..256; element strides 1..8; boxDim[0] * element size a multiple of
// 16; with swizzle, boxDim[0] * element size <= the span (32/64/128). Destination alignment (the project's
// Hopper reference notes, "Shared-memory destination alignment"): 128 bytes in general and, with swizzle, the
// pattern's repeat 256/512/1024 (nvFuser PR #4096 quoting the PTX ISA's swizzling modes; TileLang #2379). Not measured here: with a destination off the repeat this header assumes
// the pattern is anchored at the destination (offsets swizzled, not absolute addresses), which is what the
// PTX ISA's wgmma "base offset = (pattern start addr >> 7) & 7" describes; the hardware may differ.
// With swizzle and an inner box narrower than the span the dense packing above is this header's reading of
// the PTX ISA, likewise unmeasured.
#pragma once

#include "spec/config.hpp"
#include "spec/math.hpp"
#include "spec/rules.hpp"

namespace tilesim::hopper {

inline constexpr int tma_max_rank = 5;

// CUtensorMapSwizzle's numbering: NONE 0, 32B 1, 64B 2, 128B 3 (also CuTe's B of Swizzle<B,4,3>).
enum class tma_swizzle : int { none = 0, b32 = 1, b64 = 2, b128 = 3 };
// CUtensorMapFloatOOBfill: NONE fills zeros, NAN_REQUEST_ZERO_FMA a NaN that FMAs treat as zero.
enum class oob_fill : int { zero = 0, nan = 1 };

// CuTe's B: swizzle_bits(tma_swizzle::b128) == 3.
TILESIM_HOST_DEVICE constexpr int swizzle_bits(tma_swizzle s) { return static_cast<int>(s); }
// The span the chunks move in: 16 (none: one chunk), 32, 64, 128 bytes.
TILESIM_HOST_DEVICE constexpr index_t swizzle_span(tma_swizzle s) { return index_t{16} << swizzle_bits(s); }
// Bytes after which the pattern repeats: 128 (none), 256, 512, 1024.
TILESIM_HOST_DEVICE constexpr index_t swizzle_repeat(tma_swizzle s) { return index_t{128} << swizzle_bits(s); }

// The XOR of 16-byte chunk bits [4, 4+B) with bits [7, 7+B), phase-shifted: rows count from `phase` (0..7).
TILESIM_HOST_DEVICE constexpr index_t chunk_swizzle(int bits, index_t offset, index_t phase = 0) {
  const index_t mask = (index_t{1} << bits) - 1;
  return offset ^ ((((offset >> 7) - phase) & mask) << 4);
}

// Where a dense box byte offset is placed: tma_place_offset(tma_swizzle::b128, 144) == 128.
TILESIM_HOST_DEVICE constexpr index_t tma_place_offset(tma_swizzle s, index_t dense_offset) {
  return chunk_swizzle(swizzle_bits(s), dense_offset);
}

// A box index per dim: 0 <= idx[d] < loaded(d); unused dims stay 0.
struct box_index {
  index_t v[tma_max_rank] = {};
};

// A tiled tensor map; arrays past `rank` are ignored. Strides in bytes; global_strides[0] is unused (dim 0 is
// contiguous), global_strides[d] for d >= 1 as cuTensorMapEncodeTiled's globalStrides[d-1].
struct tma_map {
  int rank = 2;
  index_t elem_bytes = 2;
  index_t global_dims[tma_max_rank] = {1, 1, 1, 1, 1};
  index_t global_strides[tma_max_rank] = {0, 0, 0, 0, 0};
  index_t box_dims[tma_max_rank] = {1, 1, 1, 1, 1};
  index_t elem_strides[tma_max_rank] = {1, 1, 1, 1, 1};
  tma_swizzle swizzle = tma_swizzle::none;
  oob_fill fill = oob_fill::zero;

  // Elements along dim d that land in shared memory: ceil(boxDim[d] / elementStrides[d]).
  TILESIM_HOST_DEVICE constexpr index_t loaded(int d) const {
    return d < rank ? (box_dims[d] + elem_strides[d] - 1) / elem_strides[d] : 1;
  }
  // Bytes the box occupies in shared memory.
  TILESIM_HOST_DEVICE constexpr index_t box_bytes() const {
    index_t b = elem_bytes;
    for (int d = 0; d < rank; ++d) b *= loaded(d);
    return b;
  }
  // boxDim[0] * element size, the quantity the driver's inner-box rules constrain.
  TILESIM_HOST_DEVICE constexpr index_t inner_box_bytes() const { return box_dims[0] * elem_bytes; }

  // The first broken driver rule, with the values; violation{} when cuTensorMapEncodeTiled would accept it.
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (rank < 1 || rank > tma_max_rank) return broken_unless(false, rule::tma_rank, "tma", {"rank", rank});
    if (violation v = broken_unless(elem_bytes == 1 || elem_bytes == 2 || elem_bytes == 4 || elem_bytes == 8,
                                    rule::tma_elem_bytes, "tma", {"element bytes", elem_bytes}))
      return v;
    for (int d = 0; d < rank; ++d) {
      if (violation v = broken_unless(global_dims[d] >= 1 && global_dims[d] <= (index_t{1} << 32), rule::tma_global_dim,
                                      "tma", {"dim", d}, {"globalDim", global_dims[d]}))
        return v;
      if (violation v = broken_unless(d == 0 || (global_strides[d] > 0 && global_strides[d] % 16 == 0 &&
                                                 global_strides[d] < (index_t{1} << 40)),
                                      rule::tma_global_stride, "tma", {"dim", d}, {"globalStride", global_strides[d]}))
        return v;
      if (violation v = broken_unless(box_dims[d] >= 1 && box_dims[d] <= 256, rule::tma_box_dim, "tma", {"dim", d},
                                      {"boxDim", box_dims[d]}))
        return v;
      if (violation v = broken_unless(elem_strides[d] >= 1 && elem_strides[d] <= 8, rule::tma_elem_stride, "tma",
                                      {"dim", d}, {"elementStride", elem_strides[d]}))
        return v;
    }
    if (violation v = broken_unless(inner_box_bytes() % 16 == 0, rule::tma_inner_box_bytes, "tma",
                                    {"boxDim[0]", box_dims[0]}, {"element bytes", elem_bytes},
                                    {"inner bytes", inner_box_bytes()}))
      return v;
    return broken_unless(swizzle == tma_swizzle::none || inner_box_bytes() <= swizzle_span(swizzle),
                         rule::tma_inner_box_span, "tma", {"inner bytes", inner_box_bytes()},
                         {"span", swizzle_span(swizzle)});
  }

  // Dense (unswizzled) byte offset of a loaded element: dim 0 fastest.
  TILESIM_HOST_DEVICE constexpr index_t dense_offset(const box_index& i) const {
    index_t off = 0, pitch = elem_bytes;
    for (int d = 0; d < rank; ++d) {
      off += i.v[d] * pitch;
      pitch *= loaded(d);
    }
    return off;
  }
  // Byte offset from the destination where TMA puts a loaded element: the swizzle of its dense offset.
  TILESIM_HOST_DEVICE constexpr index_t smem_offset(const box_index& i) const {
    return tma_place_offset(swizzle, dense_offset(i));
  }
  // True when every idx[d] is inside the loaded box.
  TILESIM_HOST_DEVICE constexpr bool in_box(const box_index& i) const {
    for (int d = 0; d < tma_max_rank; ++d)
      if (i.v[d] < 0 || i.v[d] >= loaded(d)) return false;
    return true;
  }
  // True when the global coordinate of loaded element i (box corner + i * elementStride) is outside the tensor.
  TILESIM_HOST_DEVICE constexpr bool out_of_bounds(const index_t (&corner)[tma_max_rank], const box_index& i) const {
    for (int d = 0; d < rank; ++d) {
      const index_t g = corner[d] + i.v[d] * elem_strides[d];
      if (g < 0 || g >= global_dims[d]) return true;
    }
    return false;
  }
};

// Where TMA puts one global element: found false when g is not one of the box's loaded elements.
struct tma_placement {
  bool found = false;
  bool out_of_bounds = false;  // TMA wrote the fill value there, not a tensor element
  box_index index{};
  index_t offset = 0;  // bytes from the shared-memory destination
};

// The placement function: global coordinates g of an element inside the box whose corner is `corner`.
TILESIM_HOST_DEVICE constexpr tma_placement tma_place_global(const tma_map& m, const index_t (&corner)[tma_max_rank],
                                                             const index_t (&g)[tma_max_rank]) {
  tma_placement p;
  for (int d = 0; d < m.rank; ++d) {
    const index_t rel = g[d] - corner[d];
    if (rel < 0 || rel % m.elem_strides[d] != 0) return p;
    p.index.v[d] = rel / m.elem_strides[d];
  }
  if (!m.in_box(p.index)) return p;
  p.found = true;
  p.out_of_bounds = m.out_of_bounds(corner, p.index);
  p.offset = m.smem_offset(p.index);
  return p;
}

// The destination alignment rules: 128 bytes, and the repeat with swizzle; violation{} when both hold.
TILESIM_HOST_DEVICE constexpr violation tma_smem_alignment(tma_swizzle s, index_t base) {
  if (violation v = broken_unless(floor_mod(base, 128) == 0, rule::tma_smem_base_128, "tma", {"smem base", base},
                                  {"base mod 128", floor_mod(base, 128)}))
    return v;
  return broken_unless(floor_mod(base, swizzle_repeat(s)) == 0, rule::tma_smem_base_repeat, "tma",
                       {"smem base", base}, {"repeat", swizzle_repeat(s)},
                       {"base mod repeat", floor_mod(base, swizzle_repeat(s))});
}

// The PTX ISA's wgmma base offset for a pattern that starts at `pattern_start`: 0 on the repeat boundary,
// else (pattern_start >> 7) & 7.
TILESIM_HOST_DEVICE constexpr int ptx_base_offset(tma_swizzle s, index_t pattern_start) {
  if (s == tma_swizzle::none || floor_mod(pattern_start, swizzle_repeat(s)) == 0) return 0;
  return static_cast<int>((pattern_start >> 7) & 7);
}

}  // namespace tilesim::hopper
