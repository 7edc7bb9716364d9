// tilesim/gpu/calibrate/global_memory.cu: global-memory latency and throughput on an NVIDIA GPU, for the timing model.
//
// WHAT IT IS. The measurements behind data/calibration/*-global.tsv (issue 12: "global memory measured, not
// assumed"). Two experiments, each printed as TSV rows `experiment  working_set_bytes  value  unit  detail`:
//   chase    one thread follows a random cyclic chain of 4-byte indices, one per 128-byte line, through a
//            working set of the given size: cycles per dependent load (clock64 around 4096 loads, best of 5;
//            a set of at most 2^20 lines is walked whole first, untimed, so the timed loads hit wherever the set
//            fits; a larger one is not, and each launch starts where no earlier one went, so its loads reach
//            lines nothing has touched since the host wrote them). ld.global.ca (L1 and L2) and ld.global.cg (L2
//            only) each: a set that fits L1 gives the L1 hit latency, one that fits L2 (50 MB on an H100) the
//            L2 hit latency, one far larger (1 GiB) the DRAM latency (with TLB misses folded in).
//   stream   every SM runs 8 blocks of 256 threads that read the working set as 16-byte vectors
//            (LDG.E.128, coalesced: 4 sectors per warp per instruction), 8 loads in flight per thread
//            (unrolled), summing into one word per thread: bytes per SM clock and sectors per SM clock
//            (cudaEvent time x the SM clock the runtime reports) for a set that fits L2 (read 16 times) and
//            one that does not.
//   burst    a copy block's two phases, as the cross-check's kernels run them: G blocks of 256 threads (G from 1
//            to 8 per SM), each thread N independent loads of W bytes (coalesced, the block's own 256*N*W bytes of
//            an L2-resident buffer), then a barrier, then N stores of W bytes; clock64 per block around each phase
//            (barrier to barrier): the median block's load phase (latency + sectors / rate) and store phase, the
//            best of 5 launches after one warm-up. Varying N and G separates latency, per-SM rate and the L2's
//            share when many SMs stream at once. burst_cold: the same, with the buffers allocated and copied from
//            the host before every launch (as the cross-check's launches are): first touch of fresh memory.
//   burst_async  the burst's load phase with cp.async.cg (LDGSTS.128 into shared memory, commit, wait_group 0)
//            beside the LDG burst of the same shape, warm and cold, 1 to 132 blocks: what the timing model's
//            cp.async copy costs against a load into registers (burst_async_cold: fresh memory).
// Not part of the Meson build (like calibrate.cu): it runs on the device machine.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o global_memory gpu/calibrate/global_memory.cu
//   global_memory                       every experiment at its default sizes
//   global_memory chase BYTES...        the chase at these working-set sizes
//   global_memory burst                 the burst table alone
//   global_memory burst_async           LDG and LDGSTS bursts side by side
//
// WORKED EXAMPLE. `global_memory chase 4194304` builds a chain over 32768 lines of 4 MiB and prints
//   chase.ca  4194304  <cycles>  cycles/load  ...      chase.cg  4194304  <cycles>  cycles/load  ...
// where both are L2 hits (4 MiB is past L1's 256 KB and inside L2).
//
// INVARIANTS. Every CUDA call is checked (the call and CUDA's message, exit 1); a size that is not a positive
// multiple of 128 bytes, or too large for the device's memory, is refused before any allocation (exit 2).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cuda_check.cuh"  // CHECK(call)

constexpr int chase_loads = 4096;

// One thread: `warm` untimed dependent loads, then `loads` timed ones continuing along the chain;
// L2Only: ld.global.cg (bypasses L1), else ld.global.ca.
template <bool L2Only>
__global__ void chase(const unsigned* chain, unsigned start, long long warm, int loads, long long* cycles,
                      unsigned* sink) {
  unsigned i = start;
  for (long long k = 0; k < warm; ++k) {  // warm-up: the whole chain when it can be cached
    if constexpr (L2Only) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(i) : "l"(chain + i));
    else asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(i) : "l"(chain + i));
  }
  const long long begin = clock64();
  for (int k = 0; k < loads; ++k) {
    if constexpr (L2Only) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(i) : "l"(chain + i));
    else asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(i) : "l"(chain + i));
  }
  const long long end = clock64();
  *cycles = end - begin;
  *sink = i;
}

// Reads `vectors` uint4 `passes` times; 8 independent loads per thread per iteration.
__global__ void stream(const uint4* data, long long vectors, int passes, unsigned* sink) {
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (int p = 0; p < passes; ++p)
    for (long long base = t; base < vectors; base += 8 * threads) {
      uint4 v[8];
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        const long long at = base + u * threads;
        v[u] = at < vectors ? data[at] : uint4{0, 0, 0, 0};
      }
#pragma unroll
      for (int u = 0; u < 8; ++u) acc += v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
  sink[t] = acc;
}

// burst: N loads of Width bytes per thread, a barrier, N stores; cycles[2b], cycles[2b+1] = load, store phase.
template <int N, int Width>
__global__ void burst(const unsigned char* in, unsigned char* out, long long* cycles) {
  using vec = typename std::conditional<Width == 16, uint4, unsigned>::type;
  const vec* src = reinterpret_cast<const vec*>(in) + static_cast<long long>(blockIdx.x) * blockDim.x * N;
  vec* dst = reinterpret_cast<vec*>(out) + static_cast<long long>(blockIdx.x) * blockDim.x * N;
  vec v[N];
  __syncthreads();
  const long long t0 = clock64();
#pragma unroll
  for (int u = 0; u < N; ++u) v[u] = src[u * blockDim.x + threadIdx.x];
  unsigned acc = 0;  // the loads must complete before the barrier: the phase ends when the data is in registers
#pragma unroll
  for (int u = 0; u < N; ++u) acc ^= reinterpret_cast<const unsigned*>(&v[u])[0];
  if (acc == 0x9e3779b9u) dst[0] = v[0];  // never true for the fill below; keeps the loads live
  __syncthreads();
  const long long t1 = clock64();
#pragma unroll
  for (int u = 0; u < N; ++u) dst[u * blockDim.x + threadIdx.x] = v[u];
  __syncthreads();
  const long long t2 = clock64();
  if (threadIdx.x == 0) {
    cycles[2 * blockIdx.x] = t1 - t0;
    cycles[2 * blockIdx.x + 1] = t2 - t1;
  }
}

// burst_async: the burst's load phase with cp.async (LDGSTS, 16 bytes, .cg: L2 to shared memory, no register):
// N copies per thread, one commit, wait_group 0, a barrier; then the store phase from shared memory. cycles as burst's.
template <int N>
__global__ void burst_async(const unsigned char* in, unsigned char* out, long long* cycles) {
  extern __shared__ uint4 staged[];  // 256 * N vectors
  const uint4* src = reinterpret_cast<const uint4*>(in) + static_cast<long long>(blockIdx.x) * blockDim.x * N;
  uint4* dst = reinterpret_cast<uint4*>(out) + static_cast<long long>(blockIdx.x) * blockDim.x * N;
  __syncthreads();
  const long long t0 = clock64();
#pragma unroll
  for (int u = 0; u < N; ++u) {
    const unsigned at = static_cast<unsigned>(__cvta_generic_to_shared(&staged[u * blockDim.x + threadIdx.x]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(at), "l"(src + u * blockDim.x + threadIdx.x) : "memory");
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  const long long t1 = clock64();
#pragma unroll
  for (int u = 0; u < N; ++u) dst[u * blockDim.x + threadIdx.x] = staged[u * blockDim.x + threadIdx.x];
  __syncthreads();
  const long long t2 = clock64();
  if (threadIdx.x == 0) {
    cycles[2 * blockIdx.x] = t1 - t0;
    cycles[2 * blockIdx.x + 1] = t2 - t1;
  }
}

// cold: before every launch the buffers are allocated afresh and filled from the host, as the cross-check's
// launches do (gpu/runtime/kernel_launch.hpp): first touch of memory the host just wrote.
// Async: the cp.async kernel (Width 16 only), tagged burst_async / burst_async_cold.
template <int N, int Width, bool Async = false>
void run_burst_case(int blocks, const unsigned char* d_in, unsigned char* d_out, long long* d_cycles, int sms,
                    bool cold = false) {
  static_assert(!Async || Width == 16, "burst_async copies 16 bytes per cp.async");
  std::vector<long long> c(2 * static_cast<std::size_t>(blocks));
  double best_load = 1e30, best_store = 1e30;
  const std::size_t bytes = static_cast<std::size_t>(blocks) * 256 * N * Width;
  std::vector<unsigned char> host(bytes, 1);
  for (int r = 0; r < 6; ++r) {  // launch 0 warms L2 and the instruction cache
    unsigned char *in = const_cast<unsigned char*>(d_in), *out = d_out;
    if (cold) {
      CHECK(cudaMalloc(&in, bytes));
      CHECK(cudaMalloc(&out, bytes));
      CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(out, host.data(), bytes, cudaMemcpyHostToDevice));
    }
    if constexpr (Async) burst_async<N><<<blocks, 256, 256 * N * 16>>>(in, out, d_cycles);
    else burst<N, Width><<<blocks, 256>>>(in, out, d_cycles);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c.data(), d_cycles, c.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    if (cold) {
      CHECK(cudaFree(in));
      CHECK(cudaFree(out));
    }
    if (r == 0) continue;
    std::vector<long long> ld, st;
    for (int b = 0; b < blocks; ++b) {
      ld.push_back(c[2 * b]);
      st.push_back(c[2 * b + 1]);
    }
    std::sort(ld.begin(), ld.end());
    std::sort(st.begin(), st.end());
    best_load = std::min(best_load, static_cast<double>(ld[ld.size() / 2]));
    best_store = std::min(best_store, static_cast<double>(st[st.size() / 2]));
  }
  const long long sectors = 256LL * N * Width / 32;  // per block and phase
  const char* tag = Async ? (cold ? "burst_async_cold" : "burst_async") : (cold ? "burst_cold" : "burst");
  std::printf("%s.load\t%lld\t%.0f\tcycles/block\t%d blocks (%.2f per SM), %d x %d-byte loads per thread, %lld sectors per block, median block, best of 5\n",
              tag, static_cast<long long>(blocks) * 256 * N * Width, best_load, blocks, static_cast<double>(blocks) / sms, N, Width,
              sectors);
  std::printf("%s.store\t%lld\t%.0f\tcycles/block\t%d blocks (%.2f per SM), %d x %d-byte stores per thread, %lld sectors per block, median block, best of 5\n",
              tag, static_cast<long long>(blocks) * 256 * N * Width, best_store, blocks, static_cast<double>(blocks) / sms, N,
              Width, sectors);
}

// Device buffers for bursts of up to blocks_per_sm blocks per SM (N 8, 16 bytes): f(in, out, cycles, sms), then freed.
template <class F>
void with_burst_buffers(int blocks_per_sm, F&& f) {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::size_t bytes = static_cast<std::size_t>(blocks_per_sm) * sms * 256 * 8 * 16;  // the largest case
  unsigned char *d_in, *d_out;
  long long* d_cycles;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemset(d_in, 1, bytes));
  CHECK(cudaMalloc(&d_cycles, 2 * sizeof(long long) * blocks_per_sm * sms));
  f(d_in, d_out, d_cycles, sms);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_cycles));
}

void run_burst() {
  with_burst_buffers(8, [](const unsigned char* d_in, unsigned char* d_out, long long* d_cycles, int sms) {
    for (int blocks : {1, 8, 32, 64, sms, 2 * sms, 4 * sms, 8 * sms}) {
      run_burst_case<1, 16>(blocks, d_in, d_out, d_cycles, sms);
      run_burst_case<2, 16>(blocks, d_in, d_out, d_cycles, sms);
      run_burst_case<4, 16>(blocks, d_in, d_out, d_cycles, sms);
      run_burst_case<8, 16>(blocks, d_in, d_out, d_cycles, sms);
      run_burst_case<1, 4>(blocks, d_in, d_out, d_cycles, sms);
      run_burst_case<4, 4>(blocks, d_in, d_out, d_cycles, sms);
    }
    for (int blocks : {1, 8, 64, sms}) {
      run_burst_case<1, 16>(blocks, d_in, d_out, d_cycles, sms, true);
      run_burst_case<2, 16>(blocks, d_in, d_out, d_cycles, sms, true);
      run_burst_case<4, 16>(blocks, d_in, d_out, d_cycles, sms, true);
      run_burst_case<1, 4>(blocks, d_in, d_out, d_cycles, sms, true);
      run_burst_case<4, 4>(blocks, d_in, d_out, d_cycles, sms, true);
    }
  });
}

// The LDG burst of N 16-byte loads per thread, then the LDGSTS burst of the same shape.
template <int N>
void run_ldg_then_ldgsts(int blocks, const unsigned char* d_in, unsigned char* d_out, long long* d_cycles, int sms, bool cold) {
  run_burst_case<N, 16>(blocks, d_in, d_out, d_cycles, sms, cold);
  run_burst_case<N, 16, true>(blocks, d_in, d_out, d_cycles, sms, cold);
}

// LDG against LDGSTS, phase for phase, on the same launches' shapes: warm (L2-resident) and cold (fresh memory).
void run_burst_async() {
  with_burst_buffers(1, [](const unsigned char* d_in, unsigned char* d_out, long long* d_cycles, int sms) {
    for (bool cold : {false, true})
      for (int blocks : {1, 8, 16, 64, sms}) {
        run_ldg_then_ldgsts<1>(blocks, d_in, d_out, d_cycles, sms, cold);
        run_ldg_then_ldgsts<2>(blocks, d_in, d_out, d_cycles, sms, cold);
        run_ldg_then_ldgsts<4>(blocks, d_in, d_out, d_cycles, sms, cold);
        run_ldg_then_ldgsts<8>(blocks, d_in, d_out, d_cycles, sms, cold);
      }
  });
}

int clock_khz() {
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  return khz;
}

void run_chase(std::size_t bytes) {
  const std::size_t lines = bytes / 128, words = bytes / 4;
  std::vector<unsigned> order(lines), chain(words, 0);
  for (std::size_t i = 0; i < lines; ++i) order[i] = static_cast<unsigned>(i);
  std::mt19937_64 g(20261124);
  for (std::size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[g() % (i + 1)]);
  for (std::size_t i = 0; i < lines; ++i) chain[order[i] * 32] = order[(i + 1) % lines] * 32;  // word index of the next line
  unsigned *d_chain, *d_sink;
  long long* d_cycles;
  CHECK(cudaMalloc(&d_chain, bytes));
  CHECK(cudaMalloc(&d_sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  CHECK(cudaMemcpy(d_chain, chain.data(), bytes, cudaMemcpyHostToDevice));
  const int loads = chase_loads;
  // A set that can stay in L2 is walked whole first, so the timed loads (which go on around the cycle) hit;
  // a larger one is not, so they reach lines nothing has touched (DRAM).
  const long long warm = lines <= (std::size_t{1} << 20) ? static_cast<long long>(lines) : 0;
  for (int l2_only = 0; l2_only < 2; ++l2_only) {
    long long best = -1;
    for (int r = 0; r < 5; ++r) {
      // An unwarmed set starts each launch at a line no earlier launch reached (10 launches x 4096 loads).
      const std::size_t at = warm ? 0 : ((2 * r + l2_only) * static_cast<std::size_t>(loads)) % lines;
      const unsigned start = order[at] * 32;
      if (l2_only) chase<true><<<1, 1>>>(d_chain, start, warm, loads, d_cycles, d_sink);
      else chase<false><<<1, 1>>>(d_chain, start, warm, loads, d_cycles, d_sink);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      long long c = 0;
      CHECK(cudaMemcpy(&c, d_cycles, sizeof c, cudaMemcpyDeviceToHost));
      if (best < 0 || c < best) best = c;
    }
    std::printf("chase.%s\t%zu\t%.1f\tcycles/load\t%d dependent loads over %zu lines after %lld warm-up loads, best of 5\n",
                l2_only ? "cg" : "ca", bytes, static_cast<double>(best) / loads, loads, lines, warm);
  }
  CHECK(cudaFree(d_chain));
  CHECK(cudaFree(d_sink));
  CHECK(cudaFree(d_cycles));
}

void run_stream(std::size_t bytes, int passes) {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = sms * 8, threads = 256;
  uint4* d_data;
  unsigned* d_sink;
  CHECK(cudaMalloc(&d_data, bytes));
  CHECK(cudaMemset(d_data, 1, bytes));
  CHECK(cudaMalloc(&d_sink, sizeof(unsigned) * blocks * threads));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  stream<<<blocks, threads>>>(d_data, static_cast<long long>(bytes / 16), 1, d_sink);  // warm-up
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  float best_ms = 1e30f;
  for (int r = 0; r < 5; ++r) {
    CHECK(cudaEventRecord(a));
    stream<<<blocks, threads>>>(d_data, static_cast<long long>(bytes / 16), passes, d_sink);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (ms < best_ms) best_ms = ms;
  }
  const double total = static_cast<double>(bytes) * passes, sm_clocks = best_ms * 1e-3 * clock_khz() * 1e3;
  std::printf("stream\t%zu\t%.2f\tbytes/SM clock\t%d passes, %d SMs x 8 blocks x 256 threads, %.1f GB/s, best of 5\n",
              bytes, total / sm_clocks / sms, passes, sms, total / (best_ms * 1e-3) / 1e9);
  std::printf("stream\t%zu\t%.3f\tsectors/SM clock\t(32-byte sectors)\n", bytes, total / 32 / sm_clocks / sms);
  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_sink));
}

int main(int argc, char** argv) {
  std::size_t free_bytes = 0, total_bytes = 0;
  std::vector<std::size_t> sizes;
  const bool burst_only = argc == 2 && std::string(argv[1]) == "burst";
  const bool burst_async_only = argc == 2 && std::string(argv[1]) == "burst_async";
  for (int i = 2; i < argc; ++i) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(argv[i], &end, 10);
    if (!end || *end || v == 0 || v % 128) {
      std::fprintf(stderr, "global_memory: size \"%s\" is not a positive multiple of 128 bytes\n", argv[i]);
      return 2;
    }
    sizes.push_back(v);
  }
  if (argc >= 2 && std::string(argv[1]) != "chase" && !burst_only && !burst_async_only) {
    std::fprintf(stderr, "usage: global_memory [chase BYTES... | burst | burst_async]\n");
    return 2;
  }
  CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  for (std::size_t s : sizes)
    if (s > free_bytes / 2) {
      std::fprintf(stderr, "global_memory: %zu bytes is more than half the device's free memory (%zu)\n", s, free_bytes);
      return 2;
    }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s, %d SMs, SM clock %d kHz, L2 %d bytes\n", prop.name, prop.multiProcessorCount, clock_khz(),
              prop.l2CacheSize);
  std::printf("experiment\tworking_set_bytes\tvalue\tunit\tdetail\n");
  if (burst_only) {
    run_burst();
    return 0;
  }
  if (burst_async_only) {
    run_burst_async();
    return 0;
  }
  if (sizes.empty()) sizes = {16384, 131072, 4u << 20, 32u << 20, 1u << 30};
  for (std::size_t s : sizes) run_chase(s);
  if (argc < 2) {
    run_burst();
    run_stream(8u << 20, 16);   // fits L2
    run_stream(2u << 30, 1);    // far past L2: DRAM
  }
  return 0;
}
