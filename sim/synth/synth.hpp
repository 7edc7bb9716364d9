// tilesim/sim/synth/synth.hpp: swizzle synthesis: the LDS layout that makes a tile's writer and reader cheapest.
//
// DEFINITION. Given a tile (shape, element size), its writer and reader (tile_access.hpp), an architecture and
// the families allowed (lds_layout.hpp), synthesize() prices candidates in the simulator's bank model
// (sim/models/lds_banks.hpp: the wavefronts of every instruction of both sides, on the arch's phase tables)
// and returns the best: fewest wavefronts summed over write + read, ties broken by the simplest (least extra
// LDS, then fewest XOR-ed bits, then the family order row-major, cute, ck, xor, padded, then the candidate
// order). Candidates:
//   row-major                       always (the baseline)
//   padded  +p                      p a multiple of the widest vector, up to one bank row
//   cute    Swizzle<B,M,S>          every valid term with 2^M >= the widest vector whose ZZZ bits reach a bank bit
//   ck      ck_lds_xor              KPack a multiple of the vector dividing cols, MLdsLayer 1..16, both orders
//   xor     commuting CuTe terms    the witness of the GF(2) search (xor_bound.hpp), when it is in graph form
// Every candidate must keep both sides' vectors contiguous (check_vectors); the winner is checked again: its
// offsets through the spec/ descriptor equal the direct formula, they are a bijection (check_bijection), and
// its wavefronts re-measured from the descriptor's offsets equal the search's.
// The XOR-linear analysis (xor_bound.hpp) says whether the ideal is reachable by any XOR-linear layout and,
// when not, why (a rank bound per phase, weighted as the objective, or the exhaustive search). When the
// enumerated best misses the ideal, the branch-and-bound of xor_minimise.hpp minimises over the row-xor, xor and
// gf2 families (and prices padded-xor when small); each optimum is a layout (row-xor and xor as CuTe terms, gf2
// and padded-xor through realise_layout.hpp as spec/layouts/gf2_linear.hpp and padded_xor.hpp), priced again
// (it must equal the search's number) and replaces the best only when strictly cheaper, in that order. The
// certificate lists per family its best and the lower bound proved over all its members (an enumerated
// family's best is its optimum; "tma" is the part of row-major and cute that sm90's TMA can lay out; "ldmatrix",
// on sm90, the XOR-linear layouts that move whole 16-byte chunks, so every row ldmatrix reads stays whole), and
// lower_bound, the least of them (never below the ideal): the answer is optimal over every family listed when
// it meets it. Objective: write_weight * write + read_weight * read, each instruction counted `weight` times.
//
// WORKED EXAMPLE (sm90, 8 x 64 fp16, 16-byte warp-raked stores, ldmatrix reads, 256 threads on a 128 x 64
// tile): row-major costs 1152 wavefronts against an ideal of 256 (the 8 rows of one 8x8 matrix read share
// one bank quad: 8-way); synthesize() returns Swizzle<3,3,3> (the SW128 atom, Swizzle<3,4,3> on bytes) at
// 256 = ideal: the cheapest conflict-free CuTe term (B = 3 is the least that separates 8 rows).
//
// INVARIANTS: best.total() <= row_major.total() (row-major is a candidate); best.total() >= ideal; when the
// XOR analysis is feasible and cute/xor are allowed, best.total() == ideal (props/synth.props.cpp);
// ideal <= lower_bound <= best.total() <= old_best, and best.total() <= every searched family's optimum (a row-xor
// or xor optimum of more than max_spelled_terms CuTe terms is spelled as one gf2_linear map) (props/synth_min.props.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/synth/lds_layout.hpp"
#include "sim/synth/tile_access.hpp"
#include "sim/synth/xor_bound.hpp"
#include "sim/synth/xor_minimise.hpp"
#include "sim/wave_access.hpp"

namespace tilesim::synth {

// Wavefronts of one side under one layout.
struct side_cost {
  long long wavefronts = 0, ideal = 0;
  int max_ways = 0;                 // worst phase
  int worst_instruction = -1;       // the instruction with the most excess wavefronts (first on ties)
};

// One side priced: every instruction through lds_instruction_cost, addresses = offsets[(r, c)] * elem_bytes.
side_cost price_side(const sim::arch_table& arch, const tile_shape& tile, const tile_side& s,
                     const std::vector<index_t>& offsets);

// The fewest wavefronts any layout can give side s: one per phase with an active lane, one per sm90 paired
// group whose lanes pair up on equal elements (lds_banks.hpp's pair condition, on logical coordinates).
long long ideal_wavefronts(const sim::arch_table& arch, const tile_shape& tile, const tile_side& s);

// The wave_access of instruction i of s under `offsets` (for heat maps and pattern files).
sim::wave_access wave_access_of(const tile_shape& tile, const tile_instruction& i, const std::vector<index_t>& offsets);

struct priced_layout {
  lds_layout layout;
  side_cost write, read;
  long long write_weight = 1, read_weight = 1;  // instructions per kernel of each side (the objective's weights)
  long long total() const { return write_weight * write.wavefronts + read_weight * read.wavefronts; }
  long long ideal() const { return write.ideal + read.ideal; }
};

struct synth_request {
  const sim::arch_table* arch = nullptr;
  tile_shape tile;
  tile_side writer, reader;
  std::vector<layout_family> families;  // empty: all
  long long search_budget = 20'000'000;  // nodes of the GF(2) search
  long long write_weight = 1, read_weight = 1;  // the objective: write_weight * write + read_weight * read
  long long min_nodes = 5'000;           // nodes of each branch-and-bound family search (xor_minimise.hpp)
  double min_seconds = 1.0;              // wall-clock limit of the family searches together (the node limit keeps answers
                                         // the same on every machine; this one only caps a slow one)
};

// What is proved about one family: its best member priced, the lower bound over all its members, and how.
struct family_certificate {
  std::string family;                    // "row-major", "padded", "cute", "ck", "tma", "row-xor", "xor", "gf2", "padded-xor", "ldmatrix"
  long long best = 0;                    // fewest wavefronts of a member (weighted)
  long long lower_bound = 0;             // no member does better
  bool optimal() const { return best == lower_bound; }
  std::string how;                       // "every member priced (12)", "branch-and-bound over GF(2), 3042 nodes, finished"
  long long nodes_or_members = 0;        // members priced, or search nodes
};

struct synth_result {
  priced_layout best, row_major;
  long long ideal = 0;                   // ideal_wavefronts of writer + reader
  long long candidates = 0;              // priced candidates
  long long rejected = 0;                // candidates that split a vector
  xor_analysis xor_info;
  xor_minimum minimum;                   // the branch-and-bound over the XOR-linear families
  std::vector<family_certificate> certificate;  // one per family searched, in the order row-major .. gf2
  std::string best_family;               // the certificate entry the answer belongs to
  long long lower_bound = 0;             // over every family searched: the least of their lower bounds
  long long old_best = 0;                // the best of the enumerated candidates alone (before issue 36's search)
  std::optional<priced_layout> ldmatrix; // sm90, sides narrower than 16 B: the ldmatrix family's best (gf2 on 16-byte chunks)
  bool reaches_ideal() const { return best.total() == ideal; }
  // What the checks of the winner found (always filled): "bijection onto [0, 8192); spec/ descriptor ... equal".
  std::string checked;
};

// Runs the search. Throws std::invalid_argument for an invalid request (sides broken per check_side, a family
// that has no candidate for the tile).
synth_result synthesize(const synth_request& r);

// Whether l is what sm90's TMA (and a wgmma descriptor) can lay out: SWIZZLE_NONE (row-major), or SW32 / SW64 /
// SW128 = Swizzle<1|2|3,4,3> on byte addresses with a row of at most 32 / 64 / 128 bytes (one box row), the
// tile's base on the swizzle's repeat (256 / 512 / 1024 B, as offset 0 assumes). The certificate's "tma" family.
bool tma_mode(const sim::arch_table& arch, const lds_layout& l);

// All candidates of the allowed families for the request, unpriced, in the tie-break order.
std::vector<lds_layout> candidate_layouts(const synth_request& r, const xor_analysis& x);

}  // namespace tilesim::synth
