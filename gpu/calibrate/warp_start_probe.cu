// tilesim/gpu/calibrate/warp_start_probe.cu: when each warp of a block starts, and what a first barrier waits for (issue 33).
//
// WHAT IT IS. Over the H200 props recordings, blocks of 8 warps are under-predicted by 7-11 % (signed median) in every
// kind, even where they store little, while blocks of 1-4 warps are within 2 %. The model starts every wave of a
// block at the same clock. This probe asks whether the warps of a block start one after another: each warp's lane 0
// reads clock64 as its first instruction and again after the block's first barrier; thread 0's first read is the
// block's origin (as the props and cross-check kernels time a block from thread 0). Printed as TSV rows
//   start  <threads per block>  <blocks>  <warp w>  <median start of warp w - start of warp 0>  <its min>  <its max>
//   barrier  <threads per block>  <blocks>  <median release of the first barrier - start of warp 0>
// over 15 launches (the median block of each launch, then the median over launches), for 32-1024 threads and 1 or
// 4 blocks. Not part of the Meson build: it runs on the device machine.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o warp_start_probe gpu/calibrate/warp_start_probe.cu && ./warp_start_probe
//
// WORKED EXAMPLE. `start 256 1 7 <d>`: in a one-block launch of 256 threads, warp 7 read its first clock d cycles
// after warp 0 did; `barrier 256 1 <b>`: the first barrier released b cycles after warp 0 started.
//
// INVARIANTS. Every CUDA call is checked (cuda_check.cuh: exit 1 naming it); clock64 is one counter per SM, so the
// warps of a block (one SM) compare directly.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "cuda_check.cuh"

constexpr int launches = 15;

// Lane 0 of warp w of block b writes its start clock to start[b * warps + w] and its release from the first
// barrier to release[b * warps + w].
__global__ void warp_clocks(long long* start, long long* release) {
  long long t0;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0)::"memory");
  __syncthreads();
  long long t1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1)::"memory");
  const int warps = blockDim.x / 32;
  if (threadIdx.x % 32 == 0) {
    start[blockIdx.x * warps + threadIdx.x / 32] = t0;
    release[blockIdx.x * warps + threadIdx.x / 32] = t1;
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# warp_start_probe on %s: lane 0 of every warp reads clock64 first and after the first barrier; %d "
              "launches, the median block of each, then the median over launches (min, max over launches)\n"
              "# columns: start, threads, blocks, warp, cycles after warp 0's start, min, max | barrier, threads, "
              "blocks, release after warp 0's start, min, max\n",
              prop.name, launches);
  for (int threads : {32, 64, 128, 256, 512, 1024})
    for (int blocks : {1, 4}) {
      const int warps = threads / 32;
      long long *d_start = nullptr, *d_release = nullptr;
      CHECK(cudaMalloc(&d_start, sizeof(long long) * warps * blocks));
      CHECK(cudaMalloc(&d_release, sizeof(long long) * warps * blocks));
      std::vector<std::vector<double>> offset(static_cast<std::size_t>(warps));  // per warp, one value per launch
      std::vector<double> barrier;
      std::vector<long long> s(static_cast<std::size_t>(warps * blocks)), r(s.size());
      for (int l = 0; l < launches; ++l) {
        warp_clocks<<<blocks, threads>>>(d_start, d_release);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(s.data(), d_start, sizeof(long long) * s.size(), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(r.data(), d_release, sizeof(long long) * r.size(), cudaMemcpyDeviceToHost));
        for (int w = 0; w < warps; ++w) {
          std::vector<double> per_block;
          for (int b = 0; b < blocks; ++b)
            per_block.push_back(static_cast<double>(s[static_cast<std::size_t>(b * warps + w)] - s[static_cast<std::size_t>(b * warps)]));
          offset[static_cast<std::size_t>(w)].push_back(median(per_block));
        }
        std::vector<double> per_block;
        for (int b = 0; b < blocks; ++b)
          per_block.push_back(static_cast<double>(r[static_cast<std::size_t>(b * warps)] - s[static_cast<std::size_t>(b * warps)]));
        barrier.push_back(median(per_block));
      }
      for (int w = 0; w < warps; ++w) {
        const std::vector<double>& o = offset[static_cast<std::size_t>(w)];
        std::printf("start\t%d\t%d\t%d\t%.0f\t%.0f\t%.0f\n", threads, blocks, w, median(o), *std::min_element(o.begin(), o.end()),
                    *std::max_element(o.begin(), o.end()));
      }
      std::printf("barrier\t%d\t%d\t%.0f\t%.0f\t%.0f\n", threads, blocks, median(barrier),
                  *std::min_element(barrier.begin(), barrier.end()), *std::max_element(barrier.begin(), barrier.end()));
      CHECK(cudaFree(d_start));
      CHECK(cudaFree(d_release));
    }
  return 0;
}
