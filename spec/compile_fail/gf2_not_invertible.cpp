// A singular GF(2) map (column 2 = column 0 XOR column 1) in a constant expression stops at the rule's function.
// expect: gf2_not_invertible
#include "spec/spec.hpp"

constexpr auto d = tilesim::make_gf2_linear_descriptor(4, 4, 0, tilesim::gf2_matrix{4, {1, 2, 3, 8}});
