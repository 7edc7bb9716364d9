// tilesim/examples/fp16_transpose/fp16_transpose_kernel.cu: the transpose's kernels, one TILESIM_GPU_KERNEL line each.
#include "examples/fp16_transpose/fp16_transpose.hpp"
#include "gpu/user/user_kernel.cuh"

TILESIM_GPU_KERNEL(tilesim::examples::transpose_row_major)
TILESIM_GPU_KERNEL(tilesim::examples::transpose_padded)
TILESIM_GPU_KERNEL(tilesim::examples::transpose_swizzled)
