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
// KIND stencil (props_case.hpp): after the barrier the reader loads its tile once per offset k, through the LDS view
// wrapped by modulo(rows, 2 rows) / modulo(cols, 2 cols) in the dims the offset moves (the window at origin
// (dr_k mod rows, dc_k mod cols) then reads element ((r + dr_k) mod rows, (c + dc_k) mod cols)); a wrapped column
// dim has no vector guarantee (modulo's, as CK's), so those reads are scalar, as a hand-written stencil's are; an
// offset of (0, 0) reads through the copy's view. The sum (wrapping integer adds) is stored as the copy stores.
// keep_loaded holds every loaded tensor, so ptxas issues every read.
//
// KIND reduce: every thread (replicas too: the shuffles need every lane) loads its reader tile as the copy does,
// folds element d into its row's home element (d with every column Y at 0: row_home), then for each lane bit that
// indexes columns (reduce_lane_mask) adds shuffle_xor(home, bit) to each home element (4- or 8-byte shuffles: a
// 16-bit value travels in 32 bits); the lane whose column bits are 0, of replica 0, stores each home element at
// (row, 0) of the output, one scalar store per row, with rows past the tensor invalid (not skipped, so every lane
// walks the same stores as the GPU's predicated ones).
//
// KIND loop: the copy's steps per tile t < loop_tiles (a compile-time loop on the device), the windows at rows
// (t * grid + b) * rows; the LDS store goes to buffer t % 2 of two (double_buffer) after the previous tiles' barrier,
// or to the one buffer after a barrier that ends the previous tile's reads (t > 0); replicas skip the reads and
// stores but not the barriers.
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
#include "spec/transforms/modulo.hpp"
#include "spec/transforms/pad.hpp"
#include "spec/transforms/pass_through.hpp"
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
  const index_t rows = c.grid * c.tiles_per_block() * c.rows();
  return transform_descriptor(naive, step(make_right_pad(c.tensor_rows, rows - c.tensor_rows), {0}, {0}),
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

// The row of a thread's first element (its Ys at 0). Run-time encoding:
TILESIM_HOST_DEVICE inline index_t row_of_thread(const tile_distribution_encoding& e,
                                                 const multi_index<tile_distribution_encoding::max_p>& thread) {
  return e.x_of(thread, {})[0];
}
// The compile-time encoding, read in place (a copy of it, as value_of makes, is a 976-byte stack frame under NVRTC).
template <tile_distribution_encoding E>
TILESIM_HOST_DEVICE index_t row_of_thread(constant<E>, const multi_index<tile_distribution_encoding::max_p>& thread) {
  return E.x_of(thread, {})[0];
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

// Calls f(constant<K>{}) for K = 0 .. N-1 in order (the stencil's offsets, each with its own view type).
template <int K, int N, class F>
TILESIM_HOST_DEVICE void props_static_for(F&& f) {
  if constexpr (K < N) {
    f(constant<K>{});
    props_static_for<K + 1, N>(f);
  }
}

// Which dims stencil offset k wraps: bit 0 the rows (dr != 0), bit 1 the columns (dc != 0).
TILESIM_HOST_DEVICE constexpr int stencil_wrap(const props_case& c, int k) {
  return (c.stencil_dr[k] != 0 ? 1 : 0) | (c.stencil_dc[k] != 0 ? 2 : 0);
}

// The reader's LDS view of a stencil offset that wraps the dims in W (stencil_wrap): modulo(rows, 2 rows) /
// modulo(cols, 2 cols) over c's layout, pass-through where the offset does not move.
template <props_layout L, int W>
TILESIM_HOST_DEVICE constexpr auto props_stencil_lds(const props_case& c) {
  const auto d = props_lds_descriptor<L>(c, c.fault != 0);
  const index_t r = c.rows(), k = c.cols();
  if constexpr (W == 1) return transform_descriptor(d, step(make_modulo(r, 2 * r), {0}, {0}), step(make_pass_through(k), {1}, {1}));
  else if constexpr (W == 2) return transform_descriptor(d, step(make_pass_through(r), {0}, {0}), step(make_modulo(k, 2 * k), {1}, {1}));
  else return transform_descriptor(d, step(make_modulo(r, 2 * r), {0}, {0}), step(make_modulo(k, 2 * k), {1}, {1}));
}

// Reduce: the register index of d's row home: d with every Y of the column dim at 0 (row_home(e, d) <= d).
TILESIM_HOST_DEVICE constexpr index_t row_home(const tile_distribution_encoding& e, index_t d) {
  auto ys = e.y_of(d);
  for (int j = 0; j < e.n_y; ++j)
    if (e.y[j].major == 2) ys[j] = 0;
  return e.d_of(ys);
}

// Reduce: the lane bits that move a thread along the columns (not the rows, not a replica): lane ^ bit holds the
// same rows. Each lane bit indexes one power-of-two component, so it changes exactly one of row, column, R.
TILESIM_HOST_DEVICE constexpr index_t reduce_lane_mask(const tile_distribution_encoding& e, index_t wave) {
  index_t mask = 0;
  const auto at0 = e.x_of(partition_index(e, 0, 0), {});
  for (index_t bit = 1; bit < wave; bit *= 2)
    if (e.x_of(partition_index(e, 0, bit), {})[1] != at0[1]) mask |= bit;
  return mask;
}

// Stores v at i when `valid`, else an invalid (masked) store of the same instruction: store_element with a guard.
template <element_buffer B>
TILESIM_HOST_DEVICE void store_element_if(const B& buffer, index_t i, const typename B::value_type& v, bool valid,
                                          const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  if constexpr (requires { buffer.store(i, index_t{1}, &v, valid, file, line); })
    buffer.store(i, 1, &v, valid, file, line);
  else
    store_vector<1>(buffer, i, &v, valid);
}

// Calls f(constant<W>{}) with W = the wrap w (0..3), in either form.
template <class Wrap, class F>
TILESIM_HOST_DEVICE void with_stencil_wrap(const Wrap& w, F&& f) {
  if constexpr (is_constant_v<Wrap>) {
    f(constant<Wrap::value>{});
  } else {
    switch (w) {
      case 0: return f(constant<0>{});
      case 1: return f(constant<1>{});
      case 2: return f(constant<2>{});
      default: return f(constant<3>{});
    }
  }
}

// The scalars the program needs at run time, derived so that the kernel holds no props_case in memory.
struct props_dims {
  index_t threads, grid, rows, cols, wave;
};

// The stencil kind's reads (see the essay): moved = the sum of the reader's tile read at each offset; lds_r is the
// copy's reader view (offset (0, 0)), buffer the LDS allocation the wrapped views read.
template <class T, props_layout L, class Ctx, class Case, class Buffer, class View, class Enc, class Tensor>
TILESIM_HOST_DEVICE void props_stencil_sum(Ctx& ctx, const Case& shape, const Buffer& buffer, const View& lds_r,
                                           const Enc& read_enc, const multi_index<tile_distribution_encoding::max_p>& reader,
                                           Tensor& moved) {
  const index_t words = static_cast<index_t>((sizeof(T) + 3) / 4);
  const index_t points = value_of(derive(shape, [](const props_case& k) { return index_t{k.stencil_points}; }));
  const multi_index<2> tile = value_of(derive(shape, [](const props_case& k) { return multi_index<2>{k.rows(), k.cols()}; }));
  props_static_for<0, props_max_stencil_points>([&](auto point) {
    constexpr int K = decltype(point)::value;
    if (K >= points) return;
    const auto wrap = derive(shape, [](const props_case& k) { return stencil_wrap(k, K); });
    const multi_index<2> at = value_of(derive(shape, [](const props_case& k) {
      return multi_index<2>{floor_mod(k.stencil_dr[K], k.rows()), floor_mod(k.stencil_dc[K], k.cols())};
    }));
    auto part = make_distributed_tensor<T, props_max_elements>(read_enc);
    ctx.label("lds load");
    with_stencil_wrap(wrap, [&](auto wrapped) {
      constexpr int W = decltype(wrapped)::value;
      if constexpr (W == 0) {
        make_tile_window(lds_r, tile, {0, 0}, read_enc, reader).load(part);
      } else {
        const auto view_desc = derive(shape, [](const props_case& k) { return props_stencil_lds<L, W>(k); });
        make_tile_window(make_tensor_view(view_desc, buffer, address_space::lds), tile, at, read_enc, reader).load(part);
      }
    });
    keep_loaded<T>(part);
    if constexpr (K == 0) {
      for (index_t d = 0; d < part.size(); ++d) moved[d] = part[d];
      alu(ctx, alu_op::integer, part.size() * words);  // the ANDs of keep_loaded
    } else {
      for (index_t d = 0; d < part.size(); ++d) moved[d] = static_cast<T>(moved[d] + part[d]);
      alu(ctx, alu_op::integer, 2 * part.size() * words);  // the ANDs and the adds
    }
  });
}

// Calls f(constant<true>{}) or f(constant<false>{}) as b is, in either form.
template <class B, class F>
TILESIM_HOST_DEVICE void with_flag(const B& b, F&& f) {
  if constexpr (is_constant_v<B>) {
    f(constant<B::value>{});
  } else {
    if (b) f(constant<true>{});
    else f(constant<false>{});
  }
}

// The loop kind (see the essay): every tile of the workgroup through LDS, one buffer or two (Two).
template <class T, props_layout L, bool Two, class Ctx, class Case, class In, class Out, class WEnc, class REnc>
TILESIM_HOST_DEVICE void props_loop_tiles(Ctx& ctx, const Case& shape, const In& in, const Out& out, const WEnc& write_enc,
                                          const REnc& read_enc, const multi_index<tile_distribution_encoding::max_p>& writer,
                                          const multi_index<tile_distribution_encoding::max_p>& reader) {
  const props_dims c = value_of(derive(shape, [](const props_case& k) {
    return props_dims{k.threads, k.grid, k.rows(), k.cols(), k.wave};
  }));
  const index_t tiles = value_of(derive(shape, [](const props_case& k) { return k.loop_tiles; }));
  const index_t words = static_cast<index_t>((sizeof(T) + 3) / 4);
  const multi_index<2> tile{c.rows, c.cols};
  const auto store_desc = derive(shape, [](const props_case& k) { return props_lds_descriptor<L>(k, false); });
  const auto load_desc = derive(shape, [](const props_case& k) { return props_lds_descriptor<L>(k, k.fault != 0); });
  const index_t space = value_of(derive(shape, [](const props_case& k) {
    return props_lds_descriptor<L>(k, false).element_space_size;
  }));
  const auto first = lds_buffer<T>(ctx, space, lds_loads::as_written);
  const auto second = Two ? lds_buffer<T>(ctx, space, lds_loads::as_written) : first;
  const bool primary = primary_replica(read_enc, reader);
  props_static_for<0, 4>([&](auto step_index) {
    constexpr index_t K = decltype(step_index)::value;
    if (K >= tiles) return;
    const multi_index<2> origin{(K * c.grid + ctx.block_id()) * c.rows, 0};
    const auto& buffer = Two && K % 2 == 1 ? second : first;
    auto staged = make_distributed_tensor<T, props_max_elements>(write_enc);
    ctx.label("global load");
    make_tile_window(in, tile, origin, write_enc, writer).load(staged);
    if (!Two && K > 0) ctx.barrier();  // the previous tile's reads of the one buffer are done
    ctx.label("lds store");
    make_tile_window(make_tensor_view(store_desc, buffer, address_space::lds), tile, {0, 0}, write_enc, writer).store(staged);
    ctx.barrier();
    if (!primary) return;  // see the essay: a replica's loads would be dead (it keeps to the barriers)
    auto moved = make_distributed_tensor<T, props_max_elements>(read_enc);
    ctx.label("lds load");
    make_tile_window(make_tensor_view(load_desc, buffer, address_space::lds), tile, {0, 0}, read_enc, reader).load(moved);
    keep_loaded<T>(moved);
    alu(ctx, alu_op::integer, moved.size() * words);
    ctx.label("global store");
    make_tile_window(out, tile, origin, read_enc, reader).store(moved);
  });
}

// The reduce kind after the barrier (see the essay): lds_r the reader's LDS view, row0 the block's first row.
template <class T, class Ctx, class Case, class View, class Enc>
TILESIM_HOST_DEVICE void props_reduce_rows(Ctx& ctx, const Case& shape, const View& lds_r, const Enc& read_enc,
                                           const multi_index<tile_distribution_encoding::max_p>& reader, index_t row0) {
  using S = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;  // what a shuffle carries
  const props_dims c = value_of(derive(shape, [](const props_case& k) {
    return props_dims{k.threads, k.grid, k.rows(), k.cols(), k.wave};
  }));
  const index_t words = static_cast<index_t>((sizeof(T) + 3) / 4);
  auto moved = make_distributed_tensor<T, props_max_elements>(read_enc);
  ctx.label("lds load");
  make_tile_window(lds_r, multi_index<2>{c.rows, c.cols}, {0, 0}, read_enc, reader).load(moved);
  keep_loaded<T>(moved);
  index_t homes = 0;
  props_static_for<0, props_max_elements>([&](auto element) {  // the thread's columns folded into its rows' homes
    constexpr index_t D = decltype(element)::value;
    if (D >= moved.size()) return;
    const index_t home = value_of(derive(shape, [](const props_case& k) { return row_home(k.reader, D); }));
    if (home == D) ++homes;
    else moved[home] = static_cast<T>(moved[home] + moved[D]);
  });
  alu(ctx, alu_op::integer, (2 * moved.size() - homes) * words);  // keep_loaded's ANDs and the folding adds
  const index_t lane_mask = value_of(derive(shape, [](const props_case& k) { return reduce_lane_mask(k.reader, k.wave); }));
  ctx.label("shuffle");
  props_static_for<0, 6>([&](auto lane_bit) {  // the butterfly across the lanes that share the rows
    constexpr index_t bit = index_t{1} << decltype(lane_bit)::value;
    if ((lane_mask & bit) == 0) return;
    props_static_for<0, props_max_elements>([&](auto element) {
      constexpr index_t D = decltype(element)::value;
      if (D >= moved.size()) return;
      if (value_of(derive(shape, [](const props_case& k) { return row_home(k.reader, D); })) != D) return;
      moved[D] = static_cast<T>(moved[D] + static_cast<T>(shuffle_xor(ctx, static_cast<S>(moved[D]), bit)));
    });
    alu(ctx, alu_op::integer, homes * words);
  });
  if (!primary_replica(read_enc, reader) || (ctx.lane() & lane_mask) != 0) return;  // one lane per row stores
  const auto out = global_buffer<T>(ctx, 1);
  const index_t tensor_rows = value_of(derive(shape, [](const props_case& k) { return k.tensor_rows; }));
  const index_t tensor_cols = value_of(derive(shape, [](const props_case& k) { return k.tensor_cols; }));
  // A row is the thread's (its Ys at 0) plus its Ys' (thread 0's): x_of is a sum over the components.
  const index_t thread_row = row0 + row_of_thread(read_enc, reader);
  ctx.label("global store");
  props_static_for<0, props_max_elements>([&](auto element) {
    constexpr index_t D = decltype(element)::value;
    if (D >= moved.size()) return;
    if (value_of(derive(shape, [](const props_case& k) { return row_home(k.reader, D); })) != D) return;
    const index_t row = thread_row + value_of(derive(shape, [](const props_case& k) {
      return k.reader.x_of(partition_index(k.reader, 0, 0), k.reader.y_of(D))[0];
    }));
    store_element_if(out, row < tensor_rows ? row * tensor_cols : 0, moved[D], row < tensor_rows);
  });
}

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
    if (value_of(derive(shape, [](const props_case& k) { return k.kind == props_kind::loop; }))) {
      with_flag(derive(shape, [](const props_case& k) { return k.double_buffer != 0; }), [&](auto two) {
        props_loop_tiles<T, L, decltype(two)::value>(ctx, shape, in, out, write_enc, read_enc, writer, reader);
      });
      return;
    }
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
    if (value_of(derive(shape, [](const props_case& k) { return k.kind == props_kind::reduce; }))) {
      props_reduce_rows<T>(ctx, shape, lds_r, read_enc, reader, c.rows * ctx.block_id());
      return;
    }
    if (!primary_replica(read_enc, reader)) return;  // see the essay: a replica's loads would be dead
    auto moved = make_distributed_tensor<T, props_max_elements>(read_enc);
    const index_t words = static_cast<index_t>((sizeof(T) + 3) / 4);  // 32-bit words per element
    if (value_of(derive(shape, [](const props_case& k) { return k.kind == props_kind::stencil; }))) {
      props_stencil_sum<T, L>(ctx, shape, buffer, lds_r, read_enc, reader, moved);  // see the essay
    } else {
      ctx.label("lds load");
      make_tile_window(lds_r, tile, {0, 0}, read_enc, reader).load(moved);
      keep_loaded<T>(moved);
      // Its arithmetic, for the timing model (nothing on the GPU): an AND per 32-bit word, which the stores wait for.
      alu(ctx, alu_op::integer, moved.size() * words);
    }
    ctx.label("global store");
    make_tile_window(out, tile, origin, read_enc, reader).store(moved);
  });
}

}  // namespace tilesim::gpu::props
