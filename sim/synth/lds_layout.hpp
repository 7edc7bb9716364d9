// tilesim/sim/synth/lds_layout.hpp: the LDS layouts synthesis chooses from, evaluated and spelled three ways.
//
// DEFINITION. An `lds_layout` maps a tile element (row, col) of a rows x cols tile to an element offset in
// LDS. Families (what `tilesim synth --family` names):
//   row_major   offset = r*cols + c
//   padded      offset = r*(cols + pad) + c                       (pad extra elements per row)
//   cute        offset = Swizzle<B,M,S>(r*cols + c)               (CuTe, element units; one term)
//   xor         offset = T_1(T_2(...T_k(r*cols + c)))             (k CuTe terms T_i = Swizzle<B_i,M_i,S_i>, S_i > 0,
//                                                                  each XOR-ing bits above a bank field into it:
//                                                                  the terms commute; any XOR-linear map that keeps
//                                                                  the vector and is unipotent has this form)
//   ck          spec/layouts/ck_lds_xor.hpp (CK's XOR preshuffle: KPack, MLdsLayer, order, banks)
//   gf2         spec/layouts/gf2_linear.hpp: offset = (A (u >> k)) << k | (u mod 2^k), u = r*cols + c, A an
//                                                  invertible GF(2) matrix (gf2_columns), k = keep_bits
//   padded-xor  spec/layouts/padded_xor.hpp: offset = r*(cols + pad) + (c XOR (f(r) << keep_bits)), f linear
//                                                  in r's bits (row_keys[i] = f(2^i))
// gf2 and padded-xor are what the branch-and-bound of xor_minimise.hpp realises (realise_layout.hpp); they have
// no CK Tile or CuTe spelling (ck_spelling says so; ck_mirror_offsets refuses them: has_ck_spelling).
// Spellings: spec_spelling (C++ building the spec/ descriptor), ck_spelling (CK Tile code: transform_tensor_
// descriptor chains of make_naive_tensor_descriptor / unmerge / xor / merge, the form CK's GEMM policies use),
// cute_spelling (`Swizzle<B,M,S> o (rows,cols):(cols,1)`, when the layout is one CuTe swizzle of row-major;
// CK's 2025 order is Swizzle<log2(K0*L), log2(KPack), log2(K0*L)>). Each spelling has an evaluator that
// builds it for real: descriptor_offsets builds the spec/ descriptor, ck_mirror_offsets the same chain as
// the CK Tile code out of spec/'s CK-equivalent transforms (xor_t, unmerge, merge, pass_through), and
// cute_offsets applies swizzle_offset; layout_offsets is the fast direct formula. All four agree element by
// element (props/synth.props.cpp).
//
// WORKED EXAMPLE (4 x 4 fp32, Swizzle<2,0,2>, a cute layout): row r keeps its elements, column c moves to
// c XOR r:   r0: 0 1 2 3   r1: 5 4 7 6   r2: 10 11 8 9   r3: 15 14 13 12
// On 4 banks of 4 bytes, reading column 0 (offsets 0 5 10 15) hits banks 0 1 2 3: conflict-free, where
// row-major's 0 4 8 12 are all bank 0.
//
// INVARIANTS: every layout of the cute, xor, ck and gf2 families is a bijection of the tile onto
// [0, rows*cols) (check_bijection verifies it on the evaluated offsets; synthesis never returns one that
// fails); padded and padded-xor are bijections onto their footprint in [0, rows*(cols+pad)); the low M bits of
// every term (keep_bits for gf2, padded-xor) are untouched, so a vector of 2^M elements stays contiguous
// (check_vectors checks it for a side's actual vectors).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/synth/tile_access.hpp"
#include "spec/layouts/ck_lds_xor.hpp"
#include "spec/layouts/gf2_linear.hpp"
#include "spec/layouts/padded_xor.hpp"

namespace tilesim::synth {

// Most XOR terms a layout may have and still be spelled (and built) as a spec/ descriptor chain.
inline constexpr std::size_t max_spelled_terms = 8;

enum class layout_family { row_major, padded, cute, xor_linear, ck, gf2, padded_xor };

// "row-major", "padded", "cute", "xor", "ck", "gf2", "padded-xor".
std::string family_name(layout_family f);

// One CuTe term Swizzle<bits, base, shift> on element offsets (shift > 0: bits [base+shift, +bits) are
// XOR-ed into [base, +bits)).
struct swizzle_term {
  int bits = 0, base = 0, shift = 0;
  bool operator==(const swizzle_term&) const = default;
};

struct lds_layout {
  layout_family family = layout_family::row_major;
  index_t rows = 0, cols = 0;
  int elem_bytes = 2;
  index_t pad = 0;                    // padded
  std::vector<swizzle_term> terms;    // cute (one), xor (one or more)
  ck_lds_xor_params ck{0, 0, 0};      // ck (m_per_block = rows, k_per_block = cols)
  int keep_bits = 0;                  // gf2: low offset bits kept; padded-xor: log2 of the elements of a chunk
  std::vector<index_t> gf2_columns;   // gf2: A by columns (images of the offset bits above keep_bits)
  std::vector<index_t> row_keys;      // padded-xor: f(2^i) per row bit i, in chunks (pad as for padded)

  // "row-major", "padded +8", "Swizzle<3,3,3>", "xor Swizzle<2,3,5> * Swizzle<1,5,4>", "ck-xor 2025 KPack 8 L 2",
  // "gf2 keep 3 {9,16,32,1,2,4,64}", "padded-xor +8 keys {3,5,6,7} on 8-element chunks"
  std::string name() const;
  // Elements of LDS the layout occupies: rows*cols, or rows*(cols+pad) (padded, padded-xor).
  index_t element_space() const;
  // How complicated it is, for ties: XOR-ed bit pairs (B summed over terms; log2(K0*L) for ck), 0 for the rest.
  int xor_bits() const;
};

// offset of every element, row-major over (row, col): the direct formula. Throws spec_error for parameters
// the layout rejects.
std::vector<index_t> layout_offsets(const lds_layout& l);
// The same through the spec/ descriptor that spec_spelling prints.
std::vector<index_t> descriptor_offsets(const lds_layout& l);
// The same through spec/'s mirror of the CK Tile code that ck_spelling prints; throws std::invalid_argument for a
// layout without one (has_ck_spelling).
std::vector<index_t> ck_mirror_offsets(const lds_layout& l);
// The same through CuTe's swizzle, when cute_spelling has one; else nothing.
std::optional<std::vector<index_t>> cute_offsets(const lds_layout& l);

// Whether ck_spelling prints CK Tile code that builds l (and ck_mirror_offsets evaluates it): not gf2, padded-xor.
bool has_ck_spelling(const lds_layout& l);

std::string spec_spelling(const lds_layout& l);
std::string ck_spelling(const lds_layout& l);
// "Swizzle<3,3,3> o (8,64):(64,1) in elements; Swizzle<3,4,3> on byte addresses (the SW128 atom)", or nothing.
std::optional<std::string> cute_spelling(const lds_layout& l);

// Nothing when `offsets` (of `l`) are distinct and inside [0, element_space), and for padded and padded-xor each row
// r inside its own [r*(cols+pad), r*(cols+pad) + cols) (a bijection onto the footprint); else why, naming elements.
std::optional<std::string> check_bijection(const lds_layout& l, const std::vector<index_t>& offsets);

// Nothing when every active vector of `s` is contiguous under `offsets`; else the first lane that is not.
std::optional<std::string> check_vectors(const tile_side& s, const lds_layout& l, const std::vector<index_t>& offsets);

}  // namespace tilesim::synth
