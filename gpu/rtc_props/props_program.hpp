// tilesim/gpu/rtc_props/props_program.hpp: the generated copy program, one source for the simulator and the kernel.
//
// DEFINITION. props_copy<T>(ctx, c) runs the props_case c (props_case.hpp) on a tile context: the simulator's
// sim::thread_context with c a value (the random case, instantiated at run time) or gpu::device_context with c
// a constant<props_case{...}> (the kernel gpu/rtc_props/kernel_source.cpp emits and NVRTC compiles). As in
// kernel/copy/copy.hpp, derive() turns every encoding and descriptor into a constant in the second form, so
// the windows are static_tile_windows and the kernel has no run-time structure (0 bytes of stack). Steps
// (labels as the simulator's reports show them):
//   "global load"   writer window over the padded global input at (b*rows, 0) -> registers
//   "lds store"     writer window over LDS in c's layout
//   barrier
//   "lds load"      reader window over LDS in c's layout (the fault's layout on a faulty device)
//   "global store"  reader window over the padded global output at (b*rows, 0)
// both by replica 0 of a replicated reader only (the threads whose R components are 0), so each element is
// stored once. The other replicas load nothing: their values would be dead, and nvcc drops dead loads (moves
// them under the store's branch), so a program that loaded them would count LDS accesses the kernel never makes
// (the H100 props run of 2026-11-24 23:26 UTC, case 21: 2 LDS loads on the GPU against 4).
// Every value the reader loads from LDS is used on the device whatever the store's guard (keep_loaded: the AND of
// them all, and a trap if that is all ones, which no input element is), so ptxas issues every LDS load of the
// program, with every lane, as the simulator counts them. Without it an LDS load whose values feed only global
// stores past the tensor is dead, and ptxas drops or sinks it, under a branch the simulator cannot predict: the
// H100 props run of 2026-11-24 (data/recordings/props-h100.json, kernels before this change) has 122 of 400
// measured cases with fewer LDS load instructions or wavefronts than simulated. Case 41 (fp16, 64x16 tile over a
// 7x7 tensor: warp 1's columns 8..15 all past it): 8 LDS loads against 16, warp 0's with all lanes' wavefronts
// (a warp-uniform branch on the warp index); case 42 (fp32 8x16 over 13x6): 4 against 8 with 14 wavefronts
// against 16 for those 4 (a per-lane branch). The PTX has every ld.shared unconditional: the sinking is ptxas's.
// The LDS buffer is lds_loads::as_written (kernel/model/program.hpp): without it nvcc and ptxas merge a thread's
// neighbouring LDS loads where they prove the alignment, which the simulator does not model (the H100 props run of
// 2026-11-25: 26 of 500 cases with fewer LDS loads than simulated; case 119's PTX has 5 ld.shared.v4.u32 for 10
// loads of 8 bytes, case 47's PTX all 24 loads of 4 bytes and its SASS 19 LDS, 1 LDS.64 and 1 LDS.128; with
// as_written the SASS of both has the loads as written, 10 LDS.64 and 24 LDS).
// The global view is tensor_rows x tensor_cols row-major (vector guarantee: the largest power of two dividing
// tensor_cols, at most 16 bytes, so no vector straddles the pad) under two right pads up to grid*rows x cols.
//
// WORKED EXAMPLE. props_copy<std::uint32_t>(ctx, c) on the simulator; the kernel is
//   extern "C" __global__ void props_kernel(kernel_args a) {
//     run_program(a, [&](device_context& ctx) { props_copy<std::uint32_t>(ctx, constant<the_case>{}); }); }
//
// INVARIANTS: output == input on the tensor for every valid case, each element stored once (none lost, none twice); the program touches nothing but the context and spec/.
#pragma once

#include "gpu/rtc_props/props_case.hpp"
#include "kernel/model/program.hpp"
#include "spec/distribution/distributed_tensor.hpp"
#include "spec/layouts/ck_lds_xor.hpp"
#include "spec/layouts/cute_swizzle.hpp"
#include "spec/layouts/morton.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/transforms/pad.hpp"
#include "spec/window/static_tile_window.hpp"

namespace tilesim::gpu::props {

// The largest power of two dividing n, at most `cap`: vector_of(12, 8) == 4.
TILESIM_HOST_DEVICE constexpr index_t largest_pow2_divisor(index_t n, index_t cap) {
  index_t v = 1;
  while (v < cap && n % (2 * v) == 0) v *= 2;
  return v;
}

// The padded global view of c: tensor_rows x tensor_cols row-major, right-padded to grid*rows x cols.
TILESIM_HOST_DEVICE constexpr auto props_global_descriptor(const props_case& c) {
  const index_t vec = largest_pow2_divisor(c.tensor_cols, 16 / c.element_bytes);
  auto naive = make_naive_descriptor<2>({c.tensor_rows, c.tensor_cols}, {c.tensor_cols, 1}, vec, 1);
  return transform_descriptor(naive, step(make_right_pad(c.tensor_rows, c.grid * c.rows() - c.tensor_rows), {0}, {0}),
                              step(make_right_pad(c.tensor_cols, c.cols() - c.tensor_cols), {1}, {1}));
}

// The LDS descriptor of family L for c; faulty: the device-only fault's layout (props_case.hpp).
template <props_layout L>
TILESIM_HOST_DEVICE constexpr auto props_lds_descriptor(const props_case& c, bool faulty) {
  if constexpr (L == props_layout::row_major) {
    return make_row_major_descriptor(c.rows(), c.cols());
  } else if constexpr (L == props_layout::padded) {
    return make_row_major_descriptor(c.rows(), c.cols(), c.pad);
  } else if constexpr (L == props_layout::ck_xor) {
    ck_lds_xor_params x{c.rows(), c.cols(), c.ck_k_pack};
    x.element_bytes = c.element_bytes;
    x.m_lds_layer = c.ck_m_lds_layer;
    x.banks = c.ck_banks;
    x.order = c.ck_order;
    if (faulty) x.order = x.order == ck_lds_order::l_k0_2025 ? ck_lds_order::k0_l_2024 : ck_lds_order::l_k0_2025;
    return make_ck_lds_xor_descriptor(x);
  } else if constexpr (L == props_layout::cute_swizzle) {
    const int b = faulty && c.swizzle_b > 0 ? c.swizzle_b - 1 : c.swizzle_b;
    return make_cute_swizzle_descriptor(b, c.swizzle_m, c.swizzle_s, c.rows(), c.cols());
  } else {
    return make_morton_descriptor(c.rows(), c.cols());
  }
}

// Calls f(constant<L>{}) with c's layout family, in either form.
template <class Case, class F>
TILESIM_HOST_DEVICE void with_props_layout(const Case& c, F&& f) {
  if constexpr (is_constant_v<Case>) {
    f(constant<Case::value.layout>{});
  } else {
    switch (c.layout) {
      case props_layout::row_major: return f(constant<props_layout::row_major>{});
      case props_layout::padded: return f(constant<props_layout::padded>{});
      case props_layout::ck_xor: return f(constant<props_layout::ck_xor>{});
      case props_layout::cute_swizzle: return f(constant<props_layout::cute_swizzle>{});
      case props_layout::morton: return f(constant<props_layout::morton>{});
    }
  }
}

// True for the thread whose R components are all 0: of the threads a replicated encoding gives the same
// elements, the one that stores them (so each output element is stored once). Run-time encoding:
TILESIM_HOST_DEVICE inline bool primary_replica(const tile_distribution_encoding& e,
                                                const multi_index<tile_distribution_encoding::max_p>& thread) {
  const auto rs = e.r_of(thread);
  bool first = true;
  for (int i = 0; i < e.n_r; ++i) first = first && rs[i] == 0;
  return first;
}
// The compile-time encoding (a template parameter object, which device code may use; it folds).
template <tile_distribution_encoding E>
TILESIM_HOST_DEVICE bool primary_replica(constant<E>, const multi_index<tile_distribution_encoding::max_p>& thread) {
  if constexpr (E.n_r == 0) {
    return true;
  } else {
    const auto rs = E.r_of(thread);
    bool first = true;
    for (int i = 0; i < E.n_r; ++i) first = first && rs[i] == 0;
    return first;
  }
}

// Device only: keeps every load that filled t live (see the essay) at the cost of one AND per element and one
// compare: the AND of all elements is all ones only if every element is, and no input element is (props_sim.hpp's
// make_case_inputs), nor a pad's 0, so the trap never fires on a correct run. The simulator has nothing to keep.
template <class T, class Tensor>
TILESIM_HOST_DEVICE void keep_loaded(const Tensor& t) {
#if defined(__CUDA_ARCH__)
  T all = static_cast<T>(~T{});
  for (index_t d = 0; d < t.size(); ++d) all = static_cast<T>(all & t[d]);
  if (all == static_cast<T>(~T{})) __trap();
#else
  (void)t;
#endif
}

// The scalars the program needs at run time, derived so that the kernel holds no props_case in memory.
struct props_dims {
  index_t threads, grid, rows, cols, wave;
};

// The program (see the essay): props_copy<std::uint16_t>(ctx, c) or (ctx, constant<c>{}).
template <class T, class Ctx, class Case>
TILESIM_HOST_DEVICE void props_copy(Ctx& ctx, const Case& shape) {
  const props_dims c = value_of(derive(shape, [](const props_case& k) {
    return props_dims{k.threads, k.grid, k.rows(), k.cols(), k.wave};
  }));
  require_launch_shape(ctx, c.threads, c.wave, c.grid);
  const auto write_enc = derive(shape, [](const props_case& k) { return k.writer; });
  const auto read_enc = derive(shape, [](const props_case& k) { return k.reader; });
  const auto global_desc = derive(shape, [](const props_case& k) { return props_global_descriptor(k); });
  const auto writer = partition_index(write_enc, ctx.warp(), ctx.lane());
  const auto reader = partition_index(read_enc, ctx.warp(), ctx.lane());
  const multi_index<2> tile{c.rows, c.cols};
  const multi_index<2> origin{ctx.block_id() * c.rows, 0};
  const auto in = make_tensor_view(global_desc, global_buffer<T>(ctx, 0), address_space::global);
  const auto out = make_tensor_view(global_desc, global_buffer<T>(ctx, 1), address_space::global);
  with_props_layout(shape, [&](auto family) {
    constexpr props_layout L = decltype(family)::value;
    const auto store_desc = derive(shape, [](const props_case& k) { return props_lds_descriptor<L>(k, false); });
    const auto load_desc = derive(shape, [](const props_case& k) { return props_lds_descriptor<L>(k, k.fault != 0); });
    const index_t space = value_of(derive(shape, [](const props_case& k) {
      return props_lds_descriptor<L>(k, false).element_space_size;
    }));
    const auto buffer = lds_buffer<T>(ctx, space, lds_loads::as_written);  // see the essay: loads as counted
    const auto lds_w = make_tensor_view(store_desc, buffer, address_space::lds);
    const auto lds_r = make_tensor_view(load_desc, buffer, address_space::lds);
    auto staged = make_distributed_tensor<T, props_max_elements>(write_enc);
    ctx.label("global load");
    make_tile_window(in, tile, origin, write_enc, writer).load(staged);
    ctx.label("lds store");
    make_tile_window(lds_w, tile, {0, 0}, write_enc, writer).store(staged);
    ctx.barrier();
    if (!primary_replica(read_enc, reader)) return;  // see the essay: a replica's loads would be dead
    auto moved = make_distributed_tensor<T, props_max_elements>(read_enc);
    ctx.label("lds load");
    make_tile_window(lds_r, tile, {0, 0}, read_enc, reader).load(moved);
    keep_loaded<T>(moved);
    // Its arithmetic, for the timing model (nothing on the GPU): an AND per 32-bit word, which the stores wait for.
    alu(ctx, alu_op::integer, moved.size() * static_cast<index_t>((sizeof(T) + 3) / 4));
    ctx.label("global store");
    make_tile_window(out, tile, origin, read_enc, reader).store(moved);
  });
}

}  // namespace tilesim::gpu::props
