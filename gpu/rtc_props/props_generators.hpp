// tilesim/gpu/rtc_props/props_generators.hpp: RapidCheck generators of whole tile programs (props_case).
//
// DEFINITION. gen_props_case() draws a props_case valid by construction (props_case.hpp's check, spec/rules.hpp):
//   element size 2, 4 or 8 bytes; 1, 2, 4 or 8 warps of 32 lanes (64 for AMD); an LDS layout family, then its parameters;
//   the writer: each of the 5 lane bits and the warp bits goes to the rows or the columns, one Y component per
//   dim (any length where the layout allows: 3, 5, 6 rows ...) and the vector (1 .. 16 bytes) innermost; the
//   H components of each dim, the P components and the Ys in random orders (raked and blocked patterns alike);
//   the reader: the same tile re-split at random, its own vector, thread bits that may go to R (replication);
//   a grid of 1-4 workgroups over a tensor the windows reach past (right pads in both dims) or fit exactly.
// Layout parameters: padded by any multiple of the widest vector (so 16-byte accesses stay aligned); CK's XOR
// preshuffle with any MPerBlock (3, 5, 6 x ... rows too), a power-of-two KPerBlock, KPack any power of two dividing
// it, MLdsLayer derived or 1/2/4/8 (1 where that does not divide MPerBlock), 32 or 64 banks, both orders; CuTe
// Swizzle<B, M, S> with any B, M, S with S >= B whose block divides the tile; Morton (power-of-two tiles).
// The kind (props_case.hpp) is drawn first, among `kinds`, and only when there are two or more: with {copy} (the
// default) nothing more is drawn, so every seed regenerates the cases it always did. A stencil draws 2..5 distinct
// offsets: half the time the first ones of the 5-point stencil (0,0) (-1,0) (1,0) (0,-1) (0,1), else any of the
// offsets within 2 rows and 2 columns, diagonals included (drawn last). A reduce's reader gives its warp bits to the
// rows or R only. A loop draws 2..4 tiles (and its tensor rows for them) and one or two LDS buffers.
// Every choice is a RapidCheck pick, so a case shrinks toward fp32... smaller tiles, fewer warps, row-major.
//
// WORKED EXAMPLE. gen_props_case()(rc::Random(7), 30).value() is one case; check_props_case(it) is "".
//
// INVARIANTS: every generated case passes check_props_case (props_generators.test.cpp draws 300).
#pragma once

#include <rapidcheck.h>

#include <string>
#include <vector>

#include "gpu/rtc_props/props_case.hpp"

namespace tilesim::gpu::props {

// A random valid case for waves of `wave` lanes (32: the GPU run; 64: the AMD compile check); `fault` is copied
// into it (test-only device fault, props_case.hpp).
rc::Gen<props_case> gen_props_case(int fault = 0, index_t wave = 32, std::vector<props_kind> kinds = {props_kind::copy});

// "" when c is valid (every rule of props_case.hpp), else the first broken rule in words.
std::string check_props_case(const props_case& c);

// The i-th case of a run with this seed, with its shrink tree (RapidCheck size grows with i up to 100).
rc::Shrinkable<props_case> generate_case(std::uint64_t seed, int index, int fault = 0, index_t wave = 32,
                                         const std::vector<props_kind>& kinds = {props_kind::copy});

// The kinds of a --kinds list ("copy,stencil"), in the order given; throws std::invalid_argument naming an unknown
// or repeated one, or an empty list.
std::vector<props_kind> parse_kinds(const std::string& list);

}  // namespace tilesim::gpu::props
