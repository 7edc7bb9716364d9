// tilesim/gpu/reference/user_twins.cu: the twins of user_twins.hpp as CUDA kernels, and their launchers.
//
// Each kernel is its program's algorithm written by hand (see the programs' headers for the algorithms): indices
// from thread_index / block_index (their bounds stated), the buffers at constant slots 0 (in) and 1 (out), LDS in
// the launch's dynamic shared memory, every loop over constants unrolled, the same accesses in the same order.
#include <string>

#include "gpu/reference/reference_kernels.cuh"
#include "gpu/reference/user_twins.hpp"
#include "gpu/runtime/kernel_launch.hpp"

namespace tilesim::gpu {
namespace {

using reference::block_index;
using reference::thread_index;
using reference::timed_block;

extern __shared__ __align__(16) unsigned char twin_lds[];

// examples/stencil: halo 34 x 34 in 5 guarded steps (all loads, then all stores), barrier, 4 outputs a thread.
template <int Pitch>
__global__ __launch_bounds__(256) void stencil_twin(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    const float* in = static_cast<const float*>(a.pointer[0]);
    float* out = static_cast<float*>(a.pointer[1]);
    float* lds = reinterpret_cast<float*>(twin_lds);
    constexpr int tiles = 4, n = 128, padded = n + 2, halo = 34, elements = halo * halo;
    const int t = thread_index<256>(), b = block_index(), tx = b % tiles, ty = b / tiles;
    const int origin = ty * 32 * padded + tx * 32;
    float staged[5];
#pragma unroll
    for (int s = 0; s < 5; ++s)
      if (const int i = s * 256 + t; i < elements) staged[s] = in[origin + (i / halo) * padded + i % halo];
#pragma unroll
    for (int s = 0; s < 5; ++s)
      if (const int i = s * 256 + t; i < elements) lds[(i / halo) * Pitch + i % halo] = staged[s];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int o = k * 256 + t, y = o / 32, x = o % 32, centre = (y + 1) * Pitch + x + 1;
      float sum = lds[centre - Pitch];
      sum += lds[centre + Pitch];
      sum += lds[centre - 1];
      sum += lds[centre + 1];
      sum += lds[centre];
      out[(ty * 32 + y) * n + tx * 32 + x] = sum;
    }
  });
}

// examples/row_sums: a warp per row, two float4 loads a lane, the butterfly, lane 0 stores.
__global__ __launch_bounds__(256) void row_sums_twin(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    const float* in = static_cast<const float*>(a.pointer[0]);
    float* out = static_cast<float*>(a.pointer[1]);
    const int t = thread_index<256>(), row = block_index() * 8 + t / 32, lane = t % 32;
    const float4 x = *reinterpret_cast<const float4*>(in + row * 256 + 4 * lane);
    const float4 y = *reinterpret_cast<const float4*>(in + row * 256 + 128 + 4 * lane);
    float sum = x.x + x.y + x.z + x.w + y.x + y.y + y.z + y.w;
#pragma unroll
    for (int mask = 16; mask >= 1; mask /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, mask);
    if (lane == 0) out[row] = sum;
  });
}

// examples/async_pipeline: 8 tiles of 16 x 256 floats a workgroup, staged with cp.async into two 16 KiB buffers,
// column t added by thread t; the same copies, waits and barriers as the program.
__global__ __launch_bounds__(256) void async_pipeline_twin(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    const float* in = static_cast<const float*>(a.pointer[0]);
    float* out = static_cast<float*>(a.pointer[1]);
    float* lds = reinterpret_cast<float*>(twin_lds);
    constexpr int tiles = 8, tile = 16 * 256;
    const int t = thread_index<256>(), b = block_index();
    const float* slab = in + b * tiles * tile;
    auto stage = [&](int k) {
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int e = (4 * i + t / 64) * 256 + 4 * (t % 64);
        const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(lds + (k % 2) * tile + e));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(slab + k * tile + e) : "memory");
      }
      asm volatile("cp.async.commit_group;" ::: "memory");
    };
    float sum = 0.0f;
    stage(0);
#pragma unroll
    for (int k = 0; k < tiles; ++k) {
      if (k + 1 < tiles) {
        stage(k + 1);
        asm volatile("cp.async.wait_group 1;" ::: "memory");
      } else {
        asm volatile("cp.async.wait_group 0;" ::: "memory");
      }
      __syncthreads();
#pragma unroll
      for (int r = 0; r < 16; ++r) sum += lds[(k % 2) * tile + r * 256 + t];
      __syncthreads();
    }
    out[b * 256 + t] = sum;
  });
}

// examples/fp16_transpose's LDS element offset of (row, column) in the 64 x 64 tile.
template <int Layout>
__device__ __forceinline__ int transpose_offset(int r, int c) {
  if constexpr (Layout == 0) return r * 64 + c;
  else if constexpr (Layout == 1) return r * 72 + c;
  else return r * 64 + ((((c >> 3) ^ (r >> 3)) & 7) << 3) + (c & 7);  // Swizzle<3,3,6>: chunk XOR (row / 8) % 8
}

// examples/fp16_transpose: 2 x (uint4 load), 2 x (uint4 LDS store), barrier, 2 x (8 u16 LDS loads, uint4 store).
template <int Layout>
__global__ __launch_bounds__(256) void transpose_twin(kernel_args a) {
  timed_block(a.block_cycles, [&] {
    const unsigned short* in = static_cast<const unsigned short*>(a.pointer[0]);
    unsigned short* out = static_cast<unsigned short*>(a.pointer[1]);
    unsigned short* lds = reinterpret_cast<unsigned short*>(twin_lds);
    constexpr int tiles = 4, n = 256;
    const int t = thread_index<256>(), b = block_index(), tx = b % tiles, ty = b / tiles;
    uint4 staged[2];
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      const int q = s * 256 + t, r = q / 8, c = q % 8 * 8;
      staged[s] = *reinterpret_cast<const uint4*>(in + (ty * 64 + r) * n + tx * 64 + c);
    }
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      const int q = s * 256 + t, r = q / 8, c = q % 8 * 8;
      *reinterpret_cast<uint4*>(lds + transpose_offset<Layout>(r, c)) = staged[s];
    }
    __syncthreads();
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      const int q = s * 256 + t, x = q / 8, k = q % 8;
      unsigned v[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) v[j] = lds[transpose_offset<Layout>(k * 8 + j, x)];
      const uint4 packed{v[0] | v[1] << 16, v[2] | v[3] << 16, v[4] | v[5] << 16, v[6] | v[7] << 16};
      *reinterpret_cast<uint4*>(out + (tx * 64 + x) * n + ty * 64 + k * 8) = packed;
    }
  });
}

// The launch every twin is compiled for: grid 16, block 256; else device_error naming what was asked.
void require_shape(const char* twin, const device_launch& l) {
  if (l.grid != 16 || l.block != 256)
    throw device_error(std::string(twin) + ": the twin is compiled for grid 16, block 256, not grid " +
                       std::to_string(l.grid) + ", block " + std::to_string(l.block));
}

}  // namespace

device_result launch_stencil_twin(int pitch, const device_launch& l, std::vector<byte_buffer> buffers) {
  require_shape("stencil twin", l);
  if (pitch == 34) return detail::launch_kernel(stencil_twin<34>, l, std::move(buffers));
  if (pitch == 36) return detail::launch_kernel(stencil_twin<36>, l, std::move(buffers));
  throw device_error("stencil twin: pitch " + std::to_string(pitch) + " is not compiled (34 or 36)");
}

device_result launch_row_sums_twin(const device_launch& l, std::vector<byte_buffer> buffers) {
  require_shape("row sums twin", l);
  return detail::launch_kernel(row_sums_twin, l, std::move(buffers));
}

device_result launch_async_pipeline_twin(const device_launch& l, std::vector<byte_buffer> buffers) {
  require_shape("async pipeline twin", l);
  return detail::launch_kernel(async_pipeline_twin, l, std::move(buffers));
}

device_result launch_transpose_twin(int layout, const device_launch& l, std::vector<byte_buffer> buffers) {
  require_shape("transpose twin", l);
  if (layout == 0) return detail::launch_kernel(transpose_twin<0>, l, std::move(buffers));
  if (layout == 1) return detail::launch_kernel(transpose_twin<1>, l, std::move(buffers));
  if (layout == 2) return detail::launch_kernel(transpose_twin<2>, l, std::move(buffers));
  throw device_error("transpose twin: layout " + std::to_string(layout) + " is not compiled (0, 1 or 2)");
}

}  // namespace tilesim::gpu
