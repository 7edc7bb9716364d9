// tilesim/examples/adapters/morton_f32.hpp: the Morton texel reads (kernel/morton: morton_read<float>) as a
// catalogue program.
//
// DEFINITION. Points: examples/morton's sm90 cases only. Inputs: the image stored in the point's texel layout
// (unit_float, never the poison -1.0), output -1. Check: out(y, x) == in[layout(y, x)], bit for bit.
//
// WORKED EXAMPLE. A mismatch reads "texel (3, 17): expected 0.25, got -1".
//
// INVARIANTS: the input never holds -1.0, so a texel the kernel did not write always mismatches.
#pragma once

#include <bit>
#include <cstdio>

#include "examples/morton/morton_variants.hpp"
#include "gpu/crosscheck/adapter_kit.hpp"
#include "gpu/kernels/programs/morton_f32.hpp"

namespace tilesim::examples::adapters {

// The parameters of a Morton point.
inline const morton_params& morton_of(const gpu::crosscheck_point& p) { return p.params.as<morton_params>(); }

inline const gpu::program_adapter morton_f32_program = {
    .name = "morton_f32",
    .kernel = "morton_f32_kernel",
    .builtin_points = [] { return std::vector<gpu::crosscheck_point>{}; },
    .make_inputs =
        [](const gpu::crosscheck_point& p, std::mt19937_64& g, gpu::point_inputs& in) {
          const morton_params& m = morton_of(p);
          std::vector<float> stored(static_cast<std::size_t>(m.height * m.width));
          for (float& x : stored) {
            x = gpu::unit_float(g);
            if (x == -1.0f) x = 0.5f;  // never the poison
          }
          in.buffers = {gpu::bytes_of(stored), gpu::bytes_of(std::vector<float>(stored.size(), -1.0f))};
          in.output_slot = m.output;
          in.output_rows = m.height;
          in.output_cols = m.width;
        },
    .simulate =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const sim::launch& l, gpu::simulated& s) {
          sim::global_memory mem;
          mem.add<float>("in", gpu::typed<float>(in.buffers[0]));
          mem.add<float>("out", gpu::typed<float>(in.buffers[1]));
          s.run = gpu::simulate_entry<gpu::compiled::morton_f32_entry>(
              morton_shape{morton_of(p), p.block, p.wave_size, p.grid}, l, std::move(mem));
          s.buffers = {gpu::bytes_of(s.run.memory.get<float>(0)), gpu::bytes_of(s.run.memory.get<float>(1))};
        },
    .check_output =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const std::vector<gpu::byte_buffer>& buffers,
           const gpu::simulated*) {  // out(y, x) == in[layout(y, x)], bit for bit
          gpu::output_check c;
          const gpu::byte_buffer& out = buffers.at(static_cast<std::size_t>(in.output_slot));
          const morton_params& m = morton_of(p);
          const std::vector<float> stored = gpu::typed<float>(in.buffers[0]), got = gpu::typed<float>(out);
          c.method = "bit-exact: out(y, x) == in[layout(y, x)]";
          c.compared = m.height * m.width;
          with_texel_layout(m.layout, m.height, m.width, m.tile, [&](const auto& layout) {
            for (index_t y = 0; y < m.height; ++y)
              for (index_t x = 0; x < m.width; ++x) {
                const float want = stored[static_cast<std::size_t>(layout.calculate_offset({y, x}))];
                const float have = got[static_cast<std::size_t>(y * m.width + x)];
                if (std::bit_cast<std::uint32_t>(want) == std::bit_cast<std::uint32_t>(have)) continue;
                if (c.mismatches++ == 0) {
                  char buf[128];
                  std::snprintf(buf, sizeof buf, "texel (%lld, %lld): expected %.9g, got %.9g", static_cast<long long>(y),
                                static_cast<long long>(x), want, have);
                  c.first_mismatch = buf;
                }
              }
          });
          return c;
        },
    .params_to_json =
        [](const gpu::crosscheck_point& p, util::json_value& params) {
          const morton_params& m = morton_of(p);
          params.set("height", static_cast<long long>(m.height));
          params.set("width", static_cast<long long>(m.width));
          params.set("tile", static_cast<long long>(m.tile));
          params.set("footprint_rows", static_cast<long long>(m.footprint_rows));
          params.set("footprint_cols", static_cast<long long>(m.footprint_cols));
          params.set("layout", static_cast<int>(m.layout));
          params.set("staging", static_cast<int>(m.staging));
        },
    .params_from_json =
        [](const util::json_value&, gpu::crosscheck_point&) {
          throw util::json_error("a morton_f32 point is an example case: its recording names the example");
        },
    .has_compiled_kernel =
        [](const gpu::crosscheck_point& p) {
          return gpu::entry_has<gpu::compiled::morton_f32_entry>(morton_shape{morton_of(p), p.block, p.wave_size, p.grid});
        },
    .run_on_device =
        [](const gpu::crosscheck_point& p, const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) {
          return gpu::run_entry_on_device<gpu::compiled::morton_f32_entry>(
              morton_shape{morton_of(p), l.block, gpu::compiled::sm90_wave, l.grid}, l, std::move(b));
        },
    .lds_bytes = nullptr,
    .iterations = nullptr,
    .with_iterations = nullptr,
};

}  // namespace tilesim::examples::adapters
