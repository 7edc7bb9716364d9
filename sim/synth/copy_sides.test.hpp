// tilesim/sim/synth/copy_sides.test.hpp: the copy program (kernel/copy) in synth's terms, for the tests that hold
// synth's prices to the engine's run of that program.
//
// DEFINITION. copy_request(arch, p) is the synth_request of the copy program with parameters p: its 16-byte
// warp-raked stores as the writer, p's read order (down-rows, mfma, ldmatrix or mfma16) as the reader.
// layout_of(p, arch) is p's LDS layout (row-major, padded, CK's XOR, CuTe's swizzle) as an lds_layout.
//
// WORKED EXAMPLE. copy_request("gfx942", <128 x 32 fp16, gemm_operand read, lane_rows 32>) has the reader "mfma";
// layout_of(<ck_xor, 2025 order>, gfx942) is the ck family with the params' vector, banks and order.
//
// INVARIANTS: the sides use the threads, wave size and vector the program runs with, so price_side of them under
// layout_of(p) is the engine's wavefronts for the same program (the law in examples/synthesized/synthesized.test.cpp).
#pragma once

#include <string>

#include "kernel/copy/copy.hpp"
#include "sim/arch/arch.hpp"
#include "sim/synth/synth.hpp"

namespace tilesim::synth {

// The copy program's LDS sides for p on arch: warp-raked 16-byte stores, and p's read order.
inline synth_request copy_request(const std::string& arch, const programs::copy_params& p, index_t threads = 256) {
  synth_request r;
  r.arch = &sim::arch_named(arch);
  r.tile = {p.rows, p.cols, 2};
  const int wave = r.arch->wave_size;
  r.writer = named_side("warp-raked", r.tile, threads, wave, p.vector, sim::access_kind::store);
  const char* read = p.read == programs::copy_read_order::lanes_down_rows ? "down-rows"
                     : p.lane_rows == 32                                  ? "mfma"
                     : wave == 32                                         ? "ldmatrix"
                                                                          : "mfma16";
  r.reader = named_side(read, r.tile, threads, wave, p.vector, sim::access_kind::load);
  return r;
}

inline lds_layout layout_of(const programs::copy_params& p, const sim::arch_table& a) {
  lds_layout l;
  l.rows = p.rows;
  l.cols = p.cols;
  l.elem_bytes = 2;
  switch (p.layout) {
    case programs::copy_lds_layout::row_major: break;
    case programs::copy_lds_layout::padded:
      l.family = layout_family::padded;
      l.pad = p.pad > 0 ? p.pad : p.vector;
      break;
    case programs::copy_lds_layout::ck_xor:
      l.family = layout_family::ck;
      l.ck = {p.rows, p.cols, p.vector, 2, 0, p.ck_banks, p.ck_order};
      break;
    case programs::copy_lds_layout::cute_swizzle:
      l.family = layout_family::cute;
      l.terms = {{p.swizzle_bits, p.swizzle_base, p.swizzle_shift}};
      break;
  }
  (void)a;
  return l;
}

}  // namespace tilesim::synth
