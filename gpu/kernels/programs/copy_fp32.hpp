// tilesim/gpu/kernels/programs/copy_fp32.hpp: the fp32 copy (kernel/copy: copy_tile<float>) as compiled kernels.
//
// DEFINITION. copy_fp32_shapes is the table of launch shapes gpu/kernels/kernels.cu compiles the program at (sm90,
// wave 32): its built-in points. copy_fp32_entry is the program's kernel: its name, what an error calls it, its table
// and its body; copy_fp32_kernel<I> runs copy_fp32_entry::run<copy_fp32_shapes[I]>, and the cross-check's simulator
// side (examples/adapters/copy_fp32.hpp) runs that very instance, so what the GPU ran and what the simulator priced
// are one template instance (gpu/kernels/compiled_shapes.hpp holds the builders and the lookup).
//
// WORKED EXAMPLE. compiled::find_shape(copy_fp32_shapes, copy_fp32_shapes[1]) == 1:
// a point of that shape runs copy_fp32_kernel<1>.
//
// INVARIANTS: no two entries of the table are equal (static_assert below); plain C++, device-safe (nvcc, hipcc, g++).
#pragma once

#include "gpu/kernels/compiled_shapes.hpp"
#include "kernel/copy/copy.hpp"

namespace tilesim::gpu::compiled {

inline constexpr copy_shape copy_fp32_shapes[] = {
    builtin_copy(64, 32, 4, copy_lds_layout::row_major),
    builtin_copy(64, 32, 4, copy_lds_layout::padded),
    builtin_copy(64, 32, 4, copy_lds_layout::ck_xor),
};
static_assert(duplicate_shapes(copy_fp32_shapes) == 0, "compiled shapes: an entry of copy_fp32_shapes appears twice");

// AMD (wave 64, gpu/kernels/amd/amd_kernels.hip): fp32 copies: the built-in points.
inline constexpr copy_shape amd_copy_fp32_shapes[] = {
    builtin_copy(64, 32, 4, copy_lds_layout::row_major, amd_wave),
    builtin_copy(64, 32, 4, copy_lds_layout::padded, amd_wave),
    builtin_copy(64, 32, 4, copy_lds_layout::ck_xor, amd_wave),
};
static_assert(all_wave(amd_copy_fp32_shapes, amd_wave) && duplicate_shapes(amd_copy_fp32_shapes) == 0,
              "compiled shapes: every entry of amd_copy_fp32_shapes runs at wave 64, none twice");

// The kernel of shape copy_fp32_shapes[I]: its name (what Nsight Compute lists), what it is called in an error ("no
// compiled fp32 copy kernel for this shape"), its tables (sm90; AMD, which gpu/kernels/amd/amd_kernels.hip compiles)
// and its body.
struct copy_fp32_entry {
  static constexpr const char* kernel = "copy_fp32_kernel";
  static constexpr const char* title = "fp32 copy";
  static constexpr const auto& shapes = copy_fp32_shapes;
  static constexpr const auto& amd_shapes = amd_copy_fp32_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    programs::copy_tile<float>(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
