// tilesim/gpu/runtime/device_describe.cuh: which GPU this process runs on (the runtime's properties), for any .cu file.
//
// detail::describe_device_now() is device_run.hpp's describe_device(): the first GPU's name, SMs, warp size,
// clock, runtime version and driver (nvidia-smi's "580.159.04" when it answers, else the driver API's number).
// Inline, so that gpu/kernels/kernels.cu and a user's kernel file (gpu/user/user_kernel.cuh) share one definition.
// A machine without a GPU is a device_error("no GPU: ..."), which callers turn into "skipped".
#pragma once

#include <cstdio>
#include <string>

#include "gpu/runtime/device_error.hpp"
#include "gpu/runtime/device_types.hpp"
#include "gpu/runtime/hip_runtime.hpp"

namespace tilesim::gpu::detail {

// The driver's own version string from nvidia-smi when it is there ("580.159.04"), else the runtime's number.
inline std::string driver_version() {
  if (std::FILE* f = popen("nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null", "r")) {
    char line[128] = {};
    const bool got = std::fgets(line, sizeof line, f) != nullptr;
    pclose(f);
    std::string s = got ? line : "";
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    if (!s.empty()) return s;
  }
  int v = 0;
  TILESIM_HIP_CHECK(hipDriverGetVersion(&v));
  return "driver API " + std::to_string(v);
}

// The first GPU; throws device_error("no GPU: ...") without one.
inline device_description describe_device_now() {
  int n = 0;
  const hipError_t status = hipGetDeviceCount(&n);
  if (status != hipSuccess || n < 1)
    throw device_error(std::string("no GPU: hipGetDeviceCount says ") +
                       (status != hipSuccess ? hipGetErrorString(status) : "0 devices"));
  hipDeviceProp_t prop{};
  TILESIM_HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  device_description d;
  d.name = prop.name;
  d.multiprocessors = prop.multiProcessorCount;
  d.warp_size = prop.warpSize;
  TILESIM_HIP_CHECK(hipDeviceGetAttribute(&d.clock_khz, hipDeviceAttributeClockRate, 0));
  TILESIM_HIP_CHECK(hipRuntimeGetVersion(&d.runtime_version));
  d.driver = driver_version();
  return d;
}

}  // namespace tilesim::gpu::detail
