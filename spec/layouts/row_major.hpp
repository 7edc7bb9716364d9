// tilesim/spec/layouts/row_major.hpp: the plain and the padded row-major tile.
//
// make_row_major_descriptor(R, C, pad): offset(r, c) = r * (C + pad) + c. pad = 0 is the packed tile; a
// pad of one 4-byte word per row is the classic fix for column-wise bank conflicts.
// Example, 4x4 with pad 1: rows start at 0, 5, 10, 15; element space 19.
#pragma once

#include "spec/descriptor.hpp"

namespace tilesim {

// make_row_major_descriptor(4, 4, 1): strides (5, 1).
TILESIM_HOST_DEVICE constexpr auto make_row_major_descriptor(index_t rows, index_t cols, index_t pad = 0) {
  require(broken_unless(pad >= 0, rule::pad_negative, "row_major", {"pad", pad}));
  return make_naive_descriptor<2>({rows, cols}, {cols + pad, 1}, cols, 1);
}

}  // namespace tilesim
