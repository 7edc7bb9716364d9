// tilesim/kernel/copy/copy.hpp: the built-in copy program: global -> LDS -> global through tile windows.
//
// DEFINITION. Workgroup b copies the M x N tile at rows [b*M, (b+1)*M) of a (grid*M) x N row-major input to
// the same place in the output, through one LDS tile:
//   1. load the tile from global with CK's warp-raked pattern (lanes along a row, `vector` elements each;
//      spec/distribution/patterns.hpp), into registers              label "global load"
//   2. store the registers to LDS through the chosen LDS layout       label "lds store"
//   3. barrier
//   4. load the tile back from LDS with the read pattern             label "lds load"
//   5. store those registers to the output                          label "global store"
// The read pattern is the write pattern (same_as_write), or the one where consecutive lanes go down the rows
// of a column strip (lanes_down_rows: lane = strip * rows_per_warp + row), which is what makes the LDS
// layout matter: on a row-major tile those lanes hit the same banks, and padding, CK's XOR preshuffle or a
// CuTe swizzle spread them. The third, gemm_operand, is how a GEMM reads its A (or B) operand from LDS,
// rows = M (or N), cols = K, R = lane_rows rows per lane group, G = warp_size / R lane groups:
//   lane l of a wave reads row (l mod R) of its row group and the vector (l / R) of its K group
//   (one K group = G vectors = G*vector columns; one row group = R rows)
//   warps split the rows as CK's block GEMM does (warp w takes row groups w, w + warps, ...), and each
//   thread iterates over its row groups (outer) and the K groups (inner): rows / (R*warps) x cols /
//   (G*vector) reads per thread.
//   R = 32, wave 64: the MFMA 32x32x8 fp16 A read (m = l%32, k = 8*(l/32); one ds_read_b128 each = K16)
//   R = 16, wave 32: ldmatrix.x4's row addresses (lanes 0-7 address the 8 16-byte rows of matrix 0, 8-15
//                    matrix 1 = rows 8-15, 16-23 matrix 2 = rows 0-7 at k 8, 24-31 matrix 3: m = l%16,
//                    k = 8*(l/16)), each lane reading its own row: the LDS.128 a kernel without ldmatrix does
//   With R = 32, wave 64 and vector 8 the read is built as what it is, CK's MFMA 32x32x8 A operand iterated
//   twice over K (make_mfma_32x32x16_iterate_k_a_encoding) embedded in warps x row groups x K groups.
// The fourth, ldmatrix_operand (sm90, wave 32, 16-bit elements, vector 8), reads through ldmatrix itself: per
// 16 x 16 sub-tile (row group, K group) one ldmatrix.x4 at the R = 16 row addresses above (label "ldmatrix"),
// whose four registers are mma.sync m16n8k16's A fragment; the lanes then store those registers through a
// window with that fragment's encoding embedded in the same warps x row groups x K groups (4-byte stores).
// LDS layouts (element units, top (row, col)):
//   row_major     offset = r*N + c
//   padded        offset = r*(N + pad) + c            pad 0 means one vector (keeps 16-byte alignment)
//   ck_xor        spec/layouts/ck_lds_xor.hpp with MPerBlock = M, KPerBlock = N, KPack = vector, the
//                 unmerge order ck_order (2025's (L, K0) unless told)
//   cute_swizzle  Swizzle<B,M,S> o row-major; B, M, S given, or derived: M = log2(vector),
//                 S = log2(N / vector), B = min(3, S) (XOR the row into the 16-byte chunk index)
//
// WORKED EXAMPLE. fp16, M x N = 64 x 32, vector 8, 256 threads, wave 64: every thread moves one 16-byte
// vector per step, so each wave issues 4 instructions (global load, lds store, lds load, global store). With
// lanes_down_rows on row_major, lanes 0-15 of the lds load read rows 0-15 of cols 0-7: LDS bytes 0, 64, 128,
// ...; on padded (pad 8) 0, 80, 160, ...
//
// gemm_operand, fp16 128 x 32 (CK's A tile), vector 8, 256 threads, wave 64, lane_rows 32: H0 = <1, 4, 32>
// (row iterations, warps, R), H1 = <2, 2, 8> (K groups, G, vector); lane 33 of warp 1 reads row 32 + 1,
// cols 8-15, then cols 24-31 (two ds_read_b128 per wave). The first read's first gfx942 phase, lanes 0-3
// and 20-23, takes rows 0-3 and 20-23 at k 0: on row_major (64-byte rows) the even rows start at bank 0
// and the odd ones at bank 16, four lanes on each bank quad (4-way).
//
// TWO FORMS (spec/constant.hpp). copy_tile takes its launch structure, copy_shape (params, threads, wave, grid),
// as a value (copy_tile<T>(ctx, params) builds it from the context: the command line, the tests) or as
// constant<copy_shape{...}> (a GPU kernel, gpu/kernels/programs/, and the simulator running that very
// instance): the same statements, with derive() turning each encoding and descriptor into a constant, so the
// windows are static_tile_windows and the registers an exact static_distributed_tensor.
//
// INVARIANTS: output == input for every layout and read order (copy.test.cpp); a parameter set the pattern
// or a layout rejects throws spec_error (require), which the engine reports with the thread; the program
// touches nothing but the context and spec/ (it compiles as a HIP kernel body).
#pragma once

#include "kernel/model/program.hpp"
#include "spec/distribution/distributed_tensor.hpp"
#include "spec/distribution/encoding_algebra.hpp"
#include "spec/distribution/warp_gemm_encodings.hpp"
#include "spec/distribution/patterns.hpp"
#include "spec/layouts/ck_lds_xor.hpp"
#include "spec/layouts/cute_swizzle.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/window/static_tile_window.hpp"

namespace tilesim::programs {

enum class copy_lds_layout { row_major, padded, ck_xor, cute_swizzle };
enum class copy_read_order { same_as_write, lanes_down_rows, gemm_operand, ldmatrix_operand };

struct copy_params {
  index_t rows = 64;    // M: tile rows per workgroup
  index_t cols = 32;    // N: tile columns, contiguous in global memory
  index_t vector = 8;   // elements per access (8 fp16 = 16 bytes)
  copy_lds_layout layout = copy_lds_layout::row_major;
  copy_read_order read = copy_read_order::lanes_down_rows;
  index_t lane_rows = 32;  // gemm_operand: R, rows per lane group (32: MFMA 32x32x8 on wave 64; 16: ldmatrix.x4)
  index_t pad = 0;      // padded: elements added to each row; 0 = one vector
  int swizzle_bits = -1, swizzle_base = -1, swizzle_shift = -1;  // cute_swizzle: -1 = derive (see above)
  index_t ck_banks = 32;  // ck_xor: LDS banks (32 on gfx9 and sm90, 64 on gfx950)
  ck_lds_order ck_order = ck_lds_order::l_k0_2025;  // ck_xor: CK's unmerge order (2025 (L, K0) or 2024 (K0, L))
  int input = 0;        // global slot of the (grid*rows) x cols input
  int output = 1;       // global slot of the output, same shape
  bool operator==(const copy_params&) const = default;
};

// Register capacity per thread: rows*cols/threads must not exceed it (else spec_error distributed_tensor_too_small).
inline constexpr index_t copy_max_elements = 64;

// log2 of a power of two, else -1: exact_log2(32) == 5, exact_log2(12) == -1.
TILESIM_HOST_DEVICE constexpr int exact_log2(index_t v) {
  if (v < 1 || (v & (v - 1)) != 0) return -1;
  int k = 0;
  while ((index_t{1} << k) < v) ++k;
  return k;
}

// The lanes_down_rows encoding: the warp-raked split with the lane's low part on rows. For 256 threads,
// wave 64, 64 x 32, vector 8: lane l of warp w holds row 16*w + l % 16, cols 8*(l / 16) .. +7.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_lanes_down_rows_encoding(
    index_t threads, index_t warp_size, index_t rows, index_t cols, index_t vector) {
  const raked_pattern p{raking::warp, threads, warp_size, rows, cols, vector};
  require(p.check());
  return make_encoding({1}, {{p.warps(), p.iterations(), p.rows_per_warp()}, {p.x0(), p.x1()}},
                       {{{1, 0}}, {{2, 0}, {1, 2}}}, {{1, 1}, {2, 1}});
}

// The gemm_operand read: rows x cols (M x K) read by `threads` threads in waves of `warp_size`, `vector`
// elements per access, lane l of a wave at row l % lane_rows of its row group, vector l / lane_rows of its
// K group. Named split (see the essay): R = lane_rows, G = warp_size / R, KG = cols / (G*vector) K groups,
// W = threads / warp_size warps, MI = rows / (R*W) row groups per warp.
struct operand_read_pattern {
  index_t threads = 256, warp_size = 64, rows = 128, cols = 32, vector = 8, lane_rows = 32;

  // Lane groups per wave (K vectors one instruction reads per row): 64 / 32 = 2.
  TILESIM_HOST_DEVICE constexpr index_t groups() const { return warp_size / lane_rows; }
  // Columns one instruction covers: G * vector = 16.
  TILESIM_HOST_DEVICE constexpr index_t k_per_instruction() const { return groups() * vector; }
  // K groups each thread iterates over: 32 / 16 = 2.
  TILESIM_HOST_DEVICE constexpr index_t k_groups() const { return cols / k_per_instruction(); }
  TILESIM_HOST_DEVICE constexpr index_t warps() const { return threads / warp_size; }
  // Row groups each thread iterates over: 128 / (32 * 4) = 1.
  TILESIM_HOST_DEVICE constexpr index_t row_iterations() const { return rows / (lane_rows * warps()); }

  // The first parameter that is not positive, or split that is not exact, with its values.
  TILESIM_HOST_DEVICE constexpr violation check() const {
    const char* where = "gemm operand read";
    const named_value params[6] = {{"threads", threads}, {"warp size", warp_size}, {"rows", rows},
                                   {"cols", cols},       {"vector", vector},       {"lane rows R", lane_rows}};
    for (const named_value& p : params)
      if (p.value < 1) return broken_unless(false, rule::length_not_positive, where, p);
    for (const named_value& p : params)
      if (p.value > max_extent) return broken_unless(false, rule::extent_too_large, where, p);
    if (warp_size % lane_rows != 0)
      return broken_unless(false, rule::launch_split_not_exact, where, {"warp size", warp_size},
                           {"lane rows R", lane_rows});
    if (threads % warp_size != 0)
      return broken_unless(false, rule::launch_split_not_exact, where, {"threads", threads}, {"warp size", warp_size});
    if (cols % k_per_instruction() != 0)
      return broken_unless(false, rule::launch_split_not_exact, where, {"cols", cols},
                           {"cols per read = (warp size / R) * vector", k_per_instruction()});
    if (rows % (lane_rows * warps()) != 0)
      return broken_unless(false, rule::launch_split_not_exact, where, {"rows", rows},
                           {"rows per pass = R * warps", lane_rows * warps()});
    return {};
  }

  // The warps x iterations around one wave's R x (G*vector) read: H0 = <MI, W>, H1 = <KG>; P0 -> H0[1].
  TILESIM_HOST_DEVICE constexpr tile_distribution_encoding outer_encoding() const {
    require(check());
    return make_encoding({1}, {{row_iterations(), warps()}, {k_groups()}}, {{{1, 1}}}, {{1, 0}, {2, 0}});
  }

  // H0 = <MI, W, R>, H1 = <KG, G, vector>; P0 (warp) -> H0[1], P1 (lane) -> merge(H1[1], H0[2]) so that
  // lane = g*R + r; Y -> MI, KG, vector (rows outer, K inner, the vector last), so
  // row = (mi*W + warp)*R + lane % R, col = (kg*G + lane / R)*vector + y. Throws when check() fails.
  TILESIM_HOST_DEVICE constexpr tile_distribution_encoding encoding() const {
    require(check());
    return make_encoding({1}, {{row_iterations(), warps(), lane_rows}, {k_groups(), groups(), vector}},
                         {{{1, 1}}, {{2, 1}, {1, 2}}}, {{1, 0}, {2, 0}, {2, 2}});
  }
};

// The ldmatrix_operand read's split: the R = 16 operand read of 16 x 16 sub-tiles, checked for ldmatrix.x4
// (wave 32, 8 elements = one 16-byte row per lane): 128 x 32, 256 threads: MI = 1, KG = 2.
TILESIM_HOST_DEVICE constexpr operand_read_pattern ldmatrix_read_pattern(const copy_params& p, index_t threads,
                                                                        index_t warp_size) {
  require(broken_unless(warp_size == 32 && p.vector == 8 && p.lane_rows == 16, rule::launch_split_not_exact,
                        "ldmatrix operand read (ldmatrix.x4: wave 32, vector 8, R 16)", {"warp size", warp_size},
                        {"vector", p.vector}, {"lane rows R", p.lane_rows}));
  return {threads, warp_size, p.rows, p.cols, p.vector, p.lane_rows};
}

// The read encoding of p: the write encoding, lanes_down_rows, gemm_operand or, for ldmatrix_operand, the
// registers ldmatrix leaves (the lds sweep can share it).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_copy_read_encoding(const copy_params& p, index_t threads,
                                                                                 index_t warp_size) {
  switch (p.read) {
    case copy_read_order::same_as_write:
      break;
    case copy_read_order::lanes_down_rows:
      return make_lanes_down_rows_encoding(threads, warp_size, p.rows, p.cols, p.vector);
    case copy_read_order::gemm_operand: {
      const operand_read_pattern r{threads, warp_size, p.rows, p.cols, p.vector, p.lane_rows};
      if (p.lane_rows == 32 && warp_size == 64 && p.vector == 8)  // MFMA's A operand, K16 per lane group
        return embed_encoding(r.outer_encoding(), make_mfma_32x32x16_iterate_k_a_encoding());
      return r.encoding();
    }
    case copy_read_order::ldmatrix_operand:
      return embed_encoding(ldmatrix_read_pattern(p, threads, warp_size).outer_encoding(),
                            make_mma_m16n8k16_a_encoding());
  }
  return make_warp_raked_encoding(threads, warp_size, p.rows, p.cols, p.vector);
}

// The LDS descriptor of layout L for p, elements of `element_bytes`: copy_lds_descriptor<row_major>(p, 2).
template <copy_lds_layout L>
TILESIM_HOST_DEVICE constexpr auto copy_lds_descriptor(const copy_params& p, index_t element_bytes) {
  if constexpr (L == copy_lds_layout::row_major) {
    return make_row_major_descriptor(p.rows, p.cols);
  } else if constexpr (L == copy_lds_layout::padded) {
    return make_row_major_descriptor(p.rows, p.cols, p.pad > 0 ? p.pad : p.vector);
  } else if constexpr (L == copy_lds_layout::ck_xor) {
    ck_lds_xor_params x{p.rows, p.cols, p.vector};
    x.element_bytes = element_bytes;
    x.banks = p.ck_banks;
    x.order = p.ck_order;
    return make_ck_lds_xor_descriptor(x);
  } else {
    const int m = p.swizzle_base >= 0 ? p.swizzle_base : exact_log2(p.vector);
    const int s = p.swizzle_shift >= 0 ? p.swizzle_shift : exact_log2(p.cols) - exact_log2(p.vector);
    const int b = p.swizzle_bits >= 0 ? p.swizzle_bits : (s < 3 ? s : 3);
    return make_cute_swizzle_descriptor(b, m, s, p.rows, p.cols);
  }
}

// Calls f(descriptor) with the LDS descriptor of p.layout for elements of `element_bytes` (run-time form).
template <class F>
TILESIM_HOST_DEVICE void with_copy_lds_descriptor(const copy_params& p, index_t element_bytes, F&& f) {
  switch (p.layout) {
    case copy_lds_layout::row_major: return f(copy_lds_descriptor<copy_lds_layout::row_major>(p, element_bytes));
    case copy_lds_layout::padded: return f(copy_lds_descriptor<copy_lds_layout::padded>(p, element_bytes));
    case copy_lds_layout::ck_xor: return f(copy_lds_descriptor<copy_lds_layout::ck_xor>(p, element_bytes));
    case copy_lds_layout::cute_swizzle: return f(copy_lds_descriptor<copy_lds_layout::cute_swizzle>(p, element_bytes));
  }
}

// The structure of one copy launch: its parameters and the workgroup's shape. The programs take it in either
// form (spec/constant.hpp): copy_shape (run time, from the context) or constant<copy_shape{...}> (a kernel,
// and the simulator running that same instantiation).
struct copy_shape {
  copy_params params{};
  index_t threads = 256, warp_size = 32, grid = 1;
  bool operator==(const copy_shape&) const = default;
};

// The launch of p on ctx: copy_shape_of(ctx, p) == {p, ctx.block_size(), ctx.warp_size(), ctx.grid_size()}.
template <class Ctx>
TILESIM_HOST_DEVICE copy_shape copy_shape_of(Ctx& ctx, const copy_params& p) {
  return {p, ctx.block_size(), ctx.warp_size(), ctx.grid_size()};
}

// Calls f(the LDS descriptor of a launch) in the launch's form: a value, or fixed_descriptor for a constant.
template <class T, class Shape, class F>
TILESIM_HOST_DEVICE void with_copy_lds_descriptor(const Shape& shape, F&& f) {
  if constexpr (is_constant_v<Shape>) {
    constexpr copy_params p = Shape::value.params;
    f(fixed_descriptor<copy_lds_descriptor<p.layout>(p, static_cast<index_t>(sizeof(T)))>{});
  } else {
    with_copy_lds_descriptor(shape.params, static_cast<index_t>(sizeof(T)), f);
  }
}

// The ldmatrix_operand read into `moved`: per row group mi and K group kg one ldmatrix.x4 at row
// (mi*W + warp)*16 + lane%16, column 16 kg + 8 (lane/16); register i's halves e land at d = 8 (mi*KG + kg) + 2i + e,
// the order of the embedded mma A encoding (i = 2 kh + h). Split is an operand_read_pattern in either form.
template <class Ctx, class Buffer, class Desc, class Split, class Tensor>
TILESIM_HOST_DEVICE void ldmatrix_operand_load(Ctx& ctx, const Buffer& lds, const Desc& desc, const Split& split,
                                               Tensor& moved) {
  using T = typename Buffer::value_type;
  if constexpr (sizeof(T) != 2) {
    require(broken_unless(false, rule::launch_split_not_exact, "ldmatrix operand read: 16-bit elements",
                          {"element bytes", static_cast<index_t>(sizeof(T))}));
  } else {
    const operand_read_pattern& r = value_of(split);
    const index_t warp = ctx.warp(), lane = ctx.lane();
    ctx.label("ldmatrix");
    for (index_t mi = 0; mi < r.row_iterations(); ++mi)
      for (index_t kg = 0; kg < r.k_groups(); ++kg) {
        const index_t row = (mi * r.warps() + warp) * 16 + lane % 16, col = 16 * kg + 8 * (lane / 16);
        const ldmatrix_fragment<4> f = ldmatrix<4>(ctx, lds, desc.calculate_offset({row, col}));
        const index_t d0 = 8 * (mi * r.k_groups() + kg);
        // Register i whole into elements d, d+1 (low half first): one 32-bit copy, which nvcc stores as it came.
        // Split into two halves with & and >>, nvcc repacked them (SHR + PRMT 0x1054 per register, the identity)
        // and every store waited for both ldmatrix.x4 results, where a hand-written kernel stores the registers.
        static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ldmatrix_operand_load: low half = element d");
        for (int i = 0; i < 4; ++i) __builtin_memcpy(&moved[d0 + 2 * i], &f.r[i], sizeof f.r[i]);
      }
  }
}

// The program: see the steps above, for a launch in either form.
// copy_tile<std::uint16_t>(ctx, constant<copy_shape{{}, 256, 32, 64}>{}) is the fp16 64x32 copy, compiled.
template <class T, class Ctx, class Shape>
TILESIM_HOST_DEVICE void copy_tile(Ctx& ctx, const Shape& shape) {
  const copy_shape& l = value_of(shape);
  const copy_params& p = l.params;
  require_launch_shape(ctx, l.threads, l.warp_size, l.grid);
  const auto write_enc = derive(shape, [](const copy_shape& c) {
    return make_warp_raked_encoding(c.threads, c.warp_size, c.params.rows, c.params.cols, c.params.vector);
  });
  const auto read_enc =
      derive(shape, [](const copy_shape& c) { return make_copy_read_encoding(c.params, c.threads, c.warp_size); });
  const auto global_desc = derive(shape, [](const copy_shape& c) {
    const copy_params& q = c.params;
    return make_naive_descriptor<2>({c.grid * q.rows, q.cols}, {q.cols, 1}, q.cols, 1);
  });
  const auto writer = partition_index(write_enc, ctx.warp(), ctx.lane());
  const auto reader = partition_index(read_enc, ctx.warp(), ctx.lane());
  const multi_index<2> tile{p.rows, p.cols};
  const multi_index<2> origin{ctx.block_id() * p.rows, 0};
  const auto in = make_tensor_view(global_desc, global_buffer<T>(ctx, p.input), address_space::global);
  const auto out = make_tensor_view(global_desc, global_buffer<T>(ctx, p.output), address_space::global);
  with_copy_lds_descriptor<T>(shape, [&](const auto& lds_desc) {
    const auto lds = make_tensor_view(lds_desc, lds_buffer<T>(ctx, lds_desc.element_space_size), address_space::lds);
    auto staged = make_distributed_tensor<T, copy_max_elements>(write_enc);
    ctx.label("global load");
    make_tile_window(in, tile, origin, write_enc, writer).load(staged);
    ctx.label("lds store");
    make_tile_window(lds, tile, {0, 0}, write_enc, writer).store(staged);
    ctx.barrier();
    auto moved = make_distributed_tensor<T, copy_max_elements>(read_enc);
    auto ldmatrix_split = [](const copy_shape& c) { return ldmatrix_read_pattern(c.params, c.threads, c.warp_size); };
    if constexpr (is_constant_v<Shape>) {
      if constexpr (Shape::value.params.read == copy_read_order::ldmatrix_operand) {
        ldmatrix_operand_load(ctx, lds.buffer, lds_desc, derive(shape, ldmatrix_split), moved);
      } else {
        ctx.label("lds load");
        make_tile_window(lds, tile, {0, 0}, read_enc, reader).load(moved);
      }
    } else if (p.read == copy_read_order::ldmatrix_operand) {
      ldmatrix_operand_load(ctx, lds.buffer, lds_desc, derive(shape, ldmatrix_split), moved);
    } else {
      ctx.label("lds load");
      make_tile_window(lds, tile, {0, 0}, read_enc, reader).load(moved);
    }
    ctx.label("global store");
    make_tile_window(out, tile, origin, read_enc, reader).store(moved);
  });
}

// The run-time form from the parameters alone: copy_tile<float>(ctx, copy_params{}).
template <class T, class Ctx>
TILESIM_HOST_DEVICE void copy_tile(Ctx& ctx, const copy_params& p) {
  copy_tile<T>(ctx, copy_shape_of(ctx, p));
}

}  // namespace tilesim::programs
