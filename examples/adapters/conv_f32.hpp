// tilesim/examples/adapters/conv_f32.hpp: the convolutions (kernel/conv: conv, every mode; fp32) as a catalogue
// program.
//
// DEFINITION. Points: examples/conv's sm90 cases only. Inputs: an NHWC input and KRSC weights of unit_float,
// output NaN. Check: examples/conv's (check_conv_result: |out - Eigen| <= K * 2^-23 * sum|a*b|), which stops at
// the first element that is off.
//
// WORKED EXAMPLE. The 6x6 image with a 3x3 filter: 16 outputs of 1 channel; output_rows 16, output_cols 1.
//
// INVARIANTS: mismatches is 0 or 1 (the check stops at the first).
#pragma once

#include <limits>

#include "examples/conv/conv_variants.hpp"
#include "gpu/crosscheck/adapter_kit.hpp"
#include "gpu/kernels/programs/conv_f32.hpp"

namespace tilesim::examples::adapters {

// The parameters of a convolution point.
inline const conv_params& conv_of(const gpu::crosscheck_point& p) { return p.params.as<conv_params>(); }

inline const gpu::program_adapter conv_f32_program = {
    .name = "conv_f32",
    .kernel = "conv_f32_kernel",
    .builtin_points = [] { return std::vector<gpu::crosscheck_point>{}; },
    .make_inputs =
        [](const gpu::crosscheck_point& p, std::mt19937_64& g, gpu::point_inputs& in) {  // NHWC input, KRSC weights
          const conv_params& c = conv_of(p);
          std::vector<float> x(static_cast<std::size_t>(conv_input_count(c))),
              w(static_cast<std::size_t>(conv_weight_count(c)));
          for (float& e : x) e = gpu::unit_float(g);
          for (float& e : w) e = gpu::unit_float(g);
          const index_t outputs = conv_output_count(c);
          in.buffers = {gpu::bytes_of(x), gpu::bytes_of(w),
                        gpu::bytes_of(std::vector<float>(static_cast<std::size_t>(outputs),
                                                         std::numeric_limits<float>::quiet_NaN()))};
          in.output_slot = c.output;
          in.output_cols = c.c_out;
          in.output_rows = outputs / c.c_out;
        },
    .simulate =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const sim::launch& l, gpu::simulated& s) {
          sim::global_memory mem;
          mem.add<float>("in", gpu::typed<float>(in.buffers[0]));
          mem.add<float>("w", gpu::typed<float>(in.buffers[1]));
          mem.add<float>("out", gpu::typed<float>(in.buffers[2]));
          s.run = gpu::simulate_entry<gpu::compiled::conv_f32_entry>(
              conv_shape{conv_of(p), p.block, p.wave_size, p.grid}, l, std::move(mem));
          s.buffers = {gpu::bytes_of(s.run.memory.get<float>(0)), gpu::bytes_of(s.run.memory.get<float>(1)),
                       gpu::bytes_of(s.run.memory.get<float>(2))};
        },
    .check_output =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const std::vector<gpu::byte_buffer>& buffers,
           const gpu::simulated*) {  // examples/conv's Eigen check
          gpu::output_check c;
          const gpu::byte_buffer& out = buffers.at(static_cast<std::size_t>(in.output_slot));
          const conv_check r = check_conv_result(conv_of(p), gpu::typed<float>(in.buffers[0]), gpu::typed<float>(in.buffers[1]),
                                                 gpu::typed<float>(out));
          c.method = "|out - Eigen| <= K * 2^-23 * sum|a*b| (examples/conv)";
          c.compared = conv_output_count(conv_of(p));
          c.mismatches = r.passed ? 0 : 1;  // the check stops at the first element that is off
          if (!r.passed) c.first_mismatch = r.text;
          return c;
        },
    .params_to_json =
        [](const gpu::crosscheck_point& p, util::json_value& params) {
          const conv_params& c = conv_of(p);
          params.set("mode", static_cast<int>(c.mode));
          for (const auto& [key, value] : {std::pair<const char*, index_t>{"n", c.n}, {"h", c.h}, {"w", c.w},
                                           {"c_in", c.c_in}, {"c_out", c.c_out}, {"r", c.r}, {"s", c.s}})
            params.set(key, static_cast<long long>(value));
        },
    .params_from_json =
        [](const util::json_value&, gpu::crosscheck_point&) {
          throw util::json_error("a conv_f32 point is an example case: its recording names the example");
        },
    .has_compiled_kernel =
        [](const gpu::crosscheck_point& p) {
          return gpu::entry_has<gpu::compiled::conv_f32_entry>(conv_shape{conv_of(p), p.block, p.wave_size, p.grid});
        },
    .run_on_device =
        [](const gpu::crosscheck_point& p, const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) {
          return gpu::run_entry_on_device<gpu::compiled::conv_f32_entry>(
              conv_shape{conv_of(p), l.block, gpu::compiled::sm90_wave, l.grid}, l, std::move(b));
        },
    .lds_bytes = nullptr,
    .iterations = nullptr,
    .with_iterations = nullptr,
};

}  // namespace tilesim::examples::adapters
