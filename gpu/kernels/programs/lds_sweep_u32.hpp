// tilesim/gpu/kernels/programs/lds_sweep_u32.hpp: the compiled kernels of the LDS sweep.
//
// DEFINITION. lds_sweep_shapes is the table of launch shapes gpu/kernels/kernels.cu compiles the program at (sm90,
// wave 32): its tile in each LDS layout; the iteration count stays a run-time kernel argument. lds_sweep_u32_entry is
// the program's kernel: its name, what an error calls it, its table and its body; lds_sweep_u32_kernel<I> runs
// lds_sweep_u32_entry::run<lds_sweep_shapes[I]>, and the cross-check's simulator side
// (examples/adapters/lds_sweep_u32.hpp) runs that very instance, so what the GPU ran and what the simulator priced
// are one template instance (gpu/kernels/compiled_shapes.hpp holds the builders and the lookup).
//
// WORKED EXAMPLE. compiled::find_shape(lds_sweep_shapes, lds_sweep_shapes[1]) == 1:
// a point of that shape runs lds_sweep_u32_kernel<1>.
//
// INVARIANTS: no two entries of the table are equal (static_assert below); plain C++, device-safe (nvcc, hipcc, g++).
#pragma once

#include "gpu/kernels/compiled_shapes.hpp"
#include "kernel/lds_sweep/lds_sweep.hpp"

namespace tilesim::gpu::compiled {

inline constexpr copy_shape lds_sweep_shapes[] = {
    sweep_tile(copy_lds_layout::row_major),
    sweep_tile(copy_lds_layout::padded),
    sweep_tile(copy_lds_layout::ck_xor),
    sweep_tile(copy_lds_layout::cute_swizzle),
};
static_assert(duplicate_shapes(lds_sweep_shapes) == 0, "compiled shapes: an entry of lds_sweep_shapes appears twice");

// AMD (wave 64, gpu/kernels/amd/amd_kernels.hip): The sweep's tile in each LDS layout.
inline constexpr copy_shape amd_lds_sweep_shapes[] = {
    sweep_tile(copy_lds_layout::row_major, amd_wave),
    sweep_tile(copy_lds_layout::padded, amd_wave),
    sweep_tile(copy_lds_layout::ck_xor, amd_wave),
    sweep_tile(copy_lds_layout::cute_swizzle, amd_wave),
};
static_assert(all_wave(amd_lds_sweep_shapes, amd_wave) && duplicate_shapes(amd_lds_sweep_shapes) == 0,
              "compiled shapes: every entry of amd_lds_sweep_shapes runs at wave 64, none twice");

// The kernel of shape lds_sweep_shapes[I]: its name (what Nsight Compute lists), what it is called in an error ("no
// compiled LDS sweep kernel for this shape"), its tables (sm90; AMD, which gpu/kernels/amd/amd_kernels.hip compiles)
// and its body.
struct lds_sweep_u32_entry {
  static constexpr const char* kernel = "lds_sweep_u32_kernel";
  static constexpr const char* title = "LDS sweep";
  static constexpr const auto& shapes = lds_sweep_shapes;
  static constexpr const auto& amd_shapes = amd_lds_sweep_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx, index_t iterations) {
    programs::lds_sweep<std::uint32_t, 4>(ctx, constant<S>{}, iterations);
  }
};

}  // namespace tilesim::gpu::compiled
