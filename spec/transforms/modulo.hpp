// tilesim/spec/transforms/modulo.hpp: one dimension wrapped around a modulus.
//
// modulo(m, L): upper u in [0, L) -> lower u mod m (floor mod, so always in [0, m)). Example, modulo(3, 6):
// 0 1 2 3 4 5 -> 0 1 2 0 1 2. Many-to-one (not invertible) when L > m.
// CK's update_lower_index adds the step twice (it adds `du` to an upper index that already includes it);
// tilesim recomputes from the new upper index, so move(make(i), s) == make(i + s) holds here too.
// Vectors: a lower guarantee V survives as gcd(V, m).
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
  TILESIM_HOST_DEVICE constexpr vector_guarantees<1> upper_vectors(vector_guarantees<1> low) const {
    return {limit_vector(low[0], modulus)};
  }
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
