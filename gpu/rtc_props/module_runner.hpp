// tilesim/gpu/rtc_props/module_runner.hpp: launch a kernel compiled at run time (a CUBIN) on the GPU.
//
// DEFINITION. run_module(cubin, name, launch, buffers) loads the CUBIN with the CUDA runtime's library API
// (cudaLibraryLoadData, cudaLibraryGetKernel: no driver library to link, cudart_static finds the driver as it
// does for gpu/kernels/kernels.cu), copies each buffer (global slot k) to the device, passes pointers and sizes in
// gpu::kernel_args exactly as gpu/runtime/kernel_launch.hpp does for the built-in kernels, launches grid x block with
// the launch's dynamic shared memory, waits, and copies every buffer back; a timed launch also passes the
// clock64 buffer that gpu::run_program fills (one span per block). Loaded modules stay loaded for the
// process (keyed by kernel name), so the timed re-launches and the Nsight Compute pass load each once.
//
// WORKED EXAMPLE.
//   device_result r = run_module(k.cubin, kernel_name(c), {.grid = 3, .block = 64, .lds_bytes = 1024}, in.buffers);
//   r.buffers[1] == in.buffers[0]            // the copy arrived
//
// INVARIANTS: every runtime call is checked (device_error names it); device memory is freed on every path;
// buffers come back in slot order with their sizes unchanged. Needs a GPU; nothing else in gpu/rtc_props/ does.
#pragma once

#include <string>
#include <vector>

#include "gpu/kernels/device_run.hpp"

namespace tilesim::gpu::props {

// Launches the kernel `name` of `cubin` (see above); throws device_error.
device_result run_module(const std::string& cubin, const std::string& name, const device_launch& l,
                         std::vector<byte_buffer> buffers);

}  // namespace tilesim::gpu::props
