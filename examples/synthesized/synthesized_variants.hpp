// tilesim/examples/synthesized/synthesized_variants.hpp: layouts `tilesim synth` found, beside the hand-picked ones.
//
// DEFINITION. Each case is a copy-program tile (kernel/copy/copy.hpp: 16-byte warp-raked stores into LDS, a
// read back, 256 threads) whose LDS layout was chosen by the synthesizer (sim/synth/synth.hpp) for exactly
// that writer and reader, next to the layout a person would pick for it:
//   gfx942 128 x 32 fp16, MFMA 32x32x8 A read   hand: CK's XOR 2025 (L = 2)  synth: Swizzle<2,3,3>   both 128 = ideal
//   gfx950 128 x 32 fp16, MFMA read, 64 banks   hand: CK's XOR 2025 (L = 4)  synth: Swizzle<2,3,4>   both 96 = ideal
//   sm90   64 x 32 fp16, lanes down the rows    hand: the copy program's derived Swizzle<2,3,2> (96, 2-way reads)
//                                               synth: Swizzle<2,3,3>   64 = ideal
//   sm90   128 x 64 fp16, lanes down the rows   hand: row-major (640)        synth: Swizzle<2,4,2>   256 = ideal
//   sm90   64 x 128 fp16, lanes down the rows   hand: row-major (384)        synth: Swizzle<1,5,2>   256 = ideal
// The synthesized ones are simpler than CK's (2 XOR-ed bits instead of 3 on gfx942) or fix what the derived
// rule misses (on 64 x 32 the key must come from row bits 1-2, one bit higher than <2,3,2> takes it).
//
// WORKED EXAMPLE. sm90, 64 x 32 fp16, down-rows: lane l of warp w reads row 8w + l % 8, chunk l / 8; one
// LDS.128 phase is 8 lanes = rows r..r+7 of one chunk c, 64 bytes apart: row-major puts row r on bank quad
// (4r + c) mod 8, so rows r, r+2, r+4, r+6 share a quad (4-way). The element offset is 32r + col, so row bits
// 0-2 are element bits 5-7 and the chunk is bits 3-4. <2,3,2> XORs row bits 0-1 into the chunk: quad
// 4(r mod 2) + (c XOR (r mod 4)) repeats after 4 rows (2-way). <2,3,3> XORs row bits 1-2: quad
// 4(r mod 2) + (c XOR ((r / 2) mod 4)), 8 distinct quads for 8 rows (conflict-free).
//
// INVARIANTS: every case copies exactly; its LDS wavefronts are what `tilesim synth` predicts for it and the
// synthesizer returns this very layout for the case's writer and reader (examples/synthesized/
// synthesized.test.cpp, run in sim/synth's unit test since it calls the synthesizer).
#pragma once

#include <vector>

#include "examples/copy_case.hpp"
#include "examples/example.hpp"

namespace tilesim::examples {

// The cases, each a hand-picked layout followed by the synthesized one ("synth Swizzle<...>, ...").
std::vector<copy_case> synthesized_cases();

// One variant per case (copy_variants("synthesized", ...)).
std::vector<variant> synthesized_variants();
// Its sm90 cases as GPU cross-check points (the fp16 copy): "example synthesized: CASE".
std::vector<gpu::crosscheck_point> synthesized_crosscheck_points();

}  // namespace tilesim::examples
