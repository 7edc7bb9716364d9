// tilesim/gpu/rtc_props/rtc_compiler.hpp: kernel source -> sm_90 cubin at run time, cached by source hash.
//
// DEFINITION. compile_kernel(source, name, options) turns one generated translation unit
// (kernel_source.hpp) into a CUBIN for sm_90 with one of two back ends:
//   nvrtc  CUDA 13's NVRTC in this process (libnvrtc.so.13, loaded on first use): -std=c++20 -arch=sm_90 -default-device, include
//          paths gpu/rtc_props/rtc_include (the std headers, tilesim_rtc_std.hpp), the repository root and
//          libcu++ (<cuda>/include/cccl), ptxas at -O3 with -v. Thread-safe, but NVRTC 13.0 runs one
//          compile at a time per process, so a batch compiles in worker processes (compile_batch.hpp).
//   nvcc   nvcc -std=c++20 -O3 -arch=sm_90 -cubin -Xptxas -v as a subprocess (the way gpu/kernels/kernels.cu is built).
//   hipcc  AMD, compile only: Debian's hipcc (HIP 5.2, clang 15) for one gfx arch (o.arch: gfx90a, gfx940),
//          device-only assembly (-S), as gpu/kernels/amd builds its kernels; the "module" is the assembly text and
//          stack_bytes is its "; ScratchSize:" (hipRTC 5.2 has no C++ standard library headers, and libcu++,
//          which maps them for NVRTC, is CUDA-only; so the AMD path runs hipcc).
// Both report ptxas's "bytes stack frame", spills and registers for the kernel, parsed from the log, or, where
// the log has no lines for it (NVRTC's log sometimes comes back empty), the frame and registers the cubin itself
// records (cubin_info.hpp; spills then 0 when the frame is 0, else unknown). A module is
// cached as <cache>/<hash>.cubin and <hash>.log, hash = FNV-1a of (back end, options, source): a re-run or a
// shrinking step that meets the same source loads it instead of compiling.
//
// WORKED EXAMPLE.
//   rtc_options o{.root = ".", .cache = "/tmp/tilesim-props-cache"};
//   compiled_kernel k = compile_kernel(kernel_source(c, kernel_name(c)), kernel_name(c), o);
//   k.ok && k.stack_bytes == 0 && !k.cubin.empty()
//
// INVARIANTS: a failed compile is ok == false with the compiler's log (never an exception for a bad source);
// the cubin of a cache hit is byte-identical to the one compiled; nothing here needs a GPU.
#pragma once

#include <string>
#include <vector>

namespace tilesim::gpu::props {

std::string find_cccl();

enum class rtc_backend { nvrtc, nvcc, hipcc };

struct rtc_options {
  std::string root = ".";                  // the repository root (holds gpu/rtc_props/props_program.hpp)
  std::string cache;                       // "" = no cache
  rtc_backend backend = rtc_backend::nvrtc;
  std::string cuda = "/usr/local/cuda";    // nvcc at <cuda>/bin/nvcc
  std::string cccl = find_cccl();          // libcu++ (NVRTC's std headers): <cuda>/include/cccl, else the bundle's
  std::string arch = "sm_90";          // hipcc: gfx90a or gfx940
  std::string hipcc = "hipcc";
};

struct compiled_kernel {
  bool ok = false;
  bool cached = false;
  std::string cubin;   // the module's bytes (hipcc: the device assembly text)
  std::string log;     // the compiler's log (ptxas -v lines included)
  double seconds = 0;  // wall time of this compile (0 for a cache hit)
  long long stack_bytes = -1, spill_store_bytes = -1, spill_load_bytes = -1;
  int registers = -1;
  long long compiled_by_pid = 0;  // the process that ran the compile (this one or a worker); 0 for a cache hit
};

// Compiles `source`, whose kernel is extern "C" `name`, with o's back end (see above).
compiled_kernel compile_kernel(const std::string& source, const std::string& name, const rtc_options& o);

// A cache hit for `source` (as compile_kernel would load it) into k; false (k untouched) without one.
bool cached_kernel(const std::string& source, const std::string& name, const rtc_options& o, compiled_kernel& k);

// Fills stack/spill/register fields of k from AMD assembly ("; ScratchSize:", "; NumVgprs:" after `name`).
bool parse_amd_info(const std::string& assembly, const std::string& name, compiled_kernel& k);

// A cache hit for `source` (as compile_kernel would load it) into k; false (k untouched) without one.
bool cached_kernel(const std::string& source, const std::string& name, const rtc_options& o, compiled_kernel& k);

// Fills stack/spill/register fields of k from a ptxas -v log for kernel `name`; false when absent.
bool parse_ptxas_info(const std::string& log, const std::string& name, compiled_kernel& k);

// "nvrtc 13.0" / "nvcc 13.0": the back end and its version (nvcc: from --version).
std::string backend_version(const rtc_options& o);

// The root to use: `given` when it holds gpu/rtc_props/props_program.hpp, else the source tree this was built from.
std::string find_root(const std::string& given);

// libcu++'s include folder: /usr/local/cuda/include/cccl when it holds cuda/std/utility, else the folder "cccl"
// beside this executable (scripts/rtc_props/bundle.sh copies it there for a GPU machine whose image lacks it).
std::string find_cccl();

}  // namespace tilesim::gpu::props
