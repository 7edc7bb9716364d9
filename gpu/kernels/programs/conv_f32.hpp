// tilesim/gpu/kernels/programs/conv_f32.hpp: the compiled kernels of the convolutions.
//
// DEFINITION. conv_shapes is the table of launch shapes gpu/kernels/kernels.cu compiles the program at (sm90, wave
// 32): examples/conv's sm90 cases. conv_f32_entry is the program's kernel: its name, what an error calls it, its
// table and its body; conv_f32_kernel<I> runs conv_f32_entry::run<conv_shapes[I]>, and the cross-check's simulator
// side (examples/adapters/conv_f32.hpp) runs that very instance, so what the GPU ran and what the simulator priced
// are one template instance (gpu/kernels/compiled_shapes.hpp holds the builders and the lookup).
//
// WORKED EXAMPLE. compiled::find_shape(conv_shapes, conv_shapes[1]) == 1:
// a point of that shape runs conv_f32_kernel<1>.
//
// INVARIANTS: no two entries of the table are equal (static_assert below); plain C++, device-safe (nvcc, hipcc, g++).
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

// AMD (wave 64, gpu/kernels/amd/amd_kernels.hip): examples/conv's gfx942 cases (conv_shapes.hpp: the odd entries,
// wave 64): naive, sliding, im2col on the 6x6 image (grid 1 x 16 threads) and on the NHWC 2x8x8x4 problem (grid 3 x
// 192 threads).
inline constexpr examples::conv_shape amd_conv_shapes[] = {
    examples::conv_example_shape(examples::conv_problem::six_by_six, examples::conv_mode::naive, amd_wave),
    examples::conv_example_shape(examples::conv_problem::six_by_six, examples::conv_mode::sliding, amd_wave),
    examples::conv_example_shape(examples::conv_problem::six_by_six, examples::conv_mode::im2col, amd_wave),
    examples::conv_example_shape(examples::conv_problem::nhwc, examples::conv_mode::naive, amd_wave),
    examples::conv_example_shape(examples::conv_problem::nhwc, examples::conv_mode::sliding, amd_wave),
    examples::conv_example_shape(examples::conv_problem::nhwc, examples::conv_mode::im2col, amd_wave),
};
static_assert(all_wave(amd_conv_shapes, amd_wave) && duplicate_shapes(amd_conv_shapes) == 0,
              "compiled shapes: every entry of amd_conv_shapes runs at wave 64, none twice");

// The kernel of shape conv_shapes[I]: its name (what Nsight Compute lists), what it is called in an error ("no
// compiled convolution kernel for this shape"), its tables (sm90; AMD, which gpu/kernels/amd/amd_kernels.hip
// compiles) and its body.
struct conv_f32_entry {
  static constexpr const char* kernel = "conv_f32_kernel";
  static constexpr const char* title = "convolution";
  static constexpr const auto& shapes = conv_shapes;
  static constexpr const auto& amd_shapes = amd_conv_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    examples::conv(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
