// tilesim/gpu/reference/reference_kernels.cuh: the tilesim programs written by hand as CUDA kernel bodies.
//
// DEFINITION. One __device__ body per program, templated on its *_config (reference_index.hpp): every size a
// compile-time constant, every index a call into reference_index.hpp's int arithmetic, every access one load
// or store of its width at a byte offset from its base (16 bytes: uint4 / float4, 8: uint2, 4: unsigned /
// float), LDS in the launch's dynamic shared memory (A then B at a 16-byte boundary for the GEMM, as the
// simulator allocates). Each body keeps its program's order of accesses and barriers: all global loads of a
// step, then all LDS stores, __syncthreads(), all LDS loads, then the global stores (or the FMAs).
// reference_kernels.cu wraps each body in a __global__ kernel with timed_block, the clock64() span
// device_context.hpp's run_program takes. Nothing here includes spec/ or sim/.
//
//   copy_body      global -> registers -> LDS (layout) -> barrier -> registers (read order) -> global
//   sweep_body     one vector to LDS, barrier, `iterations` volatile 16-byte LDS reads summed (u32), stored
//   gemm_body      per K step: A, B global loads; A, B LDS stores; barrier; A, B fragment loads; barrier
//                  (not after the last step); FMAs; then C stored one float at a time
//   morton_body    direct: texel load, texel store per footprint; staged: texel load, LDS store per footprint,
//                  barrier, then the band read back in row order and stored
//   conv_body      naive (offsets recomputed per element), sliding (one window base moved by the filter
//                  offsets), im2col (A row and B row vectors per K step); all loads, then the FMAs
//   transpose_body 4 x (load, LDS store), barrier, 4 x (LDS load, store) through 33-float rows
//
// HOW A CAREFUL HAND-WRITER WRITES THEM (the yardstick must be the best plain kernel of the same algorithm;
// each rule closed a gap measured on an H100 against the tilesim kernels, whose programs are compiled on
// constant shapes): the thread and block ids carry the launch's bounds (thread_index, block_index:
// `__builtin_assume`, else every t / 32, t % 32, b / tiles pays signed fix-ups); the operand pointers are
// compile-time slots (reference_kernels.cu); a thread's offsets are computed before its first access, so no
// address is computed between a barrier and the accesses after it; every loop over constants is unrolled, the
// staged Morton read-back included; a convolution issues all its loads before its FMAs, and without padding
// its window pixels need no test (conv_always_inside); the GEMM's second barrier follows the step's last LDS
// load, before the FMAs, which touch only registers; the kernels have the tilesim kernels' launch bounds.
// None of this changes an access, its width, its order or its barrier interval (reference_index.test.cpp).
//
// WORKED EXAMPLE. copy_body<copy_instances[0]> (fp16 64 x 32, lanes_down_rows, row-major LDS): thread 45 of
// block 3 loads the uint4 at input element (3*64 + 11)*32 + 8, stores it at LDS byte (11*32 + 8)*2, waits
// at the barrier, loads the uint4 at LDS byte (13*32 + 8)*2 and stores it at output element (3*64 + 13)*32 + 8.
//
// INVARIANTS: the accesses are exactly those reference_index.test.cpp replays against the simulator; the
// LDS reads of the sweep are volatile PTX (ld.volatile.shared.v4.u32), as in vector_access.hpp, because a
// plain load of one unchanged address would be hoisted out of the loop; every other access is a plain C++
// load or store that nvcc is free to schedule; the sums of the GEMM and the convolution are in the
// program's order (bit-identical outputs).
#pragma once

#include <cstdint>

#include "gpu/reference/reference_index.hpp"

namespace tilesim::gpu::reference {

// The register type of a Bytes-wide access of raw bits.
template <int Bytes>
struct bits_vector;
template <>
struct bits_vector<2> {
  using type = unsigned short;
};
template <>
struct bits_vector<4> {
  using type = unsigned;
};
template <>
struct bits_vector<8> {
  using type = uint2;
};
template <>
struct bits_vector<16> {
  using type = uint4;
};

// The register type of a vector of N floats.
template <int N>
struct float_vector;
template <>
struct float_vector<1> {
  using type = float;
};
template <>
struct float_vector<2> {
  using type = float2;
};
template <>
struct float_vector<4> {
  using type = float4;
};

// The V at byte `offset` of `base`. Every access goes through a byte offset, as one writes a kernel that moves
// raw vectors: with a float* indexed first and then cast, nvcc 13 split some 16-byte LDS stores of the GEMM's
// K loop into four 4-byte ones (the same offsets in bytes stay one st.shared.v4); and a float* indexed by an
// int element offset became a signed IMAD.WIDE on the pointer fetched into a register by LDC, where a byte
// offset adds to the pointer in a uniform register (ULDC), as in the tilesim kernels.
template <class V>
__device__ __forceinline__ V* vector_at(void* base, int offset) {
  return reinterpret_cast<V*>(static_cast<unsigned char*>(base) + offset);
}
template <class V>
__device__ __forceinline__ const V* vector_at(const void* base, int offset) {
  return reinterpret_cast<const V*>(static_cast<const unsigned char*>(base) + offset);
}

// A float vector's components to consecutive registers dst[0..N).
__device__ __forceinline__ void unpack(float v, float* dst) { dst[0] = v; }
__device__ __forceinline__ void unpack(float2 v, float* dst) {
  dst[0] = v.x;
  dst[1] = v.y;
}
__device__ __forceinline__ void unpack(float4 v, float* dst) {
  dst[0] = v.x;
  dst[1] = v.y;
  dst[2] = v.z;
  dst[3] = v.w;
}

// The launch's dynamic shared memory (16-byte aligned).
__device__ __forceinline__ unsigned char* dynamic_lds() {
  extern __shared__ __align__(16) unsigned char reference_lds[];
  return reference_lds;
}

// threadIdx.x and blockIdx.x as ints the compiler knows are in range: [0, Threads) (the host checks the block
// size, launch_reference) and [0, 2^31). Written as plain `int t = threadIdx.x`, nvcc 13 knows neither bound
// and emits the signed fix-ups of every t / 32, t % 32, b / tiles (shr.s32, shr.u32, add, and, sub) ahead of
// every address; a hand-writer states what the launch guarantees, as the tilesim kernels' unsigned ids do.
template <int Threads>
__device__ __forceinline__ int thread_index() {
  const int t = static_cast<int>(threadIdx.x);
  __builtin_assume(t >= 0 && t < Threads);
  return t;
}
__device__ __forceinline__ int block_index() {
  const int b = static_cast<int>(blockIdx.x);
  __builtin_assume(b >= 0);
  return b;
}

// body() between two barriers, its clock64() span to block_cycles[blockIdx.x] when block_cycles is set; the
// block fence before the last barrier as in device_context.hpp's run_program (the span ends once the stores left).
template <class Body>
__device__ __forceinline__ void timed_block(long long* block_cycles, Body&& body) {
  const bool timed = block_cycles != nullptr;
  long long start = 0;
  if (timed) {
    __syncthreads();
    start = clock64();
  }
  body();
  if (timed) {
    __threadfence_block();
    __syncthreads();
    const long long end = clock64();
    if (threadIdx.x == 0) block_cycles[blockIdx.x] = end - start;
  }
}

// The copy: workgroup b copies rows [b*rows, (b+1)*rows) of the (grid*rows) x cols tensor through LDS. The
// thread's byte offsets come first (the index block of a hand-written kernel), then the four access steps: so
// the read side's LDS and global addresses are ready before the barrier, not computed between the barrier
// and the LDS loads (where nvcc put them when each offset was written inside its access loop).
template <copy_config C>
__device__ __forceinline__ void copy_body(const unsigned char* in, unsigned char* out) {
  using V = typename bits_vector<C.vector_bytes()>::type;
  constexpr int writes = C.write_accesses(), reads = C.read_accesses(), eb = C.element_bytes;
  unsigned char* lds = dynamic_lds();
  const int t = thread_index<C.threads>(), warp = t / C.warp_size, lane = t % C.warp_size;
  const int row0 = block_index() * C.rows;
  int global_in[writes], lds_in[writes], lds_out[reads], global_out[reads];  // byte offsets
#pragma unroll
  for (int i = 0; i < writes; ++i) {
    const row_col x = C.write_at(warp, lane, i);
    global_in[i] = ((row0 + x.row) * C.cols + x.col) * eb;
    lds_in[i] = lds_offset(C.lds, x.row, x.col) * eb;
  }
#pragma unroll
  for (int i = 0; i < reads; ++i) {
    const row_col x = C.read_at(warp, lane, i);
    lds_out[i] = lds_offset(C.lds, x.row, x.col) * eb;
    global_out[i] = ((row0 + x.row) * C.cols + x.col) * eb;
  }
  V staged[writes];
#pragma unroll
  for (int i = 0; i < writes; ++i) staged[i] = *vector_at<V>(in, global_in[i]);  // "global load"
#pragma unroll
  for (int i = 0; i < writes; ++i) *vector_at<V>(lds, lds_in[i]) = staged[i];  // "lds store"
  __syncthreads();
  if constexpr (C.read == read_kind::ldmatrix_operand) {
    // ldmatrix.x4 at each read's row address; register j goes to its fragment element (reference_index.hpp).
    unsigned regs[reads][4];
#pragma unroll
    for (int i = 0; i < reads; ++i) {  // "ldmatrix"
      const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(lds + lds_out[i]));
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(regs[i][0]), "=r"(regs[i][1]), "=r"(regs[i][2]), "=r"(regs[i][3]) : "r"(address));
    }
#pragma unroll
    for (int i = 0; i < reads; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) {  // "global store"
        const row_col x = ldmatrix_register_at(C.threads, C.warp_size, C.cols, warp, lane, i, j);
        *vector_at<unsigned>(out, ((row0 + x.row) * C.cols + x.col) * eb) = regs[i][j];
      }
  } else {
    V moved[reads];
#pragma unroll
    for (int i = 0; i < reads; ++i) moved[i] = *vector_at<V>(lds, lds_out[i]);  // "lds load"
#pragma unroll
    for (int i = 0; i < reads; ++i) *vector_at<V>(out, global_out[i]) = moved[i];  // "global store"
  }
}

// One 16-byte LDS read that the compiler may neither hoist, merge nor drop.
__device__ __forceinline__ uint4 volatile_lds_load_16(const void* p) {
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  uint4 v;
  asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a));
  return v;
}

// The LDS sweep: out = in * iterations (mod 2^32), the thread's vector read from LDS `iterations` times.
template <sweep_config S>
__device__ __forceinline__ void sweep_body(const unsigned* in, unsigned* out) {
  constexpr copy_config C = S.tile;
  static_assert(C.element_bytes == 4 && C.vector == 4 && C.write_accesses() == 1 && C.read_accesses() == 1,
                "the sweep moves one 16-byte vector of 32-bit words per thread");
  unsigned char* lds = dynamic_lds();
  const int t = thread_index<C.threads>(), warp = t / C.warp_size, lane = t % C.warp_size;
  const int row0 = block_index() * C.rows;
  const row_col w = C.write_at(warp, lane, 0), r = C.read_at(warp, lane, 0);
  const uint4 v = *vector_at<uint4>(in, ((row0 + w.row) * C.cols + w.col) * 4);  // "global load"
  *vector_at<uint4>(lds, lds_offset(C.lds, w.row, w.col) * 4) = v;             // "lds store"
  __syncthreads();
  const unsigned char* at = lds + lds_offset(C.lds, r.row, r.col) * 4;
  uint4 sum = make_uint4(0, 0, 0, 0);
  for (int i = 0; i < S.iterations; ++i) {  // "lds load" x iterations
    const uint4 x = volatile_lds_load_16(at);
    sum.x += x.x;
    sum.y += x.y;
    sum.z += x.z;
    sum.w += x.w;
  }
  *vector_at<uint4>(out, ((row0 + r.row) * C.cols + r.col) * 4) = sum;  // "global store"
}

// The GEMM tile: workgroup b computes C's block (b / blocks_n, b % blocks_n), K step by K step. The thread's
// offsets (global A/B rows, LDS stores, fragment reads) are computed once, before the loop; the K loop is a
// loop (`unroll 1`: nvcc otherwise peeled the first step and computed its fragment addresses between the
// barrier and the LDS loads), and the barrier that frees the LDS tiles for the next step follows the step's
// last LDS load, before its FMAs, which touch only registers (the tilesim kernel's machine code has it there
// too, amid the FMAs; after them it costs a barrier's latency per step).
template <gemm_config C>
__device__ __forceinline__ void gemm_body(const float* a_global, const float* b_global, float* c_global) {
  using V = typename float_vector<C.vector>::type;
  constexpr int mi_n = C.m_iter(), ni_n = C.n_iter(), kb = C.k_per_block, vec = C.vector, ki_n = C.k_iter();
  constexpr int a_copies = C.a_copies(), b_copies = C.b_copies();
  constexpr lds_layout a_layout = C.a_lds(), b_layout = C.b_lds();
  unsigned char* lds = dynamic_lds();
  unsigned char* b_lds = lds + C.b_lds_byte();  // A's tile at byte 0, B's after it
  const int t = thread_index<C.threads>(), warp = t / C.warp_size, lane = t % C.warp_size;
  const int b = block_index();
  __builtin_assume(b < C.grid());  // the host checks the grid (launch_reference)
  const int block_m = b / C.blocks_n() * C.m_per_block;
  const int block_n = b % C.blocks_n() * C.n_per_block;
  // Byte offsets: global ones at k0 = 0 (a K step adds k0 * 4), LDS ones fixed.
  int a_from[a_copies], a_to[a_copies], b_from[b_copies], b_to[b_copies];
  int a_frag[mi_n][ki_n][gemm_per_lane], b_frag[ni_n][ki_n][gemm_per_lane];
#pragma unroll
  for (int i = 0; i < a_copies; ++i) {
    const row_col x = warp_raked(C.threads, C.warp_size, C.m_per_block, kb, vec, warp, lane, i);
    a_from[i] = ((block_m + x.row) * C.k + x.col) * 4;
    a_to[i] = lds_offset(a_layout, x.row, x.col) * 4;
  }
#pragma unroll
  for (int i = 0; i < b_copies; ++i) {
    const row_col x = warp_raked(C.threads, C.warp_size, C.n_per_block, kb, vec, warp, lane, i);
    b_from[i] = ((block_n + x.row) * C.k + x.col) * 4;
    b_to[i] = lds_offset(b_layout, x.row, x.col) * 4;
  }
#pragma unroll
  for (int mi = 0; mi < mi_n; ++mi)
#pragma unroll
    for (int ki = 0; ki < ki_n; ++ki)
#pragma unroll
      for (int i = 0; i < gemm_per_lane; ++i) a_frag[mi][ki][i] = lds_offset(a_layout, C.a_row(warp, lane, mi, i), ki * vec) * 4;
#pragma unroll
  for (int ni = 0; ni < ni_n; ++ni)
#pragma unroll
    for (int ki = 0; ki < ki_n; ++ki)
#pragma unroll
      for (int j = 0; j < gemm_per_lane; ++j) b_frag[ni][ki][j] = lds_offset(b_layout, C.b_row(warp, lane, ni, j), ki * vec) * 4;
  float acc[mi_n][ni_n][gemm_per_lane][gemm_per_lane] = {};
#pragma unroll 1
  for (int k0 = 0; k0 < C.k; k0 += kb) {
    V a_staged[a_copies], b_staged[b_copies];
#pragma unroll
    for (int i = 0; i < a_copies; ++i) a_staged[i] = *vector_at<V>(a_global, a_from[i] + k0 * 4);  // "A global load"
#pragma unroll
    for (int i = 0; i < b_copies; ++i) b_staged[i] = *vector_at<V>(b_global, b_from[i] + k0 * 4);  // "B global load"
#pragma unroll
    for (int i = 0; i < a_copies; ++i) *vector_at<V>(lds, a_to[i]) = a_staged[i];  // "A lds store"
#pragma unroll
    for (int i = 0; i < b_copies; ++i) *vector_at<V>(b_lds, b_to[i]) = b_staged[i];  // "B lds store"
    __syncthreads();
    float a[mi_n][gemm_per_lane][kb], b[ni_n][gemm_per_lane][kb];
#pragma unroll
    for (int mi = 0; mi < mi_n; ++mi)  // "A lds load": rows of the thread's A fragment, one K vector each
#pragma unroll
      for (int ki = 0; ki < ki_n; ++ki)
#pragma unroll
        for (int i = 0; i < gemm_per_lane; ++i) unpack(*vector_at<V>(lds, a_frag[mi][ki][i]), &a[mi][i][ki * vec]);
#pragma unroll
    for (int ni = 0; ni < ni_n; ++ni)  // "B lds load"
#pragma unroll
      for (int ki = 0; ki < ki_n; ++ki)
#pragma unroll
        for (int j = 0; j < gemm_per_lane; ++j) unpack(*vector_at<V>(b_lds, b_frag[ni][ki][j]), &b[ni][j][ki * vec]);
    if (k0 + kb < C.k) __syncthreads();  // the step's LDS reads are done: the next step may store
    gemm_accumulate<C>(a, b, acc);
  }
#pragma unroll
  for (int mi = 0; mi < mi_n; ++mi)  // "C global store", one float each
#pragma unroll
    for (int ni = 0; ni < ni_n; ++ni)
#pragma unroll
      for (int i = 0; i < gemm_per_lane; ++i)
#pragma unroll
        for (int j = 0; j < gemm_per_lane; ++j)
          *vector_at<float>(c_global, ((block_m + C.a_row(warp, lane, mi, i)) * C.n + block_n + C.b_row(warp, lane, ni, j)) * 4) =
              acc[mi][ni][i][j];
}

// The Morton read: workgroup b copies the band of fh image rows from b*fh to the row-major output. Offsets
// first, then the accesses (every one through a byte offset: with an element index nvcc built each address
// with a signed IMAD.WIDE on the pointer fetched into a register by LDC, off the uniform datapath).
template <morton_config C>
__device__ __forceinline__ void morton_body(const float* in, float* out) {
  constexpr int passes = C.passes();
  const int t = thread_index<C.threads>(), warp = t / C.warp_size, lane = t % C.warp_size;
  const int b = block_index();
  __builtin_assume(b < C.grid());  // the host checks the grid (launch_reference)
  const int y0 = b * C.fh;
  const int dy = lane / C.fw, dx = lane % C.fw;  // the lane's texel in a footprint
  if constexpr (C.staging == morton_staging::direct) {
    int from[passes], to[passes];  // byte offsets
#pragma unroll
    for (int k = 0; k < passes; ++k) {
      const int y = y0 + dy, x = (k * C.waves() + warp) * C.fw + dx;
      from[k] = morton_input_offset(C, y, x) * 4;
      to[k] = (y * C.width + x) * 4;
    }
#pragma unroll
    for (int k = 0; k < passes; ++k) {
      const float v = *vector_at<float>(in, from[k]);  // "texel load"
      *vector_at<float>(out, to[k]) = v;                // "texel store"
    }
  } else {
    static_assert(C.band_reads() * C.threads == C.fh * C.width, "the band splits exactly over the threads");
    constexpr int reads = C.band_reads();
    unsigned char* band = dynamic_lds();
    int from[passes], to_band[passes], from_band[reads], to[reads];  // byte offsets
#pragma unroll
    for (int k = 0; k < passes; ++k) {
      const int x = (k * C.waves() + warp) * C.fw + dx;
      from[k] = morton_input_offset(C, y0 + dy, x) * 4;
      to_band[k] = morton_band_offset(C, dy, x) * 4;
    }
#pragma unroll
    for (int i = 0; i < reads; ++i) {  // band texels t, t + threads, ...: a constant count
      const int e = t + i * C.threads, r = e / C.width, c = e % C.width;
      from_band[i] = morton_band_offset(C, r, c) * 4;
      to[i] = ((y0 + r) * C.width + c) * 4;
    }
#pragma unroll
    for (int k = 0; k < passes; ++k) {
      const float v = *vector_at<float>(in, from[k]);  // "texel load"
      *vector_at<float>(band, to_band[k]) = v;          // "lds store"
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < reads; ++i) {
      const float v = *vector_at<float>(band, from_band[i]);  // "lds load"
      *vector_at<float>(out, to[i]) = v;                       // "texel store"
    }
  }
}

// The convolution: thread t of workgroup b computes output element b*threads + t in C.mode. Every load of the
// output is issued first, in the program's order, into registers; then the FMAs, in the program's k order
// (the same sums, bit for bit). The tilesim kernel's machine code does the same (all loads, then all FMAs);
// written with each FMA after its loads, nvcc interleaved them, and the first FMA held back every later load
// until the first ones returned. Without padding every pixel of every window is inside the image
// (conv_always_inside): the test folds to a constant and no load sits behind a branch.
template <conv_config C>
__device__ __forceinline__ void conv_body(const float* x, const float* wt, float* out) {
  const int b = block_index();
  __builtin_assume(b < C.grid());  // the host checks the grid (launch_reference)
  const int o = b * C.threads + thread_index<C.threads>();
  const int m = o / C.c_out, co = o % C.c_out;
  const int wo = m % C.wo(), ho = m / C.wo() % C.ho(), n = m / (C.wo() * C.ho());
  constexpr int taps = C.gemm_k();  // (r, s, c), k = (r*S + s)*CIn + c
  float v[taps], f[taps];
  if constexpr (C.mode == conv_kind::naive) {
#pragma unroll
    for (int r = 0; r < C.r; ++r)
#pragma unroll
      for (int s = 0; s < C.s; ++s) {
        const int hi = conv_in_h(C, ho, r), wi = conv_in_w(C, wo, s);
        const bool inside = conv_always_inside(C) || conv_inside(C, hi, wi);
#pragma unroll
        for (int c = 0; c < C.c_in; ++c) {
          const int k = (r * C.s + s) * C.c_in + c;
          v[k] = inside ? *vector_at<float>(x, conv_input_offset(C, n, hi, wi, c) * 4) : 0.0f;  // "x load"
          f[k] = *vector_at<float>(wt, conv_weight_offset(C, co, r, s, c) * 4);                  // "w load"
        }
      }
  } else if constexpr (C.mode == conv_kind::sliding) {
    // The window's first pixel (r = s = 0) and the filter's first weight; each (r, s, c) is a fixed step from them.
    const int window = conv_input_offset(C, n, conv_in_h(C, ho, 0), conv_in_w(C, wo, 0), 0);
    const int filter = co * C.gemm_k();
#pragma unroll
    for (int r = 0; r < C.r; ++r)
#pragma unroll
      for (int s = 0; s < C.s; ++s) {
        const bool inside = conv_always_inside(C) || conv_inside(C, conv_in_h(C, ho, r), conv_in_w(C, wo, s));
        const int step = (r * C.dilation_h * C.w + s * C.dilation_w) * C.c_in;
#pragma unroll
        for (int c = 0; c < C.c_in; ++c) {
          const int k = (r * C.s + s) * C.c_in + c;
          v[k] = inside ? *vector_at<float>(x, (window + step + c) * 4) : 0.0f;  // "window load"
          f[k] = *vector_at<float>(wt, (filter + k) * 4);                         // "w load"
        }
      }
  } else {
    using V = typename float_vector<C.vector>::type;
    constexpr int kb = C.k_per_block, vec = C.vector;
#pragma unroll
    for (int k0 = 0; k0 < C.gemm_k(); k0 += kb) {
#pragma unroll
      for (int j = 0; j < kb; j += vec) {  // "A global load": im2col row m, k = k0 + j .. + vec - 1 (one pixel)
        const int k = k0 + j, r = k / (C.s * C.c_in), s = k / C.c_in % C.s, c = k % C.c_in;
        const int hi = conv_in_h(C, ho, r), wi = conv_in_w(C, wo, s);
        V a{};
        if (conv_always_inside(C) || conv_inside(C, hi, wi)) a = *vector_at<V>(x, conv_input_offset(C, n, hi, wi, c) * 4);
        unpack(a, &v[k]);
      }
#pragma unroll
      for (int j = 0; j < kb; j += vec)  // "B global load": weights row co
        unpack(*vector_at<V>(wt, (co * C.gemm_k() + k0 + j) * 4), &f[k0 + j]);
    }
  }
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < taps; ++k) acc += v[k] * f[k];
  *vector_at<float>(out, o * 4) = acc;  // "out store"
}

// The scalar transpose of an N x N fp32 matrix, one 32 x 32 tile per workgroup of 256 threads: offsets first,
// then the accesses, each through a byte offset (see morton_body).
template <int N>
__device__ __forceinline__ void transpose_body(const float* in, float* out) {
  unsigned char* lds = dynamic_lds();
  const int t = thread_index<transpose_threads>(), b = block_index();
  __builtin_assume(b < (N / transpose_tile) * (N / transpose_tile));  // the host checks the grid
  int from[transpose_steps], to_lds[transpose_steps], from_lds[transpose_steps], to[transpose_steps];  // bytes
#pragma unroll
  for (int i = 0; i < transpose_steps; ++i) {
    from[i] = transpose_load_offset(N, b, t, i) * 4;
    to_lds[i] = transpose_lds_store(t, i) * 4;
    from_lds[i] = transpose_lds_load(t, i) * 4;
    to[i] = transpose_store_offset(N, b, t, i) * 4;
  }
  float staged[transpose_steps];
#pragma unroll
  for (int i = 0; i < transpose_steps; ++i) {
    staged[i] = *vector_at<float>(in, from[i]);      // "global load"
    *vector_at<float>(lds, to_lds[i]) = staged[i];    // "lds store"
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < transpose_steps; ++i) {
    const float v = *vector_at<float>(lds, from_lds[i]);  // "lds load"
    *vector_at<float>(out, to[i]) = v;                     // "global store"
  }
}

}  // namespace tilesim::gpu::reference
