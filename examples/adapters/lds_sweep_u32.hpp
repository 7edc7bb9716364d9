// tilesim/examples/adapters/lds_sweep_u32.hpp: the LDS-bound sweep (kernel/lds_sweep: lds_sweep<std::uint32_t, 4>)
// as a catalogue program.
//
// DEFINITION. Points: a 32 x 32 u32 tile, vector 4, lanes_down_rows, grid 8, in every LDS layout, 1024
// iterations (tilesim-gpu --sweep-iterations replaces the count). Inputs: random words whose product with the
// iteration count is never the poison 0xFFFFFFFF. Check: the output equals input * iterations (mod 2^32), bit
// for bit, as a copy's check.
//
// WORKED EXAMPLE. lds_sweep_u32_program.builtin_points()[3].name == "lds_sweep u32 32x32 v4 cute_swizzle x1024".
//
// INVARIANTS: the iteration count is a run-time kernel argument; the tile is the compiled shape.
#pragma once

#include "examples/adapters/copy_common.hpp"
#include "gpu/kernels/programs/lds_sweep_u32.hpp"

namespace tilesim::examples::adapters {

// The parameters of a sweep point.
inline const programs::lds_sweep_params& sweep_of(const gpu::crosscheck_point& p) {
  return p.params.as<programs::lds_sweep_params>();
}

// The point's name with its iteration count replaced: "lds_sweep u32 32x32 v4 padded x1024" -> "... x5".
inline std::string with_iterations_named(const std::string& name, long long iterations) {
  return name.substr(0, name.rfind(" x") + 2) + std::to_string(iterations);
}

// The sweep point in `layout` with `iterations` rounds.
inline gpu::crosscheck_point sweep_point(programs::copy_lds_layout layout, index_t iterations) {
  gpu::crosscheck_point p;
  p.program = "lds_sweep_u32";
  programs::lds_sweep_params s{};
  s.tile.rows = 32;
  s.tile.cols = 32;
  s.tile.vector = 4;
  s.tile.layout = layout;
  s.tile.read = programs::copy_read_order::lanes_down_rows;
  s.iterations = iterations;
  p.params = s;
  p.grid = 8;
  p.name = "lds_sweep u32 32x32 v4 " + std::string(name_of(layout)) + " x" + std::to_string(iterations);
  return p;
}

inline const gpu::program_adapter lds_sweep_u32_program = {
    .name = "lds_sweep_u32",
    .kernel = "lds_sweep_u32_kernel",
    .builtin_points =
        [] {
          using programs::copy_lds_layout;
          std::vector<gpu::crosscheck_point> v;
          for (copy_lds_layout l : {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor,
                                    copy_lds_layout::cute_swizzle})
            v.push_back(sweep_point(l, 1024));
          return v;
        },
    .make_inputs =
        [](const gpu::crosscheck_point& p, std::mt19937_64& g, gpu::point_inputs& in) {
          const programs::copy_params& tile = sweep_of(p).tile;
          const index_t count = static_cast<index_t>(p.grid) * tile.rows * tile.cols;
          // Never an element whose expected output (itself times the iterations) is the poison 0xFFFFFFFF.
          const auto times = static_cast<std::uint32_t>(sweep_of(p).iterations);
          std::vector<std::uint32_t> x(static_cast<std::size_t>(count));
          for (auto& e : x) {
            do e = static_cast<std::uint32_t>(g());
            while (static_cast<std::uint32_t>(e * times) == 0xFFFFFFFFu);
          }
          in.buffers = {gpu::bytes_of(x), gpu::bytes_of(std::vector<std::uint32_t>(x.size(), 0xFFFFFFFFu))};
          copy_output_geometry(p, tile, in);
        },
    .simulate =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const sim::launch& l, gpu::simulated& s) {
          sim::global_memory mem;
          mem.add<std::uint32_t>("in", gpu::typed<std::uint32_t>(in.buffers[0]));
          mem.add<std::uint32_t>("out", gpu::typed<std::uint32_t>(in.buffers[1]));
          s.run = gpu::simulate_entry<gpu::compiled::lds_sweep_u32_entry>(
              programs::copy_shape{sweep_of(p).tile, p.block, p.wave_size, p.grid}, l, std::move(mem), sweep_of(p).iterations);
          s.buffers = {gpu::bytes_of(s.run.memory.get<std::uint32_t>(0)),
                       gpu::bytes_of(s.run.memory.get<std::uint32_t>(1))};
        },
    .check_output =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const std::vector<gpu::byte_buffer>& buffers,
           const gpu::simulated* sim) {  // the sweep: in * iterations, then as a copy
          const std::vector<std::uint32_t> x = gpu::typed<std::uint32_t>(in.buffers[0]);
          std::vector<std::uint32_t> y(x.size());
          for (std::size_t i = 0; i < x.size(); ++i)
            y[i] = static_cast<std::uint32_t>(x[i] * static_cast<std::uint32_t>(sweep_of(p).iterations));
          std::vector<gpu::byte_buffer> expected = in.buffers;
          expected[0] = gpu::bytes_of(y);
          gpu::output_check c = check_copy_bits(p, in, buffers, sim, sweep_of(p).tile, 4,
                                                expected.at(static_cast<std::size_t>(sweep_of(p).tile.input)));
          c.method = "bit-exact against input * iterations (mod 2^32)";
          return c;
        },
    .params_to_json =
        [](const gpu::crosscheck_point& p, util::json_value& params) {
          params.set("iterations", static_cast<long long>(sweep_of(p).iterations));
          copy_params_to_json(sweep_of(p).tile, params);
        },
    .params_from_json =
        [](const util::json_value& q, gpu::crosscheck_point& p) {
          programs::lds_sweep_params s{};
          s.iterations = static_cast<index_t>(q["iterations"].number());
          s.tile = copy_params_from_json(q);
          p.params = s;
        },
    .has_compiled_kernel =
        [](const gpu::crosscheck_point& p) {
          return gpu::entry_has<gpu::compiled::lds_sweep_u32_entry>(
              programs::copy_shape{sweep_of(p).tile, p.block, p.wave_size, p.grid});
        },
    .run_on_device =
        [](const gpu::crosscheck_point& p, const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) {
          return gpu::run_entry_on_device<gpu::compiled::lds_sweep_u32_entry>(
              programs::copy_shape{sweep_of(p).tile, l.block, gpu::compiled::sm90_wave, l.grid}, l, std::move(b),
              sweep_of(p).iterations);
        },
    .lds_bytes = [](const gpu::crosscheck_point& p) { return copy_lds_bytes(sweep_of(p).tile, 4); },
    .iterations = [](const gpu::crosscheck_point& p) { return static_cast<long long>(sweep_of(p).iterations); },
    .with_iterations =
        [](const gpu::crosscheck_point& p, long long n) {
          gpu::crosscheck_point q = p;
          q.name = with_iterations_named(p.name, n);
          q.params.as<programs::lds_sweep_params>().iterations = static_cast<index_t>(n);
          return q;
        },
};

}  // namespace tilesim::examples::adapters
