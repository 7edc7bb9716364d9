// tilesim/gpu/kernels/programs/mma_gemm_f16.hpp: the compiled kernels of the matrix-core GEMM.
//
// DEFINITION. mma_gemm_shapes is the table of launch shapes gpu/kernels/kernels.cu compiles the program at (sm90,
// wave 32): examples/gemm's matrix-core cases. mma_gemm_f16_entry is the program's kernel: its name, what an error
// calls it, its table and its body; mma_gemm_f16_kernel<I> runs mma_gemm_f16_entry::run<mma_gemm_shapes[I]>, and the
// cross-check's simulator side (examples/adapters/mma_gemm_f16.hpp) runs that very instance, so what the GPU ran and
// what the simulator priced are one template instance (gpu/kernels/compiled_shapes.hpp holds the builders and the
// lookup).
//
// WORKED EXAMPLE. compiled::find_shape(mma_gemm_shapes, mma_gemm_shapes[1]) == 1:
// a point of that shape runs mma_gemm_f16_kernel<1>.
//
// INVARIANTS: no two entries of the table are equal (static_assert below); plain C++, device-safe (nvcc, hipcc, g++).
#pragma once

#include "gpu/kernels/compiled_shapes.hpp"
#include "kernel/mma_gemm/mma_gemm.hpp"

namespace tilesim::gpu::compiled {

// examples/gemm's matrix-core cases (kernel/mma_gemm/mma_gemm.hpp): 256 x 256 x 256 fp16 in 128 x 128 x 32 block tiles,
// 256 threads, each LDS layout.
constexpr programs::mma_gemm_shape mma_gemm_example(gemm_lds_layout layout, ck_lds_order order = ck_lds_order::l_k0_2025) {
  programs::mma_gemm_params p;
  p.m = p.n = p.k = 256;
  p.layout = layout;
  p.ck_order = order;
  return {p, 256, sm90_wave};
}

inline constexpr programs::mma_gemm_shape mma_gemm_shapes[] = {
    mma_gemm_example(gemm_lds_layout::row_major),
    mma_gemm_example(gemm_lds_layout::padded),
    mma_gemm_example(gemm_lds_layout::ck_xor, ck_lds_order::k0_l_2024),
    mma_gemm_example(gemm_lds_layout::ck_xor),
};
static_assert(duplicate_shapes(mma_gemm_shapes) == 0, "compiled shapes: an entry of mma_gemm_shapes appears twice");

// The kernel of shape mma_gemm_shapes[I]: its name (what Nsight Compute lists), what it is called in an error
// ("no compiled matrix-core GEMM kernel for this shape"), its table and its body.
struct mma_gemm_f16_entry {
  static constexpr const char* kernel = "mma_gemm_f16_kernel";
  static constexpr const char* title = "matrix-core GEMM";
  static constexpr const auto& shapes = mma_gemm_shapes;
  template <auto S, class Context>
  TILESIM_HOST_DEVICE static void run(Context& ctx) {
    programs::mma_gemm(ctx, constant<S>{});
  }
};

}  // namespace tilesim::gpu::compiled
