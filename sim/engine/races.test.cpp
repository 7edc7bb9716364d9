// Laws of races.hpp through whole runs: planted races are found with the right threads, bytes and labels;
// barriers, atomics and same-thread accesses are not races; racy loops coalesce.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"
#include "sim/engine/races.hpp"

using namespace tilesim;
using namespace tilesim::sim;

TEST_CASE("race (planted): threads 3 and 9 store the same LDS word with no barrier: one race naming both, the bytes and labels") {
  const run_result r = run({.block = 64, .wave_size = 32}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(64);
    store_element(lds, ctx.thread_id(), 0.0f);  // every thread its own word: no race
    if (ctx.thread_id() == 3) {
      ctx.label("writer a");
      store_element(lds, 40, 1.0f);
    }
    if (ctx.thread_id() == 9) {
      ctx.label("writer b");
      store_element(lds, 40, 2.0f);
    }
  });
  const workgroup_record& w = r.workgroups[0];
  REQUIRE(w.races.size() == 2);  // 3 vs 9, and 3 vs 40 (thread 40 stored its own word 40 in the same interval)
  const race& x = w.races[0];
  CHECK(x.space == memory_space::lds);
  CHECK(x.buffer == 0);
  CHECK(x.begin == 160);
  CHECK(x.end == 164);
  CHECK(x.first.who == thread_ref{0, 3, 0, 3});
  CHECK(x.first.label == "writer a");
  CHECK(x.first.kind == access_kind::store);
  CHECK(x.second.who.thread == 9);
  CHECK(x.second.label == "writer b");
  CHECK(describe(x) ==
        "race on lds allocation 0 bytes [160, 164): block 0 thread 3 (wave 0, lane 3) lds store 'writer a' (interval 0)"
        " and block 0 thread 9 (wave 0, lane 9) lds store 'writer b' (interval 0)");
  CHECK(w.races[1].first.who.thread == 3);
  CHECK(w.races[1].second.who.thread == 40);
  CHECK(w.races[1].second.who.wave == 1);
  CHECK(r.found.races == 2);
}

TEST_CASE("race (planted): thread 1 writes, thread 0 reads the word without a barrier; with a barrier it is clean") {
  auto program = [](bool barrier) {
    return [barrier](thread_context& ctx) {
      auto lds = ctx.lds<int>(4);
      if (ctx.thread_id() == 1) {
        ctx.label("produce");
        store_element(lds, 2, 5);
      }
      if (barrier) ctx.barrier();
      if (ctx.thread_id() == 0) {
        ctx.label("consume");
        (void)load_element(lds, 2);
      }
    };
  };
  const run_result racy = run({.block = 2, .wave_size = 2}, global_memory{}, program(false));
  REQUIRE(racy.workgroups[0].races.size() == 1);
  const race& x = racy.workgroups[0].races[0];
  CHECK(x.begin == 8);
  CHECK(x.end == 12);
  CHECK(x.first.who.thread == 0);
  CHECK(x.first.kind == access_kind::load);
  CHECK(x.first.label == "consume");
  CHECK(x.second.who.thread == 1);
  CHECK(x.second.kind == access_kind::store);
  CHECK(x.second.label == "produce");
  CHECK(x.same_wave());
  const run_result ordered = run({.block = 2, .wave_size = 2}, global_memory{}, program(true));
  CHECK(ordered.workgroups[0].races.empty());
  CHECK(ordered.clean());
  CHECK_FALSE(ordered.uniform());  // only thread 1 stores, only thread 0 loads: divergent, not wrong
}

TEST_CASE("race: a 16-byte read over four 4-byte writes of four threads is four races, one per writer") {
  const run_result r = run({.block = 5, .wave_size = 8}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(4);
    if (ctx.thread_id() < 4) store_element(lds, ctx.thread_id(), 1.0f);
    if (ctx.thread_id() == 4) {
      float v[4];
      lds.load(0, 4, v, true);
    }
  });
  const std::vector<race>& races = r.workgroups[0].races;
  REQUIRE(races.size() == 4);
  for (int t = 0; t < 4; ++t) {
    CHECK(races[static_cast<std::size_t>(t)].begin == 4 * t);
    CHECK(races[static_cast<std::size_t>(t)].first.who.thread == t);
    CHECK(races[static_cast<std::size_t>(t)].second.who.thread == 4);
  }
}

TEST_CASE("race: reads never race with reads, a thread never races with itself, two atomic adds do not race") {
  global_memory mem;
  const int g = mem.add<int>("counter", 1);
  const run_result r = run({.block = 64}, std::move(mem), [&](thread_context& ctx) {
    auto lds = ctx.lds<int>(65);
    (void)load_element(lds, 64);                // everyone reads word 64, which nobody writes
    store_element(lds, ctx.thread_id(), 1);     // each writes its own word,
    (void)load_element(lds, ctx.thread_id());   // and reads it back
    add_element(ctx.global<int>(g), 0, 1);      // atomic adds to one counter
  });
  CHECK(r.workgroups[0].races.empty());
  CHECK(r.found.races == 0);
  CHECK(r.memory.get<int>(g)[0] == 64);
}

TEST_CASE("race: an atomic add and a plain load of the same word in one interval race") {
  global_memory mem;
  const int g = mem.add<int>("counter", 1);
  const run_result r = run({.block = 2, .wave_size = 2}, std::move(mem), [&](thread_context& ctx) {
    if (ctx.thread_id() == 0) add_element(ctx.global<int>(g), 0, 1);
    if (ctx.thread_id() == 1) (void)load_element(ctx.global<int>(g), 0);
  });
  REQUIRE(r.workgroups[0].races.size() == 1);
  CHECK(r.workgroups[0].races[0].first.atomic);
  CHECK_FALSE(r.workgroups[0].races[0].second.atomic);
}

TEST_CASE("race: 63 threads all reading word 0 that thread 0 writes give 63 records, not 63*64/2") {
  const run_result r = run({.block = 64}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<int>(1);
    if (ctx.thread_id() == 0) store_element(lds, 0, 1);
    (void)load_element(lds, 0);
  });
  CHECK(r.workgroups[0].races.size() == 63);
}

TEST_CASE("race: a racy loop of 256 scalar stores by two threads over one buffer coalesces into one record") {
  const run_result r = run({.block = 2, .wave_size = 2}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(256);
    ctx.label(ctx.thread_id() == 0 ? "fill" : "refill");
    for (index_t i = 0; i < 256; ++i) store_element(lds, i, 1.0f);
  });
  REQUIRE(r.workgroups[0].races.size() == 1);
  CHECK(r.workgroups[0].races[0].begin == 0);
  CHECK(r.workgroups[0].races[0].end == 1024);
}

TEST_CASE("race: a global store of workgroup 0 and a load of workgroup 1 race (workgroups never synchronize)") {
  global_memory mem;
  const int g = mem.add<float>("shared", 8);
  const run_result r = run({.grid = 2, .block = 4, .wave_size = 4}, std::move(mem), [&](thread_context& ctx) {
    auto buf = ctx.global<float>(g);
    if (ctx.block_id() == 0 && ctx.thread_id() == 2) {
      ctx.label("publish");
      store_element(buf, 5, 1.0f);
    }
    if (ctx.block_id() == 1 && ctx.thread_id() == 1) {
      ctx.label("peek");
      (void)load_element(buf, 5);
    }
  });
  CHECK(r.workgroups[0].races.empty());
  CHECK(r.workgroups[1].races.empty());
  REQUIRE(r.grid_races.size() == 1);
  const race& x = r.grid_races[0];
  CHECK(x.buffer_name == "global buffer 0 ('shared')");
  CHECK(x.begin == 20);
  CHECK(x.first.who == thread_ref{0, 2, 0, 2});
  CHECK(x.first.label == "publish");
  CHECK(x.second.who == thread_ref{1, 1, 0, 1});
  CHECK(x.second.label == "peek");
}

TEST_CASE("race: within a workgroup, a global store and another thread's load of its word race; disjoint stores do not") {
  for (const bool overlap : {false, true}) {
    global_memory mem;
    const int g = mem.add<float>("out", 64);
    const run_result r = run({.block = 32, .wave_size = 32}, std::move(mem), [&](thread_context& ctx) {
      auto buf = ctx.global<float>(g);
      ctx.label("own");
      store_element(buf, ctx.thread_id(), 1.0f);  // every thread its own word
      if (overlap && ctx.thread_id() == 7) {
        ctx.label("peek");
        (void)load_element(buf, 3);
      }
    });
    CAPTURE(overlap);
    if (!overlap) {
      CHECK(r.workgroups[0].races.empty());
      continue;
    }
    REQUIRE(r.workgroups[0].races.size() == 1);
    const race& x = r.workgroups[0].races[0];
    CHECK(x.space == memory_space::global);
    CHECK(x.begin == 12);
    CHECK(x.end == 16);
    CHECK(x.first.who.thread == 3);
    CHECK(x.first.label == "own");
    CHECK(x.second.who.thread == 7);
    CHECK(x.second.label == "peek");
  }
}

TEST_CASE("race: max_reports lists the first N and counts all") {
  const run_result r = run({.block = 64, .max_reports = 5}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<int>(1);
    if (ctx.thread_id() == 0) store_element(lds, 0, 1);
    (void)load_element(lds, 0);
  });
  CHECK(r.workgroups[0].races.size() == 5);
  CHECK(r.found.races == 63);
}

TEST_CASE("race_screen: flags every interval find_races(within_workgroup) finds racing; exactly those when words are whole") {
  // The law that lets the engine skip the search for the LDS intervals of a correct program: no race is missed,
  // and with touches of whole 4-byte words (the engine's common case) there is no false alarm either.
  std::mt19937 rng(15);
  const std::vector<std::string> labels{""};
  const tilesim::sim::race_naming naming{&labels, 64, nullptr};
  tilesim::sim::race_screen screen(96);
  int racing = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const bool words = trial % 2 == 0;
    std::vector<tilesim::sim::touch> touches;
    const int n = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) {
      tilesim::sim::touch t;
      t.begin = words ? 4 * (rng() % 16) : rng() % 64;
      t.end = t.begin + (words ? 4 * (1 + rng() % 4) : 1 + rng() % 16);
      t.space = tilesim::sim::memory_space::lds;
      const unsigned kind = rng() % 6;
      t.write = kind >= 3;
      t.atomic = kind >= 5;
      t.thread = static_cast<int>(rng() % 3);
      touches.push_back(t);
      screen.mark(t.begin, t.end, t.thread, t.write, t.atomic);
    }
    const bool found = !tilesim::sim::find_races(touches, tilesim::sim::race_scope::within_workgroup, naming).empty();
    if (found) CHECK(screen.race());
    if (words) CHECK(screen.race() == found);
    racing += found;
    screen.clear();
  }
  CHECK(racing > 400);   // both outcomes were exercised
  CHECK(racing < 3600);
}
