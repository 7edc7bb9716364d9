// tilesim/sim/pricing/reused_loads.test.cpp: the compiler's reuse of repeated LDS loads (reused_loads.hpp).
#include <doctest/doctest.h>

#include <string>

#include "kernel/model/program.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/pricing/reused_loads.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;
using namespace tilesim::sim;

namespace {

wave_instruction lds(access_kind kind, std::vector<address_t> addresses, int interval = 0, int width = 4) {
  wave_instruction i;
  i.access.kind = kind;
  i.access.space = memory_space::lds;
  i.access.width = width;
  i.access.address = std::move(addresses);
  i.interval = interval;
  return i;
}

std::vector<bool> reused_of(std::vector<wave_instruction> instructions) {
  wave_record w;
  w.instructions = std::move(instructions);
  return reused_lds_loads(w);
}

// A load that starts a block: arithmetic was stated before it.
wave_instruction starts(wave_instruction i) {
  i.alu_before.integer = 1;
  return i;
}

}  // namespace

TEST_CASE("law: a wave's block of LDS loads equal to an earlier block of its interval (in any order) is reused") {
  // The essay's example: a stencil's offsets -1 and +1 on a 2-row tile read row 1 twice.
  const std::vector<address_t> row0{0, 4, 8, 12}, row1{16, 20, 24, 28}, row2{32, 36, 40, 44};
  CHECK(reused_of({lds(access_kind::load, row0), starts(lds(access_kind::load, row1)), starts(lds(access_kind::load, row1))}) ==
        std::vector<bool>{false, false, true});
  SUBCASE("a block of two: reused in another order, not when only part of it was loaded (a shifted window)") {
    CHECK(reused_of({lds(access_kind::load, row0), lds(access_kind::load, row1), starts(lds(access_kind::load, row1)),
                     lds(access_kind::load, row0)}) == std::vector<bool>{false, false, true, true});
    CHECK(reused_of({lds(access_kind::load, row0), lds(access_kind::load, row1), starts(lds(access_kind::load, row1)),
                     lds(access_kind::load, row2)}) == std::vector<bool>{false, false, false, false});
  }
  SUBCASE("no arithmetic between two equal loads: one block, issued as written") {
    CHECK(reused_of({lds(access_kind::load, row1), lds(access_kind::load, row1)}) == std::vector<bool>{false, false});
  }
  SUBCASE("a store of the wave's in between: issued again") {
    CHECK(reused_of({lds(access_kind::load, row1), lds(access_kind::store, row0), starts(lds(access_kind::load, row1))}) ==
          std::vector<bool>{false, false, false});
  }
  SUBCASE("a barrier in between (the next interval): issued again") {
    CHECK(reused_of({lds(access_kind::load, row1, 0), lds(access_kind::load, row1, 1)}) == std::vector<bool>{false, false});
  }
  SUBCASE("another width, another lane set, one lane's address apart: issued") {
    CHECK(reused_of({lds(access_kind::load, row1), starts(lds(access_kind::load, row1, 0, 2))}) == std::vector<bool>{false, false});
    CHECK(reused_of({lds(access_kind::load, row1), starts(lds(access_kind::load, {16, 20, 24, no_address}))}) ==
          std::vector<bool>{false, false});
    CHECK(reused_of({lds(access_kind::load, row1), starts(lds(access_kind::load, {16, 20, 24, 32}))}) == std::vector<bool>{false, false});
  }
  SUBCASE("ldmatrix rows are never reused, and a global access forgets nothing") {
    wave_instruction m = lds(access_kind::load, row1);
    m.matrix_access = true;
    CHECK(reused_of({m, starts(m)}) == std::vector<bool>{false, false});
    wave_instruction g = lds(access_kind::store, row0);
    g.access.space = memory_space::global;
    CHECK(reused_of({lds(access_kind::load, row1), g, lds(access_kind::load, row1)}) == std::vector<bool>{false, false, true});
  }
}

TEST_CASE("law: on sm90 a program's repeated LDS read issues no instruction; on gfx942 (not measured) it issues") {
  // 32 threads read word t of an LDS row twice after a barrier, arithmetic between: sm90 counts one load, gfx942 two.
  auto program = [](thread_context& ctx) {
    auto lds = lds_buffer<float>(ctx, 64);
    const index_t t = ctx.thread_id();
    ctx.label("fill");
    store_element(lds, t, 1.0f);
    ctx.barrier();
    ctx.label("twice");
    const float a = load_element(lds, t);
    alu(ctx, alu_op::fma, 1);
    const float b = load_element(lds, t);
    (void)(a + b);
  };
  struct expectation {
    const char* arch;
    int block, loads;
  };
  for (const expectation& e : {expectation{"sm90", 32, 1}, expectation{"gfx942", 64, 2}}) {
    const std::string arch = e.arch;  // a plain variable: clang 14 cannot capture a structured binding (CAPTURE)
    CAPTURE(arch);
    const run_result r = run(launch_on(arch, 1, e.block), global_memory{}, program);
    const program_report report = make_program_report(arch_named(arch), r);
    long long loads = 0;
    for (const instruction_report& i : report.instructions)
      if (i.space == memory_space::lds && i.kind == access_kind::load) loads += i.instances;
    CHECK(loads == e.loads);
  }
}
