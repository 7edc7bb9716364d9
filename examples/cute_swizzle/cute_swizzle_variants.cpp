// tilesim/examples/cute_swizzle/cute_swizzle_variants.cpp: the cases and their runs (see the header).
#include "examples/cute_swizzle/cute_swizzle_variants.hpp"

#include "gpu/crosscheck/crosscheck.hpp"  // the points' type

namespace tilesim::examples {

namespace {

using programs::copy_lds_layout;

// A 128 x width fp16 tile, 16-byte vectors, read as the GEMM operand with R rows per lane group; swizzle
// bits B < 0 means no swizzle (row-major), else the element swizzle <B, 3, 3>.
programs::copy_params half_tile(index_t width, int bits, index_t lane_rows) {
  programs::copy_params p;
  p.rows = 128;
  p.cols = width;
  p.vector = 8;
  p.read = programs::copy_read_order::gemm_operand;
  p.lane_rows = lane_rows;
  if (bits < 0) {
    p.layout = copy_lds_layout::row_major;
  } else {
    p.layout = copy_lds_layout::cute_swizzle;
    p.swizzle_bits = bits;
    p.swizzle_base = 3;   // 8 halves = one 16-byte chunk stays whole
    p.swizzle_shift = 3;  // the key: the bits from element 64 = byte 128 up
  }
  return p;
}

}  // namespace

std::vector<cute_swizzle_case> cute_swizzle_cases() {
  std::vector<cute_swizzle_case> cases;
  // sm90, ldmatrix read (R = 16), 128-byte rows: the element swizzles and their baseline.
  cases.push_back({"row-major 8x64", "sm90", half_tile(64, -1, 16), 256});
  cases.push_back({"Swizzle<1,3,3> 8x64", "sm90", half_tile(64, 1, 16), 256});
  cases.push_back({"Swizzle<2,3,3> 8x64", "sm90", half_tile(64, 2, 16), 256});
  cases.push_back({"Swizzle<3,3,3> 8x64", "sm90", half_tile(64, 3, 16), 256});
  // sm90, the GMMA atoms: byte Swizzle<B,4,3> = element Swizzle<B,3,3> on rows of the atom's width.
  cases.push_back({"row-major 8x16", "sm90", half_tile(16, -1, 16), 256});
  cases.push_back({"SW32 Swizzle<1,4,3> 8x16", "sm90", half_tile(16, 1, 16), 256});
  cases.push_back({"row-major 8x32", "sm90", half_tile(32, -1, 16), 256});
  cases.push_back({"SW64 Swizzle<2,4,3> 8x32", "sm90", half_tile(32, 2, 16), 256});
  cases.push_back({"SW128 Swizzle<3,4,3> 8x64", "sm90", half_tile(64, 3, 16), 256});
  // gfx942, MFMA read (R = 32), 128-byte rows.
  cases.push_back({"row-major 8x64, mfma read", "gfx942", half_tile(64, -1, 32), 256});
  cases.push_back({"Swizzle<1,3,3> 8x64, mfma read", "gfx942", half_tile(64, 1, 32), 256});
  cases.push_back({"Swizzle<2,3,3> 8x64, mfma read", "gfx942", half_tile(64, 2, 32), 256});
  cases.push_back({"Swizzle<3,3,3> 8x64, mfma read", "gfx942", half_tile(64, 3, 32), 256});
  return cases;
}

std::vector<variant> cute_swizzle_variants() { return copy_variants("cute-swizzle", cute_swizzle_cases()); }

std::vector<gpu::crosscheck_point> cute_swizzle_crosscheck_points() {
  return copy_crosscheck_points("cute-swizzle", cute_swizzle_cases());
}

}  // namespace tilesim::examples
