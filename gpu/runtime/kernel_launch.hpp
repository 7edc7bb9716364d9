// tilesim/gpu/runtime/kernel_launch.hpp: one launch of a tilesim kernel from the host (kernels.cu, kernels_o1.cu).
//
// launch(kernel, params, {grid, block, lds_bytes, timed}, buffers) copies each buffer (global slot k) to the
// device, passes the pointers and sizes in kernel_args, sets the dynamic shared memory, launches, waits, and
// copies every buffer back; a timed launch also passes a cycles buffer (device_context.hpp: run_program)
// and returns one clock64() span per block. Every runtime call is checked (TILESIM_HIP_CHECK names it);
// device memory is freed on every path. Included only by .cu files: it needs the vendor runtime.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/runtime/device_context.hpp"
#include "gpu/runtime/device_error.hpp"
#include "gpu/runtime/device_types.hpp"
#include "gpu/runtime/hip_runtime.hpp"

namespace tilesim::gpu {

namespace detail {

// Device memory freed on every path (a failed check throws past it).
struct device_memory {
  void* pointer = nullptr;
  explicit device_memory(std::size_t bytes) { TILESIM_HIP_CHECK(hipMalloc(&pointer, bytes ? bytes : 1)); }
  ~device_memory() { (void)hipFree(pointer); }
  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;
};

// kernel<<<grid, block, lds>>>(params..., args): a compiled kernel (gpu/kernels/programs/) takes no params
// but its run-time values (the LDS sweep's iteration count); a hand-written one (gpu/reference) its slots.
template <class Kernel, class... Params>
device_result launch_kernel(Kernel kernel, const device_launch& l, std::vector<byte_buffer> buffers,
                            const Params&... params) {
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
  TILESIM_HIP_CHECK(hipFuncSetAttribute(kernel, hipFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(l.lds_bytes)));
  kernel<<<l.grid, l.block, l.lds_bytes>>>(params..., args);
  TILESIM_HIP_CHECK(hipGetLastError());
  TILESIM_HIP_CHECK(hipDeviceSynchronize());
  device_result r;
  hipFuncAttributes price{};
  TILESIM_HIP_CHECK(hipFuncGetAttributes(&price, kernel));
  r.registers = price.numRegs;
  r.local_bytes = static_cast<long long>(price.localSizeBytes);
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

// A run-time kernel: kernel(params, args).
template <class Params, class Kernel>
device_result launch(Kernel kernel, const Params& params, const device_launch& l, std::vector<byte_buffer> buffers) {
  return launch_kernel(kernel, l, std::move(buffers), params);
}

}  // namespace detail
}  // namespace tilesim::gpu
