// A compile-time pad with a negative left padding fails with the pad rule's text.
// expect: pad: the left and right padding must be >= 0
#include "spec/spec.hpp"

constexpr auto t = tilesim::fixed<tilesim::pad{4, -1, 0}>;
