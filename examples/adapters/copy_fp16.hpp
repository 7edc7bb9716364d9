// tilesim/examples/adapters/copy_fp16.hpp: the fp16 copy (kernel/copy: copy_tile<std::uint16_t>) as a catalogue program.
//
// DEFINITION. Points: 64 x 32 v8 in every LDS layout, 64 x 64 v8 row-major / ck_xor / cute_swizzle (grid 64,
// lanes_down_rows reads), and the examples' fp16 cases (lds-index-swap, cute-swizzle, synthesized). Inputs:
// random 16-bit patterns, never the output's poison 0xFFFF. Check: the output equals the input bit for bit.
//
// WORKED EXAMPLE. copy_fp16_program.builtin_points()[2].name == "copy fp16 64x32 v8 ck_xor" (copy_fp16_kernel<2>).
//
// INVARIANTS: the input is never 0xFFFF, so an element the kernel did not write always mismatches.
#pragma once

#include <string>

#include "examples/adapters/copy_common.hpp"
#include "gpu/kernels/programs/copy_fp16.hpp"

namespace tilesim::examples::adapters {

// The built-in copy point of `program` ("copy_fp16", "copy_fp32"; named "copy fp16 ..." after its element):
// rows x cols, `vector` elements per access, lanes_down_rows read, grid 64.
inline gpu::crosscheck_point copy_point(const char* program, const char* element, index_t rows, index_t cols,
                                        index_t vector, programs::copy_lds_layout layout) {
  gpu::crosscheck_point p;
  p.program = program;
  programs::copy_params q{};
  q.rows = rows;
  q.cols = cols;
  q.vector = vector;
  q.layout = layout;
  q.read = programs::copy_read_order::lanes_down_rows;
  p.params = q;
  p.grid = 64;
  p.name = std::string("copy ") + element + " " + std::to_string(rows) + "x" + std::to_string(cols) + " v" +
           std::to_string(vector) + " " + name_of(layout);
  return p;
}

// The parameters of a copy point (copy_fp16, copy_fp32).
inline const programs::copy_params& copy_of(const gpu::crosscheck_point& p) { return p.params.as<programs::copy_params>(); }

inline const gpu::program_adapter copy_fp16_program = {
    .name = "copy_fp16",
    .kernel = "copy_fp16_kernel",
    .builtin_points =
        [] {
          using programs::copy_lds_layout;
          std::vector<gpu::crosscheck_point> v;
          for (copy_lds_layout l : {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor,
                                    copy_lds_layout::cute_swizzle})
            v.push_back(copy_point("copy_fp16", "fp16", 64, 32, 8, l));
          for (copy_lds_layout l : {copy_lds_layout::row_major, copy_lds_layout::ck_xor, copy_lds_layout::cute_swizzle})
            v.push_back(copy_point("copy_fp16", "fp16", 64, 64, 8, l));
          return v;
        },
    .make_inputs =
        [](const gpu::crosscheck_point& p, std::mt19937_64& g, gpu::point_inputs& in) {
          const index_t count = static_cast<index_t>(p.grid) * copy_of(p).rows * copy_of(p).cols;
          std::vector<std::uint16_t> x(static_cast<std::size_t>(count));
          for (auto& e : x) e = static_cast<std::uint16_t>(g() % 0xFFFFu);  // never the poison 0xFFFF
          in.buffers = {gpu::bytes_of(x), gpu::bytes_of(std::vector<std::uint16_t>(x.size(), 0xFFFFu))};
          copy_output_geometry(p, copy_of(p), in);
        },
    .simulate =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const sim::launch& l, gpu::simulated& s) {
          sim::global_memory mem;
          mem.add<std::uint16_t>("in", gpu::typed<std::uint16_t>(in.buffers[0]));
          mem.add<std::uint16_t>("out", gpu::typed<std::uint16_t>(in.buffers[1]));
          s.run = gpu::simulate_entry<gpu::compiled::copy_fp16_entry>(
              programs::copy_shape{copy_of(p), p.block, p.wave_size, p.grid}, l, std::move(mem));
          s.buffers = {gpu::bytes_of(s.run.memory.get<std::uint16_t>(0)),
                       gpu::bytes_of(s.run.memory.get<std::uint16_t>(1))};
        },
    .check_output =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const std::vector<gpu::byte_buffer>& buffers,
           const gpu::simulated* sim) {
          return check_copy_bits(p, in, buffers, sim, copy_of(p), 2, in.buffers.at(static_cast<std::size_t>(copy_of(p).input)));
        },
    .params_to_json = [](const gpu::crosscheck_point& p, util::json_value& params) { copy_params_to_json(copy_of(p), params); },
    .params_from_json = [](const util::json_value& q, gpu::crosscheck_point& p) { p.params = copy_params_from_json(q); },
    .has_compiled_kernel =
        [](const gpu::crosscheck_point& p) {
          return gpu::entry_has<gpu::compiled::copy_fp16_entry>(programs::copy_shape{copy_of(p), p.block, p.wave_size, p.grid});
        },
    .run_on_device =
        [](const gpu::crosscheck_point& p, const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) {
          return gpu::run_entry_on_device<gpu::compiled::copy_fp16_entry>(
              programs::copy_shape{copy_of(p), l.block, gpu::compiled::sm90_wave, l.grid}, l, std::move(b));
        },
    .lds_bytes = [](const gpu::crosscheck_point& p) { return copy_lds_bytes(copy_of(p), 2); },
    .iterations = nullptr,
    .with_iterations = nullptr,
};

}  // namespace tilesim::examples::adapters
