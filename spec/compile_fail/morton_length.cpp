// A compile-time morton(4, 6) fails because 6 is not a power of two.
// expect: morton: both lengths must be powers of two
#include "spec/spec.hpp"

constexpr auto t = tilesim::fixed<tilesim::morton{{4, 6}}>;
