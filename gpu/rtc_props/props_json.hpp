// tilesim/gpu/rtc_props/props_json.hpp: a props_case as JSON, and back (the report's "case" member).
//
// DEFINITION. to_json(c) is an object with every field of props_case (layout and ck_order as names) and each
// encoding as {"r": [...], "h": [[...], [...]], "p": [[[major, minor], ...], ...], "y": [[major, minor], ...],
// "cpp": "make_encoding(...)"} (cpp is for people; case_from_json reads the numbers). case_from_json throws
// json_error naming a missing or wrong field, and spec_error / json_error when the case breaks a rule
// (check_props_case), so a recording can only replay a case the generators could have made.
//
// WORKED EXAMPLE. case_from_json(to_json(c)) == c for every generated c (props.test.cpp).
//
// INVARIANTS: the round trip is exact; the field names are the C++ ones.
#pragma once

#include "util/json.hpp"
#include "gpu/rtc_props/props_case.hpp"

namespace tilesim::gpu::props {

util::json_value to_json(const props_case& c);
props_case case_from_json(const util::json_value& v);

}  // namespace tilesim::gpu::props
