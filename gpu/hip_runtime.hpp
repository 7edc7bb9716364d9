// tilesim/gpu/hip_runtime.hpp: the HIP runtime API on both platforms, and the one checked-call macro.
//
// DEFINITION. gpu/ is written against HIP. Under hipcc (AMD) this is <hip/hip_runtime.h>. Under nvcc it is
// the part of HIP's NVIDIA platform tilesim uses, spelled out over the CUDA runtime: HIP on NVIDIA is exactly
// such a header layer, and Debian's copy of it (libamdhip64-dev 5.2) only compiles with CUDA 11.8, whose
// nvcc stops at C++17 while spec/ needs C++20 (concepts, class-type template parameters). CUDA 12+ nvcc
// compiles spec/; these ~20 inline forwards keep the source HIP.
//
// WORKED EXAMPLE.
//   TILESIM_HIP_CHECK(hipMalloc(&p, 1024));   // throws device_error("hipMalloc(&p, 1024) failed at
//                                             //   gpu/device_run.cu:57: out of memory") on failure
//
// INVARIANTS: every runtime call in gpu/ goes through TILESIM_HIP_CHECK (or returns its status to one that
// does); after each kernel launch the launch error and the synchronize error are checked.
#pragma once

#include <stdexcept>
#include <string>

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>

using hipError_t = cudaError_t;
using hipDeviceProp_t = cudaDeviceProp;
using hipMemcpyKind = cudaMemcpyKind;
inline constexpr hipError_t hipSuccess = cudaSuccess;
inline constexpr hipMemcpyKind hipMemcpyHostToDevice = cudaMemcpyHostToDevice;
inline constexpr hipMemcpyKind hipMemcpyDeviceToHost = cudaMemcpyDeviceToHost;
inline constexpr cudaFuncAttribute hipFuncAttributeMaxDynamicSharedMemorySize =
    cudaFuncAttributeMaxDynamicSharedMemorySize;
inline hipError_t hipMalloc(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
inline hipError_t hipFree(void* p) { return cudaFree(p); }
inline hipError_t hipMemcpy(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind) {
  return cudaMemcpy(dst, src, bytes, kind);
}
inline hipError_t hipGetLastError() { return cudaGetLastError(); }
inline hipError_t hipDeviceSynchronize() { return cudaDeviceSynchronize(); }
inline const char* hipGetErrorString(hipError_t e) { return cudaGetErrorString(e); }
inline hipError_t hipGetDeviceCount(int* n) { return cudaGetDeviceCount(n); }
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int device) { return cudaGetDeviceProperties(p, device); }
inline hipError_t hipDriverGetVersion(int* v) { return cudaDriverGetVersion(v); }
inline hipError_t hipRuntimeGetVersion(int* v) { return cudaRuntimeGetVersion(v); }
inline hipError_t hipDeviceGetAttribute(int* v, cudaDeviceAttr a, int device) { return cudaDeviceGetAttribute(v, a, device); }
inline constexpr cudaDeviceAttr hipDeviceAttributeClockRate = cudaDevAttrClockRate;
template <class Kernel>
hipError_t hipFuncSetAttribute(Kernel kernel, cudaFuncAttribute a, int value) {
  return cudaFuncSetAttribute(kernel, a, value);
}
#endif

namespace tilesim::gpu {

// A runtime call failed: the message names the call, the place and the runtime's reason.
class device_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws device_error unless `status` is hipSuccess: check(hipMalloc(&p, n), "hipMalloc(&p, n)", __FILE__, __LINE__).
inline void check(hipError_t status, const char* call, const char* file, int line) {
  if (status != hipSuccess)
    throw device_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                       hipGetErrorString(status));
}

}  // namespace tilesim::gpu

#define TILESIM_HIP_CHECK(call) ::tilesim::gpu::check((call), #call, __FILE__, __LINE__)
