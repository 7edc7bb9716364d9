// Laws of access_recorder.hpp's checks: out-of-bounds and misaligned accesses are reported with thread, lane
// and address, and nothing outside a buffer is ever read or written (canaries and guard bytes survive).
#include <doctest/doctest.h>

#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"

using namespace tilesim;
using namespace tilesim::sim;

TEST_CASE("bounds (planted, LDS): lane 5 stores one element past a 64-float allocation: reported, the next allocation keeps its canary") {
  global_memory mem;
  const int out = mem.add<float>("out", 64);
  const run_result r = run({.block = 64, .wave_size = 32}, std::move(mem), [&](thread_context& ctx) {
    auto tile = ctx.lds<float>(64);
    auto canary = ctx.lds<float>(4);  // LDS bytes [256, 272): right after the tile
    const index_t t = ctx.thread_id();
    if (t < 4) store_element(canary, t, 1234.0f);
    ctx.barrier();
    ctx.label("stray");
    store_element(tile, t == 5 ? 64 : t, 1.0f);
    ctx.barrier();
    if (t < 4) store_element(ctx.global<float>(out), t, load_element(canary, t));
  });
  const workgroup_record& w = r.workgroups[0];
  REQUIRE(w.bounds_errors.size() == 1);
  const bounds_error& e = w.bounds_errors[0];
  CHECK(e.who == thread_ref{0, 5, 0, 5});
  CHECK(e.space == memory_space::lds);
  CHECK(e.kind == access_kind::store);
  CHECK(e.label == "stray");
  CHECK(e.buffer == 0);
  CHECK(e.element_offset == 64);
  CHECK(e.byte_offset == 256);
  CHECK(e.address == 256);
  CHECK(e.outside == 1);
  CHECK(describe(e) ==
        "block 0 thread 5 (wave 0, lane 5) lds store 'stray' (interval 1) of elements [64, 65) = bytes [256, 260) of "
        "lds allocation 0 (64 elements): 1 element(s) outside the buffer, dropped");
  const std::vector<float> seen = r.memory.get<float>(out);
  for (int i = 0; i < 4; ++i) CHECK(seen[static_cast<std::size_t>(i)] == 1234.0f);  // the canary is intact
  // The instruction still shows the address the lane computed: a timing model sees what the GPU would issue.
  CHECK(w.waves[0].instructions[1].access.address[5] == 256);
  CHECK(w.races.empty());  // the dropped store touched nothing, so it races with nothing
}

TEST_CASE("bounds (planted, global): lane 3 of wave 1 loads below and stores past its buffer: both reported, reads 0, guards intact") {
  global_memory mem;
  const int in = mem.add<int>("in", std::vector<int>{10, 11, 12, 13, 14, 15, 16, 17});
  const int out = mem.add<int>("out", 8, -1);
  const int canary = mem.add<int>("canary", 4, 77);
  const run_result r = run({.block = 16, .wave_size = 8}, std::move(mem), [&](thread_context& ctx) {
    const index_t t = ctx.thread_id();
    if (t >= 8) return;
    auto src = ctx.global<int>(in);
    auto dst = ctx.global<int>(out);
    ctx.label("copy");
    const int v = load_element(src, t == 3 ? -2 : t);
    store_element(dst, t == 3 ? 8 : t, v);
  });
  const workgroup_record& w = r.workgroups[0];
  REQUIRE(w.bounds_errors.size() == 2);
  const bounds_error& low = w.bounds_errors[0];
  CHECK(low.who.thread == 3);
  CHECK(low.kind == access_kind::load);
  CHECK(low.buffer_name == "global buffer 0 ('in')");
  CHECK(low.byte_offset == -8);
  CHECK(low.address == no_address);  // below address 0: no address to show
  const bounds_error& high = w.bounds_errors[1];
  CHECK(high.kind == access_kind::store);
  CHECK(high.buffer == out);
  CHECK(high.byte_offset == 32);
  CHECK(high.address == 256 + 32);  // out's base is 256
  const std::vector<int> got = r.memory.get<int>(out);
  CHECK(got == std::vector<int>{10, 11, 12, -1, 14, 15, 16, 17});  // element 3 never written
  CHECK(r.memory.get<int>(canary) == std::vector<int>{77, 77, 77, 77});
  CHECK(r.memory.get<int>(in) == std::vector<int>{10, 11, 12, 13, 14, 15, 16, 17});
  CHECK(r.memory.guards_intact());
}

TEST_CASE("bounds: a vector straddling the end moves its inside part and reports only the outside count") {
  global_memory mem;
  const int g = mem.add<float>("g", std::vector<float>{1, 2, 3, 4, 5, 6});
  std::vector<float> seen;
  const run_result r = run({.block = 1, .wave_size = 1}, std::move(mem), [&](thread_context& ctx) {
    float v[4] = {9, 9, 9, 9};
    ctx.global<float>(g).load(4, 4, v, true);
    seen.assign(v, v + 4);
    const float w[4] = {-1, -2, -3, -4};
    ctx.global<float>(g).store(4, 4, w, true);
  });
  CHECK(seen == std::vector<float>{5, 6, 0, 0});
  CHECK(r.memory.get<float>(g) == std::vector<float>{1, 2, 3, 4, -1, -2});
  REQUIRE(r.workgroups[0].bounds_errors.size() == 2);
  CHECK(r.workgroups[0].bounds_errors[0].outside == 2);
  CHECK(r.memory.guards_intact());
}

TEST_CASE("bounds: absurd offsets and lengths never reach memory and never crash") {
  global_memory mem;
  const int g = mem.add<float>("g", 4);
  const run_result r = run({.block = 1, .wave_size = 1}, std::move(mem), [&](thread_context& ctx) {
    auto b = ctx.global<float>(g);
    float v = 1;
    b.store(index_t{1} << 62, 1, &v, true);
    b.store(-(index_t{1} << 62), 1, &v, true);
    b.load(0, 0, &v, true);    // nothing at all
    b.load(0, -3, &v, true);   // nothing at all
    recording_buffer<float>{}.store(0, 1, &v, true);  // an empty handle
  });
  CHECK(r.workgroups[0].bounds_errors.size() == 2);
  CHECK(r.memory.get<float>(g) == std::vector<float>(4, 0.0f));
  CHECK(r.memory.guards_intact());
}

TEST_CASE("alignment: an 8-byte access at LDS byte 4 is reported misaligned; a 12-byte one at 4 is fine (alignment 4)") {
  const run_result r = run({.block = 1, .wave_size = 1}, global_memory{}, [](thread_context& ctx) {
    auto lds = ctx.lds<float>(16);
    float v[3] = {};
    ctx.label("pair");
    lds.load(1, 2, v, true);
    ctx.label("triple");
    lds.load(1, 3, v, true);
  });
  REQUIRE(r.workgroups[0].misaligned.size() == 1);
  const misaligned_access& m = r.workgroups[0].misaligned[0];
  CHECK(m.label == "pair");
  CHECK(m.address == 4);
  CHECK(m.alignment == 8);
  CHECK(describe(m) == "block 0 thread 0 (wave 0, lane 0) lds load 'pair' (interval 0) of 8 bytes at address 4 of "
                       "lds allocation 0: not a multiple of 8");
}
