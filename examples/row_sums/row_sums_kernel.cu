// tilesim/examples/row_sums/row_sums_kernel.cu: the row reduction's kernel, one TILESIM_GPU_KERNEL line.
#include "examples/row_sums/row_sums.hpp"
#include "gpu/user/user_kernel.cuh"

TILESIM_GPU_KERNEL(tilesim::examples::row_sums_128)
