// tilesim/gpu/runtime/vector_access.hpp: one lane's 1/2/4/8/16-byte load or store as exactly one GPU instruction.
//
// DEFINITION. The simulator prices a lane's vector of n elements as one access of n * sizeof(T) bytes
// (split into 16-byte instructions beyond that: sim::launch::split_bytes). A plain C++ loop over the
// elements would let the compiler pick any width, so on the GPU every access goes through these functions,
// which pin the instruction:
//   NVIDIA (nvcc)  loads: one typed load of exactly the width (uint4 -> LDS.128 / LDG.E.128, ...), which
//                  the compiler may schedule but not widen; reload_bytes (a benchmark's deliberate re-read)
//                  is ld.volatile.* in inline PTX, which ptxas can neither merge nor hoist. Stores: inline PTX
//                  st.volatile.shared.* on a 32-bit shared address (STS.*), st.global.* on a 64-bit global
//                  address (STG.E.*), with a "memory" clobber; __syncthreads orders loads and stores.
//   AMD (hipcc)    a typed volatile load/store through an address_space(3) pointer for LDS (ds_read_b128,
//                  ds_write_b128, ...), a plain typed load for global (global_load_dwordx4, ...). `volatile` on
//                  LDS for the same reason as on NVIDIA, and more: without it LLVM hoists a repeated load out
//                  of a loop, pairs two loads into one ds_read2_b32/b64 and narrows a load to the bytes used
//                  (two 8-byte loads became one ds_read2_b32), none of which the simulator prices.
// Bytes move through 32-bit registers with __builtin_memcpy, so any trivially copyable T works.
//
// WORKED EXAMPLE. 8 fp16 values at LDS byte 4096 (bytes = 16, space = lds):
//   load_bytes<16, memory_space::lds>(smem + 4096, regs)    ->  ld.shared.v4.u32 {r0..r3}, [4096]
//   reload_bytes<16, memory_space::lds>(smem + 4096, regs)  ->  ld.volatile.shared.v4.u32 {r0..r3}, [4096]
// A 32-byte vector is two calls (bytes 0-15, 16-31), as the simulator's split_bytes = 16 counts it.
//
// INVARIANTS: `bytes` is 1, 2, 4, 8 or 16 and the address is a multiple of it (a misaligned vector faults
// on the GPU, as it would in a real kernel; the simulator reports it as misaligned). Host passes never
// call these (device-only).
#pragma once

#include <cstdint>

#include "spec/config.hpp"

namespace tilesim::gpu {

enum class memory_space { global, lds };

#if defined(__CUDA_ARCH__)
// NVIDIA device pass. Loads are typed C++ loads of exactly Bytes (uint4 = LDS.128 / LDG.E.128, uint2, ...):
// the compiler may schedule them (an asm volatile load pins every load in program order, so a GEMM's
// fragments were all live at once: 176 registers against 88), but not merge or widen them, and the
// barriers order them as in the program.
template <int Bytes>
struct load_word;
template <> struct load_word<1> { using type = std::uint8_t; };
template <> struct load_word<2> { using type = std::uint16_t; };
template <> struct load_word<4> { using type = std::uint32_t; };
template <> struct load_word<8> { using type = uint2; };
template <> struct load_word<16> { using type = uint4; };

template <int Bytes, memory_space Space>
__device__ __forceinline__ void load_bytes(const void* p, std::uint32_t* r) {
  const typename load_word<Bytes>::type v = *static_cast<const typename load_word<Bytes>::type*>(p);
  if constexpr (Bytes < 4)
    r[0] = v;
  else
    __builtin_memcpy(r, &v, Bytes);
}

// A load issued every time it is reached, even when the same address was loaded with no store between: a
// benchmark's deliberate re-read (the LDS sweep). ld.volatile.shared / ld.volatile.global in inline PTX;
// ptxas would otherwise merge the repeated loads (it halved the lds_sweep's loop).
template <int Bytes, memory_space Space>
__device__ __forceinline__ void reload_bytes(const void* p, std::uint32_t* r) {
  if constexpr (Space == memory_space::lds) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
    if constexpr (Bytes == 1) asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(r[0]) : "r"(a));
    if constexpr (Bytes == 2) {
      unsigned short h;
      asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=h"(h) : "r"(a));
      r[0] = h;
    }
    if constexpr (Bytes == 4) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(r[0]) : "r"(a));
    if constexpr (Bytes == 8) asm volatile("ld.volatile.shared.v2.u32 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a));
    if constexpr (Bytes == 16)
      asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
  } else {
    const unsigned long long a = reinterpret_cast<unsigned long long>(p);
    if constexpr (Bytes == 1) asm volatile("ld.volatile.global.u8 %0, [%1];" : "=r"(r[0]) : "l"(a));
    if constexpr (Bytes == 2) {
      unsigned short h;
      asm volatile("ld.volatile.global.u16 %0, [%1];" : "=h"(h) : "l"(a));
      r[0] = h;
    }
    if constexpr (Bytes == 4) asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(r[0]) : "l"(a));
    if constexpr (Bytes == 8) asm volatile("ld.volatile.global.v2.u32 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "l"(a));
    if constexpr (Bytes == 16)
      asm volatile("ld.volatile.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(a));
  }
}

template <int Bytes, memory_space Space>
__device__ __forceinline__ void store_bytes(void* p, const std::uint32_t* r) {
  if constexpr (Space == memory_space::lds) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
    if constexpr (Bytes == 1) asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(a), "r"(r[0]) : "memory");
    if constexpr (Bytes == 2) asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(a), "h"(static_cast<unsigned short>(r[0])) : "memory");
    if constexpr (Bytes == 4) asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(r[0]) : "memory");
    if constexpr (Bytes == 8) asm volatile("st.volatile.shared.v2.u32 [%0], {%1,%2};" ::"r"(a), "r"(r[0]), "r"(r[1]) : "memory");
    if constexpr (Bytes == 16)
      asm volatile("st.volatile.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                   : "memory");
  } else {
    const unsigned long long a = reinterpret_cast<unsigned long long>(p);
    if constexpr (Bytes == 1) asm volatile("st.global.u8 [%0], %1;" ::"l"(a), "r"(r[0]) : "memory");
    if constexpr (Bytes == 2) asm volatile("st.global.u16 [%0], %1;" ::"l"(a), "h"(static_cast<unsigned short>(r[0])) : "memory");
    if constexpr (Bytes == 4) asm volatile("st.global.u32 [%0], %1;" ::"l"(a), "r"(r[0]) : "memory");
    if constexpr (Bytes == 8) asm volatile("st.global.v2.u32 [%0], {%1,%2};" ::"l"(a), "r"(r[0]), "r"(r[1]) : "memory");
    if constexpr (Bytes == 16)
      asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(a), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                   : "memory");
  }
}
#elif defined(__HIPCC__)
// AMD (both hipcc passes: the host pass parses __device__ code, and instantiates it for an explicitly
// instantiated kernel, without emitting it): typed loads; LDS through a volatile address_space(3) pointer so
// the backend emits exactly one ds_read/ds_write of the width per call. Spelled without __forceinline__: clang pre-declares __device__ for HIP,
// the rest of HIP's macros need <hip/hip_runtime.h>, which this header does not include.
template <int Bytes>
struct word_vector;
template <> struct word_vector<1> { using type = std::uint8_t; };
template <> struct word_vector<2> { using type = std::uint16_t; };
template <> struct word_vector<4> { using type = std::uint32_t; };
template <> struct word_vector<8> { using type = std::uint32_t __attribute__((ext_vector_type(2))); };
template <> struct word_vector<16> { using type = std::uint32_t __attribute__((ext_vector_type(4))); };

template <int Bytes, memory_space Space>
__device__ inline __attribute__((always_inline)) void load_bytes(const void* p, std::uint32_t* r) {
  using V = typename word_vector<Bytes>::type;
  V v;
  if constexpr (Space == memory_space::lds)
    v = *(const volatile __attribute__((address_space(3))) V*)(p);
  else
    v = *static_cast<const V*>(p);
  if constexpr (Bytes < 4)
    r[0] = v;
  else
    __builtin_memcpy(r, &v, Bytes);
}

// AMD loads are already volatile on LDS (see the essay): a re-read is the same load.
template <int Bytes, memory_space Space>
__device__ inline __attribute__((always_inline)) void reload_bytes(const void* p, std::uint32_t* r) {
  load_bytes<Bytes, Space>(p, r);
}

template <int Bytes, memory_space Space>
__device__ inline __attribute__((always_inline)) void store_bytes(void* p, const std::uint32_t* r) {
  using V = typename word_vector<Bytes>::type;
  V v;
  if constexpr (Bytes < 4)
    v = static_cast<V>(r[0]);
  else
    __builtin_memcpy(&v, r, Bytes);
  if constexpr (Space == memory_space::lds)
    *(volatile __attribute__((address_space(3))) V*)(p) = v;
  else
    *static_cast<V*>(p) = v;
}
#endif

}  // namespace tilesim::gpu
