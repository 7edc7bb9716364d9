// tilesim/sim/pricing/guarded_access.test.cpp: tile accesses whose pad guard the kernel checks at run time.
//
// A descriptor with a pad (descriptor::may_be_invalid) makes every tile load and store through it check the pad's
// validity at run time; nvcc cannot fold the check (it does not know blockIdx.x < gridDim.x), and on sm90 each such
// global store pays a compare-and-address chain, a wave's first such load the guard's chain (sim/arch/sm90.cpp,
// issue 33). The program below copies a 32 x 64 fp32 tile global -> LDS -> global through a plain view or through
// the same view with right pads of length 0: the same addresses, the same counters, only the guard differs.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "kernel/model/program.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/report/program_report.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using namespace tilesim::sim;

namespace {

constexpr index_t rows = 32, cols = 64, threads = 64, wave = 32;

// The copy through `global`: loads and stores with the warp-raked encoding, one barrier between.
template <class Desc>
void copy_through(thread_context& ctx, const Desc& global) {
  const tile_distribution_encoding e = make_warp_raked_encoding(threads, wave, rows, cols, 4);
  const auto thread = partition_index(e, ctx.warp(), ctx.lane());
  const auto in = make_tensor_view(global, global_buffer<float>(ctx, 0), address_space::global);
  const auto out = make_tensor_view(global, global_buffer<float>(ctx, 1), address_space::global);
  const auto lds = make_tensor_view(make_row_major_descriptor(rows, cols), lds_buffer<float>(ctx, rows * cols),
                                    address_space::lds);
  auto regs = make_distributed_tensor<float, 64>(e);
  ctx.label("global load");
  make_tile_window(in, {rows, cols}, {0, 0}, e, thread).load(regs);
  ctx.label("lds store");
  make_tile_window(lds, {rows, cols}, {0, 0}, e, thread).store(regs);
  ctx.barrier();
  ctx.label("lds load");
  make_tile_window(lds, {rows, cols}, {0, 0}, e, thread).load(regs);
  ctx.label("global store");
  make_tile_window(out, {rows, cols}, {0, 0}, e, thread).store(regs);
}

const auto plain = make_naive_descriptor<2>({rows, cols}, {cols, 1}, 4, 1);
const auto padded = transform_descriptor(plain, step(make_right_pad(rows, 0), {0}, {0}),
                                         step(make_right_pad(cols, 0), {1}, {1}));

template <class Desc>
run_result run_copy(const Desc& global) {
  global_memory mem;
  mem.add<float>("in", rows * cols, 1.0f);
  mem.add<float>("out", rows * cols, 0.0f);
  return run(launch{.grid = 1, .block = threads, .wave_size = wave}, std::move(mem),
             [&](thread_context& ctx) { copy_through(ctx, global); });
}

}  // namespace

// Law: only a descriptor with a pad may be invalid, and the compile-time form says the same.
TEST_CASE("guarded access: a descriptor may be invalid exactly when it has a pad") {
  static_assert(!decltype(plain)::may_be_invalid);
  static_assert(decltype(padded)::may_be_invalid);
  static_assert(!decltype(make_row_major_descriptor(rows, cols))::may_be_invalid);
  static_assert(fixed_descriptor<make_naive_descriptor<2>({4, 4}, {4, 1}, 1, 1)>::may_be_invalid == false);
  CHECK(padded.is_valid(padded.make_coordinate({rows - 1, cols - 1})));
}

// Law: the engine marks a wave instruction guarded exactly when its tile access went through a padded descriptor,
// and the mark changes no address, no count, no grouping.
TEST_CASE("guarded access: global accesses through a padded view are marked, nothing else is, and nothing else changes") {
  const run_result a = run_copy(plain), b = run_copy(padded);
  REQUIRE(a.clean());
  REQUIRE(b.clean());
  const auto& wa = a.workgroups[0].waves;
  const auto& wb = b.workgroups[0].waves;
  REQUIRE(wa.size() == wb.size());
  int guarded = 0;
  for (std::size_t w = 0; w < wa.size(); ++w) {
    REQUIRE(wa[w].instructions.size() == wb[w].instructions.size());
    for (std::size_t i = 0; i < wa[w].instructions.size(); ++i) {
      const wave_instruction& x = wa[w].instructions[i];
      const wave_instruction& y = wb[w].instructions[i];
      INFO("wave ", w, " instruction ", i, " (", y.access.label, ")");
      CHECK(x.access.address == y.access.address);
      CHECK(!x.guarded);
      CHECK(y.guarded == (y.access.space == memory_space::global));
      guarded += y.guarded;
    }
  }
  CHECK(guarded > 0);
}

// Law: on sm90 the guard's chains are the only difference in time: the padded copy costs more, and with the
// guarded-access counts set to 0 it costs exactly what the plain copy costs.
TEST_CASE("guarded access: sm90 prices the guard's chains, and nothing else differs") {
  const run_result a = run_copy(plain), b = run_copy(padded);
  arch_table sm90 = arch_named("sm90");
  const program_report pa = make_program_report(sm90, a), pb = make_program_report(sm90, b);
  CHECK(pb.cycles_per_workgroup > pa.cycles_per_workgroup);
  // Every wave's first global load waits for the guard's chain (issued and then dependent), and all else waits for it.
  const issue_timing& is = sm90.issue;
  CHECK(pb.cycles_per_workgroup - pa.cycles_per_workgroup >=
        is.guarded_load_depth * (is.alu_cycles[static_cast<std::size_t>(alu_op::integer)] + is.alu_latency));
  sm90.issue.guarded_store_ops = sm90.issue.guarded_store_depth = sm90.issue.guarded_load_depth = 0;
  CHECK(make_program_report(sm90, b).cycles_per_workgroup == doctest::Approx(make_program_report(sm90, a).cycles_per_workgroup));
}
