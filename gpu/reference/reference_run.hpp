// tilesim/gpu/reference/reference_run.hpp: run a cross-check point on its hand-written reference kernel.
//
// DEFINITION. The plain C++ face of the reference kernels (no vendor header here). run_reference_on_device(p,
// l, buffers) resolves point p to its hand-written kernel (reference_match.hpp: program name and parameters;
// reference_instances.hpp lists what is compiled) and launches it (reference_launch.hpp's launch_reference, in
// reference_kernels.cu) with the launch and buffers the tilesim kernel would get: slot k = buffers[k], `grid`
// x `block` threads, `lds_bytes` of dynamic shared memory, clock64() cycles per block when timed
// (gpu/runtime/device_context.hpp's run_program: barrier, clock64, body, barrier, clock64, thread 0 writes the span).
// The result is directly comparable with run_*_on_device's: tilesim cycles / reference cycles per point.
// has_reference(p) says whether such a kernel exists; it is inline and needs no GPU and no kernel object.
// The scalar transpose's points are served like every other. Link reference_objects (gpu/meson.build,
// gpu/reference).
//
// WORKED EXAMPLE.
//   const crosscheck_point p = catalogue()[2];                       // copy fp16 64x32 v8 ck_xor
//   const point_inputs in = make_inputs(p, 7);
//   const simulated s = simulate(p, in);
//   device_result r = run_reference_on_device(p, {.grid = p.grid, .block = p.block, .lds_bytes = s.lds_bytes,
//                                                 .timed = true}, in.buffers);
//   check_output(p, in, r.buffers, &s).mismatches == 0;  r.block_cycles.size() == 64
//
// INVARIANTS: a point without a kernel, a block or grid other than the kernel's, too little dynamic LDS, a
// slot beyond the buffers or a buffer too small for the kernel throws device_error naming the point (a
// hand-written kernel checks nothing on the device); runtime failures throw device_error as kernel_launch does.
#pragma once

#include <vector>

#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/runtime/device_error.hpp"
#include "gpu/kernels/device_run.hpp"
#include "gpu/reference/reference_launch.hpp"
#include "gpu/reference/reference_match.hpp"

namespace tilesim::gpu {

// Whether a hand-written kernel was compiled for p (its program name and resolved parameters). Host-only,
// inline: it needs no GPU and no kernel object (reference_index.test.cpp calls it for the whole catalogue).
inline bool has_reference(const crosscheck_point& p) {
  return reference::find_instance(reference::reference_choice_of(p)) >= 0;
}

// Runs p's hand-written kernel; throws device_error naming the point when there is none, or when the launch
// or the buffers are not what the kernel is written for (see above). Link reference_objects (gpu/reference).
inline device_result run_reference_on_device(const crosscheck_point& p, const device_launch& l,
                                             std::vector<byte_buffer> buffers) {
  const reference::reference_choice c = reference::reference_choice_of(p);
  if (!c.ok) throw device_error("reference kernel for \"" + p.name + "\": no hand-written kernel: " + c.why);
  return launch_reference(c, p.name, l, std::move(buffers));
}

}  // namespace tilesim::gpu
