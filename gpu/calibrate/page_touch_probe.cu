// tilesim/gpu/calibrate/page_touch_probe.cu: what a first touch costs after an earlier one nearby (issue 33, loops).
//
// WHAT IT IS. The generated loops (props --kinds loop) run about 245 cycles per tile faster than the timing model
// says, although their SASS loads each tile only after the previous tile's barrier (data/calibration/
// h200-props-loop-seed20261203-draw6.sass). The model prices every sector a launch has not loaded at the
// fresh-buffer first-touch latency. This probe asks whether a first touch near an earlier one is cheaper: one warp,
// on a buffer allocated and filled from the host just before the launch (as props and the cross-check launch), loads
// T tiles of 128 bytes (lane l: word l), tile t at byte offset t * STRIDE, each load's address formed from the
// previous load's word (a chain), clock64 around chains of 0..T loads. Printed as TSV rows
//   touch  <stride bytes>  <tile t>  <cycles of tile t>  <median span of t+1 tiles>  <min>  <max>
// for strides 128 B (the next line) to 8 MiB (a new 2 MiB page every tile), tiles 0..T-1. If tile t > 0 costs the
// first tile's latency at every stride, a first touch is a first touch; if it is cheaper at small strides and not at
// large ones, the saving belongs to the page (TLB) or the DRAM row, and the stride where it stops says which.
// A second table, `touch_warm`, repeats each stride on the buffer the previous launch used (no host copy between).
// Not part of the Meson build (like the other probes): it runs on the device machine.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o page_touch_probe gpu/calibrate/page_touch_probe.cu && ./page_touch_probe
//
// WORKED EXAMPLE. `touch  4096  3  <c>` is the fourth tile's load, 12 KiB past the first, of a fresh buffer.
//
// INVARIANTS. Every CUDA call is checked (cuda_check.cuh: exit 1 naming it); the tiles of a launch lie in one buffer
// of tiles * stride bytes; every word is 1, so every chain reads exactly the tiles' first words.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "cuda_check.cuh"

constexpr int tiles = 8;
constexpr int launches = 7;

// One warp: `count` loads, tile t's at words t * stride_words + lane, each address formed from the previous loaded
// word (all words are 1: the offset is v - 1 == 0), so the loads run one after another; clock64 around the chain,
// the second read after a trap predicated on the last word (the clock cannot move above it). Tile t's cost is the
// span of count t + 1 less that of count t.
__global__ void touch_chain(const unsigned* buf, long long stride_words, int count, long long* span) {
  const unsigned lane = threadIdx.x;
  unsigned off = 0;
  long long t0, t1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0)::"memory");
  for (int t = 0; t < count; ++t) {
    unsigned v;
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(buf + t * stride_words + lane + off) : "memory");
    off = v - 1;
  }
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, 0; @p trap; }" ::"r"(off) : "memory");
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1)::"memory");
  if (lane == 0) *span = t1 - t0;
}

int main() {
  const long long strides[] = {128, 512, 4096, 65536, 1 << 20, 2 << 20, 8 << 20};
  long long* d_span = nullptr;
  CHECK(cudaMalloc(&d_span, sizeof(long long)));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# page_touch_probe on %s: one warp, chains of 0..%d dependent 128-byte tile loads, %d launches each;\n"
              "# columns: table, stride bytes, tile t, cycles of tile t (median span of t+1 tiles less median span of t), "
              "median span of t+1 tiles, its min, its max\n", prop.name, tiles, launches);
  for (const bool warm : {false, true}) {
    for (const long long stride : strides) {
      const std::size_t bytes = static_cast<std::size_t>(stride) * tiles + 128;
      std::vector<unsigned> host(bytes / 4, 1u);
      std::vector<std::vector<long long>> spans(tiles + 1);
      unsigned* d_buf = nullptr;
      for (int count = 0; count <= tiles; ++count)
        for (int l = 0; l < launches + 1; ++l) {  // launch 0 warms the kernel itself (not recorded)
          if (!warm || d_buf == nullptr) {
            if (d_buf != nullptr) CHECK(cudaFree(d_buf));
            CHECK(cudaMalloc(&d_buf, bytes));
            CHECK(cudaMemcpy(d_buf, host.data(), bytes, cudaMemcpyHostToDevice));
          }
          touch_chain<<<1, 32>>>(d_buf, stride / 4, count, d_span);
          CHECK(cudaGetLastError());
          CHECK(cudaDeviceSynchronize());
          long long s = 0;
          CHECK(cudaMemcpy(&s, d_span, sizeof s, cudaMemcpyDeviceToHost));
          if (l > 0) spans[count].push_back(s);
        }
      CHECK(cudaFree(d_buf));
      for (auto& v : spans) std::sort(v.begin(), v.end());
      for (int t = 0; t < tiles; ++t) {
        const std::vector<long long>& a = spans[t + 1];
        std::printf("%s\t%lld\t%d\t%lld\t%lld\t%lld\t%lld\n", warm ? "touch_warm" : "touch", stride, t,
                    a[a.size() / 2] - spans[t][spans[t].size() / 2], a[a.size() / 2], a.front(), a.back());
      }
    }
  }
  CHECK(cudaFree(d_span));
  return 0;
}
