// tilesim/kernel/conv/conv_shapes.hpp: the conv example's two problems and their launches, as constants.
//
// DEFINITION. conv_example_shape(problem, mode, warp size) is the launch (kernel/conv/conv.hpp's conv_shape) of one
// case of the example's table (conv_variants.hpp's conv_cases(), built from these): every conv_mode on
//   six_by_six  the single-channel 6x6 image, 3x3 filter (conv_params' defaults): 4x4 output, grid 1 x 16 threads
//   nhwc        N = 2, 8x8, CIn = 4, COut = 8, 3x3, vector 4: 2x6x6x8 output, grid 3 x 192 threads
// on sm90 (wave 32) and gfx942 (wave 64). Everything is a constant expression, so a shape can be a kernel's
// constant<...> (gpu/kernels/programs/ lists the sm90 ones) and conv_example_shapes[i] is case i of
// conv_cases(). Device-safe: nothing here but conv.hpp.
//
// WORKED EXAMPLE. conv_example_shape(conv_problem::nhwc, conv_mode::im2col, 32) == {p, 192, 32, 3} with p.n = 2,
// p.h = p.w = 8, p.c_in = 4, p.c_out = 8, p.vector = 4, p.mode = im2col; it is conv_example_shapes[10].
//
// INVARIANTS (conv.test.cpp): conv_example_shapes[i] has conv_cases()[i]'s params, block, grid and wave size;
// every shape passes check_conv (make_conv_geometry is a constant expression for each).
#pragma once

#include "kernel/conv/conv.hpp"

namespace tilesim::examples {

enum class conv_problem { six_by_six, nhwc };

// The params of a problem in a mode (input, weights, output in slots 0, 1, 2).
constexpr conv_params conv_problem_params(conv_problem problem, conv_mode mode) {
  conv_params p;  // the defaults: 1 x 6 x 6 x 1, 3x3, COut 1, vector 1
  p.mode = mode;
  if (problem == conv_problem::nhwc) {
    p.n = 2;
    p.h = p.w = 8;
    p.c_in = 4;
    p.c_out = 8;
    p.vector = 4;
  }
  return p;
}

// The launch of a problem in a mode on waves of warp_size lanes: one output per thread.
constexpr conv_shape conv_example_shape(conv_problem problem, conv_mode mode, index_t warp_size) {
  const bool six = problem == conv_problem::six_by_six;
  return {conv_problem_params(problem, mode), six ? 16 : 192, warp_size, six ? 1 : 3};
}

// conv_cases()' launches in its order: problem, then mode (naive, sliding, im2col), then sm90 / gfx942.
inline constexpr conv_shape conv_example_shapes[] = {
    conv_example_shape(conv_problem::six_by_six, conv_mode::naive, 32),
    conv_example_shape(conv_problem::six_by_six, conv_mode::naive, 64),
    conv_example_shape(conv_problem::six_by_six, conv_mode::sliding, 32),
    conv_example_shape(conv_problem::six_by_six, conv_mode::sliding, 64),
    conv_example_shape(conv_problem::six_by_six, conv_mode::im2col, 32),
    conv_example_shape(conv_problem::six_by_six, conv_mode::im2col, 64),
    conv_example_shape(conv_problem::nhwc, conv_mode::naive, 32),
    conv_example_shape(conv_problem::nhwc, conv_mode::naive, 64),
    conv_example_shape(conv_problem::nhwc, conv_mode::sliding, 32),
    conv_example_shape(conv_problem::nhwc, conv_mode::sliding, 64),
    conv_example_shape(conv_problem::nhwc, conv_mode::im2col, 32),
    conv_example_shape(conv_problem::nhwc, conv_mode::im2col, 64),
};

}  // namespace tilesim::examples
