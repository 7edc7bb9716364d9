// tilesim/sim/synth/family_brute_force.hpp: a family's optimum by pricing every member in the bank model: the
// check of xor_minimise.hpp's certificate, independent of its bound and its search.
//
// DEFINITION. For the row-xor, xor and gf2 families of xor_minimise.hpp, enumerate every member as a layout of
// the tile (element offsets), price writer and reader through price_side (the simulator's lds_instruction_cost,
// not the search's own bank count) and return the least weighted total. Members, in 16-byte (chunk) units, h the
// chunk index of the row-major tile, h' the chunk where the layout puts it:
//   row-xor   h' = r*C + (c XOR f(r)), f linear from the row bits to the column-chunk bits that are bank bits
//   xor       h' = h XOR M(h >> f): the f bank bits of h XOR a linear function of the bits above them
//   gf2       every f x m matrix L of rank f, completed to an invertible map (L h in the low f bits, then the
//             unit rows of the bits outside L's pivots): every bank assignment an XOR-linear layout can make
// The members are counted first; a family with more than `limit` is not priced (nothing is returned).
//
// WORKED EXAMPLE. sm90, 8 x 32 fp16 (8 rows of 4 chunks), m = 5 chunk bits, f = 3: row-xor has 2^(3*2) = 64
// members (3 row bits, each sent to one of 4 values of the 2 column-chunk bits), xor 2^(3*2) = 64, gf2 the
// 2^15 matrices of rank 3 (28 ranks short of that are skipped).
//
// INVARIANTS: the result equals xor_minimise's best for the family whenever that search finished (props/
// synth_min.props.cpp and xor_minimise.test.cpp hold it on generated problems of every vendor).
#pragma once

#include <optional>

#include "sim/synth/synth.hpp"

namespace tilesim::synth {

struct brute_force_result {
  long long members = 0;   // layouts in the family (priced, when best is set)
  std::optional<long long> best;
};

// The optimum of `family` for r's writer and reader (weights included) by pricing every member; members only when
// there are more than `limit`, or the family does not apply to the tile (see xor_minimise.hpp).
brute_force_result brute_force_family(const synth_request& r, xor_family family, long long limit);

}  // namespace tilesim::synth
