// tilesim/gpu/device_context.hpp: the program model (sim/engine/program.hpp) on a real GPU.
//
// DEFINITION. device_context implements tile_context inside a kernel: ids are threadIdx.x, blockIdx.x,
// blockDim.x, gridDim.x and warpSize; barrier() is __syncthreads(); label() does nothing. Global slot k is
// kernel_args::pointer[k] (kernel_args::bytes[k] long) as a device_buffer; lds<T>(count) bumps an offset,
// rounded up to 16 bytes exactly as the simulator does, into the kernel's dynamic shared memory. A
// device_buffer moves each vector with one instruction of its width (vector_access.hpp), so the GPU issues
// the instructions the simulator priced: a lane's 8 fp16 are one ld.shared.v4.u32 (LDS.128), not eight LDS.U16.
//
// WORKED EXAMPLE. A kernel is one line per program (gpu/kernels.cu):
//   __global__ void copy_kernel(copy_params p, kernel_args a) {
//     run_program(a, [&](device_context& ctx) { copy_tile<std::uint16_t>(ctx, p); });
//   }
// Block 3, thread 70 on sm90: thread_id() == 70, warp() == 2, lane() == 6, block_id() == 3.
//
// INVARIANTS: a slot beyond kernel_args::slots, or LDS beyond kernel_args::lds_bytes, traps (the host sees
// the launch fail and reports it); a vector whose bytes are not 1/2/4/8/16 (or a multiple of 16), is not
// aligned to them, or is not wholly inside the buffer moves element by element, as the simulator's
// span_buffer would (it still gives T{} outside the buffer and drops stores there).
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__) || defined(__HIPCC__)
// First: threadIdx, __syncthreads, clock64 and HIP's device printf (spec/rules.hpp) come from it under hipcc,
// which, unlike nvcc, pre-includes none of them.
#include "gpu/hip_runtime.hpp"
#endif
#include "gpu/vector_access.hpp"
#include "sim/engine/program.hpp"

namespace tilesim::gpu {

inline constexpr int max_slots = 8;

// What every kernel receives besides its program's parameters.
struct kernel_args {
  void* pointer[max_slots] = {};
  index_t bytes[max_slots] = {};
  int slots = 0;
  unsigned lds_bytes = 0;               // dynamic shared memory of the launch
  long long* block_cycles = nullptr;    // timed kernels: clock64() cycles per block
};

#if defined(__CUDACC__) || defined(__HIPCC__)

template <class T, memory_space Space>
struct device_buffer {
  using value_type = T;
  T* data = nullptr;
  index_t count = 0;

  __device__ __forceinline__ index_t size() const { return count; }
  __device__ __forceinline__ bool holds(index_t i) const { return i >= 0 && i < count; }

  // Everything on this path is force-inlined: a call that stays a call takes the caller's vector by
  // address, which puts it in local memory (it made the lds_sweep loop 5x slower than its LDS traffic).
  __device__ __forceinline__ void load(index_t offset, index_t n, T* out, bool valid) const {
    if (valid && whole(offset, n) && vector_bytes(offset, n)) {
      const index_t bytes = n * static_cast<index_t>(sizeof(T));
      unsigned char* from = reinterpret_cast<unsigned char*>(data + offset);
      unsigned char* to = reinterpret_cast<unsigned char*>(out);
      for (index_t at = 0; at < bytes; at += 16) {
        switch (bytes - at < 16 ? bytes - at : 16) {
          case 1: load_chunk<1>(from + at, to + at); break;
          case 2: load_chunk<2>(from + at, to + at); break;
          case 4: load_chunk<4>(from + at, to + at); break;
          case 8: load_chunk<8>(from + at, to + at); break;
          default: load_chunk<16>(from + at, to + at); break;
        }
      }
      return;
    }
    for (index_t j = 0; j < n; ++j) out[j] = valid && holds(offset + j) ? data[offset + j] : T{};
  }

  __device__ __forceinline__ void store(index_t offset, index_t n, const T* in, bool valid) const {
    if (valid && whole(offset, n) && vector_bytes(offset, n)) {
      const index_t bytes = n * static_cast<index_t>(sizeof(T));
      unsigned char* to = reinterpret_cast<unsigned char*>(data + offset);
      const unsigned char* from = reinterpret_cast<const unsigned char*>(in);
      for (index_t at = 0; at < bytes; at += 16) {
        switch (bytes - at < 16 ? bytes - at : 16) {
          case 1: store_chunk<1>(to + at, from + at); break;
          case 2: store_chunk<2>(to + at, from + at); break;
          case 4: store_chunk<4>(to + at, from + at); break;
          case 8: store_chunk<8>(to + at, from + at); break;
          default: store_chunk<16>(to + at, from + at); break;
        }
      }
      return;
    }
    for (index_t j = 0; j < n; ++j)
      if (valid && holds(offset + j)) data[offset + j] = in[j];
  }

  // Element-wise read-modify-write; atomic in global memory where the type has an atomicAdd.
  __device__ void add(index_t offset, index_t n, const T* in, bool valid) const {
    for (index_t j = 0; j < n; ++j) {
      if (!valid || !holds(offset + j)) continue;
      if constexpr (Space == memory_space::global && requires(T* p, T v) { atomicAdd(p, v); })
        atomicAdd(data + offset + j, in[j]);
      else
        data[offset + j] += in[j];
    }
  }

 private:
  __device__ __forceinline__ bool whole(index_t offset, index_t n) const { return offset >= 0 && n >= 1 && offset + n <= count; }
  // A width the GPU has one instruction for (1-16 bytes, a power of two, or whole 16-byte pieces), aligned.
  __device__ __forceinline__ bool vector_bytes(index_t offset, index_t n) const {
    const index_t bytes = n * static_cast<index_t>(sizeof(T));
    const bool width_ok = bytes <= 16 ? (bytes & (bytes - 1)) == 0 : bytes % 16 == 0;
    const auto address = reinterpret_cast<std::uintptr_t>(data + offset);
    return width_ok && address % static_cast<std::uintptr_t>(bytes < 16 ? bytes : 16) == 0;
  }
  // One instruction of Bytes; the copies to and from registers have constant sizes, so the caller's
  // vector stays in registers (a run-time memcpy size put it in local memory, a byte loop per access).
  template <int Bytes>
  __device__ __forceinline__ static void load_chunk(unsigned char* p, unsigned char* to) {
    std::uint32_t r[4];
    load_bytes<Bytes, Space>(p, r);
    __builtin_memcpy(to, r, Bytes);
  }
  template <int Bytes>
  __device__ __forceinline__ static void store_chunk(unsigned char* p, const unsigned char* from) {
    std::uint32_t r[4] = {};
    __builtin_memcpy(r, from, Bytes);
    store_bytes<Bytes, Space>(p, r);
  }
};

class device_context {
 public:
  __device__ explicit device_context(const kernel_args& args) : args_(args) {}

  __device__ index_t thread_id() const { return threadIdx.x; }
  __device__ index_t lane() const { return threadIdx.x % warpSize; }
  __device__ index_t warp() const { return threadIdx.x / warpSize; }
  __device__ index_t block_id() const { return blockIdx.x; }
  __device__ index_t block_size() const { return blockDim.x; }
  __device__ index_t grid_size() const { return gridDim.x; }
  __device__ index_t warp_size() const { return warpSize; }
  __device__ void barrier() const { __syncthreads(); }
  __device__ void label(const char*) const {}

  template <class T>
  __device__ device_buffer<T, memory_space::global> global(int slot) const {
    if (slot < 0 || slot >= args_.slots) TILESIM_DEVICE_TRAP();
    return {static_cast<T*>(args_.pointer[slot]), args_.bytes[slot] / static_cast<index_t>(sizeof(T))};
  }

  template <class T>
  __device__ device_buffer<T, memory_space::lds> lds(index_t count) {
    extern __shared__ __align__(16) unsigned char tilesim_dynamic_lds[];
    const index_t start = (lds_used_ + 15) / 16 * 16;
    const index_t end = start + count * static_cast<index_t>(sizeof(T));
    if (count < 0 || end > static_cast<index_t>(args_.lds_bytes)) TILESIM_DEVICE_TRAP();
    lds_used_ = end;
    return {reinterpret_cast<T*>(tilesim_dynamic_lds + start), count};
  }

 private:
  const kernel_args& args_;
  index_t lds_used_ = 0;
};

// The body of every tilesim kernel: body(ctx); when args.block_cycles is set (a timed launch) the block's
// clock64() span, barrier to barrier around the program, goes to args.block_cycles[blockIdx.x]. The flag is
// uniform, so an untimed launch (what Nsight Compute counts) runs nothing but the program's own accesses.
template <class Body>
__device__ void run_program(const kernel_args& args, Body&& body) {
  device_context ctx(args);
  const bool timed = args.block_cycles != nullptr;
  long long start = 0;
  if (timed) {
    __syncthreads();
    start = clock64();
  }
  body(ctx);
  if (timed) {
    __syncthreads();
    const long long end = clock64();
    if (threadIdx.x == 0) args.block_cycles[blockIdx.x] = end - start;
  }
}

#endif

}  // namespace tilesim::gpu
