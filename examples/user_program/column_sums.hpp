// tilesim/examples/user_program/column_sums.hpp: a user's own tile program, outside the built-in catalogue.
//
// DEFINITION. out[b*64 + c] = sum over r of in[(b*64 + r)*64 + c]: the column sums of 64 x 64 fp32 tiles, one
// workgroup of 256 threads per tile, as a user writes it from docs/programming-guide.md alone:
//   1. "tile load" / "tile store": the tile through CK's warp-raked window (4 floats per thread and access)
//      into an LDS tile, row-major or CuTe Swizzle<2,3,7> (offset bits 10-11 = row / 16 XOR-ed into bits 3-4)
//   2. barrier; "column read": thread t sums column t / 4 over rows 16 (t % 4) .. + 15 of the LDS tile
//   3. "partial store": the partial sum into an LDS strip of 4 x 64; barrier
//   4. "final read" / "sum store": threads 0..63 add their column's 4 partials and store the sum.
//
// WORKED EXAMPLE. Tile 0 with in[r*64 + c] = c: out[c] = 64c. A column read of warp 0 takes columns 0..7, lanes
// 4c .. 4c + 3 on rows 0, 16, 32, 48 (then the next row of each strip): row-major puts those four rows 1024
// floats apart, on one bank: 4-way (512 ideal wavefronts become 2048 on sm90). The swizzle XORs row / 16 into
// the bank's bits 3-4, so the four rows land on banks c, c+8, c+16, c+24: ideal; the float4 tile stores stay
// ideal too (two rows per warp, the same row / 16). The partial store is 4-way on both (lanes 4c .. 4c + 3
// write partials 64 floats apart): left as first written, for the report to show.
//
// INVARIANTS: touches nothing but the context and spec/ (it compiles as a kernel: column_sums_kernel.cu); the
// sums are exact for integer-valued inputs below 2^18 (every partial and the total are exact in fp32).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/user/gpu_kernel.hpp"
#include "kernel/model/program.hpp"
#include "spec/distribution/distributed_tensor.hpp"
#include "spec/distribution/patterns.hpp"
#include "spec/layouts/cute_swizzle.hpp"
#include "spec/constant.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/window/static_tile_window.hpp"

namespace tilesim::examples {

// The LDS tile's two layouts (top (row, col) -> float offset).
inline constexpr auto column_sums_row_major = make_row_major_descriptor(64, 64);
inline constexpr auto column_sums_swizzled = make_cute_swizzle_descriptor(2, 3, 7, 64, 64);

// Grid: the tiles (workgroups) of a launch, a compile-time constant like every length here, so the kernel's
// encodings, descriptors and windows fold to constants (spec/constant.hpp; no local memory).
template <index_t Grid>
struct column_sums {
  int in = 0, out = 1;     // global slots: (Grid*64) x 64 floats in, Grid*64 floats out
  bool swizzled = false;   // LDS tile: row-major, or CuTe Swizzle<2,3,7> over the floats

  static constexpr index_t rows = 64, cols = 64, threads = 256, vector = 4, strips = threads / cols;
  static constexpr auto global_layout = make_naive_descriptor<2>({Grid * rows, cols}, {cols, 1}, cols, 1);

  template <class Ctx>
  TILESIM_HOST_DEVICE void operator()(Ctx& ctx) const {
    if (ctx.warp_size() == 64)
      with_layout<64>(ctx);
    else
      with_layout<32>(ctx);
  }

 private:
  template <index_t Wave, class Ctx>
  TILESIM_HOST_DEVICE void with_layout(Ctx& ctx) const {
    if (swizzled)
      run<Wave>(ctx, constant<column_sums_swizzled>{});
    else
      run<Wave>(ctx, constant<column_sums_row_major>{});
  }

  template <index_t Wave, class Ctx, class Layout>
  TILESIM_HOST_DEVICE void run(Ctx& ctx, const Layout& layout) const {
    require_launch_shape(ctx, threads, Wave, Grid);
    constexpr tile_distribution_encoding raked = make_warp_raked_encoding(threads, Wave, rows, cols, vector);
    const auto in_view = make_tensor_view(constant<global_layout>{}, global_buffer<float>(ctx, in), address_space::global);
    using lds_layout = decltype(as_descriptor(layout));  // fixed_descriptor: offsets are compile-time functions
    const auto tile_buffer = lds_buffer<float>(ctx, lds_layout::element_space_size);
    const auto tile = make_tensor_view(layout, tile_buffer, address_space::lds);
    const auto partials = lds_buffer<float>(ctx, strips * cols);
    const auto sums = global_buffer<float>(ctx, out);
    const auto who = partition_index(raked, ctx.warp(), ctx.lane());
    auto staged = make_distributed_tensor<float, raked>();
    ctx.label("tile load");
    make_tile_window(in_view, {rows, cols}, {ctx.block_id() * rows, 0}, constant<raked>{}, who).load(staged);
    ctx.label("tile store");
    make_tile_window(tile, {rows, cols}, {0, 0}, constant<raked>{}, who).store(staged);
    ctx.barrier();
    const index_t t = ctx.thread_id(), c = t / strips, strip = t % strips, strip_rows = rows / strips;
    float sum = 0;
    ctx.label("column read");
    for (index_t r = strip * strip_rows; r < (strip + 1) * strip_rows; ++r)  // one FADD per element, after its load
      sum += load_element(tile_buffer, lds_layout::calculate_offset({r, c})), alu(ctx, alu_op::fma, 1);
    // (arithmetic stated where the SASS does it: stated once after the loop, it hid all but one load latency)
    ctx.label("partial store");
    store_element(partials, strip * cols + c, sum);
    ctx.barrier();
    if (t < cols) {
      float total = 0;
      ctx.label("final read");
      for (index_t s = 0; s < strips; ++s) total += load_element(partials, s * cols + t), alu(ctx, alu_op::fma, 1);
      // (as above: one FADD per partial, after its load)
      ctx.label("sum store");
      store_element(sums, ctx.block_id() * cols + t, total);
    }
  }
};

// Inputs for `grid` tiles: integers 0..63 from a 64-bit LCG seeded with `seed` (exact sums in fp32); what the
// cross-check (column_sums_crosscheck.cpp) ran with, and what its replay rebuilds from the recorded seed.
inline std::vector<float> column_sums_inputs(index_t grid, std::uint64_t seed) {
  std::vector<float> v(static_cast<std::size_t>(grid) * 64 * 64);
  std::uint64_t x = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (float& f : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    f = static_cast<float>((x >> 33) % 64);
  }
  return v;
}

}  // namespace tilesim::examples

// The launches the examples use: 4 tiles (the GPU cross-check) and 3 (the simulator's tests).
TILESIM_DECLARE_GPU_KERNEL(tilesim::examples::column_sums<4>);
TILESIM_DECLARE_GPU_KERNEL(tilesim::examples::column_sums<3>);
