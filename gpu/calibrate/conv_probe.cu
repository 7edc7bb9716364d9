// tilesim/gpu/calibrate/conv_probe.cu: when does each load of the im2col convolution's warp get its data?
//
// WHAT IT IS. A probe for issue 12's worst point: "example conv: im2col, NHWC 2x8x8x4 3x3 -> 8" (grid 3 x 192,
// 6 warps per block) takes ~1400 cycles per block on an H100 where the timing model predicts ~730: one
// first-touch latency round (523 cycles) plus the sectors' service. Its loads are 18 LDG.128 per thread, all
// issued before the first use (9 of the im2col A row, 9 of the weights row B). This kernel is the hand-written
// im2col (the same addresses as gpu/reference's conv_body) with a clock64 after each load's first use, so the
// per-warp arrival time of every load shows whether the data comes in one round or two, and which loads wait.
// Variants, each a TSV row per (variant, load):
//   cold        buffers allocated and copied from the host before every launch (as the cross-check's are)
//   warm        the same buffers launched twice, the second timed (L2-resident data)
//   a_only      only the 9 A loads (the B values are constants)
//   b_only      only the 9 B loads
//   private     every warp reads its own copy of the input and weights (no sector shared across warps)
//   one_warp    blocks of 32 threads (grid 18 x 32: the same outputs, one warp per block)
//   one_block   only block 0 (the other two blocks' outputs are not computed)
// Not part of the Meson build (like global_memory.cu): it runs on the device machine.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o conv_probe gpu/calibrate/conv_probe.cu && ./conv_probe
//
// WORKED EXAMPLE. A row `cold  load 0  arrival 560  cycles/block 1390` says the median block's warp 0 had its
// first A load's data 560 clocks after the block's first clock64, and the whole block took 1390 clocks.
//
// INVARIANTS. Every CUDA call is checked (exit 1 with CUDA's message); every variant's outputs are checked against
// a host convolution of the same products (exit 1 naming the first wrong element).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.cuh"  // CHECK(call)

// NHWC 2x8x8x4, 3x3 filter, stride 1, no pad, COut 8: M = 72, K = 36, KPerBlock 12, 4-float vectors.
constexpr int N = 2, H = 8, W = 8, CI = 4, CO = 8, R = 3, S = 3, HO = 6, WO = 6, K = R * S * CI, KB = S * CI;
constexpr int loads = 2 * K / 4;  // 9 A + 9 B
constexpr int input_floats = N * H * W * CI, weight_floats = CO * K, outputs = N * HO * WO * CO;

__device__ __forceinline__ long long now() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// One output per thread (o = global thread index); `stride` floats between warps' private copies (0: shared).
template <bool UseA, bool UseB>
__global__ void im2col(const float4* x, const float4* wt, float* out, int threads_per_block, int x_stride,
                       int w_stride, long long* stamps) {
  const int t = threadIdx.x, o = blockIdx.x * threads_per_block + t;
  const int warp = o / 32;
  const int m = o / CO, co = o % CO, wo = m % WO, ho = m / WO % HO, n = m / (WO * HO);
  const float4* xs = x + (x_stride / 4) * warp;
  const float4* ws = wt + (w_stride / 4) * warp;
  __syncthreads();
  const long long t0 = now();
  float4 v[K / 4], f[K / 4];
#pragma unroll
  for (int k0 = 0; k0 < K; k0 += KB) {
#pragma unroll
    for (int j = 0; j < KB; j += 4) {
      const int k = k0 + j, r = k / (S * CI), s = k / CI % S;
      v[k / 4] = UseA ? xs[(((n * H + ho + r) * W + wo + s) * CI) / 4] : make_float4(1, 1, 1, 1);
    }
#pragma unroll
    for (int j = 0; j < KB; j += 4) f[(k0 + j) / 4] = UseB ? ws[(co * K + k0 + j) / 4] : make_float4(1, 1, 1, 1);
  }
  asm volatile("" ::: "memory");  // every load above is issued before the first clock below
  const long long issued = now();
  float acc = 0.0f;
  long long arrival[loads];
#pragma unroll
  for (int i = 0; i < K / 4; ++i) {  // the program's order: A then B per step; here A_i then B_i
    acc += v[i].x * f[i].x + v[i].y * f[i].y + v[i].z * f[i].z + v[i].w * f[i].w;
    asm volatile("" : "+f"(acc));
    arrival[i] = now();
  }
  out[o] = acc;
  __syncthreads();
  const long long t_end = now();
  if (t == 0 || t % 32 == 0) {
    long long* s = stamps + (static_cast<long long>(blockIdx.x) * (threads_per_block / 32) + t / 32) * (K / 4 + 3);
    s[0] = issued - t0;
    for (int i = 0; i < K / 4; ++i) s[1 + i] = arrival[i] - t0;
    s[1 + K / 4] = t_end - t0;
    s[2 + K / 4] = warp;
  }
}

struct variant {
  const char* name;
  bool use_a, use_b, warm, private_copies;
  int threads, grid;
};

int main() {
  std::vector<float> x(input_floats), w(weight_floats);
  for (int i = 0; i < input_floats; ++i) x[i] = static_cast<float>(i % 7) - 3.0f;
  for (int i = 0; i < weight_floats; ++i) w[i] = static_cast<float>(i % 5) - 2.0f;
  const variant variants[] = {
      {"cold", true, true, false, false, 192, 3},     {"warm", true, true, true, false, 192, 3},
      {"a_only", true, false, false, false, 192, 3},  {"b_only", false, true, false, false, 192, 3},
      {"private", true, true, false, true, 192, 3},   {"one_warp", true, true, false, false, 32, 18},
      {"one_block", true, true, false, false, 192, 1},
  };
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# conv_probe on %s, %d SMs\nvariant\tload\tarrival_cycles\tissued_cycles\tblock_cycles\n", prop.name,
              prop.multiProcessorCount);
  const int warps_total = outputs / 32;
  for (const variant& v : variants) {
    const int copies = v.private_copies ? warps_total : 1;
    const int xs = v.private_copies ? input_floats : 0, ws = v.private_copies ? weight_floats : 0;
    std::vector<float> xr(static_cast<size_t>(input_floats) * copies), wr(static_cast<size_t>(weight_floats) * copies);
    for (int c = 0; c < copies; ++c) {
      std::memcpy(xr.data() + static_cast<size_t>(c) * input_floats, x.data(), x.size() * 4);
      std::memcpy(wr.data() + static_cast<size_t>(c) * weight_floats, w.data(), w.size() * 4);
    }
    const int warps = v.threads / 32 * v.grid, per = K / 4 + 3;
    std::vector<std::vector<long long>> best;  // per launch: block cycles of the median block and its warp-0 stamps
    long long best_total = -1;
    std::vector<long long> best_stamps;
    for (int launch = 0; launch < 5; ++launch) {
      float *dx, *dw, *dout;
      long long* ds;
      CHECK(cudaMalloc(&dx, xr.size() * 4));
      CHECK(cudaMalloc(&dw, wr.size() * 4));
      CHECK(cudaMalloc(&dout, outputs * 4));
      CHECK(cudaMalloc(&ds, static_cast<size_t>(warps) * per * 8));
      CHECK(cudaMemcpy(dx, xr.data(), xr.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dw, wr.data(), wr.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemset(dout, 0, outputs * 4));
      auto k = v.use_a && v.use_b ? im2col<true, true> : v.use_a ? im2col<true, false> : im2col<false, true>;
      for (int rep = 0; rep < (v.warm ? 2 : 1); ++rep) {
        k<<<v.grid, v.threads>>>(reinterpret_cast<const float4*>(dx), reinterpret_cast<const float4*>(dw), dout,
                                 v.threads, xs, ws, ds);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
      }
      std::vector<float> got(outputs);
      std::vector<long long> stamps(static_cast<size_t>(warps) * per);
      CHECK(cudaMemcpy(got.data(), dout, outputs * 4, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(stamps.data(), ds, stamps.size() * 8, cudaMemcpyDeviceToHost));
      for (int o = 0; o < v.threads * v.grid; ++o) {  // the host's sum, in the kernel's order
        const int m = o / CO, co = o % CO, wo = m % WO, ho = m / WO % HO, n = m / (WO * HO);
        float acc = 0.0f;
        for (int i = 0; i < K / 4; ++i) {
          const int k = i * 4, r = k / (S * CI), s = k / CI % S;
          float p[4], q[4];
          for (int e = 0; e < 4; ++e) {
            p[e] = v.use_a ? x[((n * H + ho + r) * W + wo + s) * CI + e] : 1.0f;
            q[e] = v.use_b ? w[co * K + k + e] : 1.0f;
          }
          acc += p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
        }
        if (std::fabs(got[o] - acc) > 1e-4f * (1.0f + std::fabs(acc))) {
          std::fprintf(stderr, "conv_probe: %s: output %d is %g, expected %g\n", v.name, o, got[o], acc);
          return 1;
        }
      }
      // The median block by its cycles (warp 0's end stamp after the final barrier).
      std::vector<std::pair<long long, int>> blocks;
      for (int b = 0; b < v.grid; ++b) blocks.push_back({stamps[static_cast<size_t>(b) * (v.threads / 32) * per + 1 + K / 4], b});
      std::sort(blocks.begin(), blocks.end());
      const auto median = blocks[blocks.size() / 2];
      if (best_total < 0 || median.first < best_total) {
        best_total = median.first;
        best_stamps.assign(stamps.begin() + static_cast<long>(median.second) * (v.threads / 32) * per,
                           stamps.begin() + static_cast<long>(median.second + 1) * (v.threads / 32) * per);
      }
      CHECK(cudaFree(dx));
      CHECK(cudaFree(dw));
      CHECK(cudaFree(dout));
      CHECK(cudaFree(ds));
    }
    for (int wv = 0; wv < v.threads / 32; ++wv)
      for (int i = 0; i < K / 4; ++i)
        std::printf("%s\twarp %d load %d\t%lld\t%lld\t%lld\n", v.name, wv, i, best_stamps[wv * per + 1 + i],
                    best_stamps[wv * per], best_stamps[wv * per + 1 + K / 4]);
  }
  return 0;
}
