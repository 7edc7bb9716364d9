// tilesim/examples/cute_swizzle/cute_swizzle_variants.hpp: CuTe Swizzle<B,M,S> fp16 tiles read as 8x8 matrices.
//
// DEFINITION. An fp16 tile of `rows` x W halves (W = 16, 32 or 64: rows of 32, 64 or 128 bytes) is written to
// shared memory with 16-byte stores (the copy program's warp-raked write pattern: 8 lanes fill 128
// contiguous bytes) and read back as 8x8 matrix rows (the copy program's gemm_operand read with R = 16 on
// wave 32: lanes 0-7 give the 8 row addresses of ldmatrix.x4's matrix 0, 16 bytes each; sm90). Four gfx942
// cases read the 128-byte-row tiles with R = 32 (the MFMA 32x32x8 A read, ds_read_b128). The tile's
// offsets go through CuTe's Swizzle (spec/layouts/cute_swizzle.hpp), on ELEMENT offsets:
//   Swizzle<B,3,3>(o) = o XOR ((o >> 3) & (((1 << B) - 1) << 3))
//   the B bits of o above bit 6 (element 64 = 128 bytes = one bank row) are XOR-ed into the 16-byte chunk
//   index (bits 3 ..): on 64-half rows that is chunk c -> c XOR (row mod 2^B).
// Hopper's GMMA atoms (and TMA's 32/64/128-byte swizzles) are the byte swizzles Swizzle<B,4,3> on shared-
// memory BYTE addresses: SW32 <1,4,3> on an atom of 8 rows x 32 B, SW64 <2,4,3> on 8 x 64 B, SW128 <3,4,3>
// on 8 x 128 B. For fp16 the byte address is 2o, so byte bit i+1 is element bit i and the byte swizzle
// <B,4,3> is the element swizzle <B,3,3>, applied to a tile whose row is the atom's row width: 16, 32 or 64
// halves. SW128 is then exactly the element Swizzle<3,3,3> on 64-half rows; SW32 XORs chunk c of row r with
// (r / 4) mod 2, SW64 with (r / 2) mod 4: the key is always the index of the 128-byte line.
//
// WORKED EXAMPLE (sm90, 128 x 64 halves, one 8x8 matrix = one phase of 8 lanes = rows r0..r0+7 at one chunk c).
// Row r's chunk c sits at byte 128r + 16 (c XOR key(r)), bank quad (c XOR key(r)) mod 8:
//   no swizzle      key 0:       all 8 rows on quad c                8-way
//   Swizzle<1,3,3>  key r mod 2: quads c, c^1                       4-way
//   Swizzle<2,3,3>  key r mod 4: quads c^0 .. c^3                   2-way
//   Swizzle<3,3,3>  key r mod 8: 8 distinct quads                    1-way (conflict-free)
// SW32 on 32-byte rows (128 x 16 halves): rows 0-7 of chunk 0 at bytes 0 32 64 96 | 144 176 208 240, quads
// 0 2 4 6 1 3 5 7: conflict-free, where the unswizzled 32-byte rows give 0 2 4 6 0 2 4 6 (2-way); SW64 on
// 64-byte rows: quads 0 4 1 5 2 6 3 7 against 0 4 0 4 ... (4-way). The stores never conflict: a swizzle
// only permutes the 16-byte chunks inside each 128-byte line, and 8 lanes write one whole line.
//
// INVARIANTS: every case copies exactly (output == input); the swizzle is a bijection of each tile (the tile
// is a whole number of 2^(B+6)-element blocks); the cases' copy_params run on the existing copy kernel.
#pragma once

#include <string>
#include <vector>

#include "examples/copy_case.hpp"
#include "examples/example.hpp"
#include "kernel/copy/copy.hpp"

namespace tilesim::examples {

// A case is a copy of the tile on one workgroup (examples/copy_case.hpp).
using cute_swizzle_case = copy_case;

// Every case: sm90 (ldmatrix read) on 128 x 64 halves with no swizzle and Swizzle<1|2|3,3,3>, the GMMA
// atoms SW32 / SW64 / SW128 with their unswizzled baselines (128 x 16, 128 x 32, 128 x 64), and gfx942
// (MFMA read) on 128 x 64 halves with no swizzle and Swizzle<1|2|3,3,3>.
std::vector<cute_swizzle_case> cute_swizzle_cases();

// One variant per case, example "cute-swizzle": run() copies the tile and checks output == input.
std::vector<variant> cute_swizzle_variants();
// Its sm90 cases as GPU cross-check points (the fp16 copy): "example cute-swizzle: CASE".
std::vector<gpu::crosscheck_point> cute_swizzle_crosscheck_points();

}  // namespace tilesim::examples
