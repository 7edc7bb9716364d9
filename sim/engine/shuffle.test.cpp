// Laws of warp shuffles (shuffle.hpp): the source-lane rule of each kind, the exchange on the simulator, and
// the errors for a wave whose lanes do not all take part.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"

using namespace tilesim;
using namespace tilesim::sim;

TEST_CASE("worked example (W = 4): the source lane of each kind, own value outside the wave") {
  auto row = [](shuffle_kind k, index_t operand) {
    std::vector<int> v;
    for (int lane = 0; lane < 4; ++lane) v.push_back(shuffle_source(k, lane, operand, 4));
    return v;
  };
  CHECK(row(shuffle_kind::xor_lanes, 1) == std::vector<int>{1, 0, 3, 2});
  CHECK(row(shuffle_kind::xor_lanes, 2) == std::vector<int>{2, 3, 0, 1});
  CHECK(row(shuffle_kind::xor_lanes, 4) == std::vector<int>{0, 1, 2, 3});  // lane ^ 4 is no lane: own
  CHECK(row(shuffle_kind::up, 1) == std::vector<int>{0, 0, 1, 2});
  CHECK(row(shuffle_kind::down, 1) == std::vector<int>{1, 2, 3, 3});
  CHECK(row(shuffle_kind::index, 3) == std::vector<int>{3, 3, 3, 3});
  CHECK(row(shuffle_kind::index, 6) == std::vector<int>{2, 2, 2, 2});   // mod W, as __shfl_sync
  CHECK(row(shuffle_kind::index, -1) == std::vector<int>{3, 3, 3, 3});
}

TEST_CASE("every source is a lane of the wave, for every kind, lane and operand") {
  for (int w : {4, 32, 64})
    for (shuffle_kind k : {shuffle_kind::index, shuffle_kind::xor_lanes, shuffle_kind::up, shuffle_kind::down})
      for (int lane = 0; lane < w; ++lane)
        for (index_t operand = -70; operand <= 70; ++operand) {
          const int s = shuffle_source(k, lane, operand, w);
          CHECK((s >= 0 && s < w));
        }
}

namespace {
// Thread t: a butterfly sum of t over its wave with shuffle_xor, an inclusive scan with shuffle_up, and lane
// 0's value broadcast with shuffle_index; all written to out[3 t .. 3 t + 2].
struct collective_program {
  void operator()(thread_context& ctx) const {
    const auto out = global_buffer<std::int64_t>(ctx, 0);
    const index_t t = ctx.thread_id(), w = ctx.warp_size();
    std::int64_t sum = t;
    for (index_t mask = w / 2; mask >= 1; mask /= 2) sum += shuffle_xor(ctx, sum, mask);
    std::int32_t scan = static_cast<std::int32_t>(t);
    for (index_t d = 1; d < w; d *= 2) {
      const std::int32_t up = shuffle_up(ctx, scan, d);
      if (ctx.lane() >= d) scan += up;
    }
    ctx.barrier();  // shuffles and barriers mix
    const float first = shuffle_index(ctx, static_cast<float>(t), 0);
    store_element(out, 3 * t, sum);
    store_element(out, 3 * t + 1, std::int64_t{scan});
    store_element(out, 3 * t + 2, static_cast<std::int64_t>(first));
  }
};
}  // namespace

TEST_CASE("a wave's lanes exchange: butterfly sum, inclusive scan and broadcast, waves of 32 and 64") {
  for (int w : {32, 64}) {
    CAPTURE(w);
    global_memory mem;
    const int out = mem.add<std::int64_t>("out", 3 * 128, -1);
    const run_result r = sim::run(launch{.block = 128, .wave_size = w}, std::move(mem), collective_program{});
    CHECK(r.clean());
    const std::vector<std::int64_t> v = r.memory.get<std::int64_t>(out);
    for (int t = 0; t < 128; ++t) {
      const int first = t / w * w, lane = t % w;
      const std::int64_t wave_sum = std::int64_t{w} * first + std::int64_t{w} * (w - 1) / 2;
      CHECK(v[static_cast<std::size_t>(3 * t)] == wave_sum);
      CHECK(v[static_cast<std::size_t>(3 * t + 1)] == std::int64_t{lane + 1} * (2 * first + lane) / 2);  // first + ... + t
      CHECK(v[static_cast<std::size_t>(3 * t + 2)] == first);
    }
    // A shuffle moves no memory: the only recorded accesses are the three stores per thread.
    CHECK(r.instruction_count() == static_cast<std::size_t>(3 * (128 / w)));
  }
}

TEST_CASE("a wave whose lanes do not all reach the shuffle is an error naming both groups, not a hang") {
  global_memory mem;
  mem.add<int>("out", 64, 0);
  std::string message;
  try {
    (void)sim::run(launch{.block = 64, .wave_size = 32}, std::move(mem), [](thread_context& ctx) {
      if (ctx.thread_id() >= 40) return;  // wave 1: lanes 8-31 leave
      (void)shuffle_xor(ctx, 1, 1);
    });
  } catch (const run_error& e) {
    message = e.what();
    CHECK(e.why == run_error::reason::divergent_shuffle);
  }
  CHECK(message == "tilesim: block 0 wave 1: divergent warp collective: threads 32-39 wait at a 4-byte xor shuffle, but threads "
                   "40-63 returned (every lane of a wave must take part)");
}

TEST_CASE("lanes of one wave at different kinds of shuffle are an error naming them") {
  global_memory mem;
  mem.add<int>("out", 32, 0);
  std::string message;
  try {
    (void)sim::run(launch{.block = 32, .wave_size = 32}, std::move(mem), [](thread_context& ctx) {
      if (ctx.lane() < 16) (void)shuffle_xor(ctx, 1, 1);
      else (void)shuffle_up(ctx, 1, 1);
    });
  } catch (const run_error& e) {
    message = e.what();
  }
  CHECK(message == "tilesim: block 0 wave 0: divergent warp collective: threads 0-15 wait at a 4-byte xor shuffle, threads "
                   "16-31 at another kind or width (thread 16: a 4-byte up shuffle)");
}

TEST_CASE("a partial last wave cannot read lanes that do not exist") {
  global_memory mem;
  mem.add<int>("out", 48, 0);
  std::string message;
  try {
    (void)sim::run(launch{.block = 48, .wave_size = 32}, std::move(mem),
                   [](thread_context& ctx) { (void)shuffle_down(ctx, 1, 8); });
  } catch (const run_error& e) {
    message = e.what();
  }
  CHECK(message == "tilesim: block 0 wave 1: threads 40-47 down-shuffle from lanes past the workgroup's last thread "
                   "47 (a partial wave has no such lanes)");
}
