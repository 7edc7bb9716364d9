// tilesim/gpu/kernels.cu: the built-in programs as kernels, and the host runner that launches them.
//
// Each kernel is one line: run_program over the same template the simulator instantiates. One kernel per
// program: a launch is timed (two barriers and a clock64() store per block around the program) when it
// passes a cycles buffer, and untimed (what Nsight Compute counts) when not. The GEMM and the convolution
// are in kernels_o1.cu, compiled with NVVM at -O1 (that file says why); launch() is gpu/kernel_launch.hpp.
#include <cstdint>
#include <cstdio>

#include "gpu/kernel_launch.hpp"

namespace tilesim::gpu {

__global__ void copy_u16_kernel(programs::copy_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::copy_tile<std::uint16_t>(ctx, p); });
}

__global__ void copy_f32_kernel(programs::copy_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::copy_tile<float>(ctx, p); });
}

__global__ void lds_sweep_u32_kernel(programs::lds_sweep_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::lds_sweep<std::uint32_t, 4>(ctx, p); });
}

__global__ void morton_f32_kernel(examples::morton_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { examples::morton_read<float>(ctx, p); });
}


namespace {

// The driver's own version string from nvidia-smi when it is there ("580.159.04"), else the runtime's number.
std::string driver_version() {
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

}  // namespace

device_description describe_device() {
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

device_result run_copy_on_device(const programs::copy_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch(copy_u16_kernel, p, l, std::move(b));
}

device_result run_copy_f32_on_device(const programs::copy_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch(copy_f32_kernel, p, l, std::move(b));
}

device_result run_lds_sweep_on_device(const programs::lds_sweep_params& p, const device_launch& l,
                                      std::vector<byte_buffer> b) {
  return detail::launch(lds_sweep_u32_kernel, p, l, std::move(b));
}

device_result run_morton_on_device(const examples::morton_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return detail::launch(morton_f32_kernel, p, l, std::move(b));
}

}  // namespace tilesim::gpu
