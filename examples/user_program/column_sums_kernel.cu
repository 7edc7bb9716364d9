// tilesim/examples/user_program/column_sums_kernel.cu: the one line that makes column_sums a GPU kernel.
#include "examples/user_program/column_sums.hpp"
#include "gpu/user/user_kernel.cuh"

TILESIM_GPU_KERNEL(tilesim::examples::column_sums<4>)
