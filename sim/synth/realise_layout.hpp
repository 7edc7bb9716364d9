// tilesim/sim/synth/realise_layout.hpp: the layouts behind the gf2 and padded-xor optima of xor_minimise.hpp.
//
// DEFINITION. The branch-and-bound finds, per family, a bank map: for gf2 the f x m matrix L (column j = the free
// bank bits of chunk bit j), for padded-xor a pad and f(r). A layout is more: every chunk needs a place.
//   gf2         A = the m x m matrix whose first f rows are L and whose other rows are the unit rows e_j of the
//               chunk bits j that are not pivots of L's echelon form (lowest first). A is invertible (L has rank
//               f, and the unit rows supply exactly the missing pivots), and A h has L h as its low f bits, so every
//               word keeps the bank the search priced. On element offsets: spec/layouts/gf2_linear.hpp with
//               keep_bits = log2 of the elements of a chunk and A's columns.
//   padded-xor  spec/layouts/padded_xor.hpp with pad = pad_chunks chunks, keys = f(e_i), base = log2(chunk elements).
// When L is in graph form [I | M] the pivots are the first f bits and A = [I M; 0 I]: the same map as the xor
// family's commuting CuTe terms (layout_of_columns).
//
// WORKED EXAMPLE (m = 3 chunk bits, f = 1): L = (0 1 1) (bank bit = h1 XOR h2; h0 no longer a bank bit). Its
// pivot is bit 1, so A's rows are (0 1 1), then e_0 = (1 0 0), then e_2 = (0 0 1); by columns (per chunk bit):
// bit 0 -> 2 (row 1), bit 1 -> 1 (row 0), bit 2 -> 1 | 4 = 5, i.e. {2, 1, 5}. Chunk h = 0b110 goes to
// A h = 1 XOR 5 = 4: bank bit 0, as L h = 1 XOR 1 = 0 says (realise_layout.test.cpp).
//
// INVARIANTS: the realised layout's bank-model price equals the search's best (synthesize() checks it and throws
// std::logic_error otherwise; props/synth_min.props.cpp holds it); it is a bijection onto its footprint and keeps
// every chunk (so every vector of at most a chunk) contiguous.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/synth/lds_layout.hpp"
#include "sim/synth/xor_minimise.hpp"

namespace tilesim::synth {

// A (by columns) completing L (f x m, by columns) as the header says; empty when L's rank is below f.
std::vector<std::uint32_t> complete_bank_map(const std::vector<std::uint32_t>& l_columns, int f);

// The gf2 layout whose bank bits are L (columns of a gf2 optimum).
lds_layout layout_of_gf2(const xor_minimum& x, const tile_shape& tile, const std::vector<std::uint32_t>& columns);

// The padded-xor layout of a priced padded-xor optimum.
lds_layout layout_of_padded_xor(const xor_minimum& x, const tile_shape& tile, const padded_xor_optimum& p);

}  // namespace tilesim::synth
