// tilesim/gpu/rtc_props/module_runner.cpp: the CUDA runtime side of module_runner.hpp (host C++, cuda_runtime.h).
#include "gpu/rtc_props/module_runner.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <mutex>

#include "gpu/runtime/device_context.hpp"
#include "gpu/runtime/device_error.hpp"

namespace tilesim::gpu::props {
namespace {

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw device_error(std::string(call) + " failed: " + cudaGetErrorString(status));
}
#define TILESIM_CUDA_CHECK(call) check((call), #call)

struct device_memory {
  void* pointer = nullptr;
  explicit device_memory(std::size_t bytes) { TILESIM_CUDA_CHECK(cudaMalloc(&pointer, bytes ? bytes : 1)); }
  ~device_memory() { (void)cudaFree(pointer); }
  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;
};

// The kernel `name` of `cubin`: one library loaded at a time, kept while the same kernel runs again (a case's timed
// launches), unloaded when another comes. Libraries left loaded made Nsight Compute slower per kernel the more a
// process held (H200, 2026-11-27: 48 kernels in one ncu run 82 s, in four runs of 12 19 s; now 8 s in one).
cudaKernel_t kernel_of(const std::string& cubin, const std::string& name) {
  static std::mutex m;
  static std::string loaded_name;
  static cudaLibrary_t library{};
  static cudaKernel_t kernel{};
  std::lock_guard<std::mutex> lock(m);
  if (library != nullptr && loaded_name == name) return kernel;
  if (library != nullptr) TILESIM_CUDA_CHECK(cudaLibraryUnload(library));
  library = nullptr;
  loaded_name.clear();
  TILESIM_CUDA_CHECK(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  TILESIM_CUDA_CHECK(cudaLibraryGetKernel(&kernel, library, name.c_str()));
  loaded_name = name;
  return kernel;
}

}  // namespace

device_result run_module(const std::string& cubin, const std::string& name, const device_launch& l,
                         std::vector<byte_buffer> buffers) {
  if (buffers.size() > static_cast<std::size_t>(max_slots)) throw device_error("too many buffers");
  const cudaKernel_t kernel = kernel_of(cubin, name);
  kernel_args args;
  std::vector<std::unique_ptr<device_memory>> memory;
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    memory.push_back(std::make_unique<device_memory>(buffers[k].size()));
    TILESIM_CUDA_CHECK(cudaMemcpy(memory.back()->pointer, buffers[k].data(), buffers[k].size(), cudaMemcpyHostToDevice));
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
  void* params[] = {&args};
  const void* entry = reinterpret_cast<const void*>(kernel);
  TILESIM_CUDA_CHECK(cudaLaunchKernel(entry, dim3(static_cast<unsigned>(l.grid)), dim3(static_cast<unsigned>(l.block)),
                                      params, l.lds_bytes, nullptr));
  TILESIM_CUDA_CHECK(cudaGetLastError());
  TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
  device_result r;
  cudaFuncAttributes price{};
  if (cudaFuncGetAttributes(&price, entry) == cudaSuccess) {
    r.registers = price.numRegs;
    r.local_bytes = static_cast<long long>(price.localSizeBytes);
  }
  (void)cudaGetLastError();
  for (std::size_t k = 0; k < buffers.size(); ++k)
    TILESIM_CUDA_CHECK(cudaMemcpy(buffers[k].data(), memory[k]->pointer, buffers[k].size(), cudaMemcpyDeviceToHost));
  r.buffers = std::move(buffers);
  if (l.timed) {
    r.block_cycles.resize(static_cast<std::size_t>(l.grid));
    TILESIM_CUDA_CHECK(cudaMemcpy(r.block_cycles.data(), cycles->pointer, sizeof(long long) * r.block_cycles.size(),
                                  cudaMemcpyDeviceToHost));
  }
  return r;
}

}  // namespace tilesim::gpu::props
