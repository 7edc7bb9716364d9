// tilesim/kernel/model/ldmatrix.hpp: ldmatrix, sm90's warp-collective load of 8x8 matrices of 16-bit elements.
//
// DEFINITION (PTX ISA, "ldmatrix"): ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 loads Count 8x8
// matrices from shared memory. Lane 8i + r gives the address of row r of matrix i (8 contiguous 16-bit
// elements, 16 bytes, 16-byte aligned); lanes from 8 Count on give none. Every lane t then receives one 32-bit
// register per matrix: register i holds matrix i's elements
//   (t / 4, 2 (t % 4)) in its low half and (t / 4, 2 (t % 4) + 1) in its high half,
//   with .trans:  (2 (t % 4), t / 4) and (2 (t % 4) + 1, t / 4).
// So lanes 4r .. 4r + 3 hold row r, two elements each: the mma.sync m16n8k16 operand layout. Programs call
// ldmatrix<Count, Trans>(ctx, lds, row_offset) (program.hpp); on the simulator each address lane's row is one
// recorded 16-byte LDS load (priced by the LDS model: on sm90, 8 rows of 16 bytes per wavefront) and the
// engine then hands out the registers once the whole wave has arrived; on a GPU it is one ldmatrix.
//
// WORKED EXAMPLE (x1, matrix M[r][c] = 8r + c): lane 0 gets {M[0][0], M[0][1]} = 0 | 1 << 16, lane 5 gets
// {M[1][2], M[1][3]} = 10 | 11 << 16; with .trans lane 5 gets {M[2][1], M[3][1]} = 17 | 25 << 16.
//
// INVARIANTS: Count is 1, 2 or 4; elements are 2 bytes; every lane of the (32-lane) wave takes part.
#pragma once

#include <cstdint>

#include "spec/config.hpp"

namespace tilesim {

// The registers one lane receives: r[i] from matrix i.
template <int Count>
struct ldmatrix_fragment {
  static_assert(Count == 1 || Count == 2 || Count == 4, "ldmatrix: 1, 2 or 4 matrices");
  std::uint32_t r[Count] = {};
};

// Which row lane of matrix `matrix` and which 16-bit element of its row go into half `half` (0 low, 1 high) of
// lane t's register: ldmatrix_source(5, 0, 0, false) == {1, 2} (row lane 1, element 2).
struct ldmatrix_element {
  int row_lane = 0, element = 0;
};
TILESIM_HOST_DEVICE constexpr ldmatrix_element ldmatrix_source(int lane, int matrix, int half, bool trans) {
  return trans ? ldmatrix_element{8 * matrix + 2 * (lane % 4) + half, lane / 4}
               : ldmatrix_element{8 * matrix + lane / 4, 2 * (lane % 4) + half};
}

}  // namespace tilesim
