// tilesim/gpu/kernels/programs/transpose_f32.hpp: the scalar fp32 transpose (kernel/transpose) as compiled kernels.
//
// DEFINITION. transpose_shapes is the table of launch shapes gpu/kernels/kernels.cu compiles the program at (sm90,
// wave 32): n = 64, 256, 1024. transpose_f32_entry is the program's kernel: its name, what an error calls it, its
// table and its body; transpose_f32_kernel<I> runs transpose_f32_entry::run<transpose_shapes[I]>, and the cross-
// check's simulator side (examples/adapters/transpose_f32.hpp) runs that very instance, so what the GPU ran and what
// the simulator priced are one template instance (gpu/kernels/compiled_shapes.hpp holds the builders and the lookup).
//
// WORKED EXAMPLE. compiled::find_shape(transpose_shapes, transpose_shapes[1]) == 1:
// a point of that shape runs transpose_f32_kernel<1>.
//
// INVARIANTS: no two entries of the table are equal (static_assert below); plain C++, device-safe (nvcc, hipcc, g++).
#pragma once

#include "gpu/kernels/compiled_shapes.hpp"
#include "kernel/transpose/transpose.hpp"

namespace tilesim::gpu::compiled {

// The scalar transpose (kernel/transpose/transpose.hpp): n x n fp32, n = 64, 256, 1024, 256 threads.
inline constexpr programs::transpose_shape transpose_shapes[] = {
    {{.n = 64}, 256, sm90_wave},
    {{.n = 256}, 256, sm90_wave},
    {{.n = 1024}, 256, sm90_wave},
};
static_assert(duplicate_shapes(transpose_shapes) == 0, "compiled shapes: an entry of transpose_shapes appears twice");

// AMD (wave 64, gpu/kernels/amd/amd_kernels.hip): The scalar transpose (kernel/transpose/transpose.hpp): n x n fp32,
// 256 threads, wave 64.
inline constexpr programs::transpose_shape amd_transpose_shapes[] = {
    {{.n = 64}, 256, amd_wave},
    {{.n = 256}, 256, amd_wave},
    {{.n = 1024}, 256, amd_wave},
};
static_assert(all_wave(amd_transpose_shapes, amd_wave) && duplicate_shapes(amd_transpose_shapes) == 0,
              "compiled shapes: every entry of amd_transpose_shapes runs at wave 64, none twice");

// The kernel of shape transpose_shapes[I]: its name (what Nsight Compute lists), what it is called in an error ("no
// compiled transpose kernel for this shape"), its tables (sm90; AMD, which gpu/kernels/amd/amd_kernels.hip compiles)
// and its body.
struct transpose_f32_entry {
  static constexpr const char* kernel = "transpose_f32_kernel";
  static constexpr const char* title = "transpose";
  static constexpr const auto& shapes = transpose_shapes;
  static constexpr const auto& amd_shapes = amd_transpose_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    programs::transpose(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
