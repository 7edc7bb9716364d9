// tilesim/gpu/runtime/device_error.hpp: what the GPU side throws when the runtime or the device says no.
//
// device_error("hipMalloc(&p, n) failed at gpu/kernels/kernels.cu:57: out of memory"); a message that starts with
// "no GPU" means there is no usable device at all (tilesim-gpu exits 77, the test harness's "skipped").
#pragma once

#include <stdexcept>

namespace tilesim::gpu {

class device_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace tilesim::gpu
