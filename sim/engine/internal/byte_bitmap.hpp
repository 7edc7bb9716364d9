// tilesim/sim/engine/internal/byte_bitmap.hpp: (engine-internal) byte ranges as bits of 64-bit words, for the race checks.
//
// DEFINITION. A byte bitmap of [lo, hi) holds bit x % 64 of word x / 64 for byte lo + x. for_each_word_mask(b, e, f)
// calls f(word, mask) for each word that bytes [b, e) (offsets from lo) cover, mask holding their bits, lowest word
// first. bitmap_pays(span, bytes) is the rule for when a bitmap beats sorting ranges: the span [lo, hi) is at most
// 16 MiB of bytes (2 MiB of bits) and at most 64 times the bytes the ranges cover (so the bitmap holds no more words
// than the ranges have bytes).
//
// WORKED EXAMPLE. for_each_word_mask(60, 70, f): f(0, 0xf000000000000000) (bytes 60..63), then f(1, 0x3f) (64..69).
// bitmap_pays(2048, 1024) (a GEMM tile's C stores) is true; bitmap_pays(1 << 30, 64) is false.
//
// INVARIANTS: the masks of one call are disjoint, non-zero, and together hold exactly the bits of [b, e); b >= e
// calls f never.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sim/wave_access.hpp"

namespace tilesim::sim::detail {

// f(word, mask) for each 64-bit word of the bitmap that bytes [begin, end) cover: for_each_word_mask(60, 70, f).
template <class F>
void for_each_word_mask(address_t begin, address_t end, F&& f) {
  for (address_t x = begin; x < end;) {
    const address_t bit = x % 64, n = std::min<address_t>(64 - bit, end - x);
    f(static_cast<std::size_t>(x / 64), (n == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << n) - 1)) << bit);
    x += n;
  }
}

// Whether ranges spanning `span` bytes and covering `bytes` (summed) are checked on a bitmap rather than sorted.
constexpr bool bitmap_pays(address_t span, address_t bytes) { return span <= (address_t{1} << 24) && span <= 64 * bytes; }

}  // namespace tilesim::sim::detail
