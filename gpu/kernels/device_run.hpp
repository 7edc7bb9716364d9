// tilesim/gpu/kernels/device_run.hpp: run a built-in tile program on the GPU from plain C++ (no vendor header here).
//
// DEFINITION. The host side of gpu/: run_compiled_kernel copies the global buffers (slot k = buffers[k], bytes as
// the simulator's global_memory holds them) to the device, launches one catalogue kernel (a program's entry in
// gpu/kernels/programs/: its name and its compiled shape's index) with `grid` x `block` threads and `lds_bytes`
// of dynamic shared memory, and copies every buffer back. A timed launch also returns each block's clock64()
// cycles (gpu/runtime/device_context.hpp: run_program). The kernels come from the same templates the simulator
// runs (kernel/*/*.hpp); only kernels.cu sees the vendor runtime, so the cross-check and its tests compile with a
// plain C++ compiler. The cross-check reaches it through each program's adapter (examples/adapters/).
//
// WORKED EXAMPLE.
//   const int at = compiled::find_shape(compiled::copy_fp16_shapes, shape);      // 0 for the 64x32 row-major copy
//   device_result r = run_compiled_kernel("copy_fp16_kernel", at, {.grid = 64, .block = 256, .lds_bytes = 4096},
//                                         {input_bytes, poisoned_output_bytes});
//   r.buffers[1] == input_bytes                      // the copy arrived
//
// INVARIANTS: a kernel runs only on a compiled shape (its caller found the index; a point with none is a
// device_error naming it, before any launch); the kernels trust their buffers and LDS bytes to be what
// the simulator checked for the same point (gpu/crosscheck simulates first; TILESIM_DEVICE_STRICT builds
// re-check on the device). A runtime failure (a launch that traps, too much shared memory, no device) throws
// device_error naming the call; buffers come back in slot order with their sizes unchanged.
// The runner is a weak reference: only tilesim-gpu links kernels.cu, and a CPU-only binary that names it (the
// programs' adapters, examples/adapters/) links without it, where its address is null
// (gpu/crosscheck/adapter_kit.hpp's linked() turns that into a device_error).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/runtime/device_error.hpp"
#include "gpu/runtime/device_types.hpp"
#include "spec/config.hpp"

namespace tilesim::gpu {

// A runner defined by kernels.cu, weak where kernels.cu is not linked (see the essay).
#define TILESIM_DEVICE_RUNNER [[gnu::weak]] device_result

// The first GPU; throws device_error("no GPU: ...") without one.
device_description describe_device();

// Runs the catalogue kernel `kernel` (an entry's name of gpu/kernels/programs/: "copy_fp16_kernel") at entry
// shape_index of its shape table, on `buffers`; `argument` is the kernel's run-time argument where it has one (the LDS
// sweep's iterations). The caller found shape_index with compiled::find_shape; an unknown kernel is a device_error.
TILESIM_DEVICE_RUNNER run_compiled_kernel(const std::string& kernel, int shape_index, const device_launch& l,
                                          std::vector<byte_buffer> buffers, index_t argument = 0);

}  // namespace tilesim::gpu
