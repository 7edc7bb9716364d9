// tilesim/gpu/reference/reference_launch.hpp: the entry points reference_kernels.cu defines (no vendor header).
//
// DEFINITION. launch_reference(choice, what, launch, buffers) runs the hand-written kernel of a resolved
// choice (reference_instances.hpp) after checking what the kernel takes for granted: the choice has an
// entry, the block and grid are the kernel's, the dynamic LDS is at least what it uses, each slot names a
// buffer large enough for what it touches; any miss throws device_error naming `what` (the point). The host
// path is gpu/runtime/kernel_launch.hpp's detail::launch, as for the tilesim kernels. reference_run.hpp is the face
// most callers want (it resolves a crosscheck_point first); this header exists because nvcc's front end
// cannot parse the cross-check's headers, so the .cu sees only plain structs.
//
// WORKED EXAMPLE.
//   reference_choice c; c.ok = true; c.program = reference_program::copy; c.copy = copy_instances[0];
//   launch_reference(c, "copy fp16 64x32 v8 row_major", {.grid = 64, .block = 256, .lds_bytes = 4096}, buffers);
//
// INVARIANTS: buffers come back in slot order with their sizes unchanged; a timed launch returns one
// clock64() span per block, barrier to barrier around the body (device_context.hpp's run_program).
#pragma once

#include <string>
#include <vector>

#include "gpu/kernels/device_run.hpp"
#include "gpu/reference/reference_instances.hpp"

namespace tilesim::gpu {

// Runs the kernel of `c` (see above); `what` names the point in errors.
device_result launch_reference(const reference::reference_choice& c, const std::string& what, const device_launch& l,
                               std::vector<byte_buffer> buffers);

}  // namespace tilesim::gpu
