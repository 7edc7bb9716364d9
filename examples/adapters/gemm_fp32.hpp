// tilesim/examples/adapters/gemm_fp32.hpp: the fp32 tile GEMM (kernel/gemm_tile: gemm_tile) as a catalogue program.
//
// DEFINITION. Points: 128 x 128 x 64 in each LDS layout, 256 x 256 x 128 row-major and ck_xor (64 x 64 x 32 block
// tiles, 256 threads), and examples/gemm's fp32 cases. Inputs: A (m x k) and B (n x k) of unit_float, C NaN.
// Check (check_gemm_fp64, shared with the matrix-core GEMM): C = A * B^T against Eigen in double, per element
// within k * 2^-23 * sum_k |a_ik * b_jk|.
//
// WORKED EXAMPLE. gemm_fp32_program.builtin_points()[2].name == "gemm fp32 128x128x64 ck_xor", grid 4.
//
// INVARIANTS: a NaN (the poison left in C) always fails the bound; max_error is the largest err / bound.
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>

#include "examples/adapters/param_names.hpp"
#include "examples/gemm/gemm_variants.hpp"
#include "gpu/crosscheck/adapter_kit.hpp"
#include "gpu/kernels/programs/gemm_fp32.hpp"

namespace tilesim::examples::adapters {

// C (slot in.output_slot, m x n floats) against C = A * B^T in double (a, b as floats, exact).
inline gpu::output_check check_gemm_fp64(const gpu::crosscheck_point& p, const gpu::point_inputs& in,
                                         const std::vector<gpu::byte_buffer>& buffers, const gpu::simulated* sim,
                                         const programs::gemm_params& q, const std::vector<float>& a,
                                         const std::vector<float>& b) {
  gpu::output_check c;
  const gpu::byte_buffer& out = buffers.at(static_cast<std::size_t>(in.output_slot));
  c.method = "|c - fp64| <= k * 2^-23 * sum_k |a_ik * b_jk| (Eigen, double)";
  const std::vector<float> got = gpu::typed<float>(out);
  const gemm_fp64_reference want = gemm_reference_fp64(q, a, b);
  c.compared = q.m * q.n;
  for (index_t e = 0; e < q.m * q.n; ++e) {
    const std::size_t i = static_cast<std::size_t>(e);
    const double g = got[i], err = std::fabs(g - want.c[i]), bound = want.bound[i];
    const bool ok = err <= bound;  // false for NaN
    if (bound > 0 && std::isfinite(err)) c.max_error = std::max(c.max_error, err / bound);
    if (ok) continue;
    if (c.mismatches++ == 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf, ": expected %.9g (fp64 %.17g, bound %.3g), got %.9g", static_cast<float>(want.c[i]),
                    want.c[i], bound, g);
      c.first_mismatch = gpu::element_at(p, in, sim, e, 4, q.m_per_block, q.n_per_block, q.n / q.n_per_block) + buf;
    }
  }
  return c;
}

// The parameters of an fp32 GEMM point.
inline const programs::gemm_params& gemm_of(const gpu::crosscheck_point& p) { return p.params.as<programs::gemm_params>(); }

// The built-in GEMM point: mn x mn x k, the default block tile.
inline gpu::crosscheck_point gemm_point(index_t mn, index_t k, programs::gemm_lds_layout layout) {
  gpu::crosscheck_point p;
  p.program = "gemm_fp32";
  programs::gemm_params g{};
  g.m = g.n = mn;
  g.k = k;
  g.layout = layout;
  p.params = g;
  p.grid = static_cast<int>((mn / g.m_per_block) * (mn / g.n_per_block));
  p.name = "gemm fp32 " + std::to_string(mn) + "x" + std::to_string(mn) + "x" + std::to_string(k) + " " + name_of(layout);
  return p;
}

inline const gpu::program_adapter gemm_fp32_program = {
    .name = "gemm_fp32",
    .kernel = "gemm_f32_kernel",
    .builtin_points =
        [] {
          using programs::gemm_lds_layout;
          std::vector<gpu::crosscheck_point> v;
          for (gemm_lds_layout l : {gemm_lds_layout::row_major, gemm_lds_layout::padded, gemm_lds_layout::ck_xor})
            v.push_back(gemm_point(128, 64, l));
          v.push_back(gemm_point(256, 128, gemm_lds_layout::row_major));
          v.push_back(gemm_point(256, 128, gemm_lds_layout::ck_xor));
          return v;
        },
    .make_inputs =
        [](const gpu::crosscheck_point& p, std::mt19937_64& g, gpu::point_inputs& in) {
          const programs::gemm_params& q = gemm_of(p);
          std::vector<float> a(static_cast<std::size_t>(q.m * q.k)), b(static_cast<std::size_t>(q.n * q.k));
          for (float& x : a) x = gpu::unit_float(g);
          for (float& x : b) x = gpu::unit_float(g);
          in.buffers = {gpu::bytes_of(a), gpu::bytes_of(b),
                        gpu::bytes_of(std::vector<float>(static_cast<std::size_t>(q.m * q.n),
                                                         std::numeric_limits<float>::quiet_NaN()))};
          in.output_slot = q.c;
          in.output_rows = q.m;
          in.output_cols = q.n;
        },
    .simulate =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const sim::launch& l, gpu::simulated& s) {
          sim::global_memory mem;
          mem.add<float>("a", gpu::typed<float>(in.buffers[0]));
          mem.add<float>("b", gpu::typed<float>(in.buffers[1]));
          mem.add<float>("c", gpu::typed<float>(in.buffers[2]));
          s.run = gpu::simulate_entry<gpu::compiled::gemm_fp32_entry>(
              programs::gemm_shape{gemm_of(p), p.block, p.wave_size}, l, std::move(mem));
          s.buffers = {gpu::bytes_of(s.run.memory.get<float>(0)), gpu::bytes_of(s.run.memory.get<float>(1)),
                       gpu::bytes_of(s.run.memory.get<float>(2))};
        },
    .check_output =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const std::vector<gpu::byte_buffer>& buffers,
           const gpu::simulated* sim) {
          return check_gemm_fp64(p, in, buffers, sim, gemm_of(p), gpu::typed<float>(in.buffers[0]),
                                 gpu::typed<float>(in.buffers[1]));
        },
    .params_to_json =
        [](const gpu::crosscheck_point& p, util::json_value& params) {
          const programs::gemm_params& g = gemm_of(p);
          params.set("m", static_cast<long long>(g.m));
          params.set("n", static_cast<long long>(g.n));
          params.set("k", static_cast<long long>(g.k));
          params.set("m_per_block", static_cast<long long>(g.m_per_block));
          params.set("n_per_block", static_cast<long long>(g.n_per_block));
          params.set("k_per_block", static_cast<long long>(g.k_per_block));
          params.set("vector", static_cast<long long>(g.vector));
          params.set("m_warps", static_cast<long long>(g.m_warps));
          params.set("layout", name_of(g.layout));
          params.set("pad", static_cast<long long>(g.pad));
          params.set("ck_banks", static_cast<long long>(g.ck_banks));
        },
    .params_from_json =
        [](const util::json_value& q, gpu::crosscheck_point& p) {
          auto n = [&](const char* key) { return static_cast<index_t>(q[key].number()); };
          programs::gemm_params g{};
          g.m = n("m"), g.n = n("n"), g.k = n("k");
          g.m_per_block = n("m_per_block"), g.n_per_block = n("n_per_block"), g.k_per_block = n("k_per_block");
          g.vector = n("vector"), g.m_warps = n("m_warps"), g.pad = n("pad"), g.ck_banks = n("ck_banks");
          g.layout = enum_named(q["layout"].string(), all_gemm_layouts, "layout");
          p.params = g;
        },
    .has_compiled_kernel =
        [](const gpu::crosscheck_point& p) {
          return gpu::entry_has<gpu::compiled::gemm_fp32_entry>(programs::gemm_shape{gemm_of(p), p.block, p.wave_size});
        },
    .run_on_device =
        [](const gpu::crosscheck_point& p, const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) {
          return gpu::run_entry_on_device<gpu::compiled::gemm_fp32_entry>(
              programs::gemm_shape{gemm_of(p), l.block, gpu::compiled::sm90_wave}, l, std::move(b));
        },
    .lds_bytes = nullptr,
    .iterations = nullptr,
    .with_iterations = nullptr,
};

}  // namespace tilesim::examples::adapters
