// tilesim/gpu/props/compile_batch.hpp: compile many generated cases at once, on every core.
//
// DEFINITION. compile_batch(cases, options, jobs, on_done) compiles kernel_source(c, kernel_name(c)) of each
// case with compile_kernel (rtc_compiler.hpp) on `jobs` threads: NVRTC in process (it is thread-safe), or
// `jobs` nvcc processes at a time. on_done(done, total) is called after each, in increasing `done`, under a lock.
// tilesim-props-compile (compile_main.cpp) is the CPU-only command over it: the CI's compile check and the
// NVRTC-against-nvcc measurement.
//
// WORKED EXAMPLE. compile_batch(cases, {.root = "."}, 16, nullptr)[i].stack_bytes == 0 for every i.
//
// INVARIANTS: result i belongs to case i; a failed compile is ok == false with its log (no exception).
#pragma once

#include <functional>
#include <vector>

#include "gpu/props/props_case.hpp"
#include "gpu/props/rtc_compiler.hpp"

namespace tilesim::gpu::props {

std::vector<compiled_kernel> compile_batch(const std::vector<props_case>& cases, const rtc_options& o, int jobs,
                                           const std::function<void(std::size_t, std::size_t)>& on_done);

}  // namespace tilesim::gpu::props
