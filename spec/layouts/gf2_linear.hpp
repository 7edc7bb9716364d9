// tilesim/spec/layouts/gf2_linear.hpp: a tile whose offset bits go through an invertible GF(2)-linear map.
//
// DEFINITION. Take the row-major element offset u = r * cols + c of a rows x cols tile (rows * cols = 2^(k+n))
// as a bit vector. The low k bits (one vector, or one 16-byte chunk) stay; the n bits above them, h = u >> k,
// go through an invertible n x n matrix A over GF(2) (XOR is addition):
//
//   offset(r, c) = (A h) << k | (u mod 2^k),   A h = XOR of columns[j] over the set bits j of h
//
// columns[j] is the image of bit j of h. Every CuTe Swizzle<B,M,S> (M >= k), any product of them, CK's XOR
// preshuffle on power-of-two tiles, a transpose of power-of-two sides and every bit permutation are such maps;
// so is any map whose bank bits are a linear function of the address bits that no XOR of row bits into column
// bits gives (`tilesim synth`'s gf2 family answers in this form). The transform gf2_linear is the map on the
// flat offset; make_gf2_linear_descriptor puts the (rows, cols) unmerge on top, as cute_swizzle.hpp does.
//
// WORKED EXAMPLE (4 x 4 fp32, k = 0, n = 4; h's bits are c0 c1 r0 r1). columns = {5, 10, 1, 2}: c0 -> bits 0
// and 2, c1 -> bits 1 and 3, r0 -> bit 0, r1 -> bit 1, so offset(r, c) = 4c + (r XOR c):
//   r0:  0  5 10 15    r1:  1  4 11 14    r2:  2  7  8 13    r3:  3  6  9 12
// On 4 banks of 4 bytes the bank is r XOR c: a row read (0 5 10 15 -> banks 0 1 2 3) and a column read (0 1 2 3)
// are conflict-free. The inverse map has columns {4, 8, 5, 10}: offset 5 = bits 0 and 2 -> 4 XOR 5 = 1 = (0, 1).
//
// INVARIANTS: a bijection of [0, 2^(k+n)) onto itself exactly when A is invertible (check() rejects a singular
// A with rule::gf2_not_invertible, computing the inverse that upper_index uses); the low k bits never move, so a
// vector of 2^k elements stays contiguous (upper_vectors limits a guarantee to 2^k).
#pragma once

#include "spec/descriptor.hpp"
#include "spec/transform.hpp"
#include "spec/transforms/unmerge.hpp"

namespace tilesim {

// Most bits A may act on (n).
inline constexpr int gf2_max_bits = 40;

// A n x n GF(2) matrix by columns; gf2_apply(m, h) = XOR of col[j] over the set bits j of h.
struct gf2_matrix {
  int n = 0;
  index_t col[gf2_max_bits] = {};
};

// gf2_apply({2, {2, 1}}, 1) == 2: the bit swap sends bit 0 to bit 1.
TILESIM_HOST_DEVICE constexpr index_t gf2_apply(const gf2_matrix& m, index_t h) {
  index_t out = 0;
  for (int j = 0; j < m.n; ++j)
    if ((h >> j) & 1) out ^= m.col[j];
  return out;
}

// The inverse of m by Gauss-Jordan on (column, preimage) pairs: each pair keeps m * preimage == column; the
// columns are reduced to unit vectors, whose preimages are then the inverse's columns. found == false: singular.
struct gf2_inverse_result {
  gf2_matrix inverse;
  bool found = false;
};
TILESIM_HOST_DEVICE constexpr gf2_inverse_result gf2_invert(const gf2_matrix& m) {
  gf2_inverse_result r;
  r.inverse.n = m.n;
  index_t a[gf2_max_bits] = {}, b[gf2_max_bits] = {};
  for (int j = 0; j < m.n; ++j) {
    a[j] = m.col[j];
    b[j] = index_t{1} << j;
  }
  for (int bit = 0; bit < m.n; ++bit) {
    int p = bit;
    while (p < m.n && !((a[p] >> bit) & 1)) ++p;
    if (p == m.n) return r;  // no pivot for this bit: singular
    const index_t ta = a[p], tb = b[p];
    a[p] = a[bit], b[p] = b[bit];
    a[bit] = ta, b[bit] = tb;
    for (int j = 0; j < m.n; ++j)
      if (j != bit && ((a[j] >> bit) & 1)) a[j] ^= a[bit], b[j] ^= b[bit];
  }
  for (int j = 0; j < m.n; ++j) r.inverse.col[j] = b[j];  // a[j] == e_j now, so m * b[j] == e_j
  r.found = true;
  return r;
}

struct gf2_linear {
  index_t length;      // 2^(keep + n)
  int keep;            // k: low bits that stay
  gf2_matrix map;      // A on the n bits above them
  gf2_matrix inverse;  // A^-1 (filled by make_gf2_linear; check() recomputes it)

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = true, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {length}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<1> up) const {
    const index_t low = up[0] & ((index_t{1} << keep) - 1);
    return {(gf2_apply(map, up[0] >> keep) << keep) | low};
  }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<1>, multi_index<1> up,
                                                                  multi_index<1>& low) const {
    return recompute_lower(*this, up, low);
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1>) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<1> upper_index(multi_index<1> low) const {
    if (low[0] < 0 || low[0] >= length) return {{0}, false};
    const index_t kept = low[0] & ((index_t{1} << keep) - 1);
    return {{(gf2_apply(inverse, low[0] >> keep) << keep) | kept}, true};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1> low) const {
    return {limit_vector(low[0], index_t{1} << keep)};
  }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    const char* where = "gf2_linear";
    if (violation v = check_lengths(where, multi_index<1>{length})) return v;
    if (violation v = broken_unless(is_power_of_two(length), rule::gf2_length_not_power_of_two, where, {"length", length}))
      return v;
    if (violation v = broken_unless(keep >= 0 && keep <= 40 && map.n >= 0 && map.n <= gf2_max_bits && keep + map.n == log2_exact(length),
                                    rule::gf2_bits_mismatch, where, {"keep", keep}, {"n", map.n},
                                    {"log2 length", log2_exact(length)}))
      return v;
    for (int j = 0; j < map.n; ++j)
      if (violation v = broken_unless(map.col[j] >= 0 && map.col[j] < (index_t{1} << map.n), rule::gf2_column_out_of_range,
                                      where, {"column", j}, {"value", map.col[j]}, {"n", map.n}))
        return v;
    const gf2_inverse_result inv = gf2_invert(map);
    if (violation v = broken_unless(inv.found, rule::gf2_not_invertible, where, {"n", map.n})) return v;
    for (int j = 0; j < map.n; ++j)
      if (violation v = broken_unless(inverse.n == map.n && inverse.col[j] == inv.inverse.col[j], rule::gf2_not_invertible,
                                      where, {"inverse column", j}, {"value", inverse.col[j]}))
        return v;
    return {};
  }
  std::string cpp() const {
    std::string s = "make_gf2_linear(" + std::to_string(length) + ", " + std::to_string(keep) + ", gf2_matrix{" +
                    std::to_string(map.n) + ", {";
    for (int j = 0; j < map.n; ++j) s += (j ? ", " : "") + std::to_string(map.col[j]);
    return s + "}})";
  }
};

// make_gf2_linear(16, 0, gf2_matrix{4, {5, 10, 1, 2}}): the essay's 4 x 4 map on a flat offset.
TILESIM_HOST_DEVICE constexpr gf2_linear make_gf2_linear(index_t length, int keep, const gf2_matrix& map) {
  gf2_linear t{length, keep, map, gf2_invert(map).inverse};
  require(t.check());
  return t;
}

// make_gf2_linear_descriptor(4, 4, 0, gf2_matrix{4, {5, 10, 1, 2}}): top (row, col) -> the essay's 4c + (r XOR c).
TILESIM_HOST_DEVICE constexpr auto make_gf2_linear_descriptor(index_t rows, index_t cols, int keep, const gf2_matrix& map) {
  const index_t n = rows * cols;
  auto flat = make_naive_descriptor_packed<1>({n}, n);
  auto mapped = transform_descriptor(flat, step(make_gf2_linear(n, keep, map), {0}, {0}));
  return transform_descriptor(mapped, step(make_unmerge<2>({rows, cols}), {0}, {0, 1}));
}

}  // namespace tilesim
