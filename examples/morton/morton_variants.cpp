// tilesim/examples/morton/morton_variants.cpp: see morton_variants.hpp.
#include "examples/morton/morton_variants.hpp"

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "examples/example_point.hpp"

namespace tilesim::examples {

std::vector<morton_case> morton_cases() {
  std::vector<morton_case> out;
  for (const morton_case_def& c : morton_case_table) out.push_back({c.name, c.arch, c.params, c.grid, c.block});
  return out;
}

std::vector<float> morton_image(index_t height, index_t width) {
  std::vector<float> v(static_cast<std::size_t>(height * width));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  return v;
}

sim::global_memory morton_memory(morton_params& p, const std::vector<float>& image) {
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
  return mem;
}

sim::run_result run_morton(const sim::launch& config, morton_params p, const std::vector<float>& image) {
  sim::global_memory mem = morton_memory(p, image);
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

std::vector<gpu::crosscheck_point> morton_crosscheck_points() {
  std::vector<gpu::crosscheck_point> v;
  for (const morton_case& c : morton_cases())
    if (c.arch == "sm90") {
      v.push_back(example_point("morton_f32", "morton", c.name, c.grid, c.block, c.params));
    }
  return v;
}

}  // namespace tilesim::examples
