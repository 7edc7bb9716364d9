// NVRTC stand-in for gpu/runtime/hip_runtime.hpp (this folder precedes the repository root on NVRTC's include path):
// the real one is the host runtime layer (cudaMalloc forwards, a throwing check), which a kernel compiled at
// run time does not use and NVRTC cannot compile (every function is a device function under -default-device,
// and device code cannot throw). The device built-ins it would bring under nvcc are NVRTC's own.
#pragma once
#include "tilesim_rtc_std.hpp"
