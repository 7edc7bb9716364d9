// tilesim/kernel/morton/morton.hpp: Morton (Z-order) texture tiling, and a program that reads it
// the way a texture sampler does.
//
// DEFINITION. An H x W image of fp32 texels, stored MORTON-TILED with tile side T (a power of two dividing H
// and W): stage 1 cuts the image into T x T tiles, stored one after another in row-major tile order; stage 2
// orders the T*T texels inside a tile in Morton order (bit interleave of the in-tile row and column, column
// bit k at bit 2k, row bit k at bit 2k+1):
//   offset(y, x) = ((y / T) * (W / T) + x / T) * T*T  +  interleave(y % T, x % T)
// Built three ways, all constexpr TILESIM_HOST_DEVICE, all agreeing on every texel (morton.test.cpp):
//   (a) make_morton_tiled_descriptor(H, W, T): CK's vocabulary only, bottom (offset) to top (y, x):
//         unmerge(H/T, W/T, T*T)      offset   -> (tile_y, tile_x, in_tile)            tiles row-major
//         unmerge(2, 2, ..., 2)       in_tile  -> (r_{B-1}, c_{B-1}, ..., r_0, c_0)    the Morton digits
//         merge(H/T, 2, ..., 2)       y        -> (tile_y, r_{B-1}, ..., r_0)          y = tile_y*T + in_y
//         merge(W/T, 2, ..., 2)       x        -> (tile_x, c_{B-1}, ..., c_0)
//       (read top-down: y splits into (tile_y, in_y) and x into (tile_x, in_x), the row and column bits are
//       interleaved into in_tile, and the tile index and in_tile are packed into the offset). B is a fixed
//       capacity, morton_max_tile_bits = 5 (T <= 32): digits above the tile's log2(T) bits have length 1, so
//       one type (one kernel instantiation) serves every T at run time.
//   (b) morton_tiled_bits{H, W, T}: the direct arithmetic a texture unit uses (shifts, masks, bit spreading).
//   (c) make_morton_tiled_descriptor_morton(H, W, T): the same two stages with spec's morton transform for
//       stage 2 (a third witness for the tests).
//
// WORKED EXAMPLE (4x4 image, T = 2: four 2x2 tiles, each in Z order; texel (y, x) holds its offset):
//       x  0  1  2  3
//   y 0    0  1  4  5         texel (2, 3): tile (1, 1) -> tile offset (1*2 + 1) * 4 = 12;
//   y 1    2  3  6  7                       in-tile (0, 1) -> interleave = c0 | r0 << 1 = 1; offset 13.
//   y 2    8  9 12 13         (a) bottom-up: 13 -> unmerge(2, 2, 4) -> (1, 1, 1); 1 -> digits (r0, c0) = (0, 1);
//   y 3   10 11 14 15             merge(2, 2) (tile_y 1, r0 0) -> y = 2; (tile_x 1, c0 1) -> x = 3.
// With a 2x2 grid of tiles this happens to be the full 4x4 Morton table (tiles row-major = Z order of 2x2).
//
// INVARIANTS: every layout is a bijection of [0, H) x [0, W) onto [0, H*W); (a), (b) and (c) agree on every
// texel; rejected parameters (T not a power of two or above 2^5, T not dividing H or W) fail the same rules
// for all three (spec/rules.hpp: morton_length_not_power_of_two, tile_too_large, tile_not_dividing).
//
// THE PROGRAM (morton_read<T>(ctx, shape); T = float). Workgroup b handles the band of footprint_rows rows
// starting at y0 = b * footprint_rows, all W columns. The band is cut into footprints of footprint_rows x
// footprint_cols texels (rows x cols), one texel per lane (lane = dy * footprint_cols + dx): 8x4 on sm90's 32
// lanes, 8x8 on gfx942's 64. Wave w takes footprints w, w + waves, ... of the band. Each lane
//   direct:  loads its texel from the input, stored in params.layout    label "texel load"
//            stores it to the row-major output at (y, x)                 label "texel store"
//   staged:  loads it ("texel load"), stores it into an LDS band (fh x W, row-major or Morton-tiled with the
//            same T)                                                     label "lds store"
//            barrier; then thread t reads band texels t, t + block, ... (fh * W / block of them: the rules
//            make it exact) in row-major order                           label "lds load"
//            and stores them row-major, consecutive lanes on consecutive x  label "texel store"
// so the result check is output == the row-major image, whatever the input layout. The program touches only
// the context and spec/ (it compiles as a HIP/CUDA kernel body); its parameter rules (check_morton_params,
// morton_shape::check) name their values. It takes its launch in either form (spec/constant.hpp):
//   run time   morton_read<T>(ctx, params), or (ctx, morton_shape{params, block, wave, grid}): one
//              instantiation per T serves every layout and staging (run-time switches); the simulator and
//              the cross-check's run-time kernel use it
//   compiled   morton_read<T>(ctx, constant<morton_shape{...}>{}): one kernel per shape; the layout and the
//              staging are chosen by if constexpr, the input layout is a fixed_descriptor (row-major,
//              transforms) or fixed_layout (bits), the band a fixed_band_layout, and the passes are unrolled
//              (for_range), so each lane's addresses fold to shifts and masks of its thread and block ids (sm90,
//              nvcc -O3: 0 bytes stack, 14-29 registers, no division left). A rule broken by a constant shape
//              is a static_assert; the launch must be the shape's (require_launch_shape).
// Both forms record the same accesses in the same order (morton.test.cpp compares every case lane by lane).
//
// THE ANALYSIS (numbers asserted in morton.test.cpp). Global memory is priced per instruction in 32-byte
// sectors (8 texels) and 128-byte lines (32 texels). What a sector or a line IS in image space depends on the
// layout:
//   row-major (W >= 32):         sector = 8 x 1 texels (cols x rows), line = 32 x 1
//   Morton-tiled (T >= 8):       sector = 4 x 2 (z bits c0 r0 c1), line = 8 x 4 (z bits c0 r0 c1 r1 c2)
// An aligned power-of-two footprint of fw cols x fh rows (fw <= 32) inside one tile therefore touches
// fh * ceil(fw / 8) sectors row-major but ceil(fw / 4) * ceil(fh / 2) Morton-tiled; lines: fh vs
// ceil(fw / 8) * ceil(fh / 4).
//   sm90, 8 rows x 4 cols (128 B, ideal 4 sectors): row-major 8 sectors in 8 lines (each 16-byte row fills
//     half a sector); Morton-tiled 4 sectors in 2 lines (z = 0..15 and 32..47 of the tile: two 64-byte runs).
//   gfx942, 8 x 8 (256 B, ideal 8): row-major 8 sectors in 8 lines (each row is exactly one sector: no
//     sector is wasted); Morton-tiled 8 sectors in 2 lines (the whole tile, 256 contiguous bytes).
// So Morton tiling saves SECTORS only when footprint rows are narrower than a sector (fw < 8 fp32 texels);
// for square footprints of 8 or more it saves LINES (tag lookups, line fills, DRAM bursts), not sectors. The
// row-major output store costs what a row-major footprint load costs (direct) or is ideal (staged: 32 or 64
// consecutive texels). These are per-instruction counts (L1 requests); over the whole image every byte is
// read once either way, and the half-used row-major sectors are read again by the next footprint.
// LDS is priced per PHASE: the arch splits a wave's lanes into phases (sm90 4-byte: one phase of 32 lanes;
// gfx942 ds_read/write_b32: two phases of 32 lanes) and a phase costs the most distinct words any one of 32
// banks serves; wavefronts = the sum over phases, ideal = phases with an active lane. In a Morton-tiled LDS
// band (tiles of 64 words, so every tile starts at bank 0):
//   sm90 footprint store (8x4): words z = 0..15 and 32..47 (+16 for the right half): banks 0-15 twice: 2-way,
//     2 wavefronts (ideal 1); a row-major band (row stride 64 words = bank 0 again) is 8-way: 8.
//   gfx942 footprint store (8x8): phase 0 = rows 0-3 = z 0..31, phase 1 = z 32..63: conflict-free, 2 (ideal
//     2); row-major: each phase is 4 rows x 8 cols in 8 banks: 4-way, 8.
//   row-order read of the band: 32 consecutive x span 4 tiles whose in-row z values {0,1,4,5,16,17,20,21}
//     (+ row bits) land on the same 8 banks: 4-way per phase: sm90 4 (ideal 1), gfx942 8 (ideal 2); a
//     row-major band reads 1 (sm90) and 2 (gfx942).
// Z order in LDS moves bank conflicts from the footprint side to the row side; it does not remove them
// (per instance, store + load: sm90 2 + 4 = 6 vs row-major 8 + 1 = 9; gfx942 2 + 8 = 10 vs 8 + 2 = 10).
#pragma once

#include "kernel/model/program.hpp"
#include "spec/descriptor.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/transforms/merge.hpp"
#include "spec/transforms/morton.hpp"
#include "spec/transforms/pass_through.hpp"
#include "spec/transforms/unmerge.hpp"

namespace tilesim::examples {

// Capacity of layout (a): at most 2^5 = 32 texels per tile side.
inline constexpr int morton_max_tile_bits = 5;

// How the input image is stored.
enum class texel_layout { row_major, morton_transforms, morton_bits };
// How the texels travel to the row-major output.
enum class texel_staging { direct, lds_row_major, lds_morton };

struct morton_params {
  index_t height = 64, width = 64;  // H x W texels
  index_t tile = 8;                 // T: Morton tile side (used by the Morton layouts and lds_morton)
  index_t footprint_rows = 8;       // texels one wave reads: footprint_rows x footprint_cols = warp size
  index_t footprint_cols = 4;
  texel_layout layout = texel_layout::morton_transforms;
  texel_staging staging = texel_staging::direct;
  int input = 0;   // global slot of the H*W input, stored in `layout`
  int output = 1;  // global slot of the H*W output, row-major
  bool operator==(const morton_params&) const = default;
};

// The rules of a Morton-tiled H x W layout with tile T (empty when valid).
TILESIM_HOST_DEVICE constexpr violation check_morton_tiled(index_t height, index_t width, index_t tile) {
  if (violation v = broken_unless(height >= 1 && width >= 1 && tile >= 1, rule::length_not_positive, "morton_tiled",
                                  {"height", height}, {"width", width}, {"tile", tile}))
    return v;
  if (violation v = broken_unless(is_power_of_two(tile), rule::morton_length_not_power_of_two, "morton_tiled",
                                  {"tile", tile}))
    return v;
  if (violation v = broken_unless(tile <= (index_t{1} << morton_max_tile_bits), rule::tile_too_large,
                                  "morton_tiled digits", {"tile", tile},
                                  {"max tile", index_t{1} << morton_max_tile_bits}))
    return v;
  return broken_unless(height % tile == 0 && width % tile == 0, rule::tile_not_dividing, "morton_tiled",
                       {"height", height}, {"width", width}, {"tile", tile});
}

// (a) From CK's transforms: make_morton_tiled_descriptor(4, 4, 2).calculate_offset({2, 3}) == 13.
TILESIM_HOST_DEVICE constexpr auto make_morton_tiled_descriptor(index_t height, index_t width, index_t tile) {
  require(check_morton_tiled(height, width, tile));
  constexpr int B = morton_max_tile_bits;
  const int bits = log2_exact(tile);
  const index_t tiles_y = height / tile, tiles_x = width / tile;
  const auto flat = make_naive_descriptor_packed<1>({height * width});
  // Stage 1, bottom: offset -> (tile_y, tile_x, in_tile), tiles row-major.
  const auto tiles = transform_descriptor(flat, step(make_unmerge({tiles_y, tiles_x, tile * tile}), {0}, {0, 1, 2}));
  // Stage 2: in_tile -> its digits r_{B-1}, c_{B-1}, ..., r_0, c_0 (most significant first; length 1 above the
  // tile's bits). Digit j (0 = most significant pair) of the rows is top dim 2 + 2j, of the columns 3 + 2j.
  multi_index<2 * B> digit_lengths{}, digit_ids{};
  multi_index<B + 1> y_lengths{}, y_from{}, x_lengths{}, x_from{};
  y_lengths[0] = tiles_y;
  x_lengths[0] = tiles_x;
  y_from[0] = 0;
  x_from[0] = 1;
  for (int j = 0; j < B; ++j) {
    const index_t len = (B - 1 - j) < bits ? 2 : 1;  // bit k = B-1-j exists when k < log2(T)
    digit_lengths[2 * j] = digit_lengths[2 * j + 1] = len;
    digit_ids[2 * j] = 2 + 2 * j;
    digit_ids[2 * j + 1] = 3 + 2 * j;
    y_lengths[1 + j] = x_lengths[1 + j] = len;
    y_from[1 + j] = 2 + 2 * j;
    x_from[1 + j] = 3 + 2 * j;
  }
  const auto digits = transform_descriptor(tiles, step(make_pass_through(tiles_y), {0}, {0}),
                                           step(make_pass_through(tiles_x), {1}, {1}),
                                           step(make_unmerge(digit_lengths), {2}, digit_ids));
  // Stages 2 and 1, top: y = merge(tile_y, row digits), x = merge(tile_x, column digits).
  return transform_descriptor(digits, step(make_merge(y_lengths), y_from, {0}),
                              step(make_merge(x_lengths), x_from, {1}));
}

// (c) Stage 2 by spec's morton transform: the same offsets as (a).
TILESIM_HOST_DEVICE constexpr auto make_morton_tiled_descriptor_morton(index_t height, index_t width, index_t tile) {
  require(check_morton_tiled(height, width, tile));
  const index_t tiles_y = height / tile, tiles_x = width / tile;
  const auto flat = make_naive_descriptor_packed<1>({height * width});
  const auto tiles = transform_descriptor(flat, step(make_unmerge({tiles_y, tiles_x, tile * tile}), {0}, {0, 1, 2}));
  const auto inner = transform_descriptor(tiles, step(make_pass_through(tiles_y), {0}, {0}),
                                          step(make_pass_through(tiles_x), {1}, {1}),
                                          step(make_morton(tile, tile), {2}, {2, 3}));
  return transform_descriptor(inner, step(make_merge({tiles_y, tile}), {0, 2}, {0}),
                              step(make_merge({tiles_x, tile}), {1, 3}, {1}));
}

// Bits 0..15 of v spread to the even bit positions: spread_bits(0b111) == 0b010101.
TILESIM_HOST_DEVICE constexpr index_t spread_bits(index_t v) {
  v &= 0xFFFF;
  v = (v | (v << 8)) & 0x00FF00FF;
  v = (v | (v << 4)) & 0x0F0F0F0F;
  v = (v | (v << 2)) & 0x33333333;
  v = (v | (v << 1)) & 0x55555555;
  return v;
}

// (b) The direct bit version: morton_tiled_bits{4, 4, 2}.calculate_offset({2, 3}) == 13.
struct morton_tiled_bits {
  index_t height = 0, width = 0, tile = 1;

  TILESIM_HOST_DEVICE constexpr multi_index<2> lengths() const { return {height, width}; }
  TILESIM_HOST_DEVICE constexpr index_t calculate_offset(const multi_index<2>& yx) const {
    const int b = log2_exact(tile);
    const index_t mask = tile - 1;
    const index_t tile_index = (yx[0] >> b) * (width >> b) + (yx[1] >> b);
    return (tile_index << (2 * b)) | spread_bits(yx[1] & mask) | (spread_bits(yx[0] & mask) << 1);
  }
};

// make_morton_tiled_bits(64, 64, 8): checked like (a) and (c).
TILESIM_HOST_DEVICE constexpr morton_tiled_bits make_morton_tiled_bits(index_t height, index_t width, index_t tile) {
  require(check_morton_tiled(height, width, tile));
  return {height, width, tile};
}

// Calls f(layout) with the layout `l` of an H x W image (each has calculate_offset({y, x})).
template <class F>
TILESIM_HOST_DEVICE void with_texel_layout(texel_layout l, index_t height, index_t width, index_t tile, F&& f) {
  switch (l) {
    case texel_layout::row_major:
      f(make_row_major_descriptor(height, width));
      return;
    case texel_layout::morton_transforms:
      f(make_morton_tiled_descriptor(height, width, tile));
      return;
    case texel_layout::morton_bits:
      f(make_morton_tiled_bits(height, width, tile));
      return;
  }
}

// The rules of a parameter set for a launch of `grid` x `block` threads at `warp_size` (empty when valid).
TILESIM_HOST_DEVICE constexpr violation check_morton_params(const morton_params& p, index_t warp_size, index_t block,
                                                            index_t grid) {
  if (violation v = check_morton_tiled(p.height, p.width, p.tile)) return v;
  const index_t fh = p.footprint_rows, fw = p.footprint_cols;
  if (violation v = broken_unless(fh >= 1 && fw >= 1, rule::length_not_positive, "morton footprint",
                                  {"footprint rows", fh}, {"footprint cols", fw}))
    return v;
  if (violation v = broken_unless(fh * fw == warp_size, rule::launch_split_not_exact, "morton footprint (one texel per lane)",
                                  {"footprint rows", fh}, {"footprint cols", fw}, {"warp size", warp_size}))
    return v;
  if (violation v = broken_unless(block >= 1 && block % warp_size == 0, rule::launch_split_not_exact, "morton block",
                                  {"block", block}, {"warp size", warp_size}))
    return v;
  if (violation v = broken_unless(p.height % fh == 0 && p.width % fw == 0, rule::launch_split_not_exact,
                                  "morton footprint", {"height", p.height}, {"width", p.width},
                                  {"footprint rows", fh}, {"footprint cols", fw}))
    return v;
  const index_t footprints = p.width / fw, waves = block / warp_size;
  if (violation v = broken_unless(footprints % waves == 0, rule::launch_split_not_exact, "morton band",
                                  {"footprints per band", footprints}, {"waves", waves}))
    return v;
  if (violation v = broken_unless(grid == p.height / fh, rule::launch_split_not_exact, "morton grid (one band each)",
                                  {"grid", grid}, {"bands", p.height / fh}))
    return v;
  if (p.staging == texel_staging::lds_morton) return check_morton_tiled(fh, p.width, p.tile);
  return {};
}

// Word offset of band texel (r, c) in the LDS band: row-major or Morton-tiled (bit version).
struct lds_band_layout {
  bool morton = false;
  index_t width = 0;
  morton_tiled_bits z;
  TILESIM_HOST_DEVICE constexpr index_t offset(index_t r, index_t c) const {
    return morton ? z.calculate_offset({r, c}) : r * width + c;
  }
};

// The structure of one launch: the parameters and the workgroup's shape. morton_read takes it in either form
// (spec/constant.hpp): morton_shape (run time) or constant<morton_shape{...}> (a kernel, and the simulator
// running that same instantiation). check() is check_morton_params at this launch.
struct morton_shape {
  morton_params params{};
  index_t threads = 256, warp_size = 32, grid = 1;
  TILESIM_HOST_DEVICE constexpr violation check() const {
    return check_morton_params(params, warp_size, threads, grid);
  }
  bool operator==(const morton_shape&) const = default;
};

// True for a valid compile-time shape; each broken rule is a static_assert with the rule's text.
template <morton_shape S>
inline constexpr bool morton_shape_valid = static_require<S>();

// The launch of p on ctx: morton_shape_of(ctx, p) == {p, ctx.block_size(), ctx.warp_size(), ctx.grid_size()}.
template <class Ctx>
TILESIM_HOST_DEVICE morton_shape morton_shape_of(Ctx& ctx, const morton_params& p) {
  return {p, ctx.block_size(), ctx.warp_size(), ctx.grid_size()};
}

// A texel layout known at compile time, as an empty object: fixed_layout<make_morton_tiled_bits(64, 64, 8)>{}
// .calculate_offset({9, 3}) == 519 (tile (1, 0) at 8 * 64, in-tile (1, 3) -> 7), the arithmetic with T = 8 folded in.
template <auto L>
struct fixed_layout {
  TILESIM_HOST_DEVICE TILESIM_INLINE static constexpr index_t calculate_offset(const multi_index<2>& yx) {
    return L.calculate_offset(yx);
  }
};

// Calls f(layout) with the input's texel layout in the launch's form: the run-time switch above, or for a
// constant the one layout as fixed_descriptor / fixed_layout (if constexpr: no other layout is compiled).
template <class Shape, class F>
TILESIM_HOST_DEVICE void with_texel_layout(const Shape& shape, F&& f) {
  if constexpr (is_constant_v<Shape>) {
    constexpr morton_params p = value_of(Shape{}).params;
    if constexpr (p.layout == texel_layout::row_major)
      f(fixed_descriptor<make_row_major_descriptor(p.height, p.width)>{});
    else if constexpr (p.layout == texel_layout::morton_transforms)
      f(fixed_descriptor<make_morton_tiled_descriptor(p.height, p.width, p.tile)>{});
    else
      f(fixed_layout<make_morton_tiled_bits(p.height, p.width, p.tile)>{});
  } else {
    const morton_params& p = shape.params;
    with_texel_layout(p.layout, p.height, p.width, p.tile, f);
  }
}

// The LDS band's layout of a launch (staged launches): lds_band_layout{lds_morton?, W, bits{fh, W, T}}.
TILESIM_HOST_DEVICE constexpr lds_band_layout morton_band_layout(const morton_shape& s) {
  const morton_params& p = s.params;
  return {p.staging == texel_staging::lds_morton, p.width, morton_tiled_bits{p.footprint_rows, p.width, p.tile}};
}

// A band layout known at compile time: B's choice (Morton or row-major) made by if constexpr.
template <lds_band_layout B>
struct fixed_band_layout {
  TILESIM_HOST_DEVICE TILESIM_INLINE static constexpr index_t offset(index_t r, index_t c) {
    if constexpr (B.morton)
      return B.z.calculate_offset({r, c});
    else
      return r * B.width + c;
  }
};

// The band layout of either form as an object with offset(r, c): the value itself, or fixed_band_layout<B>.
TILESIM_HOST_DEVICE constexpr const lds_band_layout& as_band_layout(const lds_band_layout& b) { return b; }
template <lds_band_layout B>
TILESIM_HOST_DEVICE constexpr fixed_band_layout<B> as_band_layout(constant<B>) {
  return {};
}

// Footprints each wave reads per band: (W / fw) / waves = (64 / 4) / 8 = 2 on sm90's cases.
TILESIM_HOST_DEVICE constexpr index_t morton_passes(const morton_shape& s) {
  return (s.params.width / s.params.footprint_cols) / (s.threads / s.warp_size);
}
// Band texels each thread moves out of LDS: fh * W / block = 8 * 64 / 256 = 2.
TILESIM_HOST_DEVICE constexpr index_t morton_band_reads(const morton_shape& s) {
  return s.params.footprint_rows * s.params.width / s.threads;
}

// Direct: each pass, every lane loads its footprint texel and stores it row-major (labels "texel load",
// "texel store"). `passes` and the shape's numbers are constants in the compiled form (for_range unrolls).
template <class T, class Ctx, class Shape, class Layout>
TILESIM_HOST_DEVICE TILESIM_INLINE inline void morton_read_direct(Ctx& ctx, const Shape& shape, const Layout& layout) {
  const morton_shape& s = value_of(shape);
  const morton_params& p = s.params;
  const index_t fh = p.footprint_rows, fw = p.footprint_cols, w = p.width, waves = s.threads / s.warp_size;
  const index_t y0 = ctx.block_id() * fh;                    // this workgroup's band
  const index_t dy = ctx.lane() / fw, dx = ctx.lane() % fw;  // this lane's texel in a footprint
  const auto in = global_buffer<T>(ctx, p.input);
  const auto out = global_buffer<T>(ctx, p.output);
  const auto passes = derive(shape, [](const morton_shape& c) { return morton_passes(c); });
  for_range(passes, [&](auto k) {
    const index_t y = y0 + dy, x = (index_t{k} * waves + ctx.warp()) * fw + dx;
    ctx.label("texel load");
    const T v = load_element(in, layout.calculate_offset({y, x}));
    ctx.label("texel store");
    store_element(out, y * w + x, v);
  });
}

// Staged: footprint texels into the LDS band ("texel load", "lds store"), barrier, then thread t moves band
// texels t, t + block, ... (fh * w / block of them, exact by the rules) row-major ("lds load", "texel store").
template <class T, class Ctx, class Shape, class Layout>
TILESIM_HOST_DEVICE TILESIM_INLINE inline void morton_read_staged(Ctx& ctx, const Shape& shape, const Layout& layout) {
  const morton_shape& s = value_of(shape);
  const morton_params& p = s.params;
  const index_t fh = p.footprint_rows, fw = p.footprint_cols, w = p.width, block = s.threads;
  const index_t waves = s.threads / s.warp_size;
  const index_t y0 = ctx.block_id() * fh;
  const index_t dy = ctx.lane() / fw, dx = ctx.lane() % fw;
  const auto in = global_buffer<T>(ctx, p.input);
  const auto out = global_buffer<T>(ctx, p.output);
  const auto band_layout = derive(shape, [](const morton_shape& c) { return morton_band_layout(c); });
  const auto& band = as_band_layout(band_layout);
  const auto lds = lds_buffer<T>(ctx, fh * w);
  const auto passes = derive(shape, [](const morton_shape& c) { return morton_passes(c); });
  for_range(passes, [&](auto k) {
    const index_t x = (index_t{k} * waves + ctx.warp()) * fw + dx;
    ctx.label("texel load");
    const T v = load_element(in, layout.calculate_offset({y0 + dy, x}));
    ctx.label("lds store");
    store_element(lds, band.offset(dy, x), v);
  });
  ctx.barrier();
  const auto reads = derive(shape, [](const morton_shape& c) { return morton_band_reads(c); });
  for_range(reads, [&](auto i) {
    const index_t e = ctx.thread_id() + index_t{i} * block, r = e / w, c = e % w;
    ctx.label("lds load");
    const T v = load_element(lds, band.offset(r, c));
    ctx.label("texel store");
    store_element(out, (y0 + r) * w + c, v);
  });
}

// The program: see THE PROGRAM above, for a launch in either form. morton_read<float>(ctx,
// constant<morton_shape{{.layout = texel_layout::morton_bits}, 256, 32, 8}>{}) is the sm90 8x4 direct read, compiled.
template <class T, class Ctx, class Shape>
TILESIM_HOST_DEVICE void morton_read(Ctx& ctx, const Shape& shape) {
  const morton_shape& s = value_of(shape);
  require_launch_shape(ctx, s.threads, s.warp_size, s.grid);
  if constexpr (is_constant_v<Shape>) {
    static_assert(morton_shape_valid<value_of(Shape{})>);
    constexpr bool direct = value_of(Shape{}).params.staging == texel_staging::direct;
    with_texel_layout(shape, [&](const auto& layout) {
      if constexpr (direct)
        morton_read_direct<T>(ctx, shape, layout);
      else
        morton_read_staged<T>(ctx, shape, layout);
    });
  } else {
    require(s.check());
    with_texel_layout(shape, [&](const auto& layout) {
      if (s.params.staging == texel_staging::direct)
        morton_read_direct<T>(ctx, shape, layout);
      else
        morton_read_staged<T>(ctx, shape, layout);
    });
  }
}

// The run-time form from the parameters alone: morton_read<float>(ctx, morton_params{}) on sm90, grid 8, block 256.
template <class T, class Ctx>
TILESIM_HOST_DEVICE void morton_read(Ctx& ctx, const morton_params& p) {
  morton_read<T>(ctx, morton_shape_of(ctx, p));
}

}  // namespace tilesim::examples
