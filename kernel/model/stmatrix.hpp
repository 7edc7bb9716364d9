// tilesim/kernel/model/stmatrix.hpp: stmatrix, sm90's warp-collective store of 8x8 matrices of 16-bit elements.
//
// DEFINITION (PTX ISA, "stmatrix", sm_90): stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 stores Count
// 8x8 matrices to shared memory; it is ldmatrix (ldmatrix.hpp) run backwards. Lane 8i + r gives the address of
// row r of matrix i (8 contiguous 16-bit elements, 16 bytes, 16-byte aligned); lanes from 8 Count on give none.
// Every lane t supplies one 32-bit register per matrix: register i holds matrix i's elements
//   (t / 4, 2 (t % 4)) in its low half and (t / 4, 2 (t % 4) + 1) in its high half,
//   with .trans:  (2 (t % 4), t / 4) and (2 (t % 4) + 1, t / 4).
// So the fragment an ldmatrix<Count, Trans> hands out, stored with stmatrix<Count, Trans> at the same row
// addresses, puts every element back where it was read (the round trip), and an mma.sync C/D-style fragment of
// 16-bit values goes to shared memory in one instruction. Programs call stmatrix<Count, Trans>(ctx, lds,
// row_offset, fragment) (program.hpp); on the simulator the whole wave first arrives and exchanges registers,
// then each address lane's row is one recorded 16-byte LDS store (priced per 8x8 matrix phase like ldmatrix:
// sim/models/lds_banks.hpp); on a GPU it is one stmatrix.
//
// WORKED EXAMPLE (x1; lane t's register is 2t | (2t + 1) << 16, so the low halves of the warp count 0, 2, 4 ..
// and the high halves 1, 3, 5 ..): row r gets elements 8r .. 8r + 7, i.e. M[r][c] = 8r + c; lane 5's register
// 10 | 11 << 16 lands at M[1][2] and M[1][3]. With .trans it lands at M[2][1] and M[3][1], so M[r][c] = 8c + r.
//
// INVARIANTS: Count is 1, 2 or 4; elements are 2 bytes; every lane of the (32-lane) wave takes part (each
// supplies its registers, even those that give no address); the element of lane t's register i, half h goes to
// the row of lane stmatrix_destination(t, i, h, Trans).row_lane at element .element: a bijection from the
// 32 x Count x 2 register halves onto the 8 Count rows x 8 elements.
#pragma once

#include "kernel/model/ldmatrix.hpp"
#include "spec/config.hpp"

namespace tilesim {

// The registers one lane supplies: r[i] to matrix i (the same registers ldmatrix hands out).
template <int Count>
using stmatrix_fragment = ldmatrix_fragment<Count>;

// Which row lane of matrix `matrix` and which 16-bit element of its row half `half` (0 low, 1 high) of lane t's
// register goes to: stmatrix_destination(5, 0, 1, false) == {1, 3}; the inverse of ldmatrix's source map.
TILESIM_HOST_DEVICE constexpr ldmatrix_element stmatrix_destination(int lane, int matrix, int half, bool trans) {
  return ldmatrix_source(lane, matrix, half, trans);
}

}  // namespace tilesim
