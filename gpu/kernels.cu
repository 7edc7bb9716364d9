// tilesim/gpu/kernels.cu: the built-in programs as kernels, and the host runner that launches them.
//
// Each kernel is one line: run_program over the same template the simulator instantiates. One kernel per
// program: a launch is timed (two barriers and a clock64() store per block around the program) when it
// passes a cycles buffer, and untimed (what Nsight Compute counts) when not.
#include <cstdint>
#include <cstdio>
#include <memory>

#include "gpu/device_context.hpp"
#include "gpu/device_run.hpp"
#include "gpu/hip_runtime.hpp"

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

__global__ void gemm_f32_kernel(programs::gemm_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { programs::gemm_tile(ctx, p); });
}

__global__ void morton_f32_kernel(examples::morton_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { examples::morton_read<float>(ctx, p); });
}

__global__ void conv_f32_kernel(examples::conv_params p, kernel_args a) {
  run_program(a, [&](device_context& ctx) { examples::conv(ctx, p); });
}

namespace {

// Device memory freed on every path (a failed check throws past it).
struct device_memory {
  void* pointer = nullptr;
  explicit device_memory(std::size_t bytes) { TILESIM_HIP_CHECK(hipMalloc(&pointer, bytes ? bytes : 1)); }
  ~device_memory() { (void)hipFree(pointer); }
  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;
};

template <class Params, class Kernel>
device_result launch(Kernel kernel, const Params& params, const device_launch& l,
                     std::vector<byte_buffer> buffers) {
  if (buffers.size() > static_cast<std::size_t>(max_slots))
    throw std::invalid_argument("a kernel takes at most " + std::to_string(max_slots) + " global buffers, not " +
                                std::to_string(buffers.size()));
  if (l.grid < 1 || l.block < 1)
    throw std::invalid_argument("grid and block must be >= 1 (grid = " + std::to_string(l.grid) +
                                ", block = " + std::to_string(l.block) + ")");
  kernel_args args;
  std::vector<std::unique_ptr<device_memory>> memory;
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    memory.push_back(std::make_unique<device_memory>(buffers[k].size()));
    TILESIM_HIP_CHECK(hipMemcpy(memory.back()->pointer, buffers[k].data(), buffers[k].size(), hipMemcpyHostToDevice));
    args.pointer[k] = memory.back()->pointer;
    args.bytes[k] = static_cast<index_t>(buffers[k].size());
  }
  args.slots = static_cast<int>(buffers.size());
  args.lds_bytes = static_cast<unsigned>(l.lds_bytes);
  std::unique_ptr<device_memory> cycles;
  if (l.timed) {
    cycles = std::make_unique<device_memory>(sizeof(long long) * static_cast<std::size_t>(l.grid));
    args.block_cycles = static_cast<long long*>(cycles->pointer);
  }
  // spec's index machinery keeps its encodings and windows in local memory (tens of KB per thread for the
  // GEMM); the default per-thread stack limit is sized for far less.
  TILESIM_HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, 64 * 1024));
  TILESIM_HIP_CHECK(hipFuncSetAttribute(kernel, hipFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(l.lds_bytes)));
  kernel<<<l.grid, l.block, l.lds_bytes>>>(params, args);
  TILESIM_HIP_CHECK(hipGetLastError());
  TILESIM_HIP_CHECK(hipDeviceSynchronize());
  device_result r;
  for (std::size_t k = 0; k < buffers.size(); ++k)
    TILESIM_HIP_CHECK(hipMemcpy(buffers[k].data(), memory[k]->pointer, buffers[k].size(), hipMemcpyDeviceToHost));
  r.buffers = std::move(buffers);
  if (l.timed) {
    r.block_cycles.resize(static_cast<std::size_t>(l.grid));
    TILESIM_HIP_CHECK(hipMemcpy(r.block_cycles.data(), cycles->pointer, sizeof(long long) * r.block_cycles.size(),
                                hipMemcpyDeviceToHost));
  }
  return r;
}

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
  return launch(copy_u16_kernel, p, l, std::move(b));
}

device_result run_copy_f32_on_device(const programs::copy_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return launch(copy_f32_kernel, p, l, std::move(b));
}

device_result run_lds_sweep_on_device(const programs::lds_sweep_params& p, const device_launch& l,
                                      std::vector<byte_buffer> b) {
  return launch(lds_sweep_u32_kernel, p, l, std::move(b));
}

device_result run_gemm_on_device(const programs::gemm_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return launch(gemm_f32_kernel, p, l, std::move(b));
}

device_result run_morton_on_device(const examples::morton_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return launch(morton_f32_kernel, p, l, std::move(b));
}

device_result run_conv_on_device(const examples::conv_params& p, const device_launch& l, std::vector<byte_buffer> b) {
  return launch(conv_f32_kernel, p, l, std::move(b));
}

}  // namespace tilesim::gpu
