// tilesim/examples/synthesized/synthesized_variants.cpp: the cases (see the header).
#include "examples/synthesized/synthesized_variants.hpp"

#include "gpu/crosscheck/crosscheck.hpp"  // the points' type

namespace tilesim::examples {
namespace {

using programs::copy_lds_layout;
using programs::copy_read_order;

programs::copy_params tile(index_t rows, index_t cols, copy_read_order read, index_t lane_rows = 32) {
  programs::copy_params p;
  p.rows = rows;
  p.cols = cols;
  p.vector = 8;
  p.read = read;
  p.lane_rows = lane_rows;
  return p;
}

programs::copy_params swizzled(programs::copy_params p, int b, int m, int s) {
  p.layout = copy_lds_layout::cute_swizzle;
  p.swizzle_bits = b;
  p.swizzle_base = m;
  p.swizzle_shift = s;
  return p;
}

programs::copy_params ck(programs::copy_params p, index_t banks) {
  p.layout = copy_lds_layout::ck_xor;
  p.ck_banks = banks;
  return p;
}

}  // namespace

std::vector<copy_case> synthesized_cases() {
  const auto mfma = tile(128, 32, copy_read_order::gemm_operand);
  const auto down = tile(64, 32, copy_read_order::lanes_down_rows);
  const auto wide = tile(128, 64, copy_read_order::lanes_down_rows);
  const auto wider = tile(64, 128, copy_read_order::lanes_down_rows);
  programs::copy_params derived = down;
  derived.layout = copy_lds_layout::cute_swizzle;  // B, M, S derived by the copy program: <2,3,2>
  return {
      {"hand ck-xor 2025, mfma read", "gfx942", ck(mfma, 32), 256},
      {"synth Swizzle<2,3,3>, mfma read", "gfx942", swizzled(mfma, 2, 3, 3), 256},
      {"hand ck-xor 2025, mfma read", "gfx950", ck(mfma, 64), 256},
      {"synth Swizzle<2,3,4>, mfma read", "gfx950", swizzled(mfma, 2, 3, 4), 256},
      {"hand derived Swizzle<2,3,2> 64x32, down-rows read", "sm90", derived, 256},
      {"synth Swizzle<2,3,3> 64x32, down-rows read", "sm90", swizzled(down, 2, 3, 3), 256},
      {"hand row-major 128x64, down-rows read", "sm90", wide, 256},
      {"synth Swizzle<2,4,2> 128x64, down-rows read", "sm90", swizzled(wide, 2, 4, 2), 256},
      {"hand row-major 64x128, down-rows read", "sm90", wider, 256},
      {"synth Swizzle<1,5,2> 64x128, down-rows read", "sm90", swizzled(wider, 1, 5, 2), 256},
  };
}

std::vector<variant> synthesized_variants() { return copy_variants("synthesized", synthesized_cases()); }

std::vector<gpu::crosscheck_point> synthesized_crosscheck_points() {
  return copy_crosscheck_points("synthesized", synthesized_cases());
}

}  // namespace tilesim::examples
