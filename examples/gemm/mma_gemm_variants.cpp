// tilesim/examples/gemm/mma_gemm_variants.cpp: see mma_gemm_variants.hpp.
#include "examples/gemm/mma_gemm_variants.hpp"

#include "examples/example_point.hpp"
#include "examples/gemm/gemm_variants.hpp"
#include "kernel/mma_gemm/mma_gemm_reference.hpp"
#include "sim/runs/mma_gemm_run.hpp"

namespace tilesim::examples {

programs::mma_gemm_params mma_gemm_128x128x32(programs::gemm_lds_layout layout, ck_lds_order order) {
  programs::mma_gemm_params p;
  p.m = p.n = p.k = 256;
  p.layout = layout;
  p.ck_order = order;
  return p;
}

std::vector<mma_gemm_case> mma_gemm_cases() {
  using programs::gemm_lds_layout;
  return {
      {"mma.sync row-major, 128x128x32", "sm90", mma_gemm_128x128x32(gemm_lds_layout::row_major)},
      {"mma.sync padded, 128x128x32", "sm90", mma_gemm_128x128x32(gemm_lds_layout::padded)},
      {"mma.sync ck-xor 2024, 128x128x32", "sm90", mma_gemm_128x128x32(gemm_lds_layout::ck_xor, ck_lds_order::k0_l_2024)},
      {"mma.sync ck-xor 2025, 128x128x32", "sm90", mma_gemm_128x128x32(gemm_lds_layout::ck_xor)},
  };
}

std::vector<float> halves_to_floats(const std::vector<std::uint16_t>& h) {
  std::vector<float> f(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) f[i] = half_to_float(h[i]);
  return f;
}

outcome run_mma_gemm_case(const mma_gemm_case& c) {
  const programs::mma_gemm_params& p = c.params;
  const std::vector<std::uint16_t> a = programs::mma_gemm_input(p.m * p.k, 1), b = programs::mma_gemm_input(p.n * p.k, 2);
  sim::launch l = launch_on(c.arch, programs::mma_gemm_workgroups(p), c.block);
  outcome o;
  o.run = programs::run_mma_gemm(l, p, a, b);
  programs::gemm_params shape;
  shape.m = p.m, shape.n = p.n, shape.k = p.k;
  const gemm_check check = check_gemm_against_eigen(shape, halves_to_floats(a), halves_to_floats(b), o.run.memory.get<float>(p.c));
  o.passed = check.passed && o.run.clean();
  o.check = o.run.clean() ? check.text : check.text + "; the run has findings (races or bounds errors)";
  return o;
}

std::vector<variant> mma_gemm_variants() {
  std::vector<variant> v;
  for (const mma_gemm_case& c : mma_gemm_cases()) v.push_back({"gemm", c.name, c.arch, [c] { return run_mma_gemm_case(c); }});
  return v;
}

std::vector<gpu::crosscheck_point> mma_gemm_crosscheck_points() {
  std::vector<gpu::crosscheck_point> v;
  for (const mma_gemm_case& c : mma_gemm_cases())
    if (c.arch == "sm90") {
      v.push_back(
          example_point("mma_gemm_f16", "gemm", c.name, programs::mma_gemm_workgroups(c.params), c.block, c.params));
    }
  return v;
}

}  // namespace tilesim::examples
