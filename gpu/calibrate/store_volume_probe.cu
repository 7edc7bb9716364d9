// tilesim/gpu/calibrate/store_volume_probe.cu: what a block's global stores cost as their volume grows (issue 33).
//
// WHAT IT IS. Over the H200 props recordings the model under-predicts blocks by more the more sectors they store:
// signed median -0.8 % under 256 store sectors per block, -4.6 % at 256-1024, -10.4 % at 1024-4096, -17.6 % at
// 4096-16384. The store path's rate (sm90 global.store_sectors_per_clock 1.37) was measured on the H100 burst, 256-1024
// coalesced sectors per block. This probe times the store phase of one block of 256 threads (8 warps), barrier to
// barrier with clock64 as the burst does, for 1..64 stores per thread in two address patterns:
//   row:    store u of thread t at element u * 256 + t (a warp's 32 lanes contiguous: W sectors per instruction for
//           W-byte elements, every sector whole);
//   column: store u of thread t at element t * n + u (each lane its own sector when n * W >= 32: 32 sectors per
//           instruction, each written in W of its 32 bytes), the pattern of a tile stored down its columns.
// and, for each, with a __threadfence() before the closing barrier (`fenced`: the phase ends when the stores are
// visible, not when they have left the SM). Printed as TSV rows
//   store  <pattern>  <W>  <n>  <blocks>  <fenced>  <sectors per block>  <median block cycles, best of 7 launches>
// with 1 and 4 blocks (the props runs' grids). Not part of the Meson build: it runs on the device machine.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o store_volume_probe gpu/calibrate/store_volume_probe.cu && ./store_volume_probe
//
// WORKED EXAMPLE. `store column 4 16 1 0 4096 <c>`: one block, each thread 16 4-byte stores 64 bytes apart, 4096
// sectors (16 instructions per warp, 32 sectors each); c / 4096 is the block's cycles per stored sector.
//
// INVARIANTS. Every CUDA call is checked (cuda_check.cuh: exit 1 naming it); each launch writes a buffer allocated
// for it (fresh memory, as the props runs store); the values stored are the element indices (checked on the host
// for the largest case of each pattern).
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>

#include "cuda_check.cuh"

constexpr int threads = 256;
constexpr int launches = 7;

template <int W>
struct word;
template <>
struct word<4> {
  using type = unsigned;
};
template <>
struct word<8> {
  using type = unsigned long long;
};
template <>
struct word<16> {
  using type = uint4;
};

template <class T>
__device__ T value_of(long long e) {
  if constexpr (sizeof(T) == 16) {
    return T{static_cast<unsigned>(e), 0u, 0u, 0u};
  } else {
    return static_cast<T>(e);
  }
}

// N stores of W bytes per thread in `column` or row order, barrier to barrier; cycles[b] = the phase's clocks.
template <int N, int W, bool Column, bool Fenced>
__global__ void store_phase(typename word<W>::type* out, long long* cycles) {
  using T = typename word<W>::type;
  T* block_out = out + static_cast<long long>(blockIdx.x) * threads * N;
  const int t = threadIdx.x;
  __syncthreads();
  const long long t0 = clock64();
#pragma unroll
  for (int u = 0; u < N; ++u) {
    const long long e = Column ? static_cast<long long>(t) * N + u : static_cast<long long>(u) * threads + t;
    block_out[e] = value_of<T>(e);
  }
  if (Fenced) __threadfence();
  __syncthreads();
  const long long t1 = clock64();
  if (t == 0) cycles[blockIdx.x] = t1 - t0;
}

template <int N, int W, bool Column, bool Fenced>
void run_case(int blocks) {
  using T = typename word<W>::type;
  const std::size_t elements = static_cast<std::size_t>(blocks) * threads * N;
  long long* d_cycles = nullptr;
  CHECK(cudaMalloc(&d_cycles, sizeof(long long) * blocks));
  double best = 1e30;
  std::vector<long long> c(static_cast<std::size_t>(blocks));
  for (int l = 0; l < launches; ++l) {
    T* d_out = nullptr;
    CHECK(cudaMalloc(&d_out, elements * sizeof(T)));
    CHECK(cudaMemset(d_out, 0, elements * sizeof(T)));
    store_phase<N, W, Column, Fenced><<<blocks, threads>>>(d_out, d_cycles);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c.data(), d_cycles, sizeof(long long) * blocks, cudaMemcpyDeviceToHost));
    if (l == launches - 1 && N == 64) {  // the values landed where the pattern says
      std::vector<T> h(elements);
      CHECK(cudaMemcpy(h.data(), d_out, elements * sizeof(T), cudaMemcpyDeviceToHost));
      for (std::size_t e = 0; e < elements; ++e) {
        const unsigned low = *reinterpret_cast<const unsigned*>(&h[e]);
        if (low != static_cast<unsigned>(e % (static_cast<std::size_t>(threads) * N))) {
          std::fprintf(stderr, "store_volume_probe: element %zu holds %u\n", e, low);
          std::exit(1);
        }
      }
    }
    CHECK(cudaFree(d_out));
    std::sort(c.begin(), c.end());
    best = std::min(best, static_cast<double>(c[c.size() / 2]));
  }
  CHECK(cudaFree(d_cycles));
  const long long per_instruction = Column ? (N * W >= 32 ? 32 : (32 * N * W + 31) / 32) : W;
  const long long sectors = static_cast<long long>(threads / 32) * N * per_instruction;
  std::printf("store\t%s\t%d\t%d\t%d\t%d\t%lld\t%.0f\n", Column ? "column" : "row", W, N, blocks, Fenced ? 1 : 0,
              sectors, best);
}

template <int W, bool Column, bool Fenced>
void run_counts(int blocks) {
  run_case<1, W, Column, Fenced>(blocks);
  run_case<2, W, Column, Fenced>(blocks);
  run_case<4, W, Column, Fenced>(blocks);
  run_case<8, W, Column, Fenced>(blocks);
  run_case<16, W, Column, Fenced>(blocks);
  run_case<32, W, Column, Fenced>(blocks);
  run_case<64, W, Column, Fenced>(blocks);
}

template <bool Fenced>
void run_patterns(int blocks) {
  run_counts<4, false, Fenced>(blocks);
  run_counts<16, false, Fenced>(blocks);
  run_counts<4, true, Fenced>(blocks);
  run_counts<8, true, Fenced>(blocks);
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# store_volume_probe on %s: one or four blocks of %d threads, n stores of W bytes per thread, row or "
              "column order, plain or fenced; median block of each launch, best of %d launches on fresh buffers\n"
              "# columns: table, pattern, W, n, blocks, fenced, sectors per block, cycles per block\n",
              prop.name, threads, launches);
  for (int blocks : {1, 4}) {
    run_patterns<false>(blocks);
    run_patterns<true>(blocks);
  }
  return 0;
}
