// tilesim/examples/async_pipeline/async_pipeline_kernel.cu: the cp.async pipeline's kernel, one TILESIM_GPU_KERNEL line.
#include "examples/async_pipeline/async_pipeline.hpp"
#include "gpu/user/user_kernel.cuh"

TILESIM_GPU_KERNEL(tilesim::examples::async_pipeline_8)
