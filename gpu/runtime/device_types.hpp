// tilesim/gpu/runtime/device_types.hpp: what a kernel launch takes and gives back, in plain C++ (no vendor header).
//
// DEFINITION. byte_buffer is one global slot's bytes; device_launch the grid, block, dynamic shared memory and
// whether to time it; device_result every slot after the kernel, clock64() cycles per block when timed, and the
// kernel's price (registers and local bytes per thread, from the runtime's attributes); device_description the
// GPU. gpu/kernels/device_run.hpp (the built-in kernels) and gpu/user/gpu_kernel.hpp (a user's kernel) share them.
//
// WORKED EXAMPLE. device_launch{.grid = 4, .block = 256, .lds_bytes = 17408, .timed = true} launched gives
// device_result{buffers (same sizes), block_cycles (4 values), registers 30, local_bytes 0}.
//
// INVARIANTS: buffers come back in slot order with their sizes unchanged; block_cycles is empty when untimed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tilesim::gpu {

using byte_buffer = std::vector<unsigned char>;

struct device_launch {
  int grid = 1;
  int block = 256;
  std::size_t lds_bytes = 0;  // dynamic shared memory: the simulator's workgroup_record::lds_bytes
  bool timed = false;         // also measure clock64() cycles per block
};

struct device_result {
  std::vector<byte_buffer> buffers;       // every global slot after the kernel
  std::vector<long long> block_cycles;    // timed launches: one per block
  int registers = 0;                      // the kernel's registers per thread (the runtime's attributes)
  long long local_bytes = 0;              // its local memory per thread: stack frame and spills (0 = none)
};

struct device_description {
  std::string name;          // "NVIDIA H200"
  std::string driver;        // "580.159.04" (nvidia-smi) or the runtime's driver version number
  int runtime_version = 0;   // 13000 = CUDA 13.0
  int multiprocessors = 0;
  int clock_khz = 0;         // the SM clock the runtime reports (not the current one)
  int warp_size = 0;
};

}  // namespace tilesim::gpu
