// tilesim/sim/synth/xor_minimise.hpp: the fewest wavefronts any XOR-linear layout can give, found by
// branch-and-bound over GF(2), with a proved lower bound when the search is cut.
//
// DEFINITION. Cut the row-major tile into chunks of V = max(4, widest vector) bytes; a chunk's index h (m bits:
// cb column-chunk bits, then rb row bits) is what an XOR-linear layout moves, the z = log2(V/4) word bits inside a
// chunk stay. A word (h, k) lands in bank ((L h) << z | k) mod banks, with L the f x m GF(2) matrix of the free bank
// bits (f = log2(banks) - z). The bank model (sim/models/lds_banks.hpp) charges a phase the most distinct words any
// bank holds, so every layout's cost is a function of L alone (distinct logical words stay distinct). Families,
// each a set of L (column j of L = the image of chunk bit j):
//   row-xor   physical chunk = r*C + (c XOR f(r)), f linear: column j = (j < f ? e_j : 0) | (row bit j ? v : 0),
//             v any value of the bank bits that are column bits (CuTe's Swizzle and CK's XOR preshuffle are members)
//   xor       L = [I | M] (graph form): the row-major bank bits XOR any linear function of the bits above them
//   gf2       every L of rank f (reduced echelon forms, one per kernel): every XOR-linear layout keeping the vectors
//   padded-xor  row-xor on rows padded by whole chunks (not linear: priced member by member, see below)
// Each family is searched column by column. With columns 0..j-1 chosen, two words whose h agree above bit j-1 (a
// "class") already have their bank relation fixed: the unknown part of L moves them together. So a phase costs at
// least the most words of one class on one bank; an sm90 paired group (pair_condition) costs 1 only when its union
// has no conflict, else its two phases. The bound only grows with depth (classes merge) and equals the cost at a
// leaf: a branch whose bound reaches the best cost found is cut. Children are tried in the order of their bound.
// When the node budget or the time runs out, the lower bound is the least bound of any unexplored branch (a
// search cut before its first leaf dives on to one, so every family answers with a member).
//
// WORKED EXAMPLE (sm90, 8 x 32 fp16: 8 rows of C = 4 chunks, m = 5 chunk bits, f = 3; LDS.128 phases of 8
// lanes). The writer stores the 32 chunks in row-major order; reader lane l takes chunk (row l % 8, column l / 8),
// so each phase reads one column chunk down the 8 rows. Row-major puts chunk h = 4r + c on bank slot h mod 8 =
// 4 (r mod 2) + c: a phase's 8 rows share 2 slots, 4-way, 20 wavefronts against the ideal 8. The row-xor search
// fixes the columns of the two chunk bits and of row bit 0 (a bank bit, kept) and branches on row bits 1 and 2;
// sending them to the two chunk bits, f(r) = r >> 1 (Swizzle<2,3,3> on element offsets), gives every row of a
// phase its own slot: 8, the root bound, so the search stops there, optimal (xor_minimise.test.cpp).
//
// INVARIANTS: lower_bound <= best for every family; exhaustive means best == lower_bound is the family's
// optimum; gf2's lower bound bounds row-xor's and xor's (they are subsets); best equals the simulator's price
// of the returned columns (price_side, checked by the caller and by props/synth_min.props.cpp against brute
// force over every member on small tiles).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/synth/lds_layout.hpp"
#include "sim/synth/tile_access.hpp"

namespace tilesim::synth {

enum class xor_family { row_xor, graph, gf2 };

// "row-xor", "xor", "gf2".
std::string xor_family_name(xor_family f);

struct family_optimum {
  xor_family family = xor_family::row_xor;
  long long best = -1;                 // fewest (weighted) wavefronts found; -1: not searched
  long long lower_bound = 0;           // no member of the family does better
  bool exhaustive = false;             // the search finished: best is the family's optimum
  long long nodes = 0;                 // search nodes visited
  std::vector<std::uint32_t> columns;  // L of the best, by columns (chunk bit j -> free bank bits)
  long long gap() const { return best - lower_bound; }
};

// Padding combined with row-xor: physical chunk = r*(C + pad) + (c XOR f(r)), pad 1 .. Q-1 chunks (Q = chunks per
// bank row; pad 0 is row-xor, pad Q repeats pad 0). Additions mix with the XOR, so no class bound holds: every
// member is priced (the same bank count as the search), when there are at most the node limit of them and
// they take at most one family's share of the time (else not searched).
struct padded_xor_optimum {
  bool searched = false;
  long long members = 0;               // (Q-1) * 2^(rb * t)
  long long best = -1;
  index_t pad_chunks = 0;              // of the best
  std::vector<std::uint32_t> f;        // of the best: f(e_i) per row bit i
};

struct xor_minimum {
  bool applicable = false;
  std::string not_applicable;          // why not, when !applicable
  int chunk_bytes = 0;                 // V
  int z = 0, f = 0, m = 0, col_bits = 0, row_bits = 0;
  family_optimum row_xor, graph, gf2;
  padded_xor_optimum padded_xor;
};

struct minimise_limits {
  long long nodes = 2'000'000;         // per family
  double seconds = 3.0;                // wall clock for all families together (an equal share each)
  long long write_weight = 1, read_weight = 1;
  long long padded_members = -1;       // most padded-xor members priced; -1: the node limit
};

// Minimises writer + reader (weighted) over the three families; vectors of up to keep_elems elements stay whole.
xor_minimum minimise_xor(const sim::arch_table& arch, const tile_shape& tile, const tile_side& writer,
                         const tile_side& reader, int keep_elems, const minimise_limits& limits = {});

// The layout of a row-xor or xor optimum (columns of L, graph form) as commuting CuTe terms on element offsets:
// family xor, or row-major when L is the row-major one.
lds_layout layout_of_columns(const xor_minimum& x, const tile_shape& tile, const std::vector<std::uint32_t>& columns);

}  // namespace tilesim::synth
