// tilesim/examples/conv/conv_variants.cpp: cases, operands, the host runner and the Eigen check of the conv example.
#include "examples/conv/conv_variants.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>

#include "examples/example_point.hpp"

namespace tilesim::examples {

namespace {

const char* mode_name(conv_mode m) {
  switch (m) {
    case conv_mode::naive: return "naive";
    case conv_mode::sliding: return "sliding";
    case conv_mode::im2col: return "im2col";
  }
  return "?";
}

index_t out_h(const conv_params& p) { return conv_out_length(p.h, p.pad_h, p.r, p.stride_h, p.dilation_h); }
index_t out_w(const conv_params& p) { return conv_out_length(p.w, p.pad_w, p.s, p.stride_w, p.dilation_w); }

// A value in [-1, 1), a multiple of 2^-23, from (index, which): 24 hashed bits.
float operand(std::size_t i, std::uint32_t which) {
  std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u ^ (which * 40503u + 0x9e3779b9u);
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return static_cast<float>(static_cast<double>(h >> 8) / 8388608.0 - 1.0);
}

std::string format_g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string format_float(float v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

}  // namespace

index_t conv_input_count(const conv_params& p) { return p.n * p.h * p.w * p.c_in; }
index_t conv_weight_count(const conv_params& p) { return p.c_out * p.r * p.s * p.c_in; }
index_t conv_output_count(const conv_params& p) { return p.n * out_h(p) * out_w(p) * p.c_out; }

std::vector<conv_case> conv_cases() {
  const struct {
    const char* name;
    conv_problem problem;
  } problems[] = {{"6x6 3x3", conv_problem::six_by_six}, {"NHWC 2x8x8x4 3x3 -> 8", conv_problem::nhwc}};
  const struct {
    const char* name;
    index_t wave;
  } archs[] = {{"sm90", 32}, {"gfx942", 64}};
  std::vector<conv_case> cases;
  for (const auto& problem : problems)
    for (conv_mode mode : {conv_mode::naive, conv_mode::sliding, conv_mode::im2col})
      for (const auto& arch : archs) {
        const conv_shape s = conv_example_shape(problem.problem, mode, arch.wave);
        cases.push_back({std::string(mode_name(mode)) + ", " + problem.name, arch.name, s.params,
                         static_cast<int>(s.grid), static_cast<int>(s.threads)});
      }
  return cases;
}

conv_operands conv_inputs(const conv_params& p) {
  conv_operands ops;
  ops.input.resize(static_cast<std::size_t>(conv_input_count(p)));
  ops.weights.resize(static_cast<std::size_t>(conv_weight_count(p)));
  for (std::size_t i = 0; i < ops.input.size(); ++i) ops.input[i] = operand(i, 1);
  for (std::size_t i = 0; i < ops.weights.size(); ++i) ops.weights[i] = operand(i, 2);
  return ops;
}

sim::run_result run_conv(const sim::launch& config, conv_params p, const std::vector<float>& input,
                         const std::vector<float>& weights) {
  const index_t ins = conv_input_count(p), ws = conv_weight_count(p), outs = conv_output_count(p);
  if (outs < 1) require(check_conv(p, config.block, config.grid, config.wave_size));  // names Ho or Wo = 0
  if (static_cast<index_t>(input.size()) != ins || static_cast<index_t>(weights.size()) != ws)
    throw std::invalid_argument("conv: the input must hold N*H*W*CIn and the weights COut*R*S*CIn floats (input holds " +
                                std::to_string(input.size()) + ", expected " + std::to_string(ins) + "; weights hold " +
                                std::to_string(weights.size()) + ", expected " + std::to_string(ws) +
                                "; outputs " + std::to_string(outs) + ")");
  sim::global_memory mem;
  p.input = mem.add<float>("in", input);
  p.weights = mem.add<float>("w", weights);
  p.output = mem.add<float>("out", outs, std::numeric_limits<float>::quiet_NaN());
  return sim::run(config, std::move(mem), [&p](sim::thread_context& ctx) { conv(ctx, p); });
}

conv_reference eigen_conv(const conv_params& p, const std::vector<float>& input, const std::vector<float>& weights) {
  using matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const index_t ho = out_h(p), wo = out_w(p), m = p.n * ho * wo, k = p.r * p.s * p.c_in;
  if (static_cast<index_t>(input.size()) != conv_input_count(p) ||
      static_cast<index_t>(weights.size()) != conv_weight_count(p))
    throw std::invalid_argument("eigen_conv: operand sizes do not match the params");
  matrix a = matrix::Zero(m, k), b(k, p.c_out);
  for (index_t n = 0; n < p.n; ++n)
    for (index_t y = 0; y < ho; ++y)
      for (index_t x = 0; x < wo; ++x)
        for (index_t r = 0; r < p.r; ++r)
          for (index_t s = 0; s < p.s; ++s)
            for (index_t c = 0; c < p.c_in; ++c) {
              const index_t hi = y * p.stride_h + r * p.dilation_h - p.pad_h;
              const index_t wi = x * p.stride_w + s * p.dilation_w - p.pad_w;
              if (hi < 0 || hi >= p.h || wi < 0 || wi >= p.w) continue;
              a((n * ho + y) * wo + x, (r * p.s + s) * p.c_in + c) =
                  input[static_cast<std::size_t>(((n * p.h + hi) * p.w + wi) * p.c_in + c)];
            }
  for (index_t kk = 0; kk < k; ++kk)
    for (index_t co = 0; co < p.c_out; ++co) b(kk, co) = weights[static_cast<std::size_t>(co * k + kk)];
  const matrix c = a * b;
  const Eigen::MatrixXd magnitude = a.cast<double>().cwiseAbs() * b.cast<double>().cwiseAbs();
  conv_reference ref;
  ref.out.resize(static_cast<std::size_t>(m * p.c_out));
  ref.magnitude.resize(ref.out.size());
  for (index_t i = 0; i < m; ++i)
    for (index_t co = 0; co < p.c_out; ++co) {
      ref.out[static_cast<std::size_t>(i * p.c_out + co)] = c(i, co);
      ref.magnitude[static_cast<std::size_t>(i * p.c_out + co)] = magnitude(i, co);
    }
  return ref;
}

conv_check check_conv_result(const conv_params& p, const std::vector<float>& input, const std::vector<float>& weights,
                             const std::vector<float>& out) {
  conv_check result;
  const conv_reference ref = eigen_conv(p, input, weights);
  if (out.size() != ref.out.size()) {
    result.text = "out holds " + std::to_string(out.size()) + " elements, Eigen " + std::to_string(ref.out.size());
    result.max_err = std::numeric_limits<double>::infinity();
    return result;
  }
  const index_t ho = out_h(p), wo = out_w(p), k = p.r * p.s * p.c_in;
  const double unit = std::ldexp(1.0, -23) * static_cast<double>(k);
  std::string first_bad;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double err = std::fabs(static_cast<double>(out[i]) - static_cast<double>(ref.out[i]));
    const double tol = unit * ref.magnitude[i];
    const bool bad = !(err <= tol);  // NaN fails
    result.max_err = std::isnan(err) ? std::numeric_limits<double>::infinity() : std::max(result.max_err, err);
    if (bad && first_bad.empty()) {
      const index_t o = static_cast<index_t>(i), co = o % p.c_out, m = o / p.c_out;
      const index_t x = m % wo, y = m / wo % ho, n = m / (wo * ho);
      first_bad = "out(n, ho, wo, co) = (" + std::to_string(n) + ", " + std::to_string(y) + ", " + std::to_string(x) +
                  ", " + std::to_string(co) + ") = " + format_float(out[i]) + ", Eigen " + format_float(ref.out[i]) +
                  " (|err| " + format_g(err) + " > tolerance " + format_g(tol) + ")";
    }
  }
  result.passed = first_bad.empty();
  result.text = result.passed ? "out == Eigen (max |err| " + format_g(result.max_err) + ")" : first_bad;
  return result;
}

outcome run_conv_case(const conv_case& c) {
  const conv_operands ops = conv_inputs(c.params);
  outcome result;
  result.run = run_conv(launch_on(c.arch, c.grid, c.block), c.params, ops.input, ops.weights);
  const conv_check check = check_conv_result(c.params, ops.input, ops.weights, result.run.memory.get<float>(2));
  result.passed = check.passed;
  result.check = check.text;
  return result;
}

std::vector<variant> conv_variants() {
  std::vector<variant> rows;
  for (const conv_case& c : conv_cases()) rows.push_back({"conv", c.name, c.arch, [c] { return run_conv_case(c); }});
  return rows;
}

std::vector<gpu::crosscheck_point> conv_crosscheck_points() {
  std::vector<gpu::crosscheck_point> v;
  for (const conv_case& c : conv_cases())
    if (c.arch == "sm90") {
      v.push_back(example_point("conv_f32", "conv", c.name, c.grid, c.block, c.params));
    }
  return v;
}

}  // namespace tilesim::examples
