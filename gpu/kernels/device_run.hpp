// tilesim/gpu/kernels/device_run.hpp: run a built-in tile program on the GPU from plain C++ (no vendor header here).
//
// DEFINITION. The host side of gpu/: each run_*_on_device call copies the global buffers (slot k =
// buffers[k], bytes as the simulator's global_memory holds them) to the device, launches the program's
// kernel with `grid` x `block` threads and `lds_bytes` of dynamic shared memory, and copies every buffer
// back. A timed launch also returns each block's clock64() cycles (gpu/runtime/device_context.hpp: run_program).
// The kernels come from the same templates the simulator runs (kernel/*/*.hpp); only kernels.cu sees
// the vendor runtime, so the cross-check and its tests compile with a plain C++ compiler.
//
// WORKED EXAMPLE.
//   device_result r = run_copy_on_device(copy_params{}, {.grid = 4, .block = 256, .lds_bytes = 4096},
//                                        {input_bytes, poisoned_output_bytes});
//   r.buffers[1] == input_bytes                      // the copy arrived
//
// INVARIANTS: a copy, sweep, GEMM or transpose runs only on a compiled shape (gpu/kernels/compiled_shapes.hpp; another
// is a device_error naming it, before any launch); the kernels trust their buffers and LDS bytes to be what
// the simulator checked for the same point (gpu/crosscheck simulates first; TILESIM_DEVICE_STRICT builds
// re-check on the device). A runtime failure (a launch that traps, too much shared memory, no device) throws
// device_error naming the call; buffers come back in slot order with their sizes unchanged.
// The runners are weak references: only tilesim-gpu links kernels.cu, and a CPU-only binary that names them (the
// programs' adapters, examples/adapters/) links without them, where their address is null
// (gpu/crosscheck/adapter_kit.hpp's linked() turns that into a device_error).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel/conv/conv.hpp"
#include "kernel/morton/morton.hpp"
#include "gpu/runtime/device_error.hpp"
#include "gpu/runtime/device_types.hpp"
#include "kernel/copy/copy.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"
#include "kernel/mma_gemm/mma_gemm.hpp"
#include "kernel/lds_sweep/lds_sweep.hpp"
#include "kernel/transpose/transpose.hpp"

namespace tilesim::gpu {

// A runner defined by kernels.cu, weak where kernels.cu is not linked (see the essay).
#define TILESIM_DEVICE_RUNNER [[gnu::weak]] device_result

// The first GPU; throws device_error("no GPU: ...") without one.
device_description describe_device();

// copy_tile<std::uint16_t> (fp16 bits) with params' slots pointing into `buffers`.
TILESIM_DEVICE_RUNNER run_copy_on_device(const programs::copy_params& p, const device_launch& l, std::vector<byte_buffer> buffers);
// copy_tile<float>.
TILESIM_DEVICE_RUNNER run_copy_f32_on_device(const programs::copy_params& p, const device_launch& l,
                                     std::vector<byte_buffer> buffers);
// lds_sweep<std::uint32_t, 4>.
TILESIM_DEVICE_RUNNER run_lds_sweep_on_device(const programs::lds_sweep_params& p, const device_launch& l,
                                      std::vector<byte_buffer> buffers);
// gemm_tile (fp32).
TILESIM_DEVICE_RUNNER run_gemm_on_device(const programs::gemm_params& p, const device_launch& l, std::vector<byte_buffer> buffers);
// mma_gemm (fp16 in, fp32 out; sm90).
TILESIM_DEVICE_RUNNER run_mma_gemm_on_device(const programs::mma_gemm_params& p, const device_launch& l,
                                     std::vector<byte_buffer> buffers);
// examples::morton_read<float> (examples/morton).
TILESIM_DEVICE_RUNNER run_morton_on_device(const examples::morton_params& p, const device_launch& l,
                                   std::vector<byte_buffer> buffers);
// programs::transpose (the scalar fp32 transpose through load_element / store_element).
TILESIM_DEVICE_RUNNER run_transpose_on_device(const programs::transpose_params& p, const device_launch& l,
                                      std::vector<byte_buffer> buffers);
// examples::conv (examples/conv; fp32, every mode).
TILESIM_DEVICE_RUNNER run_conv_on_device(const examples::conv_params& p, const device_launch& l, std::vector<byte_buffer> buffers);

}  // namespace tilesim::gpu
