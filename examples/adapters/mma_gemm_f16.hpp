// tilesim/examples/adapters/mma_gemm_f16.hpp: the matrix-core GEMM (kernel/mma_gemm: mma_gemm, ldmatrix +
// mma.sync; fp16 in, fp32 C) as a catalogue program.
//
// DEFINITION. Points: examples/gemm's matrix-core cases only. Inputs: A and B of fp16 multiples of 1/16 in
// [-1, 1] (every product and sum exact in fp32, in any order), C NaN. Check: the fp32 GEMM's (check_gemm_fp64)
// on the operands as floats.
//
// WORKED EXAMPLE. The sixteenth -3/16 is integer_to_half(-3) with its exponent lowered by 4: 0xb200.
//
// INVARIANTS: the operands are exact in fp16, so the bound is the fp32 GEMM's.
#pragma once

#include <limits>

#include "examples/adapters/gemm_fp32.hpp"  // check_gemm_fp64
#include "gpu/kernels/programs/mma_gemm_f16.hpp"
#include "examples/gemm/mma_gemm_variants.hpp"

namespace tilesim::examples::adapters {

// The parameters of a matrix-core GEMM point.
inline const programs::mma_gemm_params& mma_gemm_of(const gpu::crosscheck_point& p) {
  return p.params.as<programs::mma_gemm_params>();
}

inline const gpu::program_adapter mma_gemm_f16_program = {
    .name = "mma_gemm_f16",
    .kernel = "mma_gemm_f16_kernel",
    .builtin_points = [] { return std::vector<gpu::crosscheck_point>{}; },
    .make_inputs =
        [](const gpu::crosscheck_point& p, std::mt19937_64& g, gpu::point_inputs& in) {
          const programs::mma_gemm_params& q = mma_gemm_of(p);
          auto sixteenths = [&](index_t count) {
            std::vector<std::uint16_t> h(static_cast<std::size_t>(count));
            for (std::uint16_t& x : h) {
              const int v = static_cast<int>(g() % 33) - 16;
              x = v == 0 ? 0 : static_cast<std::uint16_t>(integer_to_half(v) - (4 << 10));  // v / 16: exponent - 4
            }
            return h;
          };
          in.buffers = {gpu::bytes_of(sixteenths(q.m * q.k)), gpu::bytes_of(sixteenths(q.n * q.k)),
                        gpu::bytes_of(std::vector<float>(static_cast<std::size_t>(q.m * q.n),
                                                         std::numeric_limits<float>::quiet_NaN()))};
          in.output_slot = q.c;
          in.output_rows = q.m;
          in.output_cols = q.n;
        },
    .simulate =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const sim::launch& l, gpu::simulated& s) {
          sim::global_memory mem;
          mem.add<std::uint16_t>("a", gpu::typed<std::uint16_t>(in.buffers[0]));
          mem.add<std::uint16_t>("b", gpu::typed<std::uint16_t>(in.buffers[1]));
          mem.add<float>("c", gpu::typed<float>(in.buffers[2]));
          s.run = gpu::simulate_entry<gpu::compiled::mma_gemm_f16_entry>(
              programs::mma_gemm_shape{mma_gemm_of(p), p.block, p.wave_size}, l, std::move(mem));
          s.buffers = {gpu::bytes_of(s.run.memory.get<std::uint16_t>(0)), gpu::bytes_of(s.run.memory.get<std::uint16_t>(1)),
                       gpu::bytes_of(s.run.memory.get<float>(2))};
        },
    .check_output =
        [](const gpu::crosscheck_point& p, const gpu::point_inputs& in, const std::vector<gpu::byte_buffer>& buffers,
           const gpu::simulated* sim) {  // the fp16 operands as floats (exact); the same bound
          const programs::mma_gemm_params& h = mma_gemm_of(p);
          programs::gemm_params q{};  // the fp32 GEMM's defaults, then this GEMM's shape
          q.m = h.m, q.n = h.n, q.k = h.k, q.m_per_block = h.m_per_block, q.n_per_block = h.n_per_block;
          return check_gemm_fp64(p, in, buffers, sim, q, halves_to_floats(gpu::typed<std::uint16_t>(in.buffers[0])),
                                 halves_to_floats(gpu::typed<std::uint16_t>(in.buffers[1])));
        },
    .params_to_json =
        [](const gpu::crosscheck_point& p, util::json_value& params) {
          const programs::mma_gemm_params& g = mma_gemm_of(p);
          for (const auto& [key, value] : {std::pair<const char*, index_t>{"m", g.m}, {"n", g.n}, {"k", g.k},
                                           {"m_per_block", g.m_per_block}, {"n_per_block", g.n_per_block},
                                           {"k_per_block", g.k_per_block}, {"m_warps", g.m_warps}})
            params.set(key, static_cast<long long>(value));
          params.set("layout", name_of(g.layout));
          params.set("ck_order", name_of(g.ck_order));
        },
    .params_from_json =
        [](const util::json_value& q, gpu::crosscheck_point& p) {
          auto n = [&](const char* key) { return static_cast<index_t>(q[key].number()); };
          programs::mma_gemm_params g{};
          g.m = n("m"), g.n = n("n"), g.k = n("k");
          g.m_per_block = n("m_per_block"), g.n_per_block = n("n_per_block"), g.k_per_block = n("k_per_block");
          g.m_warps = n("m_warps");
          g.layout = enum_named(q["layout"].string(), all_gemm_layouts, "layout");
          g.ck_order = enum_named(q["ck_order"].string(), all_ck_orders, "ck order");
          p.params = g;
        },
    .has_compiled_kernel =
        [](const gpu::crosscheck_point& p) {
          return gpu::entry_has<gpu::compiled::mma_gemm_f16_entry>(
              programs::mma_gemm_shape{mma_gemm_of(p), p.block, p.wave_size});
        },
    .run_on_device =
        [](const gpu::crosscheck_point& p, const gpu::device_launch& l, std::vector<gpu::byte_buffer> b) {
          return gpu::run_entry_on_device<gpu::compiled::mma_gemm_f16_entry>(
              programs::mma_gemm_shape{mma_gemm_of(p), l.block, gpu::compiled::sm90_wave}, l, std::move(b));
        },
    .lds_bytes = nullptr,
    .iterations = nullptr,
    .with_iterations = nullptr,
};

}  // namespace tilesim::examples::adapters
