// tilesim/gpu/kernels/programs/morton_f32.hpp: the compiled kernels of the Morton texel reads.
//
// DEFINITION. morton_shapes is the table of launch shapes gpu/kernels/kernels.cu compiles the program at (sm90, wave
// 32): examples/morton's sm90 cases. morton_f32_entry is the program's kernel: its name, what an error calls it, its
// table and its body; morton_f32_kernel<I> runs morton_f32_entry::run<morton_shapes[I]>, and the cross-check's
// simulator side (examples/adapters/morton_f32.hpp) runs that very instance, so what the GPU ran and what the
// simulator priced are one template instance (gpu/kernels/compiled_shapes.hpp holds the builders and the lookup).
//
// WORKED EXAMPLE. compiled::find_shape(morton_shapes, morton_shapes[1]) == 1:
// a point of that shape runs morton_f32_kernel<1>.
//
// INVARIANTS: no two entries of the table are equal (static_assert below); plain C++, device-safe (nvcc, hipcc, g++).
#pragma once

#include "gpu/kernels/compiled_shapes.hpp"
#include "kernel/morton/morton.hpp"

namespace tilesim::gpu::compiled {

// examples/morton's sm90 cases: 64 x 64 fp32, T = 8, 8x4 footprints, grid 8, 256 threads.
inline constexpr examples::morton_shape morton_shapes[] = {
    {{.layout = examples::texel_layout::row_major, .staging = examples::texel_staging::direct}, 256, sm90_wave, 8},
    {{.layout = examples::texel_layout::morton_transforms, .staging = examples::texel_staging::direct}, 256, sm90_wave, 8},
    {{.layout = examples::texel_layout::morton_bits, .staging = examples::texel_staging::direct}, 256, sm90_wave, 8},
    {{.layout = examples::texel_layout::morton_transforms, .staging = examples::texel_staging::lds_morton}, 256, sm90_wave, 8},
};
static_assert(duplicate_shapes(morton_shapes) == 0, "compiled shapes: an entry of morton_shapes appears twice");

// The kernel of shape morton_shapes[I]: its name (what Nsight Compute lists), what it is called in an error
// ("no compiled Morton read kernel for this shape"), its table and its body.
struct morton_f32_entry {
  static constexpr const char* kernel = "morton_f32_kernel";
  static constexpr const char* title = "Morton read";
  static constexpr const auto& shapes = morton_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    examples::morton_read<float>(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
