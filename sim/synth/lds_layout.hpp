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
// INVARIANTS: every layout of the cute, xor and ck families is a bijection of the tile onto
// [0, rows*cols) (check_bijection verifies it on the evaluated offsets; synthesis never returns one that
// fails); padded is injective into [0, rows*(cols+pad)); the low M bits of every term are untouched, so a
// vector of 2^M elements stays contiguous (keeps_vectors checks it for a side's actual vectors).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/synth/tile_access.hpp"
#include "spec/layouts/ck_lds_xor.hpp"

namespace tilesim::synth {

// Most XOR terms a layout may have and still be spelled (and built) as a spec/ descriptor chain.
inline constexpr std::size_t max_spelled_terms = 8;

enum class layout_family { row_major, padded, cute, xor_linear, ck };

// "row-major", "padded", "cute", "xor", "ck".
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

  // "row-major", "padded +8", "Swizzle<3,3,3>", "xor Swizzle<2,3,5> * Swizzle<1,5,4>", "ck-xor 2025 KPack 8 L 2"
  std::string name() const;
  // Elements of LDS the layout occupies: rows*cols, or rows*(cols+pad).
  index_t element_space() const;
  // How complicated it is, for ties: XOR-ed bit pairs (B summed over terms; log2(K0*L) for ck), 0 for the rest.
  int xor_bits() const;
};

// offset of every element, row-major over (row, col): the direct formula. Throws spec_error for parameters
// the layout rejects.
std::vector<index_t> layout_offsets(const lds_layout& l);
// The same through the spec/ descriptor that spec_spelling prints.
std::vector<index_t> descriptor_offsets(const lds_layout& l);
// The same through spec/'s mirror of the CK Tile code that ck_spelling prints.
std::vector<index_t> ck_mirror_offsets(const lds_layout& l);
// The same through CuTe's swizzle, when cute_spelling has one; else nothing.
std::optional<std::vector<index_t>> cute_offsets(const lds_layout& l);

std::string spec_spelling(const lds_layout& l);
std::string ck_spelling(const lds_layout& l);
// "Swizzle<3,3,3> o (8,64):(64,1) in elements; Swizzle<3,4,3> on byte addresses (the SW128 atom)", or nothing.
std::optional<std::string> cute_spelling(const lds_layout& l);

// Nothing when `offsets` (of `l`) are distinct and inside [0, element_space); else why, naming two elements.
std::optional<std::string> check_bijection(const lds_layout& l, const std::vector<index_t>& offsets);

// Nothing when every active vector of `s` is contiguous under `offsets`; else the first lane that is not.
std::optional<std::string> check_vectors(const tile_side& s, const lds_layout& l, const std::vector<index_t>& offsets);

}  // namespace tilesim::synth
