// A compile-time xor_t with L1 = 6 (not a power of two) fails with the rule's static_assert text.
// expect: xor_t: the second length L1 must be a power of two
#include "spec/spec.hpp"

constexpr auto t = tilesim::fixed<tilesim::xor_t{{4, 6}}>;
