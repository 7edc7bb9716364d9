// A compile-time merge with a zero length fails with the shared length rule's text.
// expect: every length must be >= 1
#include "spec/spec.hpp"

constexpr auto t = tilesim::fixed<tilesim::merge<2>{{4, 0}}>;
