// tilesim/examples/morton/morton_variants.hpp: the Morton example's cases, host runner and variants.
//
// DEFINITION. morton_cases() lists the parameter sets the example shows (the GPU cross-check reuses them):
// a 64 x 64 fp32 image read by 8x4 footprints (rows x cols) on sm90 and 8x8 on gfx942, stored row-major,
// Morton-tiled from transforms or Morton-tiled by bits (T = 8), written directly or staged through a
// Z-ordered LDS band; every case is grid 8 (one band of footprint rows each) x block 256. The list is the
// constexpr morton_case_table (kernel/morton/morton_shapes.hpp), so a case's launch can be a compile-time shape
// (morton_case_shape, the compiled kernels' constant<morton_shape{...}>).
// run_morton(launch, params, image) stores the row-major `image` in params.layout (global slot 0, "in"), an
// output of the same size filled with -1 (slot 1, "out"), and runs morton_read<float>. morton_variants()
// runs every case and checks output == image. run_morton(launch, constant<S>{}, image) is the same run
// through the compiled form (the test checks it records the same accesses).
//
// WORKED EXAMPLE.
//   const morton_case& c = morton_cases()[1];                   // "morton T=8 (transforms), 8x4 reads", sm90
//   sim::run_result r = run_morton(launch_on(c.arch, c.grid, c.block), c.params, morton_image(64, 64));
//   r.memory.get<float>(1) == morton_image(64, 64);             // the output is the row-major image
//
// INVARIANTS: morton_image never holds the poison -1; the runner throws std::invalid_argument when the image
// size is not height * width, sim::run_error for what the program rejects (its rules name the values).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "examples/example.hpp"
#include "kernel/morton/morton.hpp"
#include "kernel/morton/morton_shapes.hpp"

namespace tilesim::examples {

struct morton_case {
  std::string name;   // "row-major, 8x4 reads"
  std::string arch;   // "sm90" or "gfx942"
  morton_params params;
  int grid = 8;
  int block = 256;
};

// The example's cases (about 8): layouts x staging on sm90 and gfx942.
std::vector<morton_case> morton_cases();

// The row-major test image: texel (y, x) = y * width + x (exact in float below 2^24).
std::vector<float> morton_image(index_t height, index_t width);

// The run's memory: `image` (row-major, height * width texels) stored in params.layout as slot 0 ("in"), the
// output filled with -1 as slot 1 ("out"); params.input / params.output are set to those slots.
sim::global_memory morton_memory(morton_params& params, const std::vector<float>& image);

// Runs morton_read<float> over `image` (row-major, height * width texels) stored in params.layout.
sim::run_result run_morton(const sim::launch& config, morton_params params, const std::vector<float>& image);

// The same run through the compiled form: morton_read<float>(ctx, constant<S>{}) (S's slots must be 0 and 1).
template <morton_shape S>
sim::run_result run_morton(const sim::launch& config, constant<S>, const std::vector<float>& image) {
  morton_params p = S.params;
  sim::global_memory memory = morton_memory(p, image);
  if (!(p == S.params)) throw std::invalid_argument("morton: a compiled shape must read slot 0 and write slot 1");
  return sim::run(config, std::move(memory), [](sim::thread_context& ctx) { morton_read<float>(ctx, constant<S>{}); });
}

// "output == image", or the first differing texel: "out(3, 5) = -1, expected 197".
std::string compare_morton_output(const morton_params& params, const std::vector<float>& output,
                                  const std::vector<float>& image, bool& passed);

// One variant per case, example "morton".
std::vector<variant> morton_variants();
// Its sm90 cases as GPU cross-check points (morton_f32): "example morton: CASE".
std::vector<gpu::crosscheck_point> morton_crosscheck_points();

}  // namespace tilesim::examples
