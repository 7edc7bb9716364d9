// tilesim/kernel/conv/conv.hpp: 2-D convolution three ways: direct loops, sliding windows, im2col GEMM.
//
// DEFINITION (fp32, NHWC input, KRSC weights, NHWK output; cross-correlation, as every DL library computes):
//   out[n][ho][wo][co] = Σ_{r < R, s < S, c < CIn} in[n][ho*sh + r*dh - ph][wo*sw + s*dw - pw][c] * w[co][r][s][c]
// with Ho = (H + 2ph - dh(R-1) - 1) / sh + 1 (likewise Wo) and input outside [0, H) x [0, W) read as 0
// (padding ph, pw on both sides; stride sh, sw; dilation dh, dw). As a GEMM (CK's implicit GEMM, forward):
//   C[M = N*Ho*Wo][COut] = A[M][K = R*S*CIn] * B[K][COut],  m = (n, ho, wo) row-major, k = (r, s, c) row-major,
//   A[m][k] = in[n][ho*sh + r*dh - ph][wo*sw + s*dw - pw][c],  B[k][co] = w[co][r][s][c]
// The weights are KRSC (CK's KYXC: COut rows of K contiguous floats), i.e. B is stored transposed, COut x K,
// K-major like gemm_tile's B; the output NHWK is C row-major, so output element o = m*COut + co sits at offset o.
//
// ONE PROGRAM, THREE MODES (conv_params::mode). Thread t of workgroup b computes output element o = b*block + t
// (grid*block must equal N*Ho*Wo*COut), m = o / COut, co = o % COut, sums over k in the same order (r, then s,
// then c) from 0.0f in every mode, and stores it ("out store"):
//   naive    plain offsets: in[((n*H + hi)*W + wi)*CIn + c], w[((co*R + r)*S + s)*CIn + c], one float each
//            ("x load", "w load"); a pixel outside the image is an invalid load (reads 0).
//   sliding  the input through make_conv_window_descriptor, top (n, ho, wo, r, s, c): pad (H, W), then
//            embed (ho, r) -> ho*sh + r*dh and (wo, s) -> wo*sw + s*dw (CK's im2col embeds: many-to-one,
//            neighbouring windows overlap); one coordinate per thread made at (n, ho, wo, 0, 0, 0) and moved
//            through the window, validity from the pads ("window load"); weights through a naive (COut, R, S, C)
//            descriptor ("w load").
//   im2col   A = make_conv_im2col_descriptor: the window descriptor with merge(N, Ho, Wo) -> m and
//            merge(R, S, CIn) -> k on top; B = a naive COut x K descriptor. Workgroup b owns GEMM rows
//            [b*MB, (b+1)*MB), MB = block / COut, all COut columns; per K step of KPerBlock (default S*CIn, one
//            filter row) each thread loads its A row and its B row (= its C column) through tile windows
//            ("A global load", "B global load", `vector` floats per access), multiplies in registers, and
//            both windows move by (0, KPerBlock) (CK's move_tile_window; the merges recompute (r, s, c)).
//            Encodings (X0 = rows, X1 = KPerBlock; lanes = min(block, warp size), rows per warp = lanes/COut):
//              A: R = <COut>, H = <warps, rows per warp>, <KPerBlock>; warp -> H0[0], lane -> merge(H0[1], R0)
//              B: R = <warps, rows per warp>, H = <COut>, <KPerBlock>; warp -> R0, lane -> merge(R1, H0[0])
//            so lane l of warp w holds A row w*(lanes/COut) + l/COut and B row (= output channel) l % COut:
//            exactly thread t's (m - b*MB, co). No LDS: each A row is read by COut lanes of one warp at once
//            (a broadcast), each B row by every warp. A vector of A is `vector` channels of one pixel, valid
//            or padded as a whole, because vector | CIn.
//
// TWO FORMS OF ONE SOURCE (spec/constant.hpp). conv(ctx, shape) takes the launch, conv_shape = {params, threads,
// warp size, grid}, either as a value (the simulator on any numbers; conv(ctx, params) makes it from ctx) or as
// constant<conv_shape{...}> (a GPU kernel per shape, and the simulator running that same instantiation). With a
// constant the mode is an `if constexpr` (a kernel holds only its mode); the geometry, the descriptors
// (fixed_descriptor), the encodings and so the windows (static_tile_window) and thread buffers
// (static_distributed_tensor, exact size) are constants; every loop over r, s, c, K steps and registers is a
// for_range, unrolled with constant indices; and the run checks once that ctx runs the compiled launch. The
// value form runs the same statements with run-time loops and a run-time switch over the mode. What a launch
// derives from its shape (output size, GEMM sizes, the im2col split) is conv_geometry; conv_shapes.hpp holds the
// example's launches as constants.
//
// WORKED EXAMPLE (the 6x6 single-channel image, 3x3 filter, stride 1, no padding: 4x4 output, M = 16, K = 9).
// Input offsets are h*6 + w. The window descriptor has lengths (1, 4, 4, 3, 3, 1) and offset
// 6*ho + wo + 6*r + s: (0, 1, 1, 2, 2, 0) -> 21. The im2col descriptor is 16 x 9; row 0 (output (0, 0)) holds
// input offsets 0 1 2 6 7 8 12 13 14, row 5 (output (1, 1)) 7 8 9 13 14 15 19 20 21; offset 7 sits in rows 0
// (k = 4), 1 (k = 3), 4 (k = 1) and 5 (k = 0): embed is many-to-one. With 16 threads, thread 5 computes
// out(1, 1) = Σ_k A[5][k] * w[k]; in naive mode it reads in[7], w[0], in[8], w[1], ..., in[21], w[8].
// NHWC (N = 2, 8x8, CIn = 4, COut = 8): M = 72, K = 36; A[37][5] is (n, ho, wo) = (1, 0, 1), (r, s, c) =
// (0, 1, 1): input (1, 0, 2, 1), offset ((1*8 + 0)*8 + 2)*4 + 1 = 265. Its im2col launch (grid 3 x 192, wave 32)
// compiled, conv(ctx, constant<conv_shape{p, 192, 32, 3}>{}): KPerBlock = 12, 6 warps of 4 GEMM rows; each
// thread runs 3 K steps of 3 "A global load" + 3 "B global load" (16 bytes each) into two 12-float buffers,
// 12 FMAs per step, then one "out store": the kernel keeps nothing in local memory (36 registers on sm90).
//
// INVARIANTS (conv.test.cpp): the window and im2col descriptors map every (m, k) to the offset of input
// (n, ho*sh + r*dh - ph, wo*sw + s*dw - pw, c) and are valid exactly where that pixel is inside the image; the
// three modes give bit-identical outputs (same products, same order); each equals an Eigen product within
// K * 2^-23 * Σ|a*b|; both forms of a shape record the same accesses (label, width, addresses, in order) and
// outputs; a parameter set that does not split exactly throws spec_error naming the values (a constant one
// does not compile); the program touches nothing but the context and spec/ (no heap, no exception of its
// own: it is a kernel body).
#pragma once

#include <concepts>
#include <type_traits>
#include <utility>

#include "kernel/model/program.hpp"
#include "spec/constant.hpp"
#include "spec/descriptor.hpp"
#include "spec/distribution/distributed_tensor.hpp"
#include "spec/transforms/embed.hpp"
#include "spec/transforms/merge.hpp"
#include "spec/transforms/pad.hpp"
#include "spec/transforms/pass_through.hpp"
#include "spec/window/static_tile_window.hpp"

namespace tilesim::examples {

enum class conv_mode { naive, sliding, im2col };

struct conv_params {
  conv_mode mode = conv_mode::naive;
  index_t n = 1, h = 6, w = 6, c_in = 1;  // input N x H x W x CIn (NHWC)
  index_t c_out = 1;                      // COut: output channels
  index_t r = 3, s = 3;                   // filter R x S (weights COut x R x S x CIn, KRSC)
  index_t stride_h = 1, stride_w = 1;
  index_t dilation_h = 1, dilation_w = 1;
  index_t pad_h = 0, pad_w = 0;           // zeros on both sides of H and W
  index_t vector = 1;                     // floats per im2col A/B access; divides CIn (4 = 16 bytes)
  index_t k_per_block = 0;                // im2col: K per step; 0 = S * CIn (one filter row)
  int input = 0;                          // global slot of the input (N*H*W*CIn floats)
  int weights = 1;                        // global slot of the weights (COut*R*S*CIn floats)
  int output = 2;                         // global slot of the output (N*Ho*Wo*COut floats)
  bool operator==(const conv_params&) const = default;
};


// Register capacity per thread for one K step of the im2col mode (A and B rows of KPerBlock floats each): the
// bound of the run-time form's thread buffers; a constant shape's are exactly KPerBlock (checked against it).
inline constexpr index_t conv_max_k_per_block = 64;

// Output length of one spatial dim: conv_out_length(6, 0, 3, 1, 1) == 4; 0 when the filter does not fit.
TILESIM_HOST_DEVICE constexpr index_t conv_out_length(index_t in, index_t pad, index_t filter, index_t stride,
                                                      index_t dilation) {
  const index_t span = in + 2 * pad - dilation * (filter - 1) - 1;
  return span < 0 || stride < 1 ? 0 : span / stride + 1;
}

// Everything a launch derives from the params: output size, GEMM sizes, the im2col split.
struct conv_geometry {
  index_t ho = 0, wo = 0;          // output height and width
  index_t m = 0, k = 0;            // GEMM: M = N*Ho*Wo, K = R*S*CIn
  index_t outputs = 0;             // M * COut: one per thread of the grid
  index_t k_per_block = 0;         // im2col K step
  index_t lanes = 0;               // lanes of a warp in use: min(block, warp size)
  index_t warps = 0;               // block / lanes
  index_t rows_per_warp = 0;       // lanes / COut
  index_t rows_per_block = 0;      // MB = block / COut
};

// The first rule the params break for a launch of `grid` x `block` threads on `warp_size`-lane warps, naming the
// values; empty when the launch is exact.
TILESIM_HOST_DEVICE constexpr violation check_conv(const conv_params& p, index_t block, index_t grid, index_t warp_size) {
  const char* where = "conv";
  const named_value lengths[] = {{"N", p.n},          {"H", p.h},           {"W", p.w},
                                 {"CIn", p.c_in},     {"COut", p.c_out},    {"R", p.r},
                                 {"S", p.s},          {"stride h", p.stride_h}, {"stride w", p.stride_w},
                                 {"dilation h", p.dilation_h}, {"dilation w", p.dilation_w},
                                 {"vector", p.vector}, {"block", block},    {"grid", grid},
                                 {"warp size", warp_size}};
  for (const named_value& v : lengths)
    if (v.value < 1) return broken_unless(false, rule::length_not_positive, where, v);
  for (const named_value& v : lengths)
    if (v.value > max_extent) return broken_unless(false, rule::extent_too_large, where, v);
  if (p.pad_h < 0 || p.pad_w < 0)
    return broken_unless(false, rule::pad_negative, where, {"pad h", p.pad_h}, {"pad w", p.pad_w});
  if (p.pad_h > max_extent || p.pad_w > max_extent)
    return broken_unless(false, rule::extent_too_large, where, {"pad h", p.pad_h}, {"pad w", p.pad_w});
  const index_t ho = conv_out_length(p.h, p.pad_h, p.r, p.stride_h, p.dilation_h);
  const index_t wo = conv_out_length(p.w, p.pad_w, p.s, p.stride_w, p.dilation_w);
  if (ho < 1)
    return broken_unless(false, rule::length_not_positive, "conv output height", {"Ho", ho}, {"H", p.h}, {"R", p.r},
                         {"dilation h", p.dilation_h});
  if (wo < 1)
    return broken_unless(false, rule::length_not_positive, "conv output width", {"Wo", wo}, {"W", p.w}, {"S", p.s},
                         {"dilation w", p.dilation_w});
  // Every product below stays under 2^40 * 2^40 only if each factor is checked first: check the totals in steps.
  const index_t pixels = p.n * ho;
  if (pixels > max_extent || pixels * wo > max_extent || pixels * wo * p.c_out > max_extent ||
      p.r * p.s > max_extent || p.r * p.s * p.c_in > max_extent)
    return broken_unless(false, rule::extent_too_large, where, {"N*Ho*Wo", pixels * wo}, {"COut", p.c_out},
                         {"R*S", p.r * p.s}, {"CIn", p.c_in});
  const rule split = rule::launch_split_not_exact;
  const index_t outputs = pixels * wo * p.c_out;
  if (grid * block != outputs)
    return broken_unless(false, split, "conv: one output per thread", {"grid * block", grid * block},
                         {"N*Ho*Wo*COut", outputs});
  if (p.c_in % p.vector != 0) return broken_unless(false, split, where, {"CIn", p.c_in}, {"vector", p.vector});
  if (p.mode != conv_mode::im2col) return {};
  const index_t k = p.r * p.s * p.c_in;
  const index_t kb = p.k_per_block > 0 ? p.k_per_block : p.s * p.c_in;
  if (k % kb != 0) return broken_unless(false, split, "conv im2col", {"K", k}, {"K per block", kb});
  if (kb % p.vector != 0) return broken_unless(false, split, "conv im2col", {"K per block", kb}, {"vector", p.vector});
  if (kb > conv_max_k_per_block)
    return broken_unless(false, rule::distributed_tensor_too_small, "conv im2col", {"K per block", kb},
                         {"capacity", conv_max_k_per_block});
  const index_t lanes = block < warp_size ? block : warp_size;
  if (block % lanes != 0)
    return broken_unless(false, split, "conv im2col", {"block", block}, {"warp size", warp_size});
  if (lanes % p.c_out != 0)
    return broken_unless(false, split, "conv im2col: COut lanes per GEMM row", {"lanes", lanes}, {"COut", p.c_out});
  return {};
}

// The structure of one conv launch: the params and the workgroup's shape, in either form (see TWO FORMS).
// The 6x6 example: conv_shape{{}, 16, 32, 1}; compiled: conv(ctx, constant<conv_shape{{}, 16, 32, 1}>{}).
struct conv_shape {
  conv_params params{};
  index_t threads = 16, warp_size = 32, grid = 1;
  // check_conv of this launch: the first rule it breaks, naming the values.
  TILESIM_HOST_DEVICE constexpr violation check() const { return check_conv(params, threads, grid, warp_size); }
  bool operator==(const conv_shape&) const = default;
};

// True for a valid compile-time shape; each broken rule is a static_assert with the rule's text.
template <conv_shape S>
inline constexpr bool conv_shape_valid = static_require<S>();

// The launch of p on ctx: conv_shape_of(ctx, p) == {p, ctx.block_size(), ctx.warp_size(), ctx.grid_size()}.
template <class Ctx>
TILESIM_HOST_DEVICE conv_shape conv_shape_of(Ctx& ctx, const conv_params& p) {
  return {p, ctx.block_size(), ctx.warp_size(), ctx.grid_size()};
}

// The geometry of a launch; throws spec_error (traps on a GPU; a compile error for a constant) when check_conv fails.
// 6x6, 3x3, 16 threads, grid 1, warp 32: ho = wo = 4, m = 16, k = 9, lanes 16, 1 warp of 16 rows.
TILESIM_HOST_DEVICE constexpr conv_geometry make_conv_geometry(const conv_params& p, index_t block, index_t grid,
                                                               index_t warp_size) {
  require(check_conv(p, block, grid, warp_size));
  conv_geometry g;
  g.ho = conv_out_length(p.h, p.pad_h, p.r, p.stride_h, p.dilation_h);
  g.wo = conv_out_length(p.w, p.pad_w, p.s, p.stride_w, p.dilation_w);
  g.m = p.n * g.ho * g.wo;
  g.k = p.r * p.s * p.c_in;
  g.outputs = g.m * p.c_out;
  g.k_per_block = p.k_per_block > 0 ? p.k_per_block : p.s * p.c_in;
  g.lanes = block < warp_size ? block : warp_size;
  g.warps = block / g.lanes;
  g.rows_per_warp = g.lanes / p.c_out;
  g.rows_per_block = block / p.c_out;
  return g;
}
// The same for a launch: make_conv_geometry(conv_shape{}) is the 6x6 one above.
TILESIM_HOST_DEVICE constexpr conv_geometry make_conv_geometry(const conv_shape& s) {
  return make_conv_geometry(s.params, s.threads, s.grid, s.warp_size);
}

// The NHWC input, top (n, h, w, c): offset ((n*H + h)*W + w)*CIn + c; the c dim guarantees `vector`-float vectors.
TILESIM_HOST_DEVICE constexpr auto make_conv_input_descriptor(const conv_params& p) {
  return make_naive_descriptor<4>({p.n, p.h, p.w, p.c_in}, {p.h * p.w * p.c_in, p.w * p.c_in, p.c_in, 1}, p.vector, 1);
}

// Sliding windows, top (n, ho, wo, r, s, c): pad H and W, then embed (ho, r) and (wo, s) into them.
// 6x6, 3x3: lengths (1, 4, 4, 3, 3, 1), offset 6*ho + wo + 6*r + s.
TILESIM_HOST_DEVICE constexpr auto make_conv_window_descriptor(const conv_params& p) {
  const index_t ho = conv_out_length(p.h, p.pad_h, p.r, p.stride_h, p.dilation_h);
  const index_t wo = conv_out_length(p.w, p.pad_w, p.s, p.stride_w, p.dilation_w);
  const auto padded = transform_descriptor(make_conv_input_descriptor(p), step(make_pass_through(p.n), {0}, {0}),
                                           step(make_pad(p.h, p.pad_h, p.pad_h), {1}, {1}),
                                           step(make_pad(p.w, p.pad_w, p.pad_w), {2}, {2}),
                                           step(make_pass_through(p.c_in), {3}, {3}));
  return transform_descriptor(padded, step(make_pass_through(p.n), {0}, {0}),
                              step(make_embed({ho, p.r}, {p.stride_h, p.dilation_h}), {1}, {1, 3}),
                              step(make_embed({wo, p.s}, {p.stride_w, p.dilation_w}), {2}, {2, 4}),
                              step(make_pass_through(p.c_in), {3}, {5}));
}

// im2col, top (m, k) = (merge(n, ho, wo), merge(r, s, c)) over the window descriptor: the GEMM's A, M x K.
// 6x6, 3x3: 16 x 9, row 0 = offsets 0 1 2 6 7 8 12 13 14.
TILESIM_HOST_DEVICE constexpr auto make_conv_im2col_descriptor(const conv_params& p) {
  const auto windows = make_conv_window_descriptor(p);
  const multi_index<6> len = windows.lengths();
  return transform_descriptor(windows, step(make_merge({len[0], len[1], len[2]}), {0, 1, 2}, {0}),
                              step(make_merge({len[3], len[4], len[5]}), {3, 4, 5}, {1}));
}

// The KRSC weights as the GEMM's B stored transposed, top (co, k): offset co*K + k, `vector`-float K vectors.
TILESIM_HOST_DEVICE constexpr auto make_conv_weight_descriptor(const conv_params& p) {
  const index_t k = p.r * p.s * p.c_in;
  return make_naive_descriptor<2>({p.c_out, k}, {k, 1}, p.vector, 1);
}

// The filter as KRSC, top (co, r, s, c): offset ((co*R + r)*S + s)*CIn + c (the sliding mode's weight reads).
TILESIM_HOST_DEVICE constexpr auto make_conv_filter_descriptor(const conv_params& p) {
  return make_naive_descriptor<4>({p.c_out, p.r, p.s, p.c_in}, {p.r * p.s * p.c_in, p.s * p.c_in, p.c_in, 1});
}

// im2col's A encoding (X0 = the workgroup's MB GEMM rows, X1 = KPerBlock): R = <COut>, H = <warps, rows per
// warp>, <KPerBlock>; warp -> H0[0], lane -> merge(H0[1], R0), Y = (H1[0]). 6x6: lane l holds row l, K 0..2.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_conv_a_encoding(const conv_params& p,
                                                                              const conv_geometry& g) {
  return make_encoding({p.c_out}, {{g.warps, g.rows_per_warp}, {g.k_per_block}}, {{{1, 0}}, {{1, 1}, {0, 0}}},
                       {{2, 0}});
}

// im2col's B encoding (X0 = COut rows of the transposed weights, X1 = KPerBlock): R = <warps, rows per warp>,
// H = <COut>, <KPerBlock>; warp -> R0, lane -> merge(R1, H0[0]), Y = (H1[0]): lane l holds weight row l % COut.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_conv_b_encoding(const conv_params& p,
                                                                              const conv_geometry& g) {
  return make_encoding({g.warps, g.rows_per_warp}, {{p.c_out}, {g.k_per_block}}, {{{0, 0}}, {{0, 1}, {1, 0}}},
                       {{2, 0}});
}

// A shape in either form: conv_shape, or constant<V> with V a conv_shape.
template <class Shape>
concept conv_shape_form =
    std::same_as<std::remove_cvref_t<decltype(value_of(std::declval<const Shape&>()))>, conv_shape>;

// Trip counts in the shape's form (constant<index_t> for a constant shape, so for_range unrolls): filter rows R,
// filter columns S, input channels CIn, im2col K steps K / KPerBlock and KPerBlock.
template <class Shape>
TILESIM_HOST_DEVICE constexpr auto conv_filter_rows(const Shape& s) {
  return derive(s, [](const conv_shape& c) { return c.params.r; });
}
template <class Shape>
TILESIM_HOST_DEVICE constexpr auto conv_filter_cols(const Shape& s) {
  return derive(s, [](const conv_shape& c) { return c.params.s; });
}
template <class Shape>
TILESIM_HOST_DEVICE constexpr auto conv_channels(const Shape& s) {
  return derive(s, [](const conv_shape& c) { return c.params.c_in; });
}
template <class Shape>
TILESIM_HOST_DEVICE constexpr auto conv_k_steps(const Shape& s) {
  return derive(s, [](const conv_shape& c) {
    const conv_geometry g = make_conv_geometry(c);
    return g.k / g.k_per_block;
  });
}
template <class Shape>
TILESIM_HOST_DEVICE constexpr auto conv_k_per_block(const Shape& s) {
  return derive(s, [](const conv_shape& c) { return make_conv_geometry(c).k_per_block; });
}

// naive: direct loops over the filter window, plain offsets; output pixel m, channel co.
template <class Ctx, class Shape, class In, class Wt>
TILESIM_HOST_DEVICE TILESIM_INLINE inline float conv_naive(Ctx& ctx, const Shape& shape, const conv_geometry& g,
                                                           const In& x, const Wt& wt, index_t m, index_t co) {
  const conv_shape& l = value_of(shape);
  const conv_params& p = l.params;
  const index_t wo = m % g.wo, ho = m / g.wo % g.ho, n = m / (g.wo * g.ho);
  float acc = 0.0f;
  for_range(conv_filter_rows(shape), [&](auto r) TILESIM_INLINE {
    for_range(conv_filter_cols(shape), [&](auto s) TILESIM_INLINE {
      const index_t hi = ho * p.stride_h + r * p.dilation_h - p.pad_h;
      const index_t wi = wo * p.stride_w + s * p.dilation_w - p.pad_w;
      const bool inside = hi >= 0 && hi < p.h && wi >= 0 && wi < p.w;
      for_range(conv_channels(shape), [&](auto c) TILESIM_INLINE {
        float v = 0.0f;
        ctx.label("x load");
        load_vector<1>(x, ((n * p.h + hi) * p.w + wi) * p.c_in + c, &v, inside);
        ctx.label("w load");
        const float f = load_element(wt, ((co * p.r + r) * p.s + s) * p.c_in + c);
        acc += v * f;
        alu(ctx, alu_op::fma, 1);
      });
    });
  });
  return acc;
}

// sliding: one coordinate of the window descriptor, made at (n, ho, wo, 0, 0, 0) and moved through (r, s, c).
template <class Ctx, class Shape, class In, class Wt>
TILESIM_HOST_DEVICE TILESIM_INLINE inline float conv_sliding(Ctx& ctx, const Shape& shape, const conv_geometry& g,
                                                             const In& x, const Wt& wt, index_t m, index_t co) {
  const auto windows =
      as_descriptor(derive(shape, [](const conv_shape& c) { return make_conv_window_descriptor(c.params); }));
  const auto filter =
      as_descriptor(derive(shape, [](const conv_shape& c) { return make_conv_filter_descriptor(c.params); }));
  const index_t wo = m % g.wo, ho = m / g.wo % g.ho, n = m / (g.wo * g.ho);
  auto coord = windows.make_coordinate({n, ho, wo, 0, 0, 0});
  multi_index<3> at{};  // the coordinate's (r, s, c); its (n, ho, wo) never moves
  float acc = 0.0f;
  for_range(conv_filter_rows(shape), [&](auto r) TILESIM_INLINE {
    for_range(conv_filter_cols(shape), [&](auto s) TILESIM_INLINE {
      for_range(conv_channels(shape), [&](auto c) TILESIM_INLINE {
        windows.move(coord, {0, 0, 0, r - at[0], s - at[1], c - at[2]});
        at = {r, s, c};
        float v = 0.0f;
        ctx.label("window load");
        load_vector<1>(x, coord.offset(), &v, windows.is_valid(coord));
        ctx.label("w load");
        const float f = load_element(wt, filter.calculate_offset({co, r, s, c}));
        acc += v * f;
        alu(ctx, alu_op::fma, 1);
      });
    });
  });
  return acc;
}

// im2col: A rows and B rows through tile windows, K step by K step (see the essay for the encodings).
template <class Ctx, class Shape, class In, class Wt>
TILESIM_HOST_DEVICE TILESIM_INLINE inline float conv_im2col(Ctx& ctx, const Shape& shape, const conv_geometry& g,
                                                            const In& x, const Wt& wt) {
  const conv_shape& l = value_of(shape);
  const conv_params& p = l.params;
  const auto a_enc =
      derive(shape, [](const conv_shape& c) { return make_conv_a_encoding(c.params, make_conv_geometry(c)); });
  const auto b_enc =
      derive(shape, [](const conv_shape& c) { return make_conv_b_encoding(c.params, make_conv_geometry(c)); });
  const auto a_desc = derive(shape, [](const conv_shape& c) { return make_conv_im2col_descriptor(c.params); });
  const auto b_desc = derive(shape, [](const conv_shape& c) { return make_conv_weight_descriptor(c.params); });
  const index_t kb = g.k_per_block, mb = g.rows_per_block;
  const index_t warp = ctx.warp(), lane = ctx.lane();  // block < warp size: warp 0, lane = thread
  const auto a_view = make_tensor_view(a_desc, x, address_space::global);
  const auto b_view = make_tensor_view(b_desc, wt, address_space::global);
  auto a_win = make_tile_window(a_view, {mb, kb}, {ctx.block_id() * mb, 0}, a_enc, partition_index(a_enc, warp, lane));
  auto b_win = make_tile_window(b_view, {p.c_out, kb}, {0, 0}, b_enc, partition_index(b_enc, warp, lane));
  auto a = make_distributed_tensor<float, conv_max_k_per_block>(a_enc);
  auto b = make_distributed_tensor<float, conv_max_k_per_block>(b_enc);
  float acc = 0.0f;
  for_range(conv_k_steps(shape), [&](auto) TILESIM_INLINE {
    ctx.label("A global load");
    a_win.load(a);
    ctx.label("B global load");
    b_win.load(b);
    // One Y (k - k0): register i is k0 + i in both.
    for_range(conv_k_per_block(shape), [&](auto i) TILESIM_INLINE { acc += a[i] * b[i]; });
    alu(ctx, alu_op::fma, value_of(conv_k_per_block(shape)));
    a_win.move({0, kb});
    b_win.move({0, kb});
  });
  return acc;
}

// The program: thread t of workgroup b computes output element b*block + t in the shape's mode (see the essay),
// for a launch in either form: conv(ctx, conv_shape{...}) or conv(ctx, constant<conv_shape{...}>{}).
template <class Ctx, conv_shape_form Shape>
TILESIM_HOST_DEVICE void conv(Ctx& ctx, const Shape& shape) {
  const conv_shape& l = value_of(shape);
  const conv_params& p = l.params;
  require_launch_shape(ctx, l.threads, l.warp_size, l.grid);
  const auto geometry = derive(shape, [](const conv_shape& c) { return make_conv_geometry(c); });
  const conv_geometry& g = value_of(geometry);
  const index_t o = ctx.block_id() * l.threads + ctx.thread_id();
  const index_t m = o / p.c_out, co = o % p.c_out;
  const auto x = global_buffer<float>(ctx, p.input);
  const auto wt = global_buffer<float>(ctx, p.weights);
  float acc = 0.0f;
  if constexpr (is_constant_v<Shape>) {
    static_assert(conv_shape_valid<value_of(Shape{})>);
    constexpr conv_mode mode = value_of(Shape{}).params.mode;
    if constexpr (mode == conv_mode::naive)
      acc = conv_naive(ctx, shape, g, x, wt, m, co);
    else if constexpr (mode == conv_mode::sliding)
      acc = conv_sliding(ctx, shape, g, x, wt, m, co);
    else
      acc = conv_im2col(ctx, shape, g, x, wt);
  } else {
    switch (p.mode) {
      case conv_mode::naive:
        acc = conv_naive(ctx, shape, g, x, wt, m, co);
        break;
      case conv_mode::sliding:
        acc = conv_sliding(ctx, shape, g, x, wt, m, co);
        break;
      case conv_mode::im2col:
        acc = conv_im2col(ctx, shape, g, x, wt);
        break;
    }
  }
  ctx.label("out store");
  store_element(global_buffer<float>(ctx, p.output), o, acc);
}

// The run-time form from the parameters alone: conv(ctx, conv_params{}) on the launch ctx runs.
template <class Ctx>
TILESIM_HOST_DEVICE void conv(Ctx& ctx, const conv_params& p) {
  conv(ctx, conv_shape_of(ctx, p));
}

}  // namespace tilesim::examples
