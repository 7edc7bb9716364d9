// tilesim/gpu/rtc_props/compile_batch.hpp: compile many generated cases at once, on every core.
//
// DEFINITION. compile_batch(cases, options, jobs, on_done, pool) compiles kernel_source(c, kernel_name(c)) of
// each case with compile_kernel (rtc_compiler.hpp). Cache hits are read in this process first; the misses are
// compiled `jobs` at a time:
//   NVRTC   in a pool of `jobs` worker processes (pool = processes, the default): this executable started again
//           (posix_spawn of /proc/self/exe with `entry` + "--compile-worker ..."), each running NVRTC on one
//           case at a time, handed out one index at a time over a pipe (the slow cases do not queue behind one
//           worker), writing the module to the cache and its cubin and log to a scratch folder.
//   threads pool = threads: `jobs` threads of this process calling NVRTC (kept to measure against).
//   nvcc, hipcc  `jobs` threads, each running the compiler as a subprocess (already one process per compile).
// WHY PROCESSES. NVRTC 13.0 is thread-safe but runs most of a compile under a lock of its own. Measured on the
// 2-core development machine (shared, load 2-3), `tilesim-props-compile --cases 8 --seed 18 --from 200 --jobs J
// --pool P`, no cache: threads J=1 12.8 s wall (12.8 s CPU, median 1.53 s per case); threads J=2 9.1 s wall for
// 13.3 s CPU (1.45 cores; median 1.99 s: each compile waits); processes J=2 6.8 s wall for 12.6 s CPU (median
// 1.73 s); over cases 0-15 two threads took 16.9 s wall for 17.0 s CPU (one core), two processes 10.4 s. That
// lock is why the H100 run compiled at ~1.3 s of wall per case on 16 threads (data/recordings/props-h100.log
// says "on 16 threads": the count was right). Processes share no lock. posix_spawn (not fork) because
// tilesim-gpu has a CUDA context by then, and a fork would copy its mappings and its threads' locks; an exec'd
// worker starts clean. docs/gpu.md, "Property tests on the GPU", has the table.
// default_compile_jobs() is the cores this process may run on: sched_getaffinity, capped by a cgroup v2 CPU
// quota (/sys/fs/cgroup/cpu.max), at least 1.
// The executable's main hands "--compile-worker ..." (after `entry`) to compile_worker_main.
// tilesim-props-compile (compile_main.cpp) is the CPU-only command over compile_batch: the CI's compile check
// and the measurements.
//
// WORKED EXAMPLE. compile_batch(cases, {.root = "."}, 16, nullptr, {"props-pass"})[i].stack_bytes == 0 for
// every i, compiled by 16 `tilesim-gpu props-pass --compile-worker` processes.
//
// INVARIANTS: result i belongs to case i; a failed compile (or a worker that died) is ok == false with its log
// (no exception); a case compiled by a worker reports the worker's own compile seconds and process id
// (compiled_by_pid).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gpu/rtc_props/props_case.hpp"
#include "gpu/rtc_props/rtc_compiler.hpp"

namespace tilesim::gpu::props {

enum class compile_pool { processes, threads };

std::vector<compiled_kernel> compile_batch(const std::vector<props_case>& cases, const rtc_options& o, int jobs,
                                           const std::function<void(std::size_t, std::size_t)>& on_done,
                                           const std::vector<std::string>& entry, compile_pool pool = compile_pool::processes);

// The worker: args are what follows "--compile-worker" (a scratch folder, the cases file, the rtc options); reads
// case indices from stdin, one a line, and answers each with one line on stdout. Returns the exit status.
int compile_worker_main(const std::vector<std::string>& args);

// The cores this process may use: sched_getaffinity's count, capped by the cgroup's CPU quota; at least 1.
int default_compile_jobs();

}  // namespace tilesim::gpu::props
