// tilesim/spec/transforms/modulo.hpp: one dimension wrapped around a modulus.
//
// modulo(m, L): upper u in [0, L) -> lower u mod m (floor mod, so always in [0, m)). Example, modulo(3, 6):
// 0 1 2 3 4 5 -> 0 1 2 0 1 2. Many-to-one (not invertible) when L > m.
// CK's update_lower_index adds the step twice (it adds `du` to an upper index that already includes it);
// tilesim recomputes from the new upper index, so move(make(i), s) == make(i + s) holds here too. CK's own
// code probably never moves a modulo (ck-tile-semantics.md §1.1); a tile window in strict mode names the
// elements of a load or store whose walk of moves left CK's modulo elsewhere (oob_kind::ck_index_differs).
// Negative u: tilesim's floor mod is in [0, m), CK's C++ % is not; strict mode names the elements
// (oob_kind::ck_index_differs).
// Vectors: none, as in CK (modulo inherits base_transform's calculate_upper_dimension_safe_vector_length_strides,
// which returns -1, in every version read: 2024-10, 2025 and rocm-libraries' newest). spec/ used to keep
// gcd(V, m), which is sound, but the simulator must issue the accesses CK issues: CK's kernel loads scalars
// here.
#pragma once

#include "spec/transform.hpp"

namespace tilesim {

struct modulo {
  index_t modulus;  // m
  index_t length;   // L

  static constexpr int n_lower = 1, n_upper = 1;
  static constexpr bool always_valid = true, invertible = false;

  TILESIM_HOST_DEVICE constexpr multi_index<1> upper_lengths() const { return {length}; }
  TILESIM_HOST_DEVICE constexpr multi_index<1> lower_index(multi_index<1> up) const {
    return {floor_mod(up[0], modulus)};
  }
  TILESIM_HOST_DEVICE constexpr multi_index<1> update_lower_index(multi_index<1>, multi_index<1> up,
                                                                  multi_index<1>& low) const {
    return recompute_lower(*this, up, low);
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(multi_index<1>) const { return true; }
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1>) const { return {}; }
  // Strict mode: after CK's move by `dup` to `up` its lower index is (up + dup) % m, the step counted twice.
  TILESIM_HOST_DEVICE constexpr bool ck_move_differs(multi_index<1> up, multi_index<1> dup) const {
    return dup[0] != 0 && (up[0] + dup[0]) % modulus != lower_index(up)[0];
  }
  // Strict mode: CK's u % m truncates toward zero, so a negative u not a multiple of m lands elsewhere.
  TILESIM_HOST_DEVICE constexpr bool ck_index_differs(multi_index<1> up) const { return up[0] % modulus < 0; }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = broken_unless(modulus >= 1, rule::modulus_not_positive, "modulo", {"m", modulus})) return v;
    return check_lengths("modulo", multi_index<1>{length});
  }
  std::string cpp() const { return "make_modulo(" + std::to_string(modulus) + ", " + std::to_string(length) + ")"; }
};

// make_modulo(3, 6): 4 -> 1.
TILESIM_HOST_DEVICE constexpr modulo make_modulo(index_t modulus, index_t length) {
  modulo t{modulus, length};
  require(t.check());
  return t;
}

}  // namespace tilesim
