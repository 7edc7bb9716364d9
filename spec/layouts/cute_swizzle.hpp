// tilesim/spec/layouts/cute_swizzle.hpp: a row-major tile whose element offsets go through CuTe's Swizzle.
//
// DEFINITION. composition(Swizzle<B,M,S>, rows x row_length row-major), in element units, as CUTLASS's SM80
// GEMMs use it: offset(r, c) = swizzle(r * row_length + c).
//
// WORKED EXAMPLE. fp16, Swizzle<3,3,3>, 8 x 64: one row is 128 bytes = eight 16-byte chunks of 8 elements.
// Element (r, c) lands in row r, chunk (c/8) XOR r, position c mod 8. Row 1 chunk 0 (c = 0..7) is stored at
// offsets 72..79; row 3 chunk 2 (c = 16..23) at 3*64 + (2 XOR 3)*8 = 200..207.
//
// INVARIANT: a bijection of the tile onto [0, rows*row_length) whenever that is a whole number of swizzle
// blocks (2^(B+M+|S|)); the column dim keeps a vector of 2^M elements.
#pragma once

#include "spec/descriptor.hpp"
#include "spec/transforms/swizzle.hpp"
#include "spec/transforms/unmerge.hpp"

namespace tilesim {

// make_cute_swizzle_descriptor(3, 3, 3, 8, 64): Swizzle<3,3,3> o (8,64):(64,1); top (row, col).
TILESIM_HOST_DEVICE constexpr auto make_cute_swizzle_descriptor(int bits, int base, int shift, index_t rows,
                                                                index_t row_length) {
  const index_t n = rows * row_length;
  auto flat = make_naive_descriptor_packed<1>({n}, n);  // one contiguous run of n elements
  auto swizzled = transform_descriptor(flat, step(make_swizzle(bits, base, shift, n), {0}, {0}));
  return transform_descriptor(swizzled, step(make_unmerge<2>({rows, row_length}), {0}, {0, 1}));
}

}  // namespace tilesim
