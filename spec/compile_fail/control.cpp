// The valid counterparts of the cases beside it compile, and their values fold to constants.
// expect: compiles
#include "spec/spec.hpp"

using namespace tilesim;

constexpr auto x = fixed<xor_t{{4, 8}}>;
static_assert(x.lower_index({3, 1}) == multi_index<2>{3, 2});
constexpr auto p = fixed<pad{4, 1, 0}>;
static_assert(p.is_valid_upper({1}) && !p.is_valid_upper({0}));
constexpr auto s = fixed<swizzle{3, 3, 3, 512}>;
static_assert(s.lower_index({72}) == multi_index<1>{64});
constexpr auto m = fixed<merge<2>{{4, 4}}>;
static_assert(m.lower_index({9}) == multi_index<2>{2, 1});
constexpr auto z = fixed<morton{{4, 4}}>;
static_assert(z.lower_index({1, 2}) == multi_index<1>{6});
constexpr const auto& lds = ck_lds_xor_descriptor<ck_lds_xor_params{128, 32, 8}>;
static_assert(lds.calculate_offset({2, 0}) == 72);
constexpr auto t = make_xor(4, 8);
static_assert(t.lower_index({5, 1}) == multi_index<2>{5, 4});
constexpr auto sl = make_slice(8, 2, 6);
static_assert(sl.lower_index({0}) == multi_index<1>{2});
constexpr auto a = transform_adaptor(identity_adaptor<2>(), step(make_pass_through(4), {0}, {1}),
                                     step(make_pass_through(4), {1}, {0}));
static_assert(a.bottom_index({1, 2}) == multi_index<2>{2, 1});
