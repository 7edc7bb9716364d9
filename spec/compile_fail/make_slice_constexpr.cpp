// make_slice(8, 6, 2) in a constant expression names the slice rule through compile_time_error.
// expect: slice_out_of_range
#include "spec/spec.hpp"

constexpr auto t = tilesim::make_slice(8, 6, 2);
