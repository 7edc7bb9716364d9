// tilesim/gpu/calibrate/ldmatrix_probe.cu: what a bank-conflicted ldmatrix.x4 costs, against LDS.128 at the same rows.
//
// WHAT IT IS. A probe for issue 12's ldmatrix.x4 outlier: lds-index-swap read through ldmatrix.x4 from a row-major
// tile has 320 LDS wavefronts against 128 (Nsight agrees with the simulator), yet on an H100 runs no slower than
// the conflict-free layout, where the model serializes the excess. Here W warps each issue `iterations` ldmatrix.x4
// (or LDS.128: each lane loads 16 bytes at its own row address) from one 8 KiB shared tile, the lane addresses
// making a k-way conflict in every 8-lane phase: lane l's row address is (l % 8) * stride + (l / 8) * 16 bytes, with
// stride 16 (conflict-free: 8 rows in 8 sixteen-byte bank groups), 32 (2-way: 4 groups), 64 (4-way), 128 (8-way).
// Each TSV row: instruction, ways, warps, cycles per instruction per warp (clock64 around the loop of the slowest
// warp, divided by iterations), and the cycles per instruction the SM sustained (that / warps).
// Not part of the Meson build: it runs on the device machine.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o ldmatrix_probe gpu/calibrate/ldmatrix_probe.cu && ./ldmatrix_probe
//
// WORKED EXAMPLE. stride 128: the 8 row addresses of a phase are 128 bytes apart, all in banks 0-3: 8-way. A row
// `ldmatrix.x4  8  8  ...` gives what 8 warps of 8-way ldmatrix.x4 cost the SM per instruction.
//
// INVARIANTS. Every CUDA call is checked (exit 1 with CUDA's message). The loaded values are folded into an output
// word per thread so no load is dead (checked: nonzero sum for a nonzero tile).
#include <cstdio>
#include <cstdlib>

#include "cuda_check.cuh"  // CHECK(call)

constexpr int tile_bytes = 8192, iterations = 1024;

// Ldmatrix: one ldmatrix.x4 per iteration, else one LDS.128. The address moves by `step` bytes each iteration
// (within the tile) so the compiler cannot hoist the load; every lane moves together, so the conflict stays.
template <bool Ldmatrix>
__global__ void probe(int stride, unsigned* out, long long* cycles) {
  __shared__ __align__(16) unsigned char tile[tile_bytes];
  for (int i = threadIdx.x; i < tile_bytes / 4; i += blockDim.x) reinterpret_cast<unsigned*>(tile)[i] = i + 1;
  __syncthreads();
  const int lane = threadIdx.x % 32;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  unsigned offset = (lane % 8) * stride + (lane / 8) * 16;
  unsigned a = 0, b = 0, c = 0, d = 0;
  __syncthreads();
  const long long t0 = clock64();
#pragma unroll 16
  for (int i = 0; i < iterations; ++i) {
    const unsigned addr = base + ((offset + static_cast<unsigned>(i) * 1024u) & (tile_bytes - 1));
    unsigned r0, r1, r2, r3;
    if constexpr (Ldmatrix)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    else
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    a ^= r0;
    b += r1;
    c ^= r2;
    d += r3;
  }
  const long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
  if (lane == 0) cycles[threadIdx.x / 32] = t1 - t0;
}

int main() {
  unsigned* out;
  long long* cycles;
  CHECK(cudaMalloc(&out, 1024 * 4));
  CHECK(cudaMalloc(&cycles, 32 * 8));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# ldmatrix_probe on %s, %d iterations per warp, best of 5\n", prop.name, iterations);
  std::printf("instruction\tways\twarps\tcycles_per_instruction_per_warp\tsm_cycles_per_instruction\n");
  const int strides[] = {16, 32, 64, 128}, ways[] = {1, 2, 4, 8};
  for (int ld = 0; ld < 2; ++ld)
    for (int s = 0; s < 4; ++s)
      for (int warps : {1, 4, 8, 16}) {
        double best = 1e30;
        for (int rep = 0; rep < 5; ++rep) {
          if (ld) probe<true><<<1, warps * 32>>>(strides[s], out, cycles);
          else probe<false><<<1, warps * 32>>>(strides[s], out, cycles);
          CHECK(cudaGetLastError());
          CHECK(cudaDeviceSynchronize());
          long long c[32];
          CHECK(cudaMemcpy(c, cycles, warps * 8, cudaMemcpyDeviceToHost));
          long long worst = 0;
          for (int w = 0; w < warps; ++w) worst = c[w] > worst ? c[w] : worst;
          const double per = static_cast<double>(worst) / iterations;
          best = per < best ? per : best;
        }
        std::printf("%s\t%d\t%d\t%.2f\t%.3f\n", ld ? "ldmatrix.x4" : "LDS.128", ways[s], warps, best, best / warps);
      }
  return 0;
}
