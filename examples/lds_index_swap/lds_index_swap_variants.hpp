// tilesim/examples/lds_index_swap/lds_index_swap_variants.hpp: a GEMM operand tile through LDS, four layouts.
//
// DEFINITION. CK Tile's GEMM stages its A tile (MPerBlock x KPerBlock = 128 x 32 fp16, K contiguous; B is the
// same with N) in LDS: the DRAM distribution (CK's warp-raked pattern, KPack = 8 elements = 16 bytes per
// thread and access) loads it from global and stores it to LDS unchanged (ds_write_b128 / STS.128), then the
// warp GEMM reads it back as its operand: the copy program (kernel/copy/copy.hpp) with the write pattern for
// the store and the gemm_operand read for the load, one workgroup of 256 threads:
//   MFMA read      gfx90a, gfx942, gfx950 (wave 64): lane l -> m = l%32, k = 8*(l/32), ds_read_b128 (K16):
//                  CK's MFMA 32x32x8 A operand iterated twice over K, embedded in the warps (the read
//                  encoding is built from spec/distribution/warp_gemm_encodings.hpp's)
//   ldmatrix.x4    sm90 (wave 32): one ldmatrix.x4 per 16 x 16 sub-tile, lane l supplying the row address
//                  m = l%16, k = 8*(l/16); the registers are mma.sync's A fragment (4-byte global stores)
//   LDS.128 at ldmatrix rows  sm90: each lane reads the 16-byte row it would address (what a kernel without
//                  ldmatrix does; named "ldmatrix read" in the recordings before 2026-11-24 20:00 UTC)
// The LDS layouts are the ones CK has used for this tile:
//   row-major     offset = 32m + k                          (64-byte rows: 2 tile rows per 128-byte bank row)
//   padded        offset = 40m + k                          (one 16-byte vector of padding per row)
//   ck-xor 2024   s = k0*L + l,  then s XOR (m' mod K0*L)   (spec/layouts/ck_lds_xor.hpp, 2024 order)
//   ck-xor 2025   s = l*K0 + k0, then s XOR (m' mod K0*L)   (2025 order, today's CK)
// with L = MLdsLayer = max(1, banks*4 / KPerBlock / sizeof(T)) = 2 on 32 banks, 4 on gfx950's 64 banks,
// K0 = KPerBlock / KPack = 4. Two further gfx950 cases keep L = 2 (ck_banks = 32): what a policy computes
// when it sees 32 banks on a 64-bank chip (CK's host pass, ck-tile-semantics.md §5.1's FIXME).
//
// WORKED EXAMPLE (gfx942, MFMA read, its first ds_read_b128 phase = lanes 0-3 and 20-23 = rows 0-3 and
// 20-23 at k0 = 0). A 16-byte vector at element offset o covers the 4 banks of quad (o/8) mod 8:
//   row-major     quad = (4m + k0) mod 8:  rows 0..3 -> 0 4 0 4, rows 20..23 -> 0 4 0 4     4-way
//   ck-xor 2024   quad = (2k0 + l) ^ m':   0 1 1 0 | 2 3 3 2                                2-way
//   ck-xor 2025   quad = (4l + k0) ^ m':   0 4 1 5 | 2 6 3 7                                1-way
//   padded        quad = (5m + k0) mod 8:  0 5 2 7 | 4 1 6 3                                1-way
// The same holds in all 8 phases, so the 8 reads of a wave (2 instructions x 8 phases each, ideal 16) cost
// 64 / 32 / 16 / 16 wavefronts; the 4 waves: 256 / 128 / 64 / 64 against ideal 64, as the reference's
// §5.3 table says for gfx942 (row-major 4-way, 2024 2-way, 2025 1-way). The stores (8 contiguous lanes per
// phase = 2 rows x 4 vectors) are conflict-free except on the padded layout, whose two 80-byte rows span
// 160 bytes: the second row's last vector wraps onto the first's bank quad (2-way).
//
// INVARIANTS: every case copies exactly (output == input); every case is one workgroup of 256 threads; the
// cases' copy_params are what the GPU cross-check launches copy_tile<std::uint16_t> with (no new kernel).
#pragma once

#include <string>
#include <vector>

#include "examples/copy_case.hpp"
#include "examples/example.hpp"
#include "kernel/copy/copy.hpp"

namespace tilesim::examples {

// A case is a copy of the tile on one workgroup (examples/copy_case.hpp).
using lds_index_swap_case = copy_case;

// Every case: {row-major, padded, ck-xor 2024, ck-xor 2025} x {gfx90a, gfx942, gfx950 (MFMA read), sm90
// (LDS.128 at ldmatrix rows)}, then sm90 through ldmatrix.x4 for the four layouts, then gfx950 with the 32-bank
// MLdsLayer (L = 2) in both CK orders.
std::vector<lds_index_swap_case> lds_index_swap_cases();

// One variant per case, example "lds-index-swap": run() copies the tile and checks output == input.
std::vector<variant> lds_index_swap_variants();
// Its sm90 cases as GPU cross-check points (the fp16 copy): "example lds-index-swap: CASE".
std::vector<gpu::crosscheck_point> lds_index_swap_crosscheck_points();

}  // namespace tilesim::examples
