// A constant-evaluated transform_adaptor that consumes old top dim 0 twice names the wiring rule.
// expect: dim_consumed_twice
#include "spec/spec.hpp"

using namespace tilesim;

constexpr auto a = transform_adaptor(identity_adaptor<2>(), step(make_pass_through(4), {0}, {0}),
                                     step(make_pass_through(4), {0}, {1}));
