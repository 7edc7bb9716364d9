// tilesim/examples/stencil/stencil_kernel.cu: the stencil's kernels (both pitches), one TILESIM_GPU_KERNEL line each.
#include "examples/stencil/stencil.hpp"
#include "gpu/user/user_kernel.cuh"

TILESIM_GPU_KERNEL(tilesim::examples::stencil_packed)
TILESIM_GPU_KERNEL(tilesim::examples::stencil_padded)
