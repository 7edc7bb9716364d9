// tilesim/gpu/reference/user_twins.hpp: the hand-written twins of the programs from outside the catalogue.
//
// DEFINITION. Each examples/ program written from the README alone (issue 32: examples/stencil, examples/row_sums,
// examples/fp16_transpose; then examples/async_pipeline) has a twin here: the same algorithm written as a plain CUDA kernel by a careful
// hand-writer (same tiling, access widths, LDS layout, order of accesses and barriers; constant buffer slots,
// ids with their launch bounds, loops over constants unrolled: reference_kernels.cuh's rules), timed as the
// tilesim kernels are (clock64() per block between two barriers). The cross-check launches it on the same
// buffers and launch (crosscheck_options::twin): its outputs must equal the program's, and the tilesim kernel's
// cycles over the twin's are the program's price tag. This face is plain C++ (user_twins.cu is the nvcc side).
//
// WORKED EXAMPLE.
//   o.twin = [](const device_launch& l, std::vector<byte_buffer> b) { return launch_stencil_twin(34, l, std::move(b)); };
//   crosscheck(stencil_packed{0, 1}, {.grid = 16, .block = 256}, buffers, o)   // "... hand-written 612 (1.021x)"
//
// INVARIANTS: each twin is compiled for its program's one launch shape (the GPU launches in the examples' headers:
// 4 x 4 tiles, 128 rows); a launch of another shape or an unknown variant throws device_error naming it.
#pragma once

#include <vector>

#include "gpu/runtime/device_types.hpp"

namespace tilesim::gpu {

// examples/stencil: a 4 x 4 grid of 32 x 32 tiles, halo pitch 34 or 36 (grid 16, block 256).
device_result launch_stencil_twin(int pitch, const device_launch& l, std::vector<byte_buffer> buffers);
// examples/row_sums: 128 rows of 256 floats (grid 16, block 256).
device_result launch_row_sums_twin(const device_launch& l, std::vector<byte_buffer> buffers);
// examples/async_pipeline: 8 tiles of 16 x 256 floats a workgroup through cp.async (grid 16, block 256).
device_result launch_async_pipeline_twin(const device_launch& l, std::vector<byte_buffer> buffers);
// examples/fp16_transpose: 256 x 256 fp16 in 64 x 64 tiles; layout 0 row-major, 1 padded 72, 2 Swizzle<3,3,6>.
device_result launch_transpose_twin(int layout, const device_launch& l, std::vector<byte_buffer> buffers);

}  // namespace tilesim::gpu
