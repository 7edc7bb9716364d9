// tilesim/examples/adapters/copy_fp32.hpp: the fp32 copy (kernel/copy: copy_tile<float>) as a catalogue program.
//
// DEFINITION. Points: 64 x 32 v4 row-major, padded and ck_xor (grid 64, lanes_down_rows reads). Inputs: random
// finite float bit patterns, never the poison -1.0. Check: the output equals the input bit for bit.
//
// WORKED EXAMPLE. copy_fp32_program.builtin_points()[1].name == "copy fp32 64x32 v4 padded" (copy_fp32_kernel<1>).
//
// INVARIANTS: no input is a NaN (no payload to argue about) or -1.0 (the poison).
#pragma once

#include <bit>

#include "examples/adapters/copy_fp16.hpp"  // copy_point, copy_of
#include "gpu/kernels/programs/copy_fp32.hpp"

namespace tilesim::examples::adapters {

inline const gpu::program_adapter copy_fp32_program = {
    .name = "copy_fp32",
    .kernel = "copy_fp32_kernel",
    .builtin_points =
        [] {
          using programs::copy_lds_layout;
          std::vector<gpu::crosscheck_point> v;
          for (copy_lds_layout l : {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor})
            v.push_back(copy_point("copy_fp32", "fp32", 64, 32, 4, l));
          return v;
        },
    .make_inputs =
        [](const gpu::crosscheck_point& p, std::mt19937_64& g, gpu::point_inputs& in) {
          const index_t count = static_cast<index_t>(p.grid) * copy_of(p).rows * copy_of(p).cols;
          std::vector<float> x(static_cast<std::size_t>(count));
          for (auto& e : x) {
            std::uint32_t bits = static_cast<std::uint32_t>(g());
            if ((bits & 0x7F800000u) == 0x7F800000u) bits ^= 0x00800000u;  // finite: no NaN payload to argue about
            if (bits == std::bit_cast<std::uint32_t>(-1.0f)) bits ^= 1u;    // never the poison
            e = std::bit_cast<float>(bits);
          }
          in.buffers = {gpu::bytes_of(x), gpu::bytes_of(std::vector<float>(x.size(), -1.0f))};
          copy_output_geometry(p, copy_of(p), in);
        },
    .simulate =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const sim::launch& l, gpu::simulated& s) {
          sim::global_memory mem;
          mem.add<float>("in", gpu::typed<float>(in.buffers[0]));
          mem.add<float>("out", gpu::typed<float>(in.buffers[1]));
          s.run = gpu::simulate_entry<gpu::compiled::copy_fp32_entry>(
              programs::copy_shape{copy_of(p), p.block, p.wave_size, p.grid}, l, std::move(mem));
          s.buffers = {gpu::bytes_of(s.run.memory.get<float>(0)), gpu::bytes_of(s.run.memory.get<float>(1))};
        },
    .check_output =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const std::vector<gpu::byte_buffer>& buffers,
           const gpu::simulated* sim) {
          return check_copy_bits(p, in, buffers, sim, copy_of(p), 4, in.buffers.at(static_cast<std::size_t>(copy_of(p).input)));
        },
    .params_to_json = [](const gpu::crosscheck_point& p, util::json_value& params) { copy_params_to_json(copy_of(p), params); },
    .params_from_json = [](const util::json_value& q, gpu::crosscheck_point& p) { p.params = copy_params_from_json(q); },
    .has_compiled_kernel =
        [](const gpu::crosscheck_point& p) {
          return gpu::entry_has<gpu::compiled::copy_fp32_entry>(programs::copy_shape{copy_of(p), p.block, p.wave_size, p.grid});
        },
    .run_on_device =
        [](const gpu::crosscheck_point& p, const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) {
          return gpu::run_entry_on_device<gpu::compiled::copy_fp32_entry>(
              programs::copy_shape{copy_of(p), l.block, gpu::compiled::sm90_wave, l.grid}, l, std::move(b));
        },
    .lds_bytes = [](const gpu::crosscheck_point& p) { return copy_lds_bytes(copy_of(p), 4); },
    .iterations = nullptr,
    .with_iterations = nullptr,
};

}  // namespace tilesim::examples::adapters
