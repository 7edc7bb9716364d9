// tilesim/spec/config.hpp: the one portability macro, the index type, and the error channel.
//
// Every function in spec/ that does index math is `TILESIM_HOST_DEVICE constexpr`: the same code runs in
// host tests, in the CPU simulator and inside HIP/CUDA kernels. spec/ includes no vendor header; under
// nvcc or hipcc the macro expands to `__host__ __device__`, under a plain C++ compiler to nothing.
//
// Indices are 64-bit signed (`index_t`): CK uses 32-bit indices and magic-number division, which break for
// negative or >= 2^31 values; tilesim's floor division is exact over the whole 64-bit range it accepts.
#pragma once

#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define TILESIM_HOST_DEVICE __host__ __device__
#else
#define TILESIM_HOST_DEVICE
#endif

// Forces inlining of the evaluation and move paths (hidden_index, move_coordinate, calculate_offset, move).
// Without it GCC keeps move_coordinate's stage loop and Clang keeps adaptor::evaluate_down out of line, so a
// compile-time descriptor's ids and lengths stop folding to constants (bench/descriptor.cpp: 10-30x slower).
#if defined(__GNUC__) || defined(__clang__)
#define TILESIM_INLINE __attribute__((always_inline))
#else
#define TILESIM_INLINE
#endif

// True while compiling the device side of a CUDA/HIP translation unit (no exceptions, no iostreams there).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define TILESIM_DEVICE_PASS 1
#else
#define TILESIM_DEVICE_PASS 0
#endif

// Keeps the next loop a loop in a device pass (`#pragma unroll 1`), nothing on the host: a K loop whose first
// step NVVM peels keeps that step's addresses live beside the accumulators (mma_gemm: 24 bytes of spills at
// 128 registers; 126 without the peel). TILESIM_KEEP_LOOP for (index_t k0 = 0; k0 < k; k0 += K) { ... }
#if TILESIM_DEVICE_PASS
#define TILESIM_KEEP_LOOP _Pragma("unroll 1")
#else
#define TILESIM_KEEP_LOOP
#endif

// Stops the GPU thread on a violated invariant (device passes only): PTX `trap` under nvcc, the LLVM trap
// under hipcc. The host sees the launch fail ("unspecified launch failure" / "illegal instruction").
// A build may define its own (gpu/calibrate/o3-probe restores the old asm trap to show what it broke).
#if defined(TILESIM_DEVICE_TRAP)
#elif defined(__CUDA_ARCH__)
#define TILESIM_DEVICE_TRAP() __trap()  // a noreturn intrinsic NVVM knows (an asm "trap;" it does not)
#elif defined(__HIP_DEVICE_COMPILE__)  // s_trap 2 is llvm.trap on gfx9; a loop, not `unreachable`, which clang 15's AMDGPU CFG annotation rejects inside divergent loops
#define TILESIM_DEVICE_TRAP() do { for (;;) asm volatile("s_trap 2"); } while (0)
#else
#define TILESIM_DEVICE_TRAP() __builtin_trap()
#endif

namespace tilesim {

using index_t = std::int64_t;

// "No guarantee" / "unknown" marker for vector lengths and strides, as in CK.
inline constexpr index_t unknown = -1;

// A compile-time false that depends on T, for static_assert in discarded `if constexpr` branches.
template <class...>
inline constexpr bool dependent_false = false;

}  // namespace tilesim
