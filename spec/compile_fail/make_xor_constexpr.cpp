// make_xor(4, 6) in a constant expression stops at the non-constexpr compile_time_error function of the rule.
// expect: xor_length_not_power_of_two
#include "spec/spec.hpp"

constexpr auto t = tilesim::make_xor(4, 6);
