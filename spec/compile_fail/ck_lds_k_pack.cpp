// A compile-time CK LDS layout with KPerBlock = 30, KPack = 8 fails naming both parameters.
// expect: ck_lds_xor: KPerBlock must be a multiple of KPack
#include "spec/spec.hpp"

constexpr const auto& d = tilesim::ck_lds_xor_descriptor<tilesim::ck_lds_xor_params{128, 30, 8}>;
