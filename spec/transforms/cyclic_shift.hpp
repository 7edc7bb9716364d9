// tilesim/spec/transforms/cyclic_shift.hpp: a rotation of one dimension keyed by another, and its inverse.
//
// cyclic_shift(L0, L1):         (u0, u1) -> (u0, (u1 + u0) mod L1)
// inverse_cyclic_shift(L0, L1): (u0, u1) -> (u0, (u1 - u0) mod L1)
// Example, cyclic_shift(4, 4), stored column of (row r, column c):
//     r=0: 0 1 2 3    r=1: 1 2 3 0    r=2: 2 3 0 1    r=3: 3 0 1 2
// Invariants: both are bijections of [0, L0) x [0, L1) for any L1, and each undoes the other; upper_index
// finds a preimage exactly when 0 <= l1 < L1.
// Vectors: none (the rotation moves alignment). CK (rocm-libraries, newest) passes both guarantees through;
// `ck_upper_vectors` is that rule, and a tile window in strict mode reports where CK would vectorize otherwise.
// Negative inputs: CK's C++ % truncates; strict mode names the elements where its index differs from the
// floor mod here (oob_kind::ck_index_differs).
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

// Shared body; Sign = +1 rotates forward (cyclic_shift), -1 backward (inverse_cyclic_shift).
template <int Sign>
struct rotation {
  multi_index<2> lengths;  // (L0, L1)

  static constexpr int n_lower = 2, n_upper = 2;
  static constexpr bool always_valid = true, invertible = true;

  TILESIM_HOST_DEVICE constexpr multi_index<2> upper_lengths() const { return lengths; }
  TILESIM_HOST_DEVICE constexpr multi_index<2> lower_index(const multi_index<2>& up) const {
    return {up[0], floor_mod(up[1] + Sign * up[0], lengths[1])};
  }
  TILESIM_HOST_DEVICE constexpr multi_index<2> update_lower_index(const multi_index<2>&, const multi_index<2>& up,
                                                                  multi_index<2>& low) const {
    return recompute_lower(*this, up, low);
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(const multi_index<2>&) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<2> upper_index(const multi_index<2>& low) const {
    // lower_index only yields l1 in [0, L1): any other l1 has no preimage.
    return {{low[0], floor_mod(low[1] - Sign * low[0], lengths[1])}, low[1] >= 0 && low[1] < lengths[1]};
  }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<2> upper_vectors(const vector_guarantees<2>&) const { return {}; }
  // CK's rule (cyclic_shift_t / inverse_cyclic_shift_t): both passed through.
  TILESIM_HOST_DEVICE constexpr vector_guarantees<2> ck_upper_vectors(const vector_guarantees<2>& low) const {
    return low;
  }
  // Strict mode: CK's l1 with C++'s truncating % ((u1 + u0) % L1, or (u1 + L1 - u0 % L1) % L1) differs.
  TILESIM_HOST_DEVICE constexpr bool ck_index_differs(const multi_index<2>& up) const {
    const index_t l1 = lengths[1];
    const index_t ck = Sign > 0 ? (up[1] + up[0]) % l1 : (up[1] + l1 - up[0] % l1) % l1;
    return ck != lower_index(up)[1];
  }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    return check_lengths(Sign > 0 ? "cyclic_shift" : "inverse_cyclic_shift", lengths);
  }
  std::string cpp() const {
    return std::string(Sign > 0 ? "make_cyclic_shift(" : "make_inverse_cyclic_shift(") + std::to_string(lengths[0]) +
           ", " + std::to_string(lengths[1]) + ")";
  }
};

using cyclic_shift = rotation<+1>;
using inverse_cyclic_shift = rotation<-1>;

// make_cyclic_shift(4, 4): (1, 3) -> (1, 0).
TILESIM_HOST_DEVICE constexpr cyclic_shift make_cyclic_shift(index_t l0, index_t l1) {
  cyclic_shift t{{l0, l1}};
  require(t.check());
  return t;
}
// make_inverse_cyclic_shift(4, 4): (1, 0) -> (1, 3).
TILESIM_HOST_DEVICE constexpr inverse_cyclic_shift make_inverse_cyclic_shift(index_t l0, index_t l1) {
  inverse_cyclic_shift t{{l0, l1}};
  require(t.check());
  return t;
}

}  // namespace tilesim
