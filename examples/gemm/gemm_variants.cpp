// tilesim/examples/gemm/gemm_variants.cpp: see gemm_variants.hpp.
#include "examples/gemm/gemm_variants.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "examples/example_point.hpp"
#include "kernel/gemm_tile/gemm_reference.hpp"
#include "sim/runs/gemm_tile_run.hpp"

namespace tilesim::examples {

namespace {

const char* layout_name(programs::gemm_lds_layout l) {
  switch (l) {
    case programs::gemm_lds_layout::row_major: return "row-major";
    case programs::gemm_lds_layout::padded: return "padded";
    case programs::gemm_lds_layout::ck_xor: return "ck-xor";
  }
  return "?";
}

}  // namespace

programs::gemm_params gemm_32x32x8(programs::gemm_lds_layout layout) {
  programs::gemm_params p;
  p.m = p.n = p.k = 64;
  p.m_per_block = p.n_per_block = 32;
  p.k_per_block = 8;
  p.vector = 4;
  p.m_warps = 1;
  p.layout = layout;
  return p;
}

std::vector<gemm_case> gemm_cases() {
  std::vector<gemm_case> v;
  for (const char* arch : {"sm90", "gfx942"})
    for (programs::gemm_lds_layout l :
         {programs::gemm_lds_layout::row_major, programs::gemm_lds_layout::padded, programs::gemm_lds_layout::ck_xor})
      v.push_back({std::string(layout_name(l)) + ", 32x32x8", arch, gemm_32x32x8(l), 64});
  return v;
}

gemm_fp64_reference gemm_reference_fp64(const programs::gemm_params& p, const std::vector<float>& a,
                                        const std::vector<float>& b) {
  using matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using floats = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const matrix A = Eigen::Map<const floats>(a.data(), p.m, p.k).cast<double>();
  const matrix B = Eigen::Map<const floats>(b.data(), p.n, p.k).cast<double>();
  const matrix c = A * B.transpose();
  const matrix bound = (static_cast<double>(p.k) * std::ldexp(1.0, -23)) * (A.cwiseAbs() * B.cwiseAbs().transpose());
  gemm_fp64_reference r;
  r.c.assign(c.data(), c.data() + c.size());
  r.bound.assign(bound.data(), bound.data() + bound.size());
  return r;
}

gemm_check check_gemm_against_eigen(const programs::gemm_params& p, const std::vector<float>& a,
                                    const std::vector<float>& b, const std::vector<float>& c) {
  gemm_check r;
  if (static_cast<index_t>(a.size()) != p.m * p.k || static_cast<index_t>(b.size()) != p.n * p.k ||
      static_cast<index_t>(c.size()) != p.m * p.n) {
    r.text = "C has " + std::to_string(c.size()) + " elements, A " + std::to_string(a.size()) + ", B " +
             std::to_string(b.size()) + ": not m*n, m*k, n*k";
    return r;
  }
  const gemm_fp64_reference want = gemm_reference_fp64(p, a, b);
  double max_abs = 0;
  for (std::size_t e = 0; e < c.size(); ++e) {
    const double got = c[e], err = std::fabs(got - want.c[e]), bound = want.bound[e];
    if (!(err <= bound)) {  // also NaN
      char buf[160];
      std::snprintf(buf, sizeof buf, "C(%lld, %lld) = %.9g, Eigen %.9g (bound %.3g)",
                    static_cast<long long>(e) / p.n, static_cast<long long>(e) % p.n, got, want.c[e], bound);
      r.text = buf;
      return r;
    }
    max_abs = std::max(max_abs, err);
    if (bound > 0) r.max_error = std::max(r.max_error, err / bound);
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "C == Eigen (max |err| %.3g)", max_abs);
  r.passed = true;
  r.text = buf;
  return r;
}

outcome run_gemm_case(const gemm_case& c) {
  const programs::gemm_params& p = c.params;
  const std::vector<float> a = programs::gemm_input(p.m * p.k, 1), b = programs::gemm_input(p.n * p.k, 2);
  sim::launch l = launch_on(c.arch, programs::gemm_workgroups(p), c.block);
  outcome o;
  o.run = programs::run_gemm(l, p, a, b);
  const gemm_check check = check_gemm_against_eigen(p, a, b, o.run.memory.get<float>(p.c));
  o.passed = check.passed && o.run.clean();
  o.check = o.run.clean() ? check.text : check.text + "; the run has findings (races or bounds errors)";
  return o;
}

std::vector<variant> gemm_variants() {
  std::vector<variant> v;
  for (const gemm_case& c : gemm_cases()) v.push_back({"gemm", c.name, c.arch, [c] { return run_gemm_case(c); }});
  return v;
}

std::vector<gpu::crosscheck_point> gemm_crosscheck_points() {
  std::vector<gpu::crosscheck_point> v;
  for (const gemm_case& c : gemm_cases())
    if (c.arch == "sm90") {
      v.push_back(example_point("gemm_fp32", "gemm", c.name, programs::gemm_workgroups(c.params), c.block, c.params));
    }
  return v;
}

}  // namespace tilesim::examples
