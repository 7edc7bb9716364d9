// tilesim/kernel/model/program.hpp: the program model: what a tile program may touch, on the CPU and on a GPU.
//
// DEFINITION. A tile program is a function template over an execution context, written once:
//
//   template <class Ctx> TILESIM_HOST_DEVICE void my_program(Ctx& ctx, const my_params& p);
//
// The context (concept tile_context below) is all the program sees of the machine:
//   ctx.thread_id()   thread index in the workgroup, 0 .. block_size()-1     (threadIdx.x)
//   ctx.lane()        thread_id() % warp_size();  ctx.warp(): thread_id() / warp_size()
//   ctx.block_id()    workgroup index, 0 .. grid_size()-1                    (blockIdx.x)
//   ctx.block_size(), ctx.grid_size(), ctx.warp_size()                       (blockDim.x, gridDim.x, warpSize)
//   global_buffer<T>(ctx, slot)  the host's global buffer number `slot`, as an element_buffer of T
//   lds_buffer<T>(ctx, count)    the next LDS allocation of `count` T's (every thread calls it in the same
//                                order with the same count and gets the same memory); lds_buffer<T>(ctx,
//                                count, lds_loads::as_written) also keeps nvcc from merging its loads (below)
//   ctx.barrier()                a workgroup barrier (__syncthreads / s_barrier)
//   ctx.label("name")            names the accesses that follow (reports, bank maps); a no-op on the GPU
//   alu(ctx, alu_op::fma, n)     states n arithmetic instructions for the timing model; nothing on the GPU
//   derive_once(ctx, x, f)       derive(x, f) for a value all threads derive alike; made once per workgroup on
//                                the simulator (encodings, descriptors), derive itself on a GPU
//   shuffle_xor(ctx, v, mask)    a warp shuffle (also _index, _up, _down; shuffle.hpp): every lane of the wave
//                                takes part; one SHFL / ds_bpermute on a GPU
//   ldmatrix<4>(ctx, lds, off)   sm90's ldmatrix (ldmatrix.hpp): 8x8 b16 matrices into mma operand registers
//   stmatrix<4>(ctx, lds, off, f)  sm90's stmatrix (stmatrix.hpp): the same registers back to 8x8 matrices in LDS
//   mma_m16n8k16(ctx, a, b, c)   sm90's mma.sync m16n8k16 fp16 -> fp32 (mma.hpp); mma_m16n8k16_bf16: bf16 -> fp32
//   mfma_32x32x8_f16(ctx, a, b, c), mfma_16x16x16_f16   gfx9's MFMA fp16 -> fp32 over a wave of 64 (mfma.hpp)
//   async_copy<N>(ctx, lds, i, global, j), async_commit(ctx), async_wait<K>(ctx)   cp.async and its groups
//                                (async_copy.hpp): global -> LDS without registers, landing at a wait
// Buffers satisfy spec's element_buffer (size, load/store/add of one vector with a validity flag), so the
// program builds tensor views and tile windows on them; load_element / store_element / add_element below
// are the scalar spelling. Parameters travel in a plain struct of numbers and enums (slots, not pointers).
//
// THE SAME SOURCE ON A GPU. gpu/runtime/device_context.hpp implements the same members with no host-only type: ids
// from threadIdx.x / blockIdx.x / blockDim.x / gridDim.x; barrier() is __syncthreads(); label() and alu() do
// nothing; global_buffer<T>(ctx, slot) is a device_buffer<T> over kernel_args::pointer[slot] with
// kernel_args::bytes[slot] / sizeof(T) elements; lds_buffer<T>(ctx, count) takes the next 16-byte-aligned piece
// of the launch's dynamic shared memory, which every thread computes alike. A kernel runs a program through
// run_program (gpu/runtime/device_context.hpp): `run_program(args, [&](device_context& ctx) { copy_tile<uint16_t>(ctx,
// constant<shape>{}); });` (gpu/kernels/kernels.cu); a user's own program becomes a kernel with
// TILESIM_DECLARE_GPU_KERNEL / TILESIM_GPU_KERNEL (gpu/user/). To keep that possible, a program uses no
// std::string, iostream, heap, or exception of its own (spec's require() traps on the device), and nothing but
// spec/ and kernel/ (this header and the collectives beside it: tests/layering.py holds kernel/ to that); on the
// simulator, `ctx` is sim::thread_context and the buffers are sim::recording_buffer.
//
// WORKED EXAMPLE (thread t writes LDS[t], waits, reads its neighbour's value, writes it to global):
//   template <class Ctx> TILESIM_HOST_DEVICE void rotate(Ctx& ctx, const rotate_params& p) {
//     auto lds = lds_buffer<float>(ctx, ctx.block_size());
//     auto out = global_buffer<float>(ctx, p.output);
//     const index_t t = ctx.thread_id(), n = ctx.block_size();
//     ctx.label("publish");
//     store_element(lds, t, static_cast<float>(t));
//     ctx.barrier();
//     ctx.label("neighbour");
//     store_element(out, ctx.block_id() * n + t, load_element(lds, (t + 1) % n));
//   }
//
// INVARIANTS the engine relies on: every thread of a workgroup reaches the same number of barriers (a
// barrier some threads skip is reported as divergent, not waited for forever); lds_buffer calls agree across
// threads; every lane of a wave reaches the same shuffles in the same order (one that some lanes skip is
// reported naming the lanes); a thread's buffers are used by that thread only. Warp-synchronous memory code
// (relying on lanes of a warp running in lockstep without a barrier) is outside the model: such accesses are
// reported as races; lanes exchange registers through the shuffles only.
#pragma once

#include <concepts>

#include "kernel/model/alu_op.hpp"
#include "kernel/model/async_copy.hpp"
#include "kernel/model/ldmatrix.hpp"
#include "kernel/model/mfma.hpp"
#include "kernel/model/mma.hpp"
#include "kernel/model/shuffle.hpp"
#include "kernel/model/stmatrix.hpp"
#include "spec/window/tensor_view.hpp"

namespace tilesim {

// What a program may ask of its execution context (sim::thread_context on the CPU, the HIP context on a GPU).
template <class Ctx>
concept tile_context = requires(Ctx& ctx, const char* name, int slot, index_t count) {
  { ctx.thread_id() } -> std::convertible_to<index_t>;
  { ctx.lane() } -> std::convertible_to<index_t>;
  { ctx.warp() } -> std::convertible_to<index_t>;
  { ctx.block_id() } -> std::convertible_to<index_t>;
  { ctx.block_size() } -> std::convertible_to<index_t>;
  { ctx.grid_size() } -> std::convertible_to<index_t>;
  { ctx.warp_size() } -> std::convertible_to<index_t>;
  ctx.barrier();
  ctx.label(name);
  { ctx.template global<float>(slot) } -> element_buffer;
  { ctx.template lds<float>(count) } -> element_buffer;
};

// The host's global buffer `slot` as elements of T: global_buffer<float>(ctx, p.input).
template <class T, class Ctx>
TILESIM_HOST_DEVICE auto global_buffer(Ctx& ctx, int slot) {
  return ctx.template global<T>(slot);
}

// How a GPU compiler may turn a thread's loads from an LDS buffer into instructions (the simulator counts every
// load as the program writes it, either way):
//   merge_allowed  nvcc may merge a thread's neighbouring narrow loads that it proves aligned into one wider load
//                  (two 8-byte vectors 8 bytes apart -> one LDS.128), which the simulator does not model: the H100
//                  props run of 2026-11-25 found it in 10 of 500 generated programs (data/recordings/README.md);
//   as_written     every load is one instruction of the width the program states, as the simulator counts it (the
//                  kernel hides the allocation's alignment from nvcc's vectorizer; ptxas folds the hiding away).
enum class lds_loads { merge_allowed, as_written };

// The workgroup's next LDS allocation of `count` T's: lds_buffer<float>(ctx, 64 * 33), or
// lds_buffer<float>(ctx, 64 * 33, lds_loads::as_written).
template <class T, class Ctx>
TILESIM_HOST_DEVICE auto lds_buffer(Ctx& ctx, index_t count, lds_loads loads = lds_loads::merge_allowed) {
  if constexpr (requires { ctx.template lds<T>(count, loads); })
    return ctx.template lds<T>(count, loads);
  else
    return ctx.template lds<T>(count);  // the simulator: loads are counted as written
}

// Element i: load_element(lds, 3). One recorded access on the simulator, which reports i outside the buffer
// (and reads T{}); on a GPU one load instruction, with no range check unless built with TILESIM_DEVICE_STRICT.
// The simulator's buffers take the caller's file and line (the access's site, which groups lanes into
// instructions: sim/engine/grouping.hpp); a GPU's ignore them (the builtins cost nothing once inlined).
template <element_buffer B>
TILESIM_HOST_DEVICE typename B::value_type load_element(const B& buffer, index_t i, const char* file = __builtin_FILE(),
                                                        int line = __builtin_LINE()) {
  typename B::value_type v{};
  if constexpr (requires { buffer.load(i, index_t{1}, &v, true, file, line); })
    buffer.load(i, 1, &v, true, file, line);
  else
    load_vector<1>(buffer, i, &v, true);
  return v;
}

// Element i = v (reported and dropped outside the buffer on the simulator): store_element(out, t, 1.0f).
template <element_buffer B>
TILESIM_HOST_DEVICE void store_element(const B& buffer, index_t i, const typename B::value_type& v,
                                       const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  if constexpr (requires { buffer.store(i, index_t{1}, &v, true, file, line); })
    buffer.store(i, 1, &v, true, file, line);
  else
    store_vector<1>(buffer, i, &v, true);
}

// Element i += v, atomically on a GPU: add_element(histogram, bin, 1).
template <element_buffer B>
TILESIM_HOST_DEVICE void add_element(const B& buffer, index_t i, const typename B::value_type& v,
                                     const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  if constexpr (requires { buffer.add(i, index_t{1}, &v, true, file, line); })
    buffer.add(i, 1, &v, true, file, line);
  else
    buffer.add(i, 1, &v, true);
}

// States that this thread now executes n arithmetic instructions of class op (alu_op.hpp), for the timing
// model: alu(ctx, alu_op::fma, 16) after a 4x4 outer product. A context without an alu member (the GPU's)
// makes it nothing, so the kernel's machine code is the same with or without it.
template <class Ctx>
TILESIM_HOST_DEVICE constexpr void alu(Ctx& ctx, alu_op op, index_t n) {
  if constexpr (requires { ctx.alu(op, n); }) ctx.alu(op, n);
}

// derive(x, f) (spec/constant.hpp) for a value every thread of the workgroup derives alike: an encoding, a
// descriptor, a warp split. A constant x gives derive's constant; a run-time x gives f(x), which a context with a
// shared_value member (the simulator's) computes once for all its threads and hands to each as a reference to
// the value it keeps (valid while the workgroup runs; bind it with const auto& to read it in place), and any
// other context (the GPU's) computes in each thread, as derive does. f must capture nothing.
// const auto& a_frag = derive_once(ctx, grid, [](const gemm_warp_grid& g) { return make_gemm_a_encoding(g, g.vector); });
template <class Ctx, class T, class F>
TILESIM_HOST_DEVICE constexpr decltype(auto) derive_once(Ctx& ctx, const T& x, F f) {
  if constexpr (is_constant_v<T>)
    return derive(x, f);
  else if constexpr (requires { ctx.shared_value(x, f); })
    return ctx.shared_value(x, f);
  else
    return f(x);
}

// Warp shuffles (shuffle.hpp); every lane of the wave must call the same one. The value of lane `src_lane`:
// shuffle_index(ctx, v, 0) broadcasts lane 0's v.
template <class Ctx, class T>
TILESIM_HOST_DEVICE T shuffle_index(Ctx& ctx, const T& v, index_t src_lane) {
  return ctx.shuffle(shuffle_kind::index, v, src_lane);
}
// The value of lane ^ mask: a butterfly step; sum += shuffle_xor(ctx, sum, 16) halves a reduction.
template <class Ctx, class T>
TILESIM_HOST_DEVICE T shuffle_xor(Ctx& ctx, const T& v, index_t mask) {
  return ctx.shuffle(shuffle_kind::xor_lanes, v, mask);
}
// The value of lane - delta (own below lane delta): an inclusive scan step.
template <class Ctx, class T>
TILESIM_HOST_DEVICE T shuffle_up(Ctx& ctx, const T& v, index_t delta) {
  return ctx.shuffle(shuffle_kind::up, v, delta);
}
// The value of lane + delta (own from lane W - delta on).
template <class Ctx, class T>
TILESIM_HOST_DEVICE T shuffle_down(Ctx& ctx, const T& v, index_t delta) {
  return ctx.shuffle(shuffle_kind::down, v, delta);
}

// ldmatrix (sm90; ldmatrix.hpp): Count 8x8 matrices of 16-bit elements from LDS; lane 8i + r passes the element
// offset of row r of matrix i (the others' offsets are ignored). ldmatrix<4>(ctx, lds, row * 64 + k0).
template <int Count, bool Trans = false, class Ctx, element_buffer B>
TILESIM_HOST_DEVICE ldmatrix_fragment<Count> ldmatrix(Ctx& ctx, const B& lds, index_t row_offset) {
  return ctx.template ldmatrix<Count, Trans>(lds, row_offset);
}

// stmatrix (sm90; stmatrix.hpp): Count 8x8 matrices of 16-bit elements to LDS from every lane's registers; lane
// 8i + r passes the element offset of row r of matrix i (the others' offsets are ignored); every lane supplies f.
// stmatrix<4>(ctx, lds, row * 64 + n0, f) stores what ldmatrix<4>(ctx, lds, row * 64 + n0) would read back.
template <int Count, bool Trans = false, class Ctx, element_buffer B>
TILESIM_HOST_DEVICE void stmatrix(Ctx& ctx, const B& lds, index_t row_offset, const stmatrix_fragment<Count>& f) {
  ctx.template stmatrix<Count, Trans>(lds, row_offset, f);
}

// mma.sync m16n8k16 (sm90; mma.hpp): D = A * B + C, fp16 A and B, fp32 C and D, in the warp's registers.
template <class Ctx>
TILESIM_HOST_DEVICE mma_m16n8k16_c mma_m16n8k16(Ctx& ctx, const mma_m16n8k16_a& a, const mma_m16n8k16_b& b,
                                               const mma_m16n8k16_c& c) {
  return ctx.mma(a, b, c);
}

// The same with bfloat16 A and B (mma.sync ...f32.bf16.bf16.f32; same fragments).
template <class Ctx>
TILESIM_HOST_DEVICE mma_m16n8k16_c mma_m16n8k16_bf16(Ctx& ctx, const mma_m16n8k16_a& a, const mma_m16n8k16_b& b,
                                                    const mma_m16n8k16_c& c) {
  return ctx.mma_bf16(a, b, c);
}

// MFMA (gfx90a, gfx942, gfx950; mfma.hpp): D = A * B + C over the wave of 64, fp16 A and B, fp32 C and D.
template <class Ctx>
TILESIM_HOST_DEVICE mfma_32x32x8_c mfma_32x32x8_f16(Ctx& ctx, const mfma_f16_operand& a, const mfma_f16_operand& b,
                                                   const mfma_32x32x8_c& c) {
  return ctx.mfma_32x32x8(a, b, c);
}
template <class Ctx>
TILESIM_HOST_DEVICE mfma_16x16x16_c mfma_16x16x16_f16(Ctx& ctx, const mfma_f16_operand& a, const mfma_f16_operand& b,
                                                     const mfma_16x16x16_c& c) {
  return ctx.mfma_16x16x16(a, b, c);
}

// Throws (traps on a GPU) unless ctx runs this workgroup shape and grid: a program compiled for one shape
// (a constant<...> launch, spec/constant.hpp) checks it once, at its start.
template <class Ctx>
TILESIM_HOST_DEVICE void require_launch_shape(Ctx& ctx, index_t threads, index_t warp_size, index_t grid) {
  require_launch(broken_unless(ctx.block_size() == threads && ctx.warp_size() == warp_size && ctx.grid_size() == grid,
                        rule::launch_split_not_exact, "compiled launch shape", {"block", ctx.block_size()},
                        {"compiled threads", threads}, {"grid", ctx.grid_size()}, {"compiled grid", grid}));
}

}  // namespace tilesim
