// tilesim/gpu/reference/reference_match.hpp: from a cross-check point to the reference kernel that runs it.
//
// DEFINITION. reference_choice_of(p) resolves a point's parameters the way its tilesim program does
// (derived pads, MLdsLayer, swizzle bits, the conv K step) into the constants of one hand-written kernel
// (reference_index.hpp's *_config), plus the global slots the params name (a reference_choice,
// reference_instances.hpp); find_instance(choice) is its index there, or -1 when no kernel was compiled for
// it. The twins are found by the point's program name (crosscheck_point::program) and read its parameters as
// that program's type (p.params.as<...>()); a program with no twin here is "no hand-written kernel", so a new
// catalogue program needs no line in this file until it has a twin. Host code only (it reads crosscheck_point,
// which nvcc's front end does not parse); the kernels never see it.
//
// WORKED EXAMPLE. catalogue point "copy fp16 64x32 v8 padded" has pad 0 ("one vector"): its choice is a
// copy_config with lds padded(64, 32, 8), slots {0, 1}; find_instance gives 1 (copy_instances[1]).
//
// INVARIANTS: a choice is a pure function of the point; ok is false (with `why`) for a program or a
// parameter the references do not express (a negative swizzle shift, a wave other than 32, ...).
#pragma once

#include <string>

#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/reference/reference_instances.hpp"
#include "kernel/conv/conv.hpp"
#include "kernel/copy/copy.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"
#include "kernel/lds_sweep/lds_sweep.hpp"
#include "kernel/mma_gemm/mma_gemm.hpp"
#include "kernel/morton/morton.hpp"
#include "kernel/transpose/transpose.hpp"

namespace tilesim::gpu::reference {

// The resolved LDS layout of copy params `q` for elements of `element_bytes` (copy.hpp's with_copy_lds_descriptor).
inline bool copy_layout_of(const programs::copy_params& q, int element_bytes, lds_layout& d, std::string& why) {
  d = {};
  d.rows = static_cast<int>(q.rows);
  d.cols = static_cast<int>(q.cols);
  switch (q.layout) {
    case programs::copy_lds_layout::row_major:
      d.kind = lds_kind::row_major;
      return true;
    case programs::copy_lds_layout::padded:
      d.kind = lds_kind::padded;
      d.pad = static_cast<int>(q.pad > 0 ? q.pad : q.vector);
      return true;
    case programs::copy_lds_layout::ck_xor:
      d.kind = lds_kind::ck_xor;
      d.ck_k_pack = static_cast<int>(q.vector);
      d.ck_layers = ck_lds_layers(static_cast<int>(q.ck_banks), d.cols, element_bytes);
      d.ck_2024 = q.ck_order == ck_lds_order::k0_l_2024;
      return true;
    case programs::copy_lds_layout::cute_swizzle: {
      d.kind = lds_kind::cute_swizzle;
      const int lv = exact_log2_int(static_cast<int>(q.vector)), lc = exact_log2_int(d.cols);
      d.sw_base = q.swizzle_base >= 0 ? q.swizzle_base : lv;
      d.sw_shift = q.swizzle_shift >= 0 ? q.swizzle_shift : lc - lv;
      d.sw_bits = q.swizzle_bits >= 0 ? q.swizzle_bits : (d.sw_shift < 3 ? d.sw_shift : 3);
      if (d.sw_shift < 0 || d.sw_base < 0 || d.sw_bits < 0) {
        why = "cute_swizzle with a negative shift, base or bit count";
        return false;
      }
      return true;
    }
  }
  why = "unknown copy layout";
  return false;
}

inline bool copy_config_of(const programs::copy_params& q, int element_bytes, int block, int wave, copy_config& c,
                           std::string& why) {
  c = {};
  c.element_bytes = element_bytes;
  c.threads = block;
  c.warp_size = wave;
  c.rows = static_cast<int>(q.rows);
  c.cols = static_cast<int>(q.cols);
  c.vector = static_cast<int>(q.vector);
  c.read = q.read == programs::copy_read_order::same_as_write     ? read_kind::same_as_write
           : q.read == programs::copy_read_order::lanes_down_rows ? read_kind::lanes_down_rows
           : q.read == programs::copy_read_order::gemm_operand    ? read_kind::gemm_operand
                                                                  : read_kind::ldmatrix_operand;
  // lane_rows only matters to the operand reads (0 for the others, so one kernel serves any value there).
  c.lane_rows = c.read == read_kind::gemm_operand || c.read == read_kind::ldmatrix_operand ? static_cast<int>(q.lane_rows) : 0;
  return copy_layout_of(q, element_bytes, c.lds, why);
}

// The choice for point p (see the essay).
inline reference_choice reference_choice_of(const crosscheck_point& p) {
  reference_choice r;
  if (p.wave_size != 32) {
    r.why = "the references are written for 32-lane warps (sm90), the point has wave " + std::to_string(p.wave_size);
    return r;
  }
  const std::string& program = p.program;
  if (program == "copy_fp16" || program == "copy_fp32") {
    const programs::copy_params& q = p.params.as<programs::copy_params>();
    r.program = reference_program::copy;
    r.ok = copy_config_of(q, program == "copy_fp16" ? 2 : 4, p.block, p.wave_size, r.copy, r.why);
    r.slots[0] = q.input;
    r.slots[1] = q.output;
    return r;
  }
  if (program == "lds_sweep_u32") {
    const programs::lds_sweep_params& q = p.params.as<programs::lds_sweep_params>();
    r.program = reference_program::sweep;
    r.ok = copy_config_of(q.tile, 4, p.block, p.wave_size, r.sweep.tile, r.why);
    r.sweep.iterations = static_cast<int>(q.iterations);
    r.slots[0] = q.tile.input;
    r.slots[1] = q.tile.output;
    return r;
  }
  if (program == "gemm_fp32") {
    const programs::gemm_params& q = p.params.as<programs::gemm_params>();
    r.program = reference_program::gemm;
    gemm_config& g = r.gemm;
    g.threads = p.block;
    g.warp_size = p.wave_size;
    g.m = static_cast<int>(q.m);
    g.n = static_cast<int>(q.n);
    g.k = static_cast<int>(q.k);
    g.m_per_block = static_cast<int>(q.m_per_block);
    g.n_per_block = static_cast<int>(q.n_per_block);
    g.k_per_block = static_cast<int>(q.k_per_block);
    g.vector = static_cast<int>(q.vector);
    g.m_warps = static_cast<int>(q.m_warps);
    g.layout = q.layout == programs::gemm_lds_layout::row_major ? lds_kind::row_major
               : q.layout == programs::gemm_lds_layout::padded  ? lds_kind::padded
                                                                : lds_kind::ck_xor;
    g.pad = q.layout == programs::gemm_lds_layout::padded ? static_cast<int>(q.pad > 0 ? q.pad : q.vector) : 0;
    g.ck_banks = static_cast<int>(q.ck_banks);
    if (q.bug != programs::gemm_planted_bug::none) {
      r.why = "a planted-bug GEMM (a barrier left out) has no reference";
      return r;
    }
    r.slots[0] = q.a;
    r.slots[1] = q.b;
    r.slots[2] = q.c;
    r.ok = true;
    return r;
  }
  if (program == "morton_f32") {
    const examples::morton_params& q = p.params.as<examples::morton_params>();
    r.program = reference_program::morton;
    morton_config& m = r.morton;
    m.height = static_cast<int>(q.height);
    m.width = static_cast<int>(q.width);
    m.tile = static_cast<int>(q.tile);
    m.fh = static_cast<int>(q.footprint_rows);
    m.fw = static_cast<int>(q.footprint_cols);
    m.morton_input = q.layout != examples::texel_layout::row_major;  // transforms and bits: the same offsets
    m.staging = q.staging == examples::texel_staging::direct          ? morton_staging::direct
                : q.staging == examples::texel_staging::lds_row_major ? morton_staging::lds_row_major
                                                                      : morton_staging::lds_morton;
    m.threads = p.block;
    m.warp_size = p.wave_size;
    r.slots[0] = q.input;
    r.slots[1] = q.output;
    r.ok = true;
    return r;
  }
  if (program == "conv_f32") {
    const examples::conv_params& q = p.params.as<examples::conv_params>();
    r.program = reference_program::conv;
    conv_config& c = r.conv;
    c.mode = q.mode == examples::conv_mode::naive     ? conv_kind::naive
             : q.mode == examples::conv_mode::sliding ? conv_kind::sliding
                                                      : conv_kind::im2col;
    c.n = static_cast<int>(q.n);
    c.h = static_cast<int>(q.h);
    c.w = static_cast<int>(q.w);
    c.c_in = static_cast<int>(q.c_in);
    c.c_out = static_cast<int>(q.c_out);
    c.r = static_cast<int>(q.r);
    c.s = static_cast<int>(q.s);
    c.stride_h = static_cast<int>(q.stride_h);
    c.stride_w = static_cast<int>(q.stride_w);
    c.dilation_h = static_cast<int>(q.dilation_h);
    c.dilation_w = static_cast<int>(q.dilation_w);
    c.pad_h = static_cast<int>(q.pad_h);
    c.pad_w = static_cast<int>(q.pad_w);
    c.vector = static_cast<int>(q.vector);
    c.k_per_block = static_cast<int>(q.k_per_block > 0 ? q.k_per_block : q.s * q.c_in);
    c.threads = p.block;
    c.warp_size = p.wave_size;
    r.slots[0] = q.input;
    r.slots[1] = q.weights;
    r.slots[2] = q.output;
    r.ok = true;
    return r;
  }
  if (program == "mma_gemm_f16") {
    const programs::mma_gemm_params& q = p.params.as<programs::mma_gemm_params>();
    r.program = reference_program::mma_gemm;
    mma_gemm_config& g = r.mma_gemm;
    g.threads = p.block;
    g.warp_size = p.wave_size;
    g.m = static_cast<int>(q.m), g.n = static_cast<int>(q.n), g.k = static_cast<int>(q.k);
    g.m_per_block = static_cast<int>(q.m_per_block), g.n_per_block = static_cast<int>(q.n_per_block);
    g.k_per_block = static_cast<int>(q.k_per_block);
    g.m_warps = static_cast<int>(q.m_warps);
    g.layout = q.layout == programs::gemm_lds_layout::row_major ? lds_kind::row_major
               : q.layout == programs::gemm_lds_layout::padded  ? lds_kind::padded
                                                                : lds_kind::ck_xor;
    g.ck_2024 = q.layout == programs::gemm_lds_layout::ck_xor && q.ck_order == ck_lds_order::k0_l_2024;
    r.slots[0] = q.a;
    r.slots[1] = q.b;
    r.slots[2] = q.c;
    r.ok = true;
    return r;
  }
  if (program == "transpose_f32") {
    const programs::transpose_params& q = p.params.as<programs::transpose_params>();
    r.program = reference_program::transpose;
    r.transpose_n = static_cast<int>(q.n);
    r.slots[0] = q.input;
    r.slots[1] = q.output;
    if (p.block != transpose_threads) r.why = "the transpose reference is written for 256 threads";
    r.ok = p.block == transpose_threads;
    return r;
  }
  r.why = "a program with no hand-written kernel";
  return r;
}

}  // namespace tilesim::gpu::reference
