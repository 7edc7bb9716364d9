// tilesim/spec/transforms/morton.hpp: Morton (Z-order) bit interleaving of a 2-D index.
//
// morton(R, C), R and C powers of two: upper (row, col) -> lower z whose bits alternate col and row bits,
// col bit k at z bit 2k, row bit k at z bit 2k+1; the longer side's extra bits go on top. Example, 4x4:
//
//       col 0  1  2  3
//   row 0   0  1  4  5
//   row 1   2  3  6  7
//   row 2   8  9 12 13
//   row 3  10 11 14 15
//
// The same table is unmerge(2,2,2,2) on (r1, c1, r0, c0) after merge(2,2) on each of row and col (a test
// builds both). Invariants: a bijection of [0, R) x [0, C) onto [0, R*C); upper_index de-interleaves.
// Vectors: consecutive columns are adjacent only in pairs, so col keeps gcd(V, 2) (V when R == 1, 1 when
// C == 1 and R > 1: past the single column lies the next row pair); row keeps V only when C == 1.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

struct morton {
  multi_index<2> lengths;  // (R, C)

  static constexpr int n_lower = 1, n_upper = 2;
  static constexpr bool always_valid = true, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<2> upper_lengths() const { return lengths; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(const multi_index<2>& up) const {
    const int row_bits = log2_exact(lengths[0]), col_bits = log2_exact(lengths[1]);
    const int shared = row_bits < col_bits ? row_bits : col_bits;
    index_t z = 0;
    for (int k = 0; k < shared; ++k) {
      z |= ((up[1] >> k) & 1) << (2 * k);
      z |= ((up[0] >> k) & 1) << (2 * k + 1);
    }
    // The longer side's remaining bits (and any out-of-range high bits) continue above the interleaved ones.
    const index_t rest = row_bits > col_bits ? (up[0] >> shared) + ((up[1] >> shared) << (row_bits - shared))
                                             : (up[1] >> shared) + ((up[0] >> shared) << (col_bits - shared));
    return {z + (rest << (2 * shared))};
  }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(const multi_index<2>&, const multi_index<2>& up,
                                                                  multi_index<1>& low) const {
    return recompute_lower(*this, up, low);
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(const multi_index<2>&) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<2> upper_index(multi_index<1> low) const {
    const int row_bits = log2_exact(lengths[0]), col_bits = log2_exact(lengths[1]);
    const int shared = row_bits < col_bits ? row_bits : col_bits;
    const index_t z = low[0];
    index_t row = 0, col = 0;
    for (int k = 0; k < shared; ++k) {
      col |= ((z >> (2 * k)) & 1) << k;
      row |= ((z >> (2 * k + 1)) & 1) << k;
    }
    const index_t rest = z >> (2 * shared);
    if (row_bits > col_bits)
      row |= rest << shared;
    else
      col |= rest << shared;
    return {{row, col}, z >= 0 && z < lengths[0] * lengths[1]};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<2> upper_vectors(vector_guarantees<1> low) const {
    vector_guarantees<2> up{};
    up[1] = lengths[0] == 1 ? low[0] : limit_vector(low[0], lengths[1] == 1 ? 1 : 2);  // column 1 of C = 1 is far
    if (lengths[1] == 1) up[0] = low[0];
    return up;
  }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = check_lengths("morton", lengths)) return v;
    return broken_unless(is_power_of_two(lengths[0]) && is_power_of_two(lengths[1]), rule::morton_length_not_power_of_two,
                         "morton", {"rows", lengths[0]}, {"cols", lengths[1]});
  }
  std::string cpp() const {
    return "make_morton(" + std::to_string(lengths[0]) + ", " + std::to_string(lengths[1]) + ")";
  }
};

// make_morton(4, 4): (1, 2) -> 6.
TILESIM_HOST_DEVICE constexpr morton make_morton(index_t rows, index_t cols) {
  morton t{{rows, cols}};
  require(t.check());
  return t;
}

}  // namespace tilesim
