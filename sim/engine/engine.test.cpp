// Laws of engine.hpp: barrier semantics, ids, determinism, and failures reported as run_error, never a crash or hang.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using namespace tilesim::sim;

namespace {

struct rotate_params {
  int output = 0;
  bool with_barrier = true;
};

// The program of program.hpp's example: thread t publishes t, waits, reads its neighbour's value.
template <class Ctx>
TILESIM_HOST_DEVICE void rotate(Ctx& ctx, const rotate_params& p) {
  auto lds = lds_buffer<float>(ctx, ctx.block_size());
  auto out = global_buffer<float>(ctx, p.output);
  const index_t t = ctx.thread_id(), n = ctx.block_size();
  ctx.label("publish");
  store_element(lds, t, static_cast<float>(t + 1000 * ctx.block_id()));
  if (p.with_barrier) ctx.barrier();
  ctx.label("neighbour");
  store_element(out, ctx.block_id() * n + t, load_element(lds, (t + 1) % n));
}

run_result run_rotate(int grid, int block, int wave, bool with_barrier = true) {
  global_memory mem;
  const int out = mem.add<float>("out", index_t{grid} * block, -1.0f);
  return run({.grid = grid, .block = block, .wave_size = wave}, std::move(mem),
             [&](thread_context& ctx) { rotate(ctx, rotate_params{out, with_barrier}); });
}

// The run_error a callable throws (reason program_threw with an empty message when it throws none).
template <class F>
run_error error_of_run(F&& f) {
  try {
    f();
  } catch (const run_error& e) {
    return e;
  }
  return run_error(run_error::reason::bad_launch, -2, {}, "");
}

}  // namespace

static_assert(tile_context<thread_context>);

TEST_CASE("barrier: thread t writes LDS[t], barrier, reads LDS[(t+1) % n]: all 256 threads get their neighbour's value") {
  const run_result r = run_rotate(1, 256, 64);
  const std::vector<float> out = r.memory.get<float>(0);
  for (int t = 0; t < 256; ++t) CHECK(out[static_cast<std::size_t>(t)] == static_cast<float>((t + 1) % 256));
  CHECK(r.clean());
  CHECK(r.uniform());
  REQUIRE(r.workgroups.size() == 1);
  CHECK(r.workgroups[0].intervals == 2);
  CHECK(r.workgroups[0].waves.size() == 4);
}

TEST_CASE("barrier: each wave's instructions are in issue order with their barrier interval") {
  const run_result r = run_rotate(1, 128, 64);
  const wave_record& w1 = r.workgroups[0].waves[1];
  REQUIRE(w1.instructions.size() == 3);
  CHECK(w1.instructions[0].access.label == "publish");
  CHECK(w1.instructions[0].interval == 0);
  CHECK(w1.instructions[1].access.label == "neighbour");
  CHECK(w1.instructions[1].access.kind == access_kind::load);
  CHECK(w1.instructions[1].interval == 1);
  CHECK(w1.instructions[1].access.address[0] == 4 * 65);  // lane 0 of wave 1 is thread 64: reads LDS[65]
  CHECK(w1.instructions[2].access.space == memory_space::global);
  CHECK(w1.instructions[2].position == 1);
}

TEST_CASE("grid: workgroups run one after another with their own block id and a fresh, zeroed LDS") {
  const run_result r = run_rotate(3, 64, 32);
  const std::vector<float> out = r.memory.get<float>(0);
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 64; ++t)
      CHECK(out[static_cast<std::size_t>(64 * b + t)] == static_cast<float>((t + 1) % 64 + 1000 * b));
  CHECK(r.workgroups.size() == 3);
  CHECK(r.workgroups[2].block == 2);
  CHECK(r.workgroups[1].waves.size() == 2);
  CHECK(r.clean());
}

TEST_CASE("determinism: the same launch gives the same instructions, addresses and results") {
  const run_result a = run_rotate(2, 96, 32), b = run_rotate(2, 96, 32);
  REQUIRE(a.instruction_count() == b.instruction_count());
  for (std::size_t w = 0; w < a.workgroups.size(); ++w)
    for (std::size_t v = 0; v < a.workgroups[w].waves.size(); ++v)
      for (std::size_t i = 0; i < a.workgroups[w].waves[v].instructions.size(); ++i)
        CHECK(a.workgroups[w].waves[v].instructions[i].access.address ==
              b.workgroups[w].waves[v].instructions[i].access.address);
  CHECK(a.memory.get<float>(0) == b.memory.get<float>(0));
}

TEST_CASE("partial wave: 96 threads at wave 64 make a second wave of 32 lanes, the rest no_address") {
  const run_result r = run_rotate(1, 96, 64);
  const wave_record& w = r.workgroups[0].waves[1];
  CHECK(w.lanes == 32);
  CHECK(w.instructions[0].access.address.size() == 64);
  CHECK(w.instructions[0].access.address[31] == 4 * 95);
  CHECK(w.instructions[0].access.address[32] == no_address);
  CHECK(w.instructions[0].access.active_lanes() == 32);
}

TEST_CASE("exception: a spec_error in thread 37 stops the run with a run_error naming block 0, thread 37 and the rule") {
  global_memory mem;
  mem.add<float>("out", 64);
  const run_error e = error_of_run([&] {
    run({.block = 64}, std::move(mem), [](thread_context& ctx) {
      ctx.barrier();
      if (ctx.thread_id() == 37) (void)make_xor(4, 6);  // L1 = 6 is not a power of two
      ctx.barrier();
    });
  });
  CHECK(e.why == run_error::reason::program_threw);
  CHECK(e.block == 0);
  CHECK(e.threads == std::vector<int>{37});
  CHECK(std::string(e.what()).find("block 0 thread 37 (wave 0, lane 37) threw: tilesim: xor_t:") != std::string::npos);
  CHECK(std::string(e.what()).find("(L1 = 6)") != std::string::npos);
  REQUIRE(e.cause);
  CHECK_THROWS_AS(std::rethrow_exception(e.cause), spec_error);
}

TEST_CASE("exception: the threads parked at a barrier are unwound, so their locals are destroyed") {
  static std::atomic<int> alive{0};
  struct counted {
    counted() { ++alive; }
    ~counted() { --alive; }
    counted(const counted&) = delete;
    counted& operator=(const counted&) = delete;
  };
  global_memory mem;
  const run_error e = error_of_run([&] {
    run({.block = 32, .wave_size = 32}, std::move(mem), [](thread_context& ctx) {
      counted c;
      if (ctx.thread_id() == 20) throw std::runtime_error("planted");
      ctx.barrier();
    });
  });
  CHECK(e.threads == std::vector<int>{20});
  CHECK(std::string(e.what()).find("threw: planted") != std::string::npos);
  CHECK(alive == 0);
}

TEST_CASE("exception: something that is no std::exception is still reported with its thread") {
  const run_error e = error_of_run([] {
    run({.block = 8, .wave_size = 8}, global_memory{}, [](thread_context& ctx) {
      if (ctx.thread_id() == 3) throw 42;
    });
  });
  CHECK(e.threads == std::vector<int>{3});
  CHECK(std::string(e.what()).find("thread 3 (wave 0, lane 3) threw: an exception that is no std::exception") !=
        std::string::npos);
}

TEST_CASE("divergent barrier: threads 32-63 return while 0-31 wait: a run_error naming both sets, not a hang") {
  const run_error e = error_of_run([] {
    run({.block = 64}, global_memory{}, [](thread_context& ctx) {
      if (ctx.thread_id() < 32) ctx.barrier();
    });
  });
  CHECK(e.why == run_error::reason::divergent_barrier);
  CHECK(e.threads.size() == 32);
  const std::string what = e.what();
  CHECK(what.find("divergent barrier 0: threads 0-31 at engine.test.cpp:") != std::string::npos);
  CHECK(what.find("but threads 32-63 returned") != std::string::npos);
}

TEST_CASE("divergent barrier: a second barrier only thread 5 calls is reported at barrier 1") {
  const run_error e = error_of_run([] {
    run({.block = 16, .wave_size = 16}, global_memory{}, [](thread_context& ctx) {
      ctx.barrier();
      if (ctx.thread_id() == 5) ctx.barrier();
    });
  });
  CHECK(e.why == run_error::reason::divergent_barrier);
  CHECK(e.threads == std::vector<int>{5});
  CHECK(std::string(e.what()).find("divergent barrier 1: threads 5 at") != std::string::npos);
}

TEST_CASE("barrier mismatch: threads meeting at barriers on different lines are reported, the run continues") {
  const run_result r = run({.block = 8, .wave_size = 8}, global_memory{}, [](thread_context& ctx) {
    if (ctx.thread_id() < 4)
      ctx.barrier();
    else
      ctx.barrier();
  });
  REQUIRE(r.workgroups[0].barrier_mismatches.size() == 1);
  const barrier_mismatch& m = r.workgroups[0].barrier_mismatches[0];
  REQUIRE(m.threads.size() == 2);
  CHECK((m.threads[0].ids == std::vector<int>{0, 1, 2, 3} || m.threads[1].ids == std::vector<int>{0, 1, 2, 3}));
  CHECK(describe(m).find("barrier 0 of block 0 reached from different places") != std::string::npos);
  CHECK_FALSE(r.clean());
}

TEST_CASE("misuse: a missing slot, a wrong element type, disagreeing LDS calls and too much LDS name thread and values") {
  global_memory mem;
  mem.add<float>("in", 16);
  auto message = [&](auto program, int block = 4) {
    return std::string(error_of_run([&] { run({.block = block, .wave_size = 4}, mem, program); }).what());
  };
  CHECK(message([](thread_context& ctx) { (void)ctx.global<float>(3); }) ==
        "tilesim: block 0 thread 0 (wave 0, lane 0) threw: ctx.global(3): there are 1 global buffers (slots 0-0)");
  CHECK(message([](thread_context& ctx) { (void)ctx.global<int>(0); }) ==
        "tilesim: block 0 thread 0 (wave 0, lane 0) threw: ctx.global<int>(0): global buffer 0 ('in') holds float");
  CHECK(message([](thread_context& ctx) { (void)ctx.lds<float>(ctx.thread_id() == 2 ? 8 : 16); }) ==
        "tilesim: block 0 thread 2 (wave 0, lane 2) threw: ctx.lds<float>(8) is LDS allocation 0, which another thread "
        "made as 16 float elements");
  CHECK(message([](thread_context& ctx) { (void)ctx.lds<double>(1 << 20); }) ==
        "tilesim: block 0 thread 0 (wave 0, lane 0) threw: ctx.lds<double>(1048576) needs 1048576 elements of 8 bytes "
        "at LDS offset 0, but launch::max_lds_bytes is 262144");
}

TEST_CASE("bad launch: a zero-sized block or a split that is no power of two is refused naming the value") {
  auto noop = [](thread_context&) {};
  CHECK(std::string(error_of_run([&] { run({.block = 0}, global_memory{}, noop); }).what()) ==
        "tilesim: launch: block must be >= 1 (block = 0)");
  CHECK(std::string(error_of_run([&] { run({.split_bytes = 12}, global_memory{}, noop); }).what()) ==
        "tilesim: launch: split_bytes must be 0 or a power of two (split_bytes = 12)");
  CHECK(error_of_run([&] { run({.wave_size = 0}, global_memory{}, noop); }).why == run_error::reason::bad_launch);
}

TEST_CASE("stack: a 256-thread block of the rotate program uses well under the default fiber stack") {
  global_memory mem;
  const int out = mem.add<float>("out", 256);
  const run_result r = run({.block = 256, .measure_stack = true}, std::move(mem),
                           [&](thread_context& ctx) { rotate(ctx, rotate_params{out, true}); });
  CHECK(r.workgroups[0].stack_used > 0);
  CHECK(r.workgroups[0].stack_used < default_stack_bytes / 2);
}
