// tilesim/gpu/calibrate/calibrate.cu: runs warp-wide memory access patterns as CUDA kernels, for calibration.
//
// WHAT IT IS. The harness behind data/calibration/*.truth.tsv. It reads pattern files in the `tilesim bank`
// format (sim/patterns/pattern_file.hpp: `NAME WIDTH OP OFF_0 ... OFF_31`, one warp-wide access a line)
// and issues each access with inline PTX (ld/st.volatile.shared.{u8,u16,u32,v2.u32,v4.u32}: SASS LDS.U8 ...
// LDS.128, STS...), so the only memory traffic of a kernel is the access being measured. Offsets reach the
// kernel as a parameter (a 128-byte struct), never through memory. Not part of the Meson build: it runs on
// the device machine, driven by run_calibration.sh (which also runs it under Nsight Compute).
//
//   nvcc -O2 -std=c++17 -arch=sm_90 -o calibrate gpu/calibrate/calibrate.cu
//   calibrate count FILE... NAMES_OUT   one warp repeats each access 64 times, one kernel launch per pattern,
//                                       in file order; run it under `ncu --metrics ...` and divide every
//                                       counter by the instructions (merge.py). NAMES_OUT gets one line per
//                                       launch: NAME WIDTH OP FILE (tab-separated).
//   calibrate gcount FILE... NAMES_OUT  the same with global memory (offsets from a 256-byte aligned buffer)
//   calibrate time FILE...              32 warps of one 1024-thread block repeat each access 256 times; prints
//                                       a TSV: name width op cycles_per_warp_access cycles_unrolled (and the
//                                       raw clocks behind them)
//   calibrate latency                   a one-thread pointer chase through shared memory, cycles per load
//   calibrate check FILE...             validates the files only (no GPU needed); prints the pattern count
//
// WORKED EXAMPLE. `ld_w4_stride32 4 load 0 128 256 ... 3968` (lane i reads 4 bytes at 128 i: 32 distinct
// words in bank 0). Under ncu, count mode gives 2048 wavefronts over 64 instructions: 32 per instruction.
// (A typo such as offset 130 stops it before any kernel: `FILE:1: lane 1: offset 130 is not a multiple of
// the width 4`, status 2.)
// Time mode prints two columns, measured over the same 32 warps x 256 repetitions:
//   cycles_per_warp_access  a plain `#pragma unroll 1` loop, each loaded value added to an accumulator (the
//                           method of h200-smem-known.truth.tsv): ~32.0 here; a one-wavefront access shows
//                           the loop's own round trip instead (~1.69 loads, ~1.55 stores on an H200; the
//                           truth file's loop gave 1.73 / 1.53);
//   cycles_unrolled         the same access 8 times per loop iteration, so the loop never limits it: ~32.0,
//                           and ~1.02 for one wavefront (what the LDS pipe itself takes).
// Each is the best of 5 launches of (clocks from the first warp's start to the last warp's end) / (32 x 256),
// minus the same for a baseline kernel whose loop has no access (fixed and loop overhead; see cal_time).
//
// INVARIANTS. Bad input never reaches the GPU: every file is read and checked before the first CUDA call,
// and any problem (unreadable file, malformed line, width not 1/2/4/8/16, op not load/store, offset not
// below 64 KiB unless 4294967295 = inactive lane, offset not a multiple of the width, no active lane, a name
// used twice in a file) prints `FILE:LINE: problem` and exits with status 2. Every CUDA call is checked and
// a failure prints the call and CUDA's message and exits with status 1; every launch is followed by
// cudaGetLastError() and a synchronize. Kernels are templates over (width, op, space), so each access is
// one fixed instruction; the loops are `#pragma unroll 1` except the unrolled timing kernel's.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuda_check.cuh"  // CHECK(call)

// ---------------------------------------------------------------------------------------------------------
// Patterns and their validation (host only).

struct offsets32 {
  unsigned v[32];
};

struct pattern {
  std::string name, op, file;
  int line = 0;
  int width = 0;
  offsets32 off{};
};

constexpr unsigned inactive = 0xffffffffu;
constexpr unsigned shared_limit = 64 * 1024;          // offsets must lie below this
constexpr int smem_bytes = int(shared_limit) + 64;    // dynamic shared memory of every smem kernel
constexpr int global_bytes = 1 << 20;                 // the gcount buffer (offsets < 64 KiB fit easily)
constexpr int count_reps = 64;                        // per launch in count mode (merge.py checks it)
constexpr int time_reps = 256;                        // per warp in time mode
constexpr int time_warps = 32;
constexpr int time_best_of = 5;

// Prints "FILE:LINE: message" (LINE omitted when 0) and exits with status 2: the input is wrong.
[[noreturn]] void input_error(const std::string& file, int line, const std::string& message) {
  if (line > 0)
    std::fprintf(stderr, "%s:%d: %s\n", file.c_str(), line, message.c_str());
  else
    std::fprintf(stderr, "%s: %s\n", file.c_str(), message.c_str());
  std::exit(2);
}

// The blank-separated fields of one line (comment already removed).
std::vector<std::string> split_fields(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

// Parses an unsigned decimal of at most 32 bits; false if it is not digits only or exceeds 2^32 - 1.
bool parse_u32(const std::string& s, unsigned long long& value, bool& too_big) {
  too_big = false;
  value = 0;
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    if (!too_big) {
      value = value * 10 + unsigned(c - '0');
      if (value > 0xffffffffull) too_big = true;
    }
  }
  return true;
}

// One pattern line (comment and '\r' removed, not blank) -> pattern; exits with status 2 when malformed.
pattern parse_line(const std::string& file, int line_no, const std::string& text) {
  for (unsigned char c : text)
    if (c < 0x20 && c != '\t') {
      char buf[64];
      std::snprintf(buf, sizeof buf, "control byte 0x%02x in the line", unsigned(c));
      input_error(file, line_no, buf);
    }
  const std::vector<std::string> f = split_fields(text);
  pattern p;
  p.file = file;
  p.line = line_no;
  if (f.size() < 3)
    input_error(file, line_no,
                "expected NAME WIDTH OP and 32 offsets, found only " + std::to_string(f.size()) + " fields");
  p.name = f[0];
  unsigned long long w = 0;
  bool big = false;
  if (!parse_u32(f[1], w, big) || big || (w != 1 && w != 2 && w != 4 && w != 8 && w != 16))
    input_error(file, line_no, "width '" + f[1] + "' is not one of 1, 2, 4, 8, 16");
  p.width = int(w);
  if (f[2] != "load" && f[2] != "store")
    input_error(file, line_no, "operation '" + f[2] + "' is neither load nor store");
  p.op = f[2];
  if (f.size() != 35)
    input_error(file, line_no, "expected 32 offsets, found " + std::to_string(f.size() - 3));
  int active = 0;
  for (int lane = 0; lane < 32; ++lane) {
    const std::string& s = f[3 + lane];
    const std::string where = "lane " + std::to_string(lane) + ": offset ";
    unsigned long long v = 0;
    if (!parse_u32(s, v, big)) input_error(file, line_no, where + "'" + s + "' is not an unsigned decimal integer");
    if (big) input_error(file, line_no, where + s + " is out of range (at most 4294967295, an inactive lane)");
    if (v != inactive) {
      if (v >= shared_limit)
        input_error(file, line_no,
                    where + s + " is not below 65536 (64 KiB; 4294967295 marks an inactive lane)");
      if (v % unsigned(p.width) != 0)
        input_error(file, line_no, where + s + " is not a multiple of the width " + std::to_string(p.width));
      ++active;
    }
    p.off.v[lane] = unsigned(v);
  }
  if (active == 0) input_error(file, line_no, "no active lane (all 32 offsets are 4294967295): nothing to measure");
  return p;
}

// Every pattern of one file, in order; exits with status 2 on the first problem.
std::vector<pattern> read_pattern_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) input_error(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::vector<pattern> out;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.size() > 65536) input_error(path, line_no, "longer than 65536 bytes");
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (split_fields(line).empty()) {
      for (unsigned char c : line)
        if (c < 0x20 && c != '\t') input_error(path, line_no, "control byte in a blank line");
      continue;
    }
    out.push_back(parse_line(path, line_no, line));
  }
  if (in.bad()) input_error(path, line_no, "read error");
  if (out.empty()) input_error(path, 0, "no patterns in the file");
  return out;
}

// The patterns of all files in order, names unique within each file; exits with status 2 on any problem.
std::vector<pattern> read_all(const std::vector<std::string>& paths) {
  std::vector<pattern> all;
  for (const std::string& path : paths) {
    std::map<std::string, int> seen;  // name -> line
    for (pattern& p : read_pattern_file(path)) {
      const auto it = seen.find(p.name);
      if (it != seen.end())
        input_error(p.file, p.line, "name '" + p.name + "' was used before, at line " + std::to_string(it->second));
      seen[p.name] = p.line;
      all.push_back(std::move(p));
    }
  }
  return all;
}

// ---------------------------------------------------------------------------------------------------------
// Device code.

// One access of W bytes: shared (saddr, a 32-bit shared-window address) or global (gaddr). Loads return the
// XOR of the loaded words; stores write x and return it.
template <int W, bool Store, bool Global>
__device__ __forceinline__ unsigned access(unsigned long long gaddr, unsigned saddr, unsigned x) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if constexpr (Global) {
    if constexpr (Store) {
      if constexpr (W == 1) asm volatile("st.global.u8 [%0], %1;" ::"l"(gaddr), "r"(x) : "memory");
      if constexpr (W == 2) asm volatile("st.global.u16 [%0], %1;" ::"l"(gaddr), "h"((unsigned short)x) : "memory");
      if constexpr (W == 4) asm volatile("st.global.u32 [%0], %1;" ::"l"(gaddr), "r"(x) : "memory");
      if constexpr (W == 8) asm volatile("st.global.v2.u32 [%0], {%1,%1};" ::"l"(gaddr), "r"(x) : "memory");
      if constexpr (W == 16) asm volatile("st.global.v4.u32 [%0], {%1,%1,%1,%1};" ::"l"(gaddr), "r"(x) : "memory");
      return x;
    } else {
      if constexpr (W == 1) asm volatile("ld.global.u8 %0, [%1];" : "=r"(a) : "l"(gaddr) : "memory");
      if constexpr (W == 2) {
        unsigned short h;
        asm volatile("ld.global.u16 %0, [%1];" : "=h"(h) : "l"(gaddr) : "memory");
        a = h;
      }
      if constexpr (W == 4) asm volatile("ld.global.u32 %0, [%1];" : "=r"(a) : "l"(gaddr) : "memory");
      if constexpr (W == 8) asm volatile("ld.global.v2.u32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "l"(gaddr) : "memory");
      if constexpr (W == 16)
        asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(gaddr) : "memory");
      return a ^ b ^ c ^ d;
    }
  } else {
    if constexpr (Store) {
      if constexpr (W == 1) asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(saddr), "r"(x) : "memory");
      if constexpr (W == 2)
        asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(saddr), "h"((unsigned short)x) : "memory");
      if constexpr (W == 4) asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(saddr), "r"(x) : "memory");
      if constexpr (W == 8) asm volatile("st.volatile.shared.v2.u32 [%0], {%1,%1};" ::"r"(saddr), "r"(x) : "memory");
      if constexpr (W == 16)
        asm volatile("st.volatile.shared.v4.u32 [%0], {%1,%1,%1,%1};" ::"r"(saddr), "r"(x) : "memory");
      return x;
    } else {
      if constexpr (W == 1) asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(a) : "r"(saddr) : "memory");
      if constexpr (W == 2) {
        unsigned short h;
        asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=h"(h) : "r"(saddr) : "memory");
        a = h;
      }
      if constexpr (W == 4) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(a) : "r"(saddr) : "memory");
      if constexpr (W == 8)
        asm volatile("ld.volatile.shared.v2.u32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "r"(saddr) : "memory");
      if constexpr (W == 16)
        asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(saddr)
                     : "memory");
      return a ^ b ^ c ^ d;
    }
  }
}

// count: one warp repeats the access `reps` times (the only memory traffic of the kernel); the accumulator
// leaves the kernel only on an impossible value, which keeps every load alive.
template <int W, bool Store, bool Global>
__global__ void cal_count(offsets32 off, unsigned char* gbase, int reps, unsigned* sink) {
  extern __shared__ unsigned char smem[];
  const unsigned lane = threadIdx.x & 31;
  const unsigned o = off.v[lane];
  unsigned acc = lane;
  if (o != inactive) {
    const unsigned s = unsigned(__cvta_generic_to_shared(smem)) + o;
    const unsigned long long g = (unsigned long long)(gbase + o);
#pragma unroll 1
    for (int r = 0; r < reps; ++r) acc += access<W, Store, Global>(g, s, acc);
  }
  if (acc == 0x7fffffffu) sink[0] = acc;
}

// The loop shapes of time mode, and the baselines with the same loop and no access.
//   looped    `#pragma unroll 1`, counting down, one access per iteration whose value feeds an accumulator
//             (SASS on CUDA 13.0: LDS; LOP3 (wider loads); IADD; loop counter; BRA). Each warp's iteration
//             waits for its own load, so 32 warps cannot keep the LDS pipe busy with a one-wavefront access:
//             the floor is the loop's round trip / 32. Of the loop forms tried on an H200 (guard inside or
//             outside the loop, XOR / sum / 64-bit / rotated accumulator, counting up, down or to a constant),
//             this one reproduced h200-smem-known.truth.tsv best: all 46 lines within 3.5 %, floors 1.69
//             (loads) / 1.55 (stores) against the truth's 1.731 / 1.530. run_calibration.sh re-measures those
//             46 lines on every run (known-check.tsv), since the floor depends on what ptxas makes of the loop.
//   unrolled  8 accesses per iteration (the h200-smem-probe method): the LDS pipe is the only limit, one
//             wavefront ~1.016 cycles.
// Lanes with no access (inactive) skip the loop, as a predicated kernel would.
enum class loop_shape { looped, unrolled, looped_empty, unrolled_empty };

// time: 32 warps (one block) each repeat the access `reps` times between two barriers; lane 0 of every warp
// records the clock64() after the first barrier and after the second.
template <int W, bool Store, loop_shape Shape>
__global__ void __launch_bounds__(1024) cal_time(offsets32 off, int reps, unsigned long long* t, unsigned* sink) {
  extern __shared__ unsigned char smem[];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned o = off.v[lane];
  unsigned acc = lane;
  const unsigned s = unsigned(__cvta_generic_to_shared(smem)) + (o == inactive ? 0u : o);
  __syncthreads();
  const unsigned long long t0 = clock64();
  if (o != inactive) {
    if constexpr (Shape == loop_shape::looped) {
#pragma unroll 1
      for (int r = reps; r > 0; --r) acc += access<W, Store, false>(0, s, acc);
    } else if constexpr (Shape == loop_shape::looped_empty) {
#pragma unroll 1
      for (int r = reps; r > 0; --r) asm volatile("" : "+r"(acc));
    } else if constexpr (Shape == loop_shape::unrolled) {
#pragma unroll 8
      for (int r = 0; r < reps; ++r) acc += access<W, Store, false>(0, s, acc);
    } else {
#pragma unroll 8
      for (int r = 0; r < reps; ++r) asm volatile("" : "+r"(acc));
    }
  }
  if (acc == 0x7ffffffeu) sink[1] = acc;  // consumes the loaded values before the end clock
  __syncthreads();
  const unsigned long long t1 = clock64();
  if (lane == 0) {
    t[2 * warp] = t0;
    t[2 * warp + 1] = t1;
  }
  if (acc == 0x7fffffffu) sink[0] = acc;
}

// latency: thread 0 follows a chain of `steps` dependent 4-byte shared loads (33 words apart: a new bank
// each step); out = {cycles, final index}.
__global__ void cal_chase(int n, int steps, unsigned long long* out) {
  extern __shared__ unsigned sidx[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) sidx[i] = (i + 33) % n;
  __syncthreads();
  if (threadIdx.x != 0) return;
  unsigned p = 0;
  for (int i = 0; i < 64; ++i) p = sidx[p];  // warm
  const unsigned long long t0 = clock64();
  for (int i = 0; i < steps; ++i) p = sidx[p];
  const unsigned long long t1 = clock64();
  out[0] = t1 - t0;
  out[1] = p;
}

// ---------------------------------------------------------------------------------------------------------
// Host side of the GPU modes.

// Checks a CUDA call: on failure prints the call and CUDA's message, exits with status 1.

// After a launch: the launch's own error, then the kernel's (synchronously); `what` names the launch.
void check_launch(const pattern* p, const char* what) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "calibrate: %s launch for %s (%s:%d) failed: %s (%s)\n", what,
                 p ? p->name.c_str() : "-", p ? p->file.c_str() : "-", p ? p->line : 0, cudaGetErrorString(e),
                 cudaGetErrorName(e));
    std::exit(1);
  }
}

// Calls f(integral_constant<int, W>, bool_constant<Store>) for the pattern's width and op.
template <class F>
void with_shape(const pattern& p, F&& f) {
  const bool store = p.op == "store";
  auto op = [&](auto w) {
    if (store)
      f(w, std::true_type{});
    else
      f(w, std::false_type{});
  };
  switch (p.width) {
    case 1: op(std::integral_constant<int, 1>{}); break;
    case 2: op(std::integral_constant<int, 2>{}); break;
    case 4: op(std::integral_constant<int, 4>{}); break;
    case 8: op(std::integral_constant<int, 8>{}); break;
    case 16: op(std::integral_constant<int, 16>{}); break;
    default: input_error(p.file, p.line, "width " + std::to_string(p.width) + " is not one of 1, 2, 4, 8, 16");
  }
}

// Device buffers every GPU mode uses.
struct device_buffers {
  unsigned* sink = nullptr;
  unsigned char* global = nullptr;  // gcount only
  unsigned long long* clocks = nullptr;
};

// Prints the device to stderr; warns when it is not sm_90 (the models calibrated here are sm90's).
void describe_device() {
  int n = 0;
  CHECK(cudaGetDeviceCount(&n));
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, dev));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  std::fprintf(stderr, "calibrate: device %d of %d: %s, sm_%d%d, %d SMs, %d kHz max SM clock\n", dev, n, prop.name,
               prop.major, prop.minor, prop.multiProcessorCount, clock_khz);
  if (prop.major != 9)
    std::fprintf(stderr, "calibrate: warning: sm_%d%d is not sm_90; the sm90 model does not describe it\n",
                 prop.major, prop.minor);
}

// count/gcount: one launch of cal_count per pattern, names written as they are launched.
void run_count(const std::vector<pattern>& ps, bool global, const std::string& names_path, device_buffers& b) {
  std::FILE* names = std::fopen(names_path.c_str(), "w");
  if (!names) input_error(names_path, 0, std::string("cannot write: ") + std::strerror(errno));
  for (const pattern& p : ps) {
    with_shape(p, [&](auto w, auto st) {
      auto kernel = global ? cal_count<decltype(w)::value, decltype(st)::value, true>
                           : cal_count<decltype(w)::value, decltype(st)::value, false>;
      CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
      kernel<<<1, 32, smem_bytes>>>(p.off, b.global, count_reps, b.sink);
      check_launch(&p, "cal_count");
    });
    std::fprintf(names, "%s\t%d\t%s\t%s\n", p.name.c_str(), p.width, p.op.c_str(), p.file.c_str());
  }
  if (std::fclose(names) != 0) input_error(names_path, 0, "write failed");
}

// One timed launch: cycles from the earliest warp start to the latest warp end.
template <int W, bool Store, loop_shape Shape>
unsigned long long time_launch(const pattern& p, int reps, device_buffers& b) {
  auto kernel = cal_time<W, Store, Shape>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  kernel<<<1, 32 * time_warps, smem_bytes>>>(p.off, reps, b.clocks, b.sink);
  check_launch(&p, "cal_time");
  unsigned long long t[2 * time_warps];
  CHECK(cudaMemcpy(t, b.clocks, sizeof t, cudaMemcpyDeviceToHost));
  unsigned long long lo = ~0ull, hi = 0;
  for (int w = 0; w < time_warps; ++w) {
    if (t[2 * w + 1] < t[2 * w]) {
      std::fprintf(stderr, "calibrate: %s: warp %d ended (%llu) before it started (%llu)\n", p.name.c_str(), w,
                   t[2 * w + 1], t[2 * w]);
      std::exit(1);
    }
    lo = t[2 * w] < lo ? t[2 * w] : lo;
    hi = t[2 * w + 1] > hi ? t[2 * w + 1] : hi;
  }
  return hi - lo;
}

// The timing of one pattern: raw best-of-5 clocks per warp access for each loop shape.
struct timing {
  double looped = 0, looped_empty = 0, unrolled = 0, unrolled_empty = 0;
};

// time: the four loop shapes, interleaved, each the best of time_best_of launches.
timing time_pattern(const pattern& p, device_buffers& b) {
  timing best{1e30, 1e30, 1e30, 1e30};
  const double per = 1.0 / (double(time_warps) * time_reps);
  auto keep = [](double& slot, double v) { slot = v < slot ? v : slot; };
  with_shape(p, [&](auto w, auto st) {
    constexpr int W = decltype(w)::value;
    constexpr bool S = decltype(st)::value;
    for (int r = 0; r < time_best_of; ++r) {
      keep(best.looped, per * double(time_launch<W, S, loop_shape::looped>(p, time_reps, b)));
      keep(best.looped_empty, per * double(time_launch<W, S, loop_shape::looped_empty>(p, time_reps, b)));
      keep(best.unrolled, per * double(time_launch<W, S, loop_shape::unrolled>(p, time_reps, b)));
      keep(best.unrolled_empty, per * double(time_launch<W, S, loop_shape::unrolled_empty>(p, time_reps, b)));
    }
  });
  return best;
}

void run_time(const std::vector<pattern>& ps, device_buffers& b) {
  std::printf("name\twidth\top\tcycles_per_warp_access\tcycles_unrolled\tlooped_raw\tlooped_empty\t"
              "unrolled_raw\tunrolled_empty\tfile\n");
  // One untimed round first: the first launches of a process pay for module loading and clock ramp-up.
  for (int r = 0; r < 3; ++r) time_pattern(ps.front(), b);
  for (const pattern& p : ps) {
    const timing t = time_pattern(p, b);
    std::printf("%s\t%d\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%s\n", p.name.c_str(), p.width, p.op.c_str(),
                t.looped - t.looped_empty, t.unrolled - t.unrolled_empty, t.looped, t.looped_empty, t.unrolled,
                t.unrolled_empty, p.file.c_str());
    std::fflush(stdout);
  }
}

void run_latency(device_buffers& b) {
  CHECK(cudaFuncSetAttribute(cal_chase, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  for (int steps : {1024, 4096}) {
    cal_chase<<<1, 1024, 4096 * 4>>>(4096, steps, b.clocks);
    check_launch(nullptr, "cal_chase");
    unsigned long long t[2];
    CHECK(cudaMemcpy(t, b.clocks, sizeof t, cudaMemcpyDeviceToHost));
    std::printf("latency steps=%d cycles_per_dependent_load=%.3f\n", steps, double(t[0]) / steps);
  }
}

int usage() {
  std::fprintf(stderr,
               "usage: calibrate count FILE... NAMES_OUT | gcount FILE... NAMES_OUT | time FILE... | latency | "
               "check FILE...\n");
  return 2;
}

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string mode = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  std::string names_out;
  if (mode == "count" || mode == "gcount") {
    if (args.size() < 2) return usage();
    names_out = args.back();
    args.pop_back();
  } else if (mode == "time" || mode == "check") {
    if (args.empty()) return usage();
  } else if (mode == "latency") {
    if (!args.empty()) return usage();
  } else {
    return usage();
  }
  // All input is read and checked before the first CUDA call.
  const std::vector<pattern> ps = mode == "latency" ? std::vector<pattern>{} : read_all(args);
  if (mode == "check") {
    std::printf("%zu patterns in %zu file(s), all valid\n", ps.size(), args.size());
    return 0;
  }
  describe_device();
  device_buffers b;
  CHECK(cudaMalloc(&b.sink, 64));
  CHECK(cudaMalloc(&b.clocks, 2 * time_warps * sizeof(unsigned long long)));
  if (mode == "gcount") {
    CHECK(cudaMalloc(&b.global, global_bytes));
    CHECK(cudaMemset(b.global, 0, global_bytes));
  }
  if (mode == "count" || mode == "gcount")
    run_count(ps, mode == "gcount", names_out, b);
  else if (mode == "time")
    run_time(ps, b);
  else
    run_latency(b);
  CHECK(cudaFree(b.sink));
  CHECK(cudaFree(b.clocks));
  if (b.global) CHECK(cudaFree(b.global));
  return 0;
}
