// tilesim/gpu/calibrate/cuda_check.cuh: the CUDA runtime check the standalone probes of gpu/calibrate/ share.
//
// Each probe is one .cu file compiled on its own on the GPU machine (nvcc -arch=sm_90 gpu/calibrate/X.cu); this
// header is found next to it, so no include path is needed.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

// CHECK(cudaMalloc(&p, n)): on an error prints "gpu/calibrate/X.cu: cudaMalloc(&p, n) failed: <message> (<name>)"
// and exits 1.
#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    const cudaError_t check_error_ = (call);                                                           \
    if (check_error_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s: %s failed: %s (%s)\n", __FILE__, #call, cudaGetErrorString(check_error_), \
                   cudaGetErrorName(check_error_));                                                    \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)
