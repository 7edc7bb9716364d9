// tilesim/gpu/amd/lds_width_kernels.hip: the built-in programs pinned to one LDS width per parameter point.
//
// DEFINITION. lds_width_point_kernel<I> runs the program of gpu/amd/lds_width_points.hpp's point I (the
// same sim/programs template gpu/kernels.cu runs) with the point's parameters as compile-time constants,
// __launch_bounds__(256), and a context that differs from gpu/device_context.hpp's in one thing: its LDS
// buffers are pinned_lds_buffer<T, LoadBytes, StoreBytes>, which move a lane's vector with
// load_bytes<min(Bytes, 16)> / store_bytes<...> (gpu/vector_access.hpp, the instructions device_buffer uses)
// and nothing else: no switch over widths, no element-wise fallback. A vector of another size, a misaligned
// one or one not wholly inside the buffer traps (on a GPU; here the file is compiled, never run). So the only
// LDS instructions the compiler can emit are the pinned widths, each as the backend selects it inside the
// whole program (register pressure, neighbouring accesses it may pair into ds_read2/ds_write2, splits).
//
// WORKED EXAMPLE. Point 0 (copy fp16 64 x 32, 8 per vector, 16 bytes): lds_width_point_kernel<0> holds
// ds_write_b128 for "lds store" and ds_read_b128 for "lds load"; global accesses still go through
// device_buffer. If the simulator priced 8-byte loads there instead, or the backend turned the 16-byte load
// into two ds_read_b64 or a ds_read2_b64, gpu/amd/lds_widths.test.cpp fails naming the kernel, the
// instruction and both widths.
//
// WHAT IT PROVES, AND NOT: with the test, that at each point (a) the simulator prices the width the kernel is
// pinned to and (b) the pinned kernel's LDS instructions are exactly that width. That the program computes the
// same vector length on the GPU as on the host is guarded at run time by the trap (same spec/ code, no AMD GPU
// here to run it); where the simulator runs clean, device_buffer takes the vector path for every LDS access,
// so kernels.cu's kernel issues the same instructions at that point.
//
// INVARIANTS: only compiled with hipcc (gpu/amd/meson.build), for gfx90a and gfx940; one kernel per point, in
// the table's order; the context satisfies tilesim::tile_context exactly as device_context does.
#include <cstdint>

#include "gpu/amd/lds_width_points.hpp"
#include "gpu/device_context.hpp"

namespace tilesim::gpu::amd {

// An LDS buffer whose loads move LoadBytes and whose stores move StoreBytes per lane, in pieces of at most 16.
template <class T, int LoadBytes, int StoreBytes>
struct pinned_lds_buffer {
  static_assert(LoadBytes > 0 && StoreBytes > 0, "pinned widths are positive");
  using value_type = T;
  T* data = nullptr;
  index_t count = 0;

  __device__ index_t size() const { return count; }
  __device__ bool holds(index_t i) const { return i >= 0 && i < count; }

  // An invalid (padded-out) vector reads zeros without touching LDS, as device_buffer's does.
  __device__ void load(index_t offset, index_t n, T* out, bool valid) const {
    if (!valid) {
      for (index_t j = 0; j < n; ++j) out[j] = T{};
      return;
    }
    constexpr int piece = LoadBytes < 16 ? LoadBytes : 16;
    static_assert(LoadBytes % piece == 0, "a pinned load above 16 bytes is whole 16-byte pieces");
    require_pinned(offset, n, LoadBytes, piece);
    const auto* base = reinterpret_cast<const unsigned char*>(data + offset);
    std::uint32_t r[4];
    for (int at = 0; at < LoadBytes; at += piece) {
      load_bytes<piece, memory_space::lds>(base + at, r);
      __builtin_memcpy(reinterpret_cast<unsigned char*>(out) + at, r, piece);
    }
  }

  // An invalid vector is not stored, as device_buffer's is not.
  __device__ void store(index_t offset, index_t n, const T* in, bool valid) const {
    if (!valid) return;
    constexpr int piece = StoreBytes < 16 ? StoreBytes : 16;
    static_assert(StoreBytes % piece == 0, "a pinned store above 16 bytes is whole 16-byte pieces");
    require_pinned(offset, n, StoreBytes, piece);
    auto* base = reinterpret_cast<unsigned char*>(data + offset);
    std::uint32_t r[4];
    for (int at = 0; at < StoreBytes; at += piece) {
      __builtin_memcpy(r, reinterpret_cast<const unsigned char*>(in) + at, piece);
      store_bytes<piece, memory_space::lds>(base + at, r);
    }
  }

  // The built-in programs never add into LDS; a program that did would not be pinned.
  __device__ void add(index_t, index_t, const T*, bool) const { TILESIM_DEVICE_TRAP(); }

 private:
  // Traps unless the vector is `bytes` long, wholly inside the buffer and aligned to `piece`.
  __device__ void require_pinned(index_t offset, index_t n, int bytes, int piece) const {
    const auto address = reinterpret_cast<std::uintptr_t>(data + offset);
    const bool ok = n * static_cast<index_t>(sizeof(T)) == bytes && offset >= 0 && offset + n <= count &&
                    address % static_cast<std::uintptr_t>(piece) == 0;
    if (!ok) TILESIM_DEVICE_TRAP();
  }
};

// device_context with a fixed block size and pinned LDS buffers; everything else forwards to it.
template <int Block, int LoadBytes, int StoreBytes>
class pinned_context {
 public:
  __device__ explicit pinned_context(const kernel_args& a) : base_(a) {
    if (blockDim.x != Block) TILESIM_DEVICE_TRAP();
  }

  __device__ index_t thread_id() const { return base_.thread_id(); }
  __device__ index_t lane() const { return base_.lane(); }
  __device__ index_t warp() const { return base_.warp(); }
  __device__ index_t block_id() const { return base_.block_id(); }
  __device__ index_t block_size() const { return Block; }
  __device__ index_t grid_size() const { return base_.grid_size(); }
  __device__ index_t warp_size() const { return base_.warp_size(); }
  __device__ void barrier() const { base_.barrier(); }
  __device__ void label(const char*) const {}

  template <class T>
  __device__ device_buffer<T, memory_space::global> global(int slot) const {
    return base_.template global<T>(slot);
  }

  // The allocation device_context makes (same offsets, same bounds trap), pinned.
  template <class T>
  __device__ pinned_lds_buffer<T, LoadBytes, StoreBytes> lds(index_t count) {
    const device_buffer<T, memory_space::lds> b = base_.template lds<T>(count);
    return {b.data, b.count};
  }

 private:
  device_context base_;
};

// Point I of lds_width_points, pinned to its LDS widths.
template <int I>
__global__ __launch_bounds__(256) void lds_width_point_kernel(kernel_args a) {
  constexpr lds_width_point p = lds_width_points[I];
  static_assert(p.block == 256, "the pinned kernels are launched with 256 threads (__launch_bounds__)");
  pinned_context<p.block, p.lds_load_bytes, p.lds_store_bytes> ctx(a);
  if constexpr (p.program == lds_width_program::copy_fp16)
    programs::copy_tile<std::uint16_t>(ctx, p.copy);
  else if constexpr (p.program == lds_width_program::copy_fp32)
    programs::copy_tile<float>(ctx, p.copy);
  else if constexpr (p.program == lds_width_program::gemm_fp32)
    programs::gemm_tile(ctx, p.gemm);
  else
    programs::lds_sweep<std::uint32_t, static_cast<int>(p.sweep.tile.vector)>(ctx, p.sweep);
}

static_assert(lds_width_point_count == 11, "one explicit instantiation below per point of lds_width_points");
template __global__ void lds_width_point_kernel<0>(kernel_args);
template __global__ void lds_width_point_kernel<1>(kernel_args);
template __global__ void lds_width_point_kernel<2>(kernel_args);
template __global__ void lds_width_point_kernel<3>(kernel_args);
template __global__ void lds_width_point_kernel<4>(kernel_args);
template __global__ void lds_width_point_kernel<5>(kernel_args);
template __global__ void lds_width_point_kernel<6>(kernel_args);
template __global__ void lds_width_point_kernel<7>(kernel_args);
template __global__ void lds_width_point_kernel<8>(kernel_args);
template __global__ void lds_width_point_kernel<9>(kernel_args);
template __global__ void lds_width_point_kernel<10>(kernel_args);

}  // namespace tilesim::gpu::amd
