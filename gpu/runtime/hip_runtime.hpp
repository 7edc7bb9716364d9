// tilesim/gpu/runtime/hip_runtime.hpp: the HIP runtime API on both platforms, and the one checked-call macro.
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

// HIP 5.x declares only hipFuncSetAttribute(const void*, ...); CUDA's (and newer HIP's) take the kernel
// itself. This overload is more specialized than any `template <class T> (T)` or `(T*)` form a newer HIP
// adds, so kernels.cu's hipFuncSetAttribute(kernel, ...) means the same call on every version.
template <class... Args>
inline hipError_t hipFuncSetAttribute(void (*kernel)(Args...), hipFuncAttribute a, int value) {
  return hipFuncSetAttribute(reinterpret_cast<const void*>(kernel), a, value);
}
// A kernel's registers and private (scratch) bytes per thread, by the kernel itself.
template <class... Args>
inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attributes, void (*kernel)(Args...)) {
  return hipFuncGetAttributes(attributes, reinterpret_cast<const void*>(kernel));
}

#if HIP_VERSION_MAJOR < 5 || (HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR < 3)
// HIP before 5.3 has no hipDeviceSetLimit and no stack limit to set: the runtime gives each launch the
// scratch its kernel descriptor asks for (the compiler sizes it; all calls are inlined), so a no-op is exact.
inline constexpr hipLimit_t hipLimitStackSize = static_cast<hipLimit_t>(0);
inline hipError_t hipDeviceSetLimit(hipLimit_t, std::size_t) { return hipSuccess; }
#endif
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
inline constexpr cudaLimit hipLimitStackSize = cudaLimitStackSize;
inline hipError_t hipDeviceSetLimit(cudaLimit limit, std::size_t value) { return cudaDeviceSetLimit(limit, value); }
template <class Kernel>
hipError_t hipFuncSetAttribute(Kernel kernel, cudaFuncAttribute a, int value) {
  return cudaFuncSetAttribute(kernel, a, value);
}
using hipFuncAttributes = cudaFuncAttributes;  // numRegs, localSizeBytes (stack + spills per thread)
template <class Kernel>
hipError_t hipFuncGetAttributes(hipFuncAttributes* attributes, Kernel kernel) {
  return cudaFuncGetAttributes(attributes, kernel);
}
#endif

#include "gpu/runtime/device_error.hpp"

namespace tilesim::gpu {

// Throws device_error unless `status` is hipSuccess: check(hipMalloc(&p, n), "hipMalloc(&p, n)", __FILE__, __LINE__).
inline void check(hipError_t status, const char* call, const char* file, int line) {
  if (status != hipSuccess)
    throw device_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                       hipGetErrorString(status));
}

}  // namespace tilesim::gpu

#define TILESIM_HIP_CHECK(call) ::tilesim::gpu::check((call), #call, __FILE__, __LINE__)
