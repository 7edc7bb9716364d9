// tilesim/examples/adapters/transpose_f32.hpp: the scalar fp32 transpose (kernel/transpose: every access one
// element through load_element / store_element) as a catalogue program.
//
// DEFINITION. Points: n x n for n = 64, 256, 1024 (32 x 32 tiles, 256 threads). Inputs: unit_float, never the
// poison -1.0. Check: out[j][i] == in[i][j], bit for bit.
//
// WORKED EXAMPLE. transpose_f32_program.builtin_points()[1]: "transpose fp32 256x256 scalar", grid 64.
//
// INVARIANTS: the input never holds -1.0, so an element the kernel did not write always mismatches.
#pragma once

#include <bit>

#include "gpu/crosscheck/adapter_kit.hpp"
#include "gpu/kernels/programs/transpose_f32.hpp"

namespace tilesim::examples::adapters {

// The parameters of a transpose point.
inline const programs::transpose_params& transpose_of(const gpu::crosscheck_point& p) {
  return p.params.as<programs::transpose_params>();
}

inline const gpu::program_adapter transpose_f32_program = {
    .name = "transpose_f32",
    .kernel = "transpose_f32_kernel",
    .builtin_points =
        [] {
          std::vector<gpu::crosscheck_point> v;
          for (index_t n : {64, 256, 1024}) {  // the scalar program: every access one element
            gpu::crosscheck_point p;
            p.program = "transpose_f32";
            programs::transpose_params t{};
            t.n = n;
            p.params = t;
            p.grid = static_cast<int>(programs::transpose_workgroups(t));
            p.name = "transpose fp32 " + std::to_string(n) + "x" + std::to_string(n) + " scalar";
            v.push_back(p);
          }
          return v;
        },
    .make_inputs =
        [](const gpu::crosscheck_point& p, std::mt19937_64& g, gpu::point_inputs& in) {  // random finite floats, output -1
          const programs::transpose_params& t = transpose_of(p);
          std::vector<float> x(static_cast<std::size_t>(t.n * t.n));
          for (float& e : x) {
            e = gpu::unit_float(g);
            if (e == -1.0f) e = 0.25f;  // never the poison
          }
          in.buffers = {gpu::bytes_of(x), gpu::bytes_of(std::vector<float>(x.size(), -1.0f))};
          in.output_slot = t.output;
          in.output_rows = in.output_cols = t.n;
        },
    .simulate =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const sim::launch& l, gpu::simulated& s) {
          sim::global_memory mem;
          mem.add<float>("in", gpu::typed<float>(in.buffers[0]));
          mem.add<float>("out", gpu::typed<float>(in.buffers[1]));
          s.run = gpu::simulate_entry<gpu::compiled::transpose_f32_entry>(
              programs::transpose_shape{transpose_of(p), p.block, p.wave_size}, l, std::move(mem));
          s.buffers = {gpu::bytes_of(s.run.memory.get<float>(0)), gpu::bytes_of(s.run.memory.get<float>(1))};
        },
    .check_output =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const std::vector<gpu::byte_buffer>& buffers,
           const gpu::simulated* sim) {  // out[j][i] == in[i][j], bit for bit
          gpu::output_check c;
          const gpu::byte_buffer& out = buffers.at(static_cast<std::size_t>(in.output_slot));
          const index_t n = transpose_of(p).n, side = programs::transpose_tile_side;
          const std::vector<float> x = gpu::typed<float>(in.buffers[0]), y = gpu::typed<float>(out);
          c.method = "bit-exact: out[j][i] == in[i][j]";
          c.compared = n * n;
          for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < n; ++j) {
              const float want = x[static_cast<std::size_t>(i * n + j)], have = y[static_cast<std::size_t>(j * n + i)];
              if (std::bit_cast<std::uint32_t>(want) == std::bit_cast<std::uint32_t>(have)) continue;
              if (c.mismatches++ == 0)
                c.first_mismatch = gpu::element_at(p, in, sim, j * n + i, 4, side, side, n / side) + ": expected " +
                                   gpu::hex(std::bit_cast<std::uint32_t>(want), 8) + ", got " +
                                   gpu::hex(std::bit_cast<std::uint32_t>(have), 8);
            }
          return c;
        },
    .params_to_json =
        [](const gpu::crosscheck_point& p, util::json_value& params) {
          params.set("n", static_cast<long long>(transpose_of(p).n));
        },
    .params_from_json =
        [](const util::json_value& q, gpu::crosscheck_point& p) {
          programs::transpose_params t{};
          t.n = static_cast<index_t>(q["n"].number());
          p.params = t;
        },
    .has_compiled_kernel =
        [](const gpu::crosscheck_point& p) {
          return gpu::entry_has<gpu::compiled::transpose_f32_entry>(
              programs::transpose_shape{transpose_of(p), p.block, p.wave_size});
        },
    .run_on_device =
        [](const gpu::crosscheck_point& p, const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) {
          return gpu::run_entry_on_device<gpu::compiled::transpose_f32_entry>(
              programs::transpose_shape{transpose_of(p), l.block, gpu::compiled::sm90_wave}, l, std::move(b));
        },
    .lds_bytes = nullptr,
    .iterations = nullptr,
    .with_iterations = nullptr,
};

}  // namespace tilesim::examples::adapters
