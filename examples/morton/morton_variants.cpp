// tilesim/examples/morton/morton_variants.cpp: see morton_variants.hpp.
#include "examples/morton/morton_variants.hpp"

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace tilesim::examples {

std::vector<morton_case> morton_cases() {
  // sm90: 32 lanes -> 8 rows x 4 cols per wave, 8 waves per band of 16 footprints: 2 passes.
  // gfx942: 64 lanes -> 8 x 8 per wave, 4 waves per band of 8 footprints: 2 passes.
  auto make = [](texel_layout layout, texel_staging staging, index_t cols) {
    morton_params p;
    p.height = p.width = 64;
    p.tile = 8;
    p.footprint_rows = 8;
    p.footprint_cols = cols;
    p.layout = layout;
    p.staging = staging;
    return p;
  };
  using L = texel_layout;
  using S = texel_staging;
  return {
      {"row-major, 8x4 reads", "sm90", make(L::row_major, S::direct, 4), 8, 256},
      {"morton T=8 (transforms), 8x4 reads", "sm90", make(L::morton_transforms, S::direct, 4), 8, 256},
      {"morton T=8 (bits), 8x4 reads", "sm90", make(L::morton_bits, S::direct, 4), 8, 256},
      {"morton T=8 (transforms), 8x4 reads, LDS in Z order", "sm90", make(L::morton_transforms, S::lds_morton, 4), 8,
       256},
      {"row-major, 8x8 reads", "gfx942", make(L::row_major, S::direct, 8), 8, 256},
      {"morton T=8 (transforms), 8x8 reads", "gfx942", make(L::morton_transforms, S::direct, 8), 8, 256},
      {"morton T=8 (bits), 8x8 reads", "gfx942", make(L::morton_bits, S::direct, 8), 8, 256},
      {"morton T=8 (bits), 8x8 reads, LDS in Z order", "gfx942", make(L::morton_bits, S::lds_morton, 8), 8, 256},
  };
}

std::vector<float> morton_image(index_t height, index_t width) {
  std::vector<float> v(static_cast<std::size_t>(height * width));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  return v;
}

sim::run_result run_morton(const sim::launch& config, morton_params p, const std::vector<float>& image) {
  const bool sane = p.height >= 1 && p.width >= 1 && p.height <= (index_t{1} << 24) / p.width;
  if (!sane || static_cast<index_t>(image.size()) != p.height * p.width)
    throw std::invalid_argument("morton: the image holds " + std::to_string(image.size()) +
                                " texels, height * width must match and be in [1, 2^24] (height = " +
                                std::to_string(p.height) + ", width = " + std::to_string(p.width) + ")");
  std::vector<float> stored(image.size(), -1.0f);
  with_texel_layout(p.layout, p.height, p.width, p.tile, [&](const auto& layout) {
    for (index_t y = 0; y < p.height; ++y)
      for (index_t x = 0; x < p.width; ++x)
        stored[static_cast<std::size_t>(layout.calculate_offset({y, x}))] =
            image[static_cast<std::size_t>(y * p.width + x)];
  });
  sim::global_memory mem;
  p.input = mem.add<float>("in", stored);
  p.output = mem.add<float>("out", p.height * p.width, -1.0f);
  return sim::run(config, std::move(mem), [&p](sim::thread_context& ctx) { morton_read<float>(ctx, p); });
}

std::string compare_morton_output(const morton_params& p, const std::vector<float>& output,
                                  const std::vector<float>& image, bool& passed) {
  passed = false;
  if (output.size() != image.size())
    return "output holds " + std::to_string(output.size()) + " texels, image " + std::to_string(image.size());
  for (std::size_t i = 0; i < image.size(); ++i)
    if (output[i] != image[i]) {
      std::ostringstream s;
      s << "out(" << static_cast<index_t>(i) / p.width << ", " << static_cast<index_t>(i) % p.width
        << ") = " << output[i] << ", expected " << image[i];
      return s.str();
    }
  passed = true;
  return "output == image";
}

std::vector<variant> morton_variants() {
  std::vector<variant> out;
  for (const morton_case& c : morton_cases())
    out.push_back({"morton", c.name, c.arch, [c]() {
                     const std::vector<float> image = morton_image(c.params.height, c.params.width);
                     outcome o;
                     o.run = run_morton(launch_on(c.arch, c.grid, c.block), c.params, image);
                     o.check = compare_morton_output(c.params, o.run.memory.get<float>(1), image, o.passed);
                     return o;
                   }});
  return out;
}

}  // namespace tilesim::examples
