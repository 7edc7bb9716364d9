// tilesim/gpu/kernels/programs/conv_f32.hpp: the convolutions as compiled kernels: its shapes and its kernel body.
//
// DEFINITION. conv_shapes lists the launch shapes gpu/kernels/kernels.cu compiles the convolutions (conv, every mode, fp32): examples/conv's sm90 cases
// (sm90, wave 32); conv_f32_entry says what each kernel runs: conv_f32_kernel<I> runs
// conv_f32_entry::run<conv_shapes[I]>, and so does the cross-check's simulator side (examples/adapters/conv_f32.hpp),
// so what the GPU ran and what the simulator priced are one template instance (compiled_shapes.hpp).
//
// WORKED EXAMPLE. compiled::find_shape(conv_shapes, conv_shapes[1]) == 1: conv_f32_kernel<1> runs that shape.
//
// INVARIANTS: no two entries are equal (static_assert below); plain C++ and device-safe (nvcc, hipcc, g++).
#pragma once

#include "gpu/kernels/compiled_shapes.hpp"
#include "kernel/conv/conv.hpp"
#include "kernel/conv/conv_shapes.hpp"

namespace tilesim::gpu::compiled {

// examples/conv's sm90 cases (kernel/conv/conv_shapes.hpp): the 6x6 3x3 image and NHWC 2x8x8x4 -> 8, each
// in every mode.
inline constexpr examples::conv_shape conv_shapes[] = {
    examples::conv_example_shape(examples::conv_problem::six_by_six, examples::conv_mode::naive, sm90_wave),
    examples::conv_example_shape(examples::conv_problem::six_by_six, examples::conv_mode::sliding, sm90_wave),
    examples::conv_example_shape(examples::conv_problem::six_by_six, examples::conv_mode::im2col, sm90_wave),
    examples::conv_example_shape(examples::conv_problem::nhwc, examples::conv_mode::naive, sm90_wave),
    examples::conv_example_shape(examples::conv_problem::nhwc, examples::conv_mode::sliding, sm90_wave),
    examples::conv_example_shape(examples::conv_problem::nhwc, examples::conv_mode::im2col, sm90_wave),
};
static_assert(duplicate_shapes(conv_shapes) == 0, "compiled shapes: an entry of conv_shapes appears twice");

// The kernel of shape conv_shapes[I]: its name (what Nsight Compute lists), what it is called in an error
// ("no compiled convolution kernel for this shape"), its table and its body.
struct conv_f32_entry {
  static constexpr const char* kernel = "conv_f32_kernel";
  static constexpr const char* title = "convolution";
  static constexpr const auto& shapes = conv_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    examples::conv(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
