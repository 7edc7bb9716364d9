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

#include <iterator>

#include "gpu/kernels/compiled_shapes.hpp"
#include "kernel/morton/morton.hpp"
#include "kernel/morton/morton_shapes.hpp"

namespace tilesim::gpu::compiled {

// examples/morton's sm90 cases: 64 x 64 fp32, T = 8, 8x4 footprints, grid 8, 256 threads.
inline constexpr examples::morton_shape morton_shapes[] = {
    {{.layout = examples::texel_layout::row_major, .staging = examples::texel_staging::direct}, 256, sm90_wave, 8},
    {{.layout = examples::texel_layout::morton_transforms, .staging = examples::texel_staging::direct}, 256, sm90_wave, 8},
    {{.layout = examples::texel_layout::morton_bits, .staging = examples::texel_staging::direct}, 256, sm90_wave, 8},
    {{.layout = examples::texel_layout::morton_transforms, .staging = examples::texel_staging::lds_morton}, 256, sm90_wave, 8},
};
static_assert(duplicate_shapes(morton_shapes) == 0, "compiled shapes: an entry of morton_shapes appears twice");

// AMD (wave 64, gpu/kernels/amd/amd_kernels.hip): examples/morton's gfx942 cases, straight from its constexpr case
// table (entries 4-7; checked below).
inline constexpr examples::morton_shape amd_morton_shapes[] = {
    examples::morton_case_shape(examples::morton_case_table[4]),
    examples::morton_case_shape(examples::morton_case_table[5]),
    examples::morton_case_shape(examples::morton_case_table[6]),
    examples::morton_case_shape(examples::morton_case_table[7]),
};
static_assert(all_wave(amd_morton_shapes, amd_wave) && duplicate_shapes(amd_morton_shapes) == 0,
              "compiled shapes: every entry of amd_morton_shapes runs at wave 64, none twice");

// True when amd_morton_shapes is exactly the gfx942 cases of morton_case_table, in the table's order.
constexpr bool morton_shapes_are_gfx942_cases() {
  int at = 0;
  for (const examples::morton_case_def& c : examples::morton_case_table) {
    if (!same_name(c.arch, "gfx942")) continue;
    if (find_shape(amd_morton_shapes, examples::morton_case_shape(c)) != at) return false;  // (no duplicates: above)
    ++at;
  }
  return at == static_cast<int>(std::size(amd_morton_shapes));
}
static_assert(morton_shapes_are_gfx942_cases(), "amd_morton_shapes must be morton_case_table's gfx942 cases, in order");

// The kernel of shape morton_shapes[I]: its name (what Nsight Compute lists), what it is called in an error ("no
// compiled Morton read kernel for this shape"), its tables (sm90; AMD, which gpu/kernels/amd/amd_kernels.hip
// compiles) and its body.
struct morton_f32_entry {
  static constexpr const char* kernel = "morton_f32_kernel";
  static constexpr const char* title = "Morton read";
  static constexpr const auto& shapes = morton_shapes;
  static constexpr const auto& amd_shapes = amd_morton_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    examples::morton_read<float>(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
