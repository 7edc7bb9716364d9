// tilesim/gpu/calibrate/copy_kernel_probe.cu: the catalogue's copy kernels rebuilt elsewhere, padded and pre-warmed.
//
// WHAT IT IS. The second probe for issue 12's two speed-up outliers (the first, copy_layout_probe.cu, ran every
// layout through one compiled kernel and found SW64 and CK-XOR 2025 equal there). Here the catalogue's own copy
// kernels (copy_tile on gpu/kernels/programs/copy_fp16.hpp copy_fp16_shapes[I], the source of kernels.cu's copy_fp16_kernel<I>)
// are compiled again in this binary, so their code sits at other addresses, and in variants:
//   padN    N NANOSLEEPs before the timed region: the same timed code N x 16 bytes further into its
//           instruction-cache lines (the NANOSLEEPs run before the clock starts)
//   warm    before the clock, thread 0 reads one word of the input and of the output tile and the block waits
//           for them (the pages' translations and those lines are then warm; the other lines stay cold)
//   fence   cta / gpu: __threadfence_block() / __threadfence() after the program, before the timed region's last
//           barrier (cta is what run_program does since 6edb4e5; the probe keeps the old timing as "none").
//           Without one, the last clock read (CS2R Rx) waits for the global stores only where ptxas happened to
//           give Rx to a store's operand (a write-after-read wait for the store to read its registers): 106 of
//           the catalogue's 118 timed kernels, not SW64's <17>, padded's <8> or the 64x64 cute-swizzle copy's <6>
//           (data/calibration/h100-catalogue-sass.gz; h100-copy-end-clock-stalls.txt has Nsight's stall samples).
// Kernels: I = 7 row-major, 10 CK-XOR 2025, 17 SW64 (LDS.128 reads), 24 row-major and 27 CK-XOR 2025 (ldmatrix.x4),
// and with the fences also 8 (padded, LDS.128) and 4, 5, 6 (the built-in 64x64 copies, one block of 256 threads).
// Launched as the cross-check launches them: grid 1, 256 threads, fresh buffers copied from the host every
// launch, clock64 from a barrier before the program to a barrier after it; best and median of 10 launches.
// Not part of the Meson build: it runs on the device machine, from the repository root.
//   nvcc -std=c++20 -O3 -arch=sm_90 -I . -o copy_kernel_probe gpu/calibrate/copy_kernel_probe.cu
//   ./copy_kernel_probe [rounds]
//
// WORKED EXAMPLE. A row `pad0  cold  none  17  sw64  0  744  757` says round 0 of copy_fp16_shapes[17] (SW64) as
// compiled here, unpadded and cold, took 744 cycles in its best launch of 10 and 757 in the median one
// (data/calibration/h100-copy-kernel-probe.tsv; CK-XOR 2025's kernel took 788 and 872 in the same round).
//
// INVARIANTS. Every CUDA call is checked (exit 1 with CUDA's message); every launch's output must equal its input
// (each of these copies is the identity on the tile; exit 1 naming the kernel and the first wrong byte).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu/calibrate/cuda_check.cuh"  // CHECK(call)
#include "gpu/calibrate/fresh_launch.cuh"  // fresh_launch, median
#include "gpu/kernels/programs/copy_fp16.hpp"
#include "gpu/runtime/device_context.hpp"

namespace {

using namespace tilesim;
using namespace tilesim::gpu;

constexpr int threads = 256, tile_bytes = 128 * 32 * 2, shared_bytes = 10240, launches = 10;

enum class fence { none, cta, gpu };

// copy_fp16_kernel<I> of kernels.cu (timed as before 6edb4e5), after Pad NANOSLEEPs and (Warm) a waited-for read of both tiles, with Fence
// after the program.
template <int I, int Pad, bool Warm, fence Fence = fence::none>
__global__ __launch_bounds__(threads, 2) void probe_copy(kernel_args a) {
#pragma unroll
  for (int i = 0; i < Pad; ++i) asm volatile("nanosleep.u32 0;");
  if constexpr (Warm) {
    unsigned x = 0;
    if (threadIdx.x == 0)
      x = *static_cast<volatile unsigned*>(a.pointer[0]) ^ *static_cast<volatile unsigned*>(a.pointer[1]);
    if (__syncthreads_or(x == 0x9e3779b9u)) asm volatile("nanosleep.u32 1;");  // waits for both reads
  }
  // gpu/runtime/device_context.hpp's run_program as it was before 6edb4e5 (no fence of its own), with Fence.
  device_context ctx(a);
  const bool timed = a.block_cycles != nullptr;
  long long start = 0;
  if (timed) {
    __syncthreads();
    start = clock64();
  }
  programs::copy_tile<std::uint16_t>(ctx, constant<compiled::copy_fp16_shapes[I]>{});
  if constexpr (Fence == fence::cta) __threadfence_block();
  if constexpr (Fence == fence::gpu) __threadfence();
  if (timed) {
    __syncthreads();
    const long long end = clock64();
    if (threadIdx.x == 0) a.block_cycles[blockIdx.x] = end - start;
  }
}

using kernel_fn = void (*)(kernel_args);

struct variant {
  const char* pad;
  const char* warmth;
  const char* fence;
  int shape;
  const char* layout;
  kernel_fn kernel;
};

template <int I, const char* Layout>
void add(std::vector<variant>& v) {
  v.push_back({"pad0", "cold", "none", I, Layout, probe_copy<I, 0, false>});
  v.push_back({"pad4", "cold", "none", I, Layout, probe_copy<I, 4, false>});
  v.push_back({"pad8", "cold", "none", I, Layout, probe_copy<I, 8, false>});
  v.push_back({"pad0", "warm", "none", I, Layout, probe_copy<I, 0, true>});
}

template <int I, const char* Layout>
void add_fences(std::vector<variant>& v) {
  v.push_back({"pad0", "cold", "cta", I, Layout, probe_copy<I, 0, false, fence::cta>});
  v.push_back({"pad0", "cold", "gpu", I, Layout, probe_copy<I, 0, false, fence::gpu>});
}

constexpr char row_major[] = "row_major", ck_xor_2025[] = "ck_xor_2025", sw64[] = "sw64",
               row_major_ldsm[] = "row_major_ldsm", ck_xor_2025_ldsm[] = "ck_xor_2025_ldsm", padded[] = "padded",
               row_major_64[] = "row_major_64x64", ck_xor_64[] = "ck_xor_64x64", cute_64[] = "cute_swizzle_64x64";

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
  std::vector<variant> variants;
  add<7, row_major>(variants);
  add<10, ck_xor_2025>(variants);
  add<17, sw64>(variants);
  add<24, row_major_ldsm>(variants);
  add<27, ck_xor_2025_ldsm>(variants);
  add_fences<7, row_major>(variants);
  add_fences<10, ck_xor_2025>(variants);
  add_fences<17, sw64>(variants);
  add_fences<24, row_major_ldsm>(variants);
  add_fences<27, ck_xor_2025_ldsm>(variants);
  add_fences<8, padded>(variants);
  add<4, row_major_64>(variants);
  add_fences<4, row_major_64>(variants);
  add<5, ck_xor_64>(variants);
  add_fences<5, ck_xor_64>(variants);
  add<6, cute_64>(variants);
  add_fences<6, cute_64>(variants);
  std::vector<unsigned char> in(tile_bytes);
  for (int i = 0; i < tile_bytes; ++i) in[i] = static_cast<unsigned char>(i * 7 + i / 256 + 1);
  long long* cycles = nullptr;
  CHECK(cudaMalloc(&cycles, sizeof(long long)));
  std::printf("pad\twarmth\tfence\tshape\tlayout\tround\tbest\tmedian\n");
  for (int round = 0; round < rounds; ++round)
    for (const variant& v : variants) {
      CHECK(cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
      std::vector<long long> spans;
      for (int launch = 0; launch < launches; ++launch) {
        const fresh_run run = fresh_launch(in, cycles, [&](unsigned char* d_in, unsigned char* d_out) {
          kernel_args a;
          a.pointer[0] = d_in, a.pointer[1] = d_out;
          a.bytes[0] = a.bytes[1] = tile_bytes;
          a.slots = 2;
          a.lds_bytes = shared_bytes;
          a.block_cycles = cycles;
          v.kernel<<<1, threads, shared_bytes>>>(a);
        });
        for (int b = 0; b < tile_bytes; ++b)
          if (run.out[b] != in[b]) {
            std::fprintf(stderr, "copy_kernel_probe: shape %d (%s) %s %s %s: output byte %d is %d, the input's %d\n",
                         v.shape, v.layout, v.pad, v.warmth, v.fence, b, run.out[b], in[b]);
            return 1;
          }
        spans.push_back(run.span);
      }
      std::printf("%s\t%s\t%s\t%d\t%s\t%d\t%lld\t%.0f\n", v.pad, v.warmth, v.fence, v.shape, v.layout, round,
                  *std::min_element(spans.begin(), spans.end()), median(spans));
    }
  CHECK(cudaFree(cycles));
  return 0;
}
