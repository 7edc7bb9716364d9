// tilesim/gpu/runtime/device_context.hpp: the program model (kernel/model/program.hpp) on a real GPU.
//
// DEFINITION. device_context implements tile_context inside a kernel: ids are threadIdx.x, blockIdx.x,
// blockDim.x, gridDim.x and warpSize; barrier() is __syncthreads(); label() does nothing. Global slot k is
// kernel_args::pointer[k] (kernel_args::bytes[k] long) as a device_buffer; lds<T>(count) bumps an offset,
// rounded up to 16 bytes exactly as the simulator does, into the kernel's dynamic shared memory. A
// device_buffer moves each vector with one instruction of its width (vector_access.hpp), so the GPU issues
// the instructions the simulator priced: a lane's 8 fp16 are one ld.shared.v4.u32 (LDS.128), not eight LDS.U16.
//
// WORKED EXAMPLE. A kernel is one line per program (gpu/kernels/kernels.cu):
//   __global__ void copy_kernel(copy_params p, kernel_args a) {
//     run_program(a, [&](device_context& ctx) { copy_tile<std::uint16_t>(ctx, p); });
//   }
// Block 3, thread 70 on sm90: thread_id() == 70, warp() == 2, lane() == 6, block_id() == 3.
//
// INVARIANTS: the launch is what the program was checked against: the host runs the same instance on the
// simulator first, with the same buffers and LDS bytes (spec's require_launch), so a kernel does not re-check
// slots, LDS bytes, buffer sizes or its compiled shape; built with TILESIM_DEVICE_STRICT it does, and traps
// (the host sees the launch fail and reports it). A vector of compile-time length (load_vector<N>, what windows and
// load_element use) is one instruction per 16 bytes with no range or alignment test: the layout aligns it and
// the view's size precondition bounds it, as in a hand-written kernel (the simulator reports any access
// outside its buffer or misaligned); TILESIM_DEVICE_STRICT restores a per-access range check. Run-time
// lengths other than 1 move element by element, range-checked.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__) || defined(__HIPCC__)
// First: threadIdx, __syncthreads, clock64 and HIP's device printf (spec/rules.hpp) come from it under hipcc,
// which, unlike nvcc, pre-includes none of them.
#include "gpu/runtime/hip_runtime.hpp"
#endif
#include "gpu/runtime/vector_access.hpp"
#include "kernel/model/program.hpp"

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

  // The program model's vector access with its length N a template argument (spec's load_vector<N>): one
  // instruction per 16 bytes, chosen at compile time, and no per-access work besides it. The buffer's bounds
  // are the view's precondition (make_tensor_view checks the descriptor's element space against size() once);
  // building with TILESIM_DEVICE_STRICT adds the per-access range check (out of range: T{} / dropped).
  template <index_t N>
  __device__ __forceinline__ void load_vector(index_t offset, T* out, bool valid) const {
    if (!valid || !strict_holds(offset, N)) {
      for (index_t j = 0; j < N; ++j) out[j] = T{};
      return;
    }
    move_vector<N, true>(reinterpret_cast<unsigned char*>(data + offset), reinterpret_cast<unsigned char*>(out));
  }
  // The same load issued every time it is reached (spec's reload_vector<N>: a benchmark's deliberate re-read).
  template <index_t N>
  __device__ __forceinline__ void reload_vector(index_t offset, T* out, bool valid) const {
    if (!valid || !strict_holds(offset, N)) {
      for (index_t j = 0; j < N; ++j) out[j] = T{};
      return;
    }
    move_vector<N, true, true>(reinterpret_cast<unsigned char*>(data + offset), reinterpret_cast<unsigned char*>(out));
  }
  template <index_t N>
  __device__ __forceinline__ void store_vector(index_t offset, const T* in, bool valid) const {
    if (!valid || !strict_holds(offset, N)) return;
    move_vector<N, false>(reinterpret_cast<unsigned char*>(data + offset),
                          reinterpret_cast<unsigned char*>(const_cast<T*>(in)));
  }

  // Run-time length n (the element_buffer interface the run-time windows use): n == 1 is one element through
  // the vector path above; anything else moves element by element with the range check.
  __device__ __forceinline__ void load(index_t offset, index_t n, T* out, bool valid) const {
    if (n == 1) return load_vector<1>(offset, out, valid);
    for (index_t j = 0; j < n; ++j) out[j] = valid && holds(offset + j) ? data[offset + j] : T{};
  }
  __device__ __forceinline__ void store(index_t offset, index_t n, const T* in, bool valid) const {
    if (n == 1) return store_vector<1>(offset, in, valid);
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
  // Always true unless built with TILESIM_DEVICE_STRICT: then "elements offset..offset+n-1 are in the buffer".
  __device__ __forceinline__ bool strict_holds(index_t offset, index_t n) const {
#if defined(TILESIM_DEVICE_STRICT)
    return offset >= 0 && offset + n <= count;
#else
    (void)offset;
    (void)n;
    return true;
#endif
  }
  // N elements as 16-byte pieces and one 1/2/4/8-byte tail, each one instruction (vector_access.hpp); the
  // register side is copied with constant sizes, so the caller's vector stays in registers.
  template <index_t N, bool Load, bool Reload = false>
  __device__ __forceinline__ static void move_vector(unsigned char* memory, unsigned char* registers) {
    constexpr int bytes = static_cast<int>(N * static_cast<index_t>(sizeof(T)));
    static_assert(bytes % 16 == 0 || (bytes < 16 && (bytes & (bytes - 1)) == 0),
                  "device_buffer: a vector must be 1, 2, 4, 8 or a multiple of 16 bytes");
    static_for<(bytes + 15) / 16>([&](auto piece) {
      constexpr int at = static_cast<int>(decltype(piece)::value) * 16, width = bytes - at < 16 ? bytes - at : 16;
      std::uint32_t r[4] = {};
      if constexpr (Load && Reload) {
        reload_bytes<width, Space>(memory + at, r);
        __builtin_memcpy(registers + at, r, width);
      } else if constexpr (Load) {
        load_bytes<width, Space>(memory + at, r);
        __builtin_memcpy(registers + at, r, width);
      } else {
        __builtin_memcpy(r, registers + at, width);
        store_bytes<width, Space>(memory + at, r);
      }
    });
  }
};

// The wave size of the device pass, a constant: 32 on NVIDIA; the target's on AMD (clang's
// __AMDGCN_WAVEFRONT_SIZE: 64 on gfx9).
#if defined(__AMDGCN_WAVEFRONT_SIZE)
inline constexpr index_t device_wave_size = __AMDGCN_WAVEFRONT_SIZE;
#else
inline constexpr index_t device_wave_size = 32;
#endif

class device_context {
 public:
  __device__ explicit device_context(const kernel_args& args) : args_(args) {}

  // Ids in 32-bit unsigned arithmetic by a compile-time wave size (a division by the run-time warpSize, in
  // index_t, cost hundreds of cycles of latency ahead of every address), widened once.
  __device__ index_t thread_id() const { return threadIdx.x; }
  __device__ index_t lane() const { return threadIdx.x % static_cast<unsigned>(device_wave_size); }
  __device__ index_t warp() const { return threadIdx.x / static_cast<unsigned>(device_wave_size); }
  __device__ index_t block_id() const { return blockIdx.x; }
  __device__ index_t block_size() const { return blockDim.x; }
  __device__ index_t grid_size() const { return gridDim.x; }
  __device__ index_t warp_size() const { return device_wave_size; }
  __device__ void barrier() const { __syncthreads(); }
  __device__ void label(const char*) const {}

  // A warp shuffle (kernel/model/shuffle.hpp): one SHFL (full mask, width = the warp) or, on AMD, HIP's
  // ds_bpermute-based __shfl_*; 8-byte values as two. Every lane of the warp takes part.
  template <class T>
  __device__ __forceinline__ T shuffle(shuffle_kind kind, const T& value, index_t operand) const {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "shuffle: a value is 4 or 8 bytes");
    unsigned words[sizeof(T) / 4];
    __builtin_memcpy(words, &value, sizeof(T));
    const int x = static_cast<int>(operand);
    for (unsigned& w : words) w = shuffle_word(kind, w, x);
    T out;
    __builtin_memcpy(&out, words, sizeof(T));
    return out;
  }

  // ldmatrix (kernel/model/ldmatrix.hpp): one ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16; sm90 only.
  template <int Count, bool Trans, class B>
  __device__ __forceinline__ ldmatrix_fragment<Count> ldmatrix(const B& lds, index_t offset) const {
    static_assert(sizeof(typename B::value_type) == 2, "ldmatrix: elements are 16 bits");
    ldmatrix_fragment<Count> f;
#if defined(__HIPCC__)
    static_assert(Count < 0, "ldmatrix is an NVIDIA instruction; on AMD read MFMA operands with per-lane loads");
#else
    const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(lds.data + offset));
    if constexpr (Count == 1 && !Trans)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(f.r[0]) : "r"(address));
    else if constexpr (Count == 1)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(f.r[0]) : "r"(address));
    else if constexpr (Count == 2 && !Trans)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(f.r[0]), "=r"(f.r[1]) : "r"(address));
    else if constexpr (Count == 2)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(f.r[0]), "=r"(f.r[1]) : "r"(address));
    else if constexpr (!Trans)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(f.r[0]), "=r"(f.r[1]), "=r"(f.r[2]), "=r"(f.r[3]) : "r"(address));
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(f.r[0]), "=r"(f.r[1]), "=r"(f.r[2]), "=r"(f.r[3]) : "r"(address));
#endif
    return f;
  }

  // stmatrix (kernel/model/stmatrix.hpp): one stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16; sm90 only.
  // It writes shared memory the compiler cannot see through the asm, hence the "memory" clobber.
  template <int Count, bool Trans, class B>
  __device__ __forceinline__ void stmatrix(const B& lds, index_t offset, const stmatrix_fragment<Count>& f) const {
    static_assert(sizeof(typename B::value_type) == 2, "stmatrix: elements are 16 bits");
#if defined(__HIPCC__)
    static_assert(Count < 0, "stmatrix is an NVIDIA instruction; on AMD store MFMA results with per-lane stores");
    (void)lds, (void)offset, (void)f;
#else
    const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(lds.data + offset));
    if constexpr (Count == 1 && !Trans)
      asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(address), "r"(f.r[0]) : "memory");
    else if constexpr (Count == 1)
      asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(address), "r"(f.r[0]) : "memory");
    else if constexpr (Count == 2 && !Trans)
      asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(address), "r"(f.r[0]), "r"(f.r[1])
                   : "memory");
    else if constexpr (Count == 2)
      asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(address), "r"(f.r[0]),
                   "r"(f.r[1]) : "memory");
    else if constexpr (!Trans)
      asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(address), "r"(f.r[0]),
                   "r"(f.r[1]), "r"(f.r[2]), "r"(f.r[3]) : "memory");
    else
      asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(address), "r"(f.r[0]),
                   "r"(f.r[1]), "r"(f.r[2]), "r"(f.r[3]) : "memory");
#endif
  }

#if !defined(__HIPCC__)
  // cp.async (kernel/model/async_copy.hpp): cp.async.cg (16 bytes, L1 bypassed) or .ca (4, 8 bytes) on sm80 and
  // later; an older arch loads and stores (the copy lands at once). AMD has no member: the model's plain copy.
  template <index_t N, class L, class G>
  __device__ __forceinline__ void async_copy(const L& lds, index_t lds_offset, const G& global,
                                             index_t global_offset) const {
    constexpr int bytes = static_cast<int>(N * sizeof(typename L::value_type));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    typename L::value_type v[N];
    load_vector<N>(global, global_offset, v, true);
    store_vector<N>(lds, lds_offset, v, true);
#else
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(lds.data + lds_offset));
    const void* from = global.data + global_offset;
    if constexpr (bytes == 16)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(from) : "memory");
    else
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to), "l"(from), "n"(bytes) : "memory");
#endif
  }
  // cp.async.commit_group.
  __device__ __forceinline__ void async_commit() const {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
  }
  // cp.async.wait_group K.
  template <int K>
  __device__ __forceinline__ void async_wait() const {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(K) : "memory");
#endif
  }
#endif

  // mma.sync m16n8k16 (kernel/model/mma.hpp): one mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32; NVIDIA only
  // (a template, so that a program using it fails to compile for AMD only when it is instantiated there).
  template <int Unused = 0>
  __device__ __forceinline__ mma_m16n8k16_c mma(const mma_m16n8k16_a& a, const mma_m16n8k16_b& b,
                                                 const mma_m16n8k16_c& c) const {
    return mma_sync<false, Unused>(a, b, c);
  }
  // The same with bfloat16 A and B: one mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32; NVIDIA only.
  template <int Unused = 0>
  __device__ __forceinline__ mma_m16n8k16_c mma_bf16(const mma_m16n8k16_a& a, const mma_m16n8k16_b& b,
                                                      const mma_m16n8k16_c& c) const {
    return mma_sync<true, Unused>(a, b, c);
  }

  // One mma.sync m16n8k16 with fp16 (BF16 false) or bf16 inputs, fp32 accumulate.
  template <bool BF16, int Unused>
  __device__ __forceinline__ static mma_m16n8k16_c mma_sync(const mma_m16n8k16_a& a, const mma_m16n8k16_b& b,
                                                            const mma_m16n8k16_c& c) {
    mma_m16n8k16_c d;
#if defined(__HIPCC__)
    static_assert(Unused != 0, "mma.sync is an NVIDIA instruction; AMD's matrix cores are MFMA");
    (void)a, (void)b, (void)c;
#else
#define TILESIM_MMA_SYNC(types)                                                                                  \
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." types ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, " \
               "{%10, %11, %12, %13};"                                                                            \
               : "=f"(d.r[0]), "=f"(d.r[1]), "=f"(d.r[2]), "=f"(d.r[3])                                           \
               : "r"(a.r[0]), "r"(a.r[1]), "r"(a.r[2]), "r"(a.r[3]), "r"(b.r[0]), "r"(b.r[1]), "f"(c.r[0]),       \
                 "f"(c.r[1]), "f"(c.r[2]), "f"(c.r[3]))
    if constexpr (BF16)
      TILESIM_MMA_SYNC("bf16.bf16");
    else
      TILESIM_MMA_SYNC("f16.f16");
#undef TILESIM_MMA_SYNC
#endif
    return d;
  }

  // MFMA f16 (kernel/model/mfma.hpp): one v_mfma_f32_32x32x8_f16 / v_mfma_f32_16x16x16_f16; AMD only (templates, so
  // that a program using them fails to compile for NVIDIA only when it is instantiated there).
  template <int Unused = 0>
  __device__ __forceinline__ mfma_32x32x8_c mfma_32x32x8(const mfma_f16_operand& a, const mfma_f16_operand& b,
                                                         const mfma_32x32x8_c& c) const {
    mfma_32x32x8_c d;
#if defined(__HIPCC__)
    using half4 = _Float16 __attribute__((ext_vector_type(4)));
    using float16v = float __attribute__((ext_vector_type(16)));
    half4 av, bv;
    float16v cv;
    __builtin_memcpy(&av, a.r, 8);
    __builtin_memcpy(&bv, b.r, 8);
    __builtin_memcpy(&cv, c.r, 64);
    const float16v dv = __builtin_amdgcn_mfma_f32_32x32x8f16(av, bv, cv, 0, 0, 0);
    __builtin_memcpy(d.r, &dv, 64);
#else
    static_assert(Unused != 0, "MFMA is an AMD instruction; NVIDIA's warp matrix multiply is mma.sync");
    (void)a, (void)b, (void)c;
#endif
    return d;
  }
  template <int Unused = 0>
  __device__ __forceinline__ mfma_16x16x16_c mfma_16x16x16(const mfma_f16_operand& a, const mfma_f16_operand& b,
                                                           const mfma_16x16x16_c& c) const {
    mfma_16x16x16_c d;
#if defined(__HIPCC__)
    using half4 = _Float16 __attribute__((ext_vector_type(4)));
    using float4v = float __attribute__((ext_vector_type(4)));
    half4 av, bv;
    float4v cv;
    __builtin_memcpy(&av, a.r, 8);
    __builtin_memcpy(&bv, b.r, 8);
    __builtin_memcpy(&cv, c.r, 16);
    const float4v dv = __builtin_amdgcn_mfma_f32_16x16x16f16(av, bv, cv, 0, 0, 0);
    __builtin_memcpy(d.r, &dv, 16);
#else
    static_assert(Unused != 0, "MFMA is an AMD instruction; NVIDIA's warp matrix multiply is mma.sync");
    (void)a, (void)b, (void)c;
#endif
    return d;
  }

  template <class T>
  __device__ device_buffer<T, memory_space::global> global(int slot) const {
#if defined(TILESIM_DEVICE_STRICT)  // launch preconditions: spec/rules.hpp's require_launch says why
    if (slot < 0 || slot >= args_.slots) TILESIM_DEVICE_TRAP();
#endif
    return {static_cast<T*>(args_.pointer[slot]), args_.bytes[slot] / static_cast<index_t>(sizeof(T))};
  }

  template <class T>
  __device__ device_buffer<T, memory_space::lds> lds(index_t count, lds_loads loads = lds_loads::merge_allowed) {
    extern __shared__ __align__(16) unsigned char tilesim_dynamic_lds[];
    index_t start = (lds_used_ + 15) / 16 * 16;
#if defined(__CUDA_ARCH__)
    // as_written: the start plus a 0 that neither nvcc nor ptxas can see (bit 31 of the launch's LDS bytes, which
    // are far below 2 GiB), so neither knows an alignment of the buffer beyond each load's own type, and neither
    // merges a thread's neighbouring loads (both do otherwise: props-h100.json case 119, 5 ld.shared.v4.u32 in the
    // PTX for 10 loads of 8 bytes).
    if (loads == lds_loads::as_written) start += static_cast<index_t>(args_.lds_bytes >> 31);
#else
    (void)loads;  // hipcc: LDS loads are volatile (vector_access.hpp), never merged
#endif
    const index_t end = start + count * static_cast<index_t>(sizeof(T));
#if defined(TILESIM_DEVICE_STRICT)
    if (count < 0 || end > static_cast<index_t>(args_.lds_bytes)) TILESIM_DEVICE_TRAP();
#endif
    lds_used_ = end;
    return {reinterpret_cast<T*>(tilesim_dynamic_lds + start), count};
  }

 private:
  __device__ __forceinline__ static unsigned shuffle_word(shuffle_kind kind, unsigned w, int x) {
#if defined(__HIPCC__)
    switch (kind) {
      case shuffle_kind::index: return __shfl(w, x);
      case shuffle_kind::xor_lanes: return __shfl_xor(w, x);
      case shuffle_kind::up: return __shfl_up(w, static_cast<unsigned>(x));
      default: return __shfl_down(w, static_cast<unsigned>(x));
    }
#else
    switch (kind) {
      case shuffle_kind::index: return __shfl_sync(0xffffffffu, w, x);
      case shuffle_kind::xor_lanes: return __shfl_xor_sync(0xffffffffu, w, x);
      case shuffle_kind::up: return __shfl_up_sync(0xffffffffu, w, static_cast<unsigned>(x));
      default: return __shfl_down_sync(0xffffffffu, w, static_cast<unsigned>(x));
    }
#endif
  }

  const kernel_args& args_;
  index_t lds_used_ = 0;
};

// The body of every tilesim kernel: body(ctx); when args.block_cycles is set (a timed launch) the block's
// clock64() span, barrier to barrier around the program, goes to args.block_cycles[blockIdx.x]. The flag is
// uniform, so an untimed launch (what Nsight Compute counts) runs nothing but the program's own accesses.
// The block fence before the last barrier makes every kernel's span end once its global stores have left the
// warps: without it the last clock read waited for them only where ptxas gave its register to a store operand
// (a write-after-read wait; 106 of 118 kernels, not SW64's copy: gpu/calibrate/copy_kernel_probe.cu).
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
    __threadfence_block();
    __syncthreads();
    const long long end = clock64();
    if (threadIdx.x == 0) args.block_cycles[blockIdx.x] = end - start;
  }
}

#endif

}  // namespace tilesim::gpu
