// tilesim/sim/calibration/probe/smem_probe.cu: measures pattern files (the `tilesim bank` format) on an NVIDIA GPU.
//
// Not part of the build: a probe for the device machine, to settle model questions by measurement.
//   nvcc -O2 -std=c++17 -arch=sm_90 -o smem_probe smem_probe.cu
//   smem_probe count FILE NAMES_OUT          one warp, 64 repetitions of each pattern, one launch per pattern
//                                            (run under ncu: wavefronts/instruction = wavefronts / instructions)
//   smem_probe gcount FILE NAMES_OUT         the same with global memory (256-byte aligned base)
//   smem_probe time FILE                     32 warps x 256 repetitions, best of 5, empty-loop baseline
//                                            subtracted: prints NAME CYCLES_PER_WARP_ACCESS
//   smem_probe latency                       dependent shared loads (pointer chase), cycles per load
// Offsets reach the kernel as a kernel parameter, so the only shared/global accesses are the probed ones;
// shared accesses are ld/st.volatile.shared, so ptxas cannot hoist a repeated load out of the loop (it did).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

struct offsets32 {
  unsigned v[32];
};
struct pattern {
  std::string name, op;
  int width;
  offsets32 off;
};

constexpr unsigned inactive = 0xffffffffu;
constexpr int smem_bytes = 64 * 1024 + 64;

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
      if constexpr (W == 2) asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(saddr), "h"((unsigned short)x) : "memory");
      if constexpr (W == 4) asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(saddr), "r"(x) : "memory");
      if constexpr (W == 8) asm volatile("st.volatile.shared.v2.u32 [%0], {%1,%1};" ::"r"(saddr), "r"(x) : "memory");
      if constexpr (W == 16) asm volatile("st.volatile.shared.v4.u32 [%0], {%1,%1,%1,%1};" ::"r"(saddr), "r"(x) : "memory");
      return x;
    } else {
      if constexpr (W == 1) asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(a) : "r"(saddr) : "memory");
      if constexpr (W == 2) {
        unsigned short h;
        asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=h"(h) : "r"(saddr) : "memory");
        a = h;
      }
      if constexpr (W == 4) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(a) : "r"(saddr) : "memory");
      if constexpr (W == 8) asm volatile("ld.volatile.shared.v2.u32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "r"(saddr) : "memory");
      if constexpr (W == 16)
        asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(saddr) : "memory");
      return a ^ b ^ c ^ d;
    }
  }
}

// count: one warp repeats the access `reps` times; the result leaves the kernel only if impossible.
template <int W, bool Store, bool Global>
__global__ void count_kernel(offsets32 off, unsigned char* gbase, int reps, unsigned* sink) {
  extern __shared__ unsigned char smem[];
  const unsigned lane = threadIdx.x & 31;
  const unsigned o = off.v[lane];
  unsigned acc = lane;
  if (o != inactive) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem) + o;
    const unsigned long long g = (unsigned long long)(gbase + o);
#pragma unroll 1
    for (int r = 0; r < reps; ++r) acc += access<W, Store, Global>(g, s, acc);
  }
  if (acc == 0x7fffffffu) sink[0] = acc;  // never true in practice; keeps the loads alive
}

// time: 32 warps; each warp records its start and end clock after a barrier.
template <int W, bool Store, bool Empty>
__global__ void __launch_bounds__(1024) time_kernel(offsets32 off, int reps, unsigned long long* t, unsigned* sink) {
  extern __shared__ unsigned char smem[];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned o = off.v[lane];
  unsigned acc = lane;
  const unsigned s = (unsigned)__cvta_generic_to_shared(smem) + (o == inactive ? 0 : o);
  __syncthreads();
  const unsigned long long t0 = clock64();
  if (o != inactive) {
#pragma unroll 8
    for (int r = 0; r < reps; ++r) {
      if constexpr (Empty)
        asm volatile("" : "+r"(acc));
      else
        acc += access<W, Store, false>(0, s, acc);
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

__global__ void chase_kernel(int n, int steps, unsigned long long* out) {
  extern __shared__ unsigned sidx[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) sidx[i] = (i + 33) % n;  // 33 words: a new bank each step
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

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e = (x);                                                         \
    if (e != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));               \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

std::vector<pattern> read_patterns(const char* path) {
  std::ifstream f(path);
  std::vector<pattern> ps;
  std::string line;
  while (std::getline(f, line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream in(line);
    pattern p;
    if (!(in >> p.name)) continue;
    in >> p.width >> p.op;
    for (int i = 0; i < 32; ++i) {
      unsigned long long v;
      in >> v;
      p.off.v[i] = (unsigned)v;
    }
    if (!in) {
      std::fprintf(stderr, "bad line: %s\n", line.c_str());
      std::exit(1);
    }
    ps.push_back(p);
  }
  return ps;
}

template <bool Global>
void launch_count(const pattern& p, unsigned char* g, unsigned* sink) {
  const bool st = p.op == "store";
  auto go = [&](auto kernel) {
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
    kernel<<<1, 32, smem_bytes>>>(p.off, g, 64, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  };
  switch (p.width * 2 + st) {
    case 2: go(count_kernel<1, false, Global>); break;
    case 3: go(count_kernel<1, true, Global>); break;
    case 4: go(count_kernel<2, false, Global>); break;
    case 5: go(count_kernel<2, true, Global>); break;
    case 8: go(count_kernel<4, false, Global>); break;
    case 9: go(count_kernel<4, true, Global>); break;
    case 16: go(count_kernel<8, false, Global>); break;
    case 17: go(count_kernel<8, true, Global>); break;
    case 32: go(count_kernel<16, false, Global>); break;
    case 33: go(count_kernel<16, true, Global>); break;
    default: std::fprintf(stderr, "width %d?\n", p.width); std::exit(1);
  }
}

double time_once(const pattern& p, bool empty, unsigned long long* d_t, unsigned* sink) {
  const bool st = p.op == "store";
  const int reps = 256;
  auto go = [&](auto kernel) {
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
    kernel<<<1, 1024, smem_bytes>>>(p.off, reps, d_t, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  };
  if (empty)
    go(time_kernel<4, false, true>);
  else
    switch (p.width * 2 + st) {
      case 2: go(time_kernel<1, false, false>); break;
      case 3: go(time_kernel<1, true, false>); break;
      case 4: go(time_kernel<2, false, false>); break;
      case 5: go(time_kernel<2, true, false>); break;
      case 8: go(time_kernel<4, false, false>); break;
      case 9: go(time_kernel<4, true, false>); break;
      case 16: go(time_kernel<8, false, false>); break;
      case 17: go(time_kernel<8, true, false>); break;
      case 32: go(time_kernel<16, false, false>); break;
      case 33: go(time_kernel<16, true, false>); break;
      default: std::exit(1);
    }
  unsigned long long t[64];
  CHECK(cudaMemcpy(t, d_t, sizeof t, cudaMemcpyDeviceToHost));
  unsigned long long lo = ~0ull, hi = 0;
  for (int w = 0; w < 32; ++w) {
    lo = t[2 * w] < lo ? t[2 * w] : lo;
    hi = t[2 * w + 1] > hi ? t[2 * w + 1] : hi;
  }
  return double(hi - lo) / (32.0 * reps);
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string mode = argv[1];
  unsigned* sink;
  unsigned char* g;
  unsigned long long* d_t;
  CHECK(cudaMalloc(&sink, 64));
  CHECK(cudaMalloc(&g, 1 << 20));
  CHECK(cudaMalloc(&d_t, 64 * sizeof(unsigned long long)));
  if (mode == "latency") {
    for (int steps : {1024, 4096}) {
      CHECK(cudaFuncSetAttribute(chase_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
      chase_kernel<<<1, 1024, 4096 * 4>>>(4096, steps, d_t);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      unsigned long long t[2];
      CHECK(cudaMemcpy(t, d_t, sizeof t, cudaMemcpyDeviceToHost));
      std::printf("latency steps=%d cycles_per_dependent_load=%.3f\n", steps, double(t[0]) / steps);
    }
    return 0;
  }
  const std::vector<pattern> ps = read_patterns(argv[2]);
  if (mode == "count" || mode == "gcount") {
    std::FILE* names = std::fopen(argv[3], "w");
    for (const pattern& p : ps) {
      if (mode == "count")
        launch_count<false>(p, g, sink);
      else
        launch_count<true>(p, g, sink);
      std::fprintf(names, "%s\t%d\t%s\n", p.name.c_str(), p.width, p.op.c_str());
    }
    std::fclose(names);
  } else if (mode == "time") {
    for (const pattern& p : ps) {
      double best = 1e30, best_empty = 1e30;
      for (int r = 0; r < 5; ++r) {
        const double c = time_once(p, false, d_t, sink), e = time_once(p, true, d_t, sink);
        best = c < best ? c : best;
        best_empty = e < best_empty ? e : best_empty;
      }
      std::printf("%s\t%.3f\n", p.name.c_str(), best - best_empty);
    }
  }
  return 0;
}
