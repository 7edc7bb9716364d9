// tilesim/examples/conv/conv_variants.hpp: the conv example's host side: cases, operands, runner, Eigen check.
//
// DEFINITION. conv_cases() is the example's table (the GPU cross-check reuses it): every conv_mode on two
// problems, each on sm90 and gfx942 (the launches of conv_shapes.hpp's conv_example_shapes, in that order):
//   "6x6 3x3"            the single-channel 6x6 image, 3x3 filter, 4x4 output: grid 1 x 16 threads (vector 1)
//   "NHWC 2x8x8x4 3x3 -> 8"  N = 2, 8x8, CIn = 4, COut = 8, 3x3, 2x6x6x8 output: grid 3 x 192 threads
//                        (vector 4: im2col reads 16-byte A and B vectors)
// run_conv(launch, params, input, weights) puts the input in global slot 0 ("in"), the KRSC weights in slot 1
// ("w") and an NHWK output filled with NaN in slot 2 ("out"), points the params at them and runs conv() on
// the simulator. eigen_conv builds the im2col matrix A (M x K) and B (K x COut) with plain loops (nothing
// from spec/) and multiplies them with Eigen: C = A * B, and |A| * |B| for the tolerance. check_conv_result
// holds every output element to |out - C| <= K * 2^-23 * (|A| * |B|) (twice the recursive-summation bound
// K * 2^-24 * Σ|a*b|: both sides round) and says "out == Eigen (max |err| ...)" or names the first bad
// (n, ho, wo, co) with both values.
//
// WORKED EXAMPLE.
//   const conv_case c = conv_cases()[4];                       // "im2col, 6x6 3x3" on sm90
//   const conv_operands ops = conv_inputs(c.params);
//   sim::run_result r = run_conv(launch_on(c.arch, c.grid, c.block), c.params, ops.input, ops.weights);
//   check_conv_result(c.params, ops.input, ops.weights, r.memory.get<float>(2)).passed == true;
//
// INVARIANTS: conv_inputs is a fixed function of the params (values in [-1, 1), multiples of 2^-23, so products
// round and the tolerance is exercised); the NaN poison fails any element the program did not write; sizes
// that do not match throw std::invalid_argument naming them.
#pragma once

#include <string>
#include <vector>

#include "kernel/conv/conv.hpp"
#include "kernel/conv/conv_shapes.hpp"
#include "examples/example.hpp"

namespace tilesim::examples {

struct conv_case {
  std::string name;    // "im2col, NHWC 2x8x8x4 3x3 -> 8"
  std::string arch;    // "sm90" or "gfx942"
  conv_params params;  // mode included
  int grid;            // workgroups: grid * block == N*Ho*Wo*COut
  int block;           // threads per workgroup
};

// The example's cases: {naive, sliding, im2col} x {6x6 3x3, NHWC 2x8x8x4 3x3 -> 8} x {sm90, gfx942}.
std::vector<conv_case> conv_cases();

// Element counts of the input (N*H*W*CIn), weights (COut*R*S*CIn) and output (N*Ho*Wo*COut).
index_t conv_input_count(const conv_params& p);
index_t conv_weight_count(const conv_params& p);
index_t conv_output_count(const conv_params& p);

struct conv_operands {
  std::vector<float> input;    // NHWC
  std::vector<float> weights;  // KRSC
};

// Deterministic operands for p's sizes: values in [-1, 1), a fixed hash of (index, which operand).
conv_operands conv_inputs(const conv_params& p);

// Runs conv() over input and weights; throws std::invalid_argument when a size differs, sim::run_error for
// what the program (its rules: check_conv) or the launch rejects; spec_error before the run when the filter does
// not fit (Ho or Wo would be 0: there is no output to allocate).
sim::run_result run_conv(const sim::launch& config, conv_params p, const std::vector<float>& input,
                         const std::vector<float>& weights);

// Eigen's answer, NHWK order: out = A * B, magnitude = |A| * |B| (in double), A and B built with plain loops.
struct conv_reference {
  std::vector<float> out;
  std::vector<double> magnitude;
};
conv_reference eigen_conv(const conv_params& p, const std::vector<float>& input, const std::vector<float>& weights);

struct conv_check {
  bool passed = false;
  double max_err = 0;  // max |out - Eigen| over all elements (inf when one is NaN)
  std::string text;    // "out == Eigen (max |err| 1.19e-07)" or "out(0, 1, 2, 3) = 0.5, Eigen 0.25 (...)"
};
conv_check check_conv_result(const conv_params& p, const std::vector<float>& input, const std::vector<float>& weights,
                             const std::vector<float>& out);

// One case run and checked (the variant's run()).
outcome run_conv_case(const conv_case& c);

// The catalogue rows: example "conv", one variant per case.
std::vector<variant> conv_variants();
// Its sm90 cases as GPU cross-check points (conv_f32): "example conv: CASE".
std::vector<gpu::crosscheck_point> conv_crosscheck_points();

}  // namespace tilesim::examples
