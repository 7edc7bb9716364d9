// tilesim/sim/synth/xor_bound.hpp: which XOR-linear LDS layouts can make a writer and a reader conflict-free,
// decided over GF(2) on the address bits.
//
// DEFINITION. Take the tile's logical word address W (4-byte words of the row-major tile; rows and cols powers
// of two) as a bit vector over GF(2). An XOR-linear layout is an invertible linear map A on those bits; keeping
// each lane's vector contiguous forces A to be the identity on the low z word bits a vector spans and to leave
// them out of every other bit. The bank of a word is its low b bits (b = log2 banks), so all A can change is
// the f = b - z free bank bits: bank(A W) = (W mod 2^z, L h) with h = W >> z the m high bits and L an f x m
// matrix. Two distinct words of one phase conflict exactly when their low bits agree and L (h1 XOR h2) = 0.
// So, with D = { h1 XOR h2 : two words of one phase with equal low bits } (the forbidden differences):
//
//   some XOR-linear layout makes every phase conflict-free  <=>  some L has ker L ∩ D = {} .
//
// L only matters through its kernel, so the search enumerates L in reduced row echelon form (each row space
// once): column j of L is either the next unit vector (a new pivot) or a combination of the pivots so far.
// Pivots on the first f columns give L = [I | M]: the row-major bank bits XOR-ed with M times the bits above,
// which is exactly a product of commuting CuTe swizzles (terms_of_graph); other pivots need a bit permutation.
// The search visits the high bits that some forbidden difference uses (others get column 0) and prunes a
// branch as soon as a difference whose highest bit is the current column lands in the kernel.
//
// LOWER BOUND (the rank condition). In one phase, the words with one low part have high parts H spanning an
// affine space of rank r; any L of rank f puts them on at most 2^min(f, r) banks, so the phase costs at least
// ceil(|H| / 2^min(f, r)). Summed over phases (an sm90 paired-load group, counted once when conflict-free,
// counts max instead of sum when the group as a whole can be conflict-free; its union's differences are then
// forbidden too, since the ideal asks for that one pass) this bounds every XOR-linear layout from below.
//
// WORKED EXAMPLE (4 x 4 fp32 on 4 banks, toy waves of 4 lanes, 1 word each: z = 0, b = 2, f = 2, m = 4). The
// writer's phases are rows: differences {1, 2, 3} (column bits). The reader's are columns: {4, 8, 12} (row
// bits). D = {1, 2, 3, 4, 8, 12}. L = [I | I] (bank = c XOR r) sends 1 -> 01, 2 -> 10, 3 -> 11, 4 -> 01,
// 8 -> 10, 12 -> 11: no difference in the kernel, so it is conflict-free both ways: Swizzle<2,0,2>. Row-major
// L = [I | 0] has 4, 8, 12 in its kernel: each column read is 4-way (bound 1 per phase, row-major 4).
//
// Weights: a phase of an instruction issued w times per kernel (side weight x instruction weight) counts w times
// in the bound, as in synth's objective; the bound of every phase holds for every L, so the weighted sum does too.
//
// INVARIANTS: `feasible` is true only with a witness L that avoids D (checked again by pricing the layout in
// the simulator); `exhaustive` means every echelon form was visited, so feasible == false is a proof over the
// whole vector-keeping XOR-linear family; the (weighted) lower bound never exceeds the simulator's weighted
// wavefronts for any layout of the family (props/synth.props.cpp, props/synth_min.props.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/synth/lds_layout.hpp"
#include "sim/synth/tile_access.hpp"

namespace tilesim::synth {

struct xor_analysis {
  bool applicable = false;             // rows, cols, elem_bytes powers of two and the tile at least one bank row
  std::string not_applicable;          // why not, when !applicable
  int low_bits = 0;                    // z: word bits one vector spans (kept)
  int bank_bits = 0;                   // b
  int free_bits = 0;                   // f = b - z
  int high_bits = 0;                   // m: word bits above the vector
  int active_bits = 0;                 // high bits that some forbidden difference uses
  long long forbidden = 0;             // distinct forbidden differences
  std::optional<std::string> unavoidable;  // a forbidden difference with no free bank bit to separate it
  long long lower_bound = 0;           // the rank bound on wavefronts, writer + reader
  std::vector<std::string> rank_notes; // phases whose bound exceeds 1: "reader w0 a0 phase 2: 16 vectors on 2^3 banks ..."
  bool feasible = false;               // a conflict-free L exists
  bool graph_form = false;             // ... with pivots on the bank bits (spelled as CuTe terms)
  bool exhaustive = false;             // the search finished (not cut by the node budget)
  long long nodes = 0;                 // search nodes visited
  std::vector<std::uint32_t> witness;  // L by columns (column j = image of high bit j), when feasible
  std::vector<swizzle_term> terms;     // the witness as commuting CuTe terms on element offsets (graph form)
};

// Analyses writer + reader of `tile` on `arch`; vectors of up to `keep_elems` elements are kept whole.
// `budget` caps the search nodes. The rank bound weighs each phase's passes as synth's objective does:
// write_weight (read_weight) x the instruction's weight; feasibility does not depend on weights.
xor_analysis analyse_xor(const sim::arch_table& arch, const tile_shape& tile, const tile_side& writer,
                         const tile_side& reader, int keep_elems, long long budget = 20'000'000, long long write_weight = 1,
                         long long read_weight = 1);

// sm90's pair condition (lds_banks.hpp) on logical coordinates: over the lanes of phases a and b, every active
// lane whose partner lane^1 (or, for all of them, lane^2) is active names the same element. Layout-independent
// for an injective layout, so a paired group's single pass is what the ideal asks of it.
bool pair_condition(const tile_instruction& ins, const std::vector<int>& a, const std::vector<int>& b);

// The commuting CuTe terms of L = [I | M] (columns = images of the high bits above the f bank bits), for
// element offsets: bank bit i of h is element bit e0 + i with e0 = z + 2 - log2(elem_bytes).
std::vector<swizzle_term> terms_of_graph(const std::vector<std::uint32_t>& columns, int free_bits, int e0);

}  // namespace tilesim::synth
