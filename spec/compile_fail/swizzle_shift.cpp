// A compile-time Swizzle<3,3,2> (|S| < B: the XOR-ed bit fields overlap) fails with the swizzle rule's text.
// expect: swizzle: |S| must be >= B
#include "spec/spec.hpp"

constexpr auto t = tilesim::fixed<tilesim::swizzle{3, 3, 2, 512}>;
