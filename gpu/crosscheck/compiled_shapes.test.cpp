// The compiled shapes (gpu/kernels/compiled_shapes.hpp) cover the cross-check's catalogue, and the compiled form of a
// program is the run-time form: same accesses, same result.
#include "gpu/kernels/compiled_shapes.hpp"

#include <doctest/doctest.h>

#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/crosscheck/program_adapter.hpp"
#include "kernel/copy/copy.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"
#include "kernel/lds_sweep/lds_sweep.hpp"
#include "sim/engine/engine.hpp"
#include "sim/engine/same_accesses.test.hpp"

namespace tilesim::gpu {

TEST_CASE("compiled shapes: every point of the catalogue has a compiled kernel") {
  for (const crosscheck_point& p : catalogue()) {
    CAPTURE(p.name);
    CHECK(p.adapter().has_compiled_kernel(p));
  }
}

TEST_CASE("compiled shapes: the compiled copy, LDS sweep and GEMM make the run-time form's accesses and outputs, lane by lane") {
  for (const crosscheck_point& p : catalogue()) {
    if (p.program != "copy_fp16" && p.program != "copy_fp32" && p.program != "gemm_fp32" && p.program != "lds_sweep_u32")
      continue;
    CAPTURE(p.name);
    const point_inputs in = make_inputs(p, 11);
    const simulated compiled_run = simulate(p, in);  // the compiled instance (the GPU's)
    sim::launch l;
    l.grid = p.grid;
    l.block = p.block;
    l.wave_size = p.wave_size;
    sim::run_result runtime;  // the run-time form on zeros: addresses do not depend on data
    if (p.program == "gemm_fp32") {
      sim::global_memory m;
      m.add<float>("a", std::vector<float>(in.buffers[0].size() / 4));
      m.add<float>("b", std::vector<float>(in.buffers[1].size() / 4));
      m.add<float>("c", std::vector<float>(in.buffers[2].size() / 4));
      const programs::gemm_params q = p.params.as<programs::gemm_params>();
      runtime = sim::run(l, std::move(m), [&q](sim::thread_context& ctx) { programs::gemm_tile(ctx, q); });
    } else if (p.program == "lds_sweep_u32") {
      sim::global_memory m;
      m.add<std::uint32_t>("in", std::vector<std::uint32_t>(in.buffers[0].size() / 4));
      m.add<std::uint32_t>("out", std::vector<std::uint32_t>(in.buffers[1].size() / 4));
      const programs::lds_sweep_params q = p.params.as<programs::lds_sweep_params>();
      runtime = sim::run(l, std::move(m), [&q](sim::thread_context& ctx) { programs::lds_sweep<std::uint32_t, 4>(ctx, q); });
    } else if (p.program == "copy_fp16") {
      sim::global_memory m;
      m.add<std::uint16_t>("in", std::vector<std::uint16_t>(in.buffers[0].size() / 2));
      m.add<std::uint16_t>("out", std::vector<std::uint16_t>(in.buffers[1].size() / 2));
      const programs::copy_params q = p.params.as<programs::copy_params>();
      runtime = sim::run(l, std::move(m), [&q](sim::thread_context& ctx) { programs::copy_tile<std::uint16_t>(ctx, q); });
    } else {
      sim::global_memory m;
      m.add<float>("in", std::vector<float>(in.buffers[0].size() / 4));
      m.add<float>("out", std::vector<float>(in.buffers[1].size() / 4));
      const programs::copy_params q = p.params.as<programs::copy_params>();
      runtime = sim::run(l, std::move(m), [&q](sim::thread_context& ctx) { programs::copy_tile<float>(ctx, q); });
    }
    CHECK(runtime.clean());
    CHECK(compiled_run.run.clean());
    sim::testing::check_same_accesses(compiled_run.run, runtime);
    CHECK(check_output(p, in, compiled_run.buffers, &compiled_run).mismatches == 0);
  }
}

}  // namespace tilesim::gpu
