// Laws of mma.sync m16n8k16 (kernel/model/mma.hpp) through kernel/mma_tile/mma_tile.hpp: the fragment positions cover
// each matrix exactly once, and D equals A * B + C computed on the host (inputs exact in fp32).
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/mma_tile/mma_tile.hpp"

using namespace tilesim;

TEST_CASE("worked example and invariant: every element of A, B and C is held by exactly one (lane, register, half)") {
  CHECK(mma_a_position(5, 0, 0).row == 1);
  CHECK(mma_a_position(5, 0, 0).col == 2);
  CHECK(mma_b_position(5, 0, 1).row == 3);
  CHECK(mma_b_position(5, 0, 1).col == 1);
  CHECK(mma_c_position(5, 2).row == 9);
  CHECK(mma_c_position(5, 2).col == 2);
  std::set<std::pair<int, int>> a, b, c;
  for (int lane = 0; lane < 32; ++lane) {
    for (int reg = 0; reg < 4; ++reg)
      for (int half = 0; half < 2; ++half) a.insert({mma_a_position(lane, reg, half).row, mma_a_position(lane, reg, half).col});
    for (int reg = 0; reg < 2; ++reg)
      for (int half = 0; half < 2; ++half) b.insert({mma_b_position(lane, reg, half).row, mma_b_position(lane, reg, half).col});
    for (int reg = 0; reg < 4; ++reg) c.insert({mma_c_position(lane, reg).row, mma_c_position(lane, reg).col});
  }
  CHECK(a.size() == 256);
  CHECK(b.size() == 128);
  CHECK(c.size() == 128);
  CHECK(*a.rbegin() == std::make_pair(15, 15));
  CHECK(*b.rbegin() == std::make_pair(15, 7));
  CHECK(*c.rbegin() == std::make_pair(15, 7));
}

TEST_CASE("half_to_float is exact: normals, subnormals, signs; integer_to_half is its inverse on integers up to 2048") {
  for (int v = -2048; v <= 2048; ++v) CHECK(half_to_float(integer_to_half(v)) == static_cast<float>(v));
  CHECK(half_to_float(0x3c00) == 1.0f);
  CHECK(half_to_float(0xc000) == -2.0f);
  CHECK(half_to_float(0x3555) == 0.333251953125f);
  CHECK(half_to_float(0x0001) == 5.9604644775390625e-8f);  // 2^-24
  CHECK(half_to_float(0x7bff) == 65504.0f);
}

namespace {
constexpr std::uint16_t half_of(int v) { return integer_to_half(v); }
}  // namespace

TEST_CASE("mma_tile: D == A * B + C, every element, for 3 blocks of integer inputs") {
  const int grid = 3;
  std::vector<std::uint16_t> a(grid * 256), b(grid * 128);
  std::vector<float> c(grid * 128);
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = half_of(static_cast<int>(k * 7 % 9) - 4);
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = half_of(static_cast<int>(k * 5 % 7) - 3);
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = static_cast<float>(static_cast<int>(k % 11) - 5);
  CHECK(half_to_float(half_of(-4)) == -4.0f);
  sim::global_memory mem;
  mem.add<std::uint16_t>("A", a);
  mem.add<std::uint16_t>("B", b);
  mem.add<float>("C", c);
  const int d = mem.add<float>("D", grid * 128, -1.0f);
  const sim::run_result r = sim::run(sim::launch{.grid = grid, .block = 32, .wave_size = 32}, std::move(mem),
                                     [](sim::thread_context& ctx) { programs::mma_tile(ctx, {}); });
  CHECK(r.clean());
  const std::vector<float> out = r.memory.get<float>(d);
  for (int blk = 0; blk < grid; ++blk)
    for (int i = 0; i < 16; ++i)
      for (int n = 0; n < 8; ++n) {
        float want = c[static_cast<std::size_t>(blk * 128 + i * 8 + n)];
        for (int k = 0; k < 16; ++k)
          want += half_to_float(a[static_cast<std::size_t>(blk * 256 + i * 16 + k)]) *
                  half_to_float(b[static_cast<std::size_t>(blk * 128 + n * 16 + k)]);
        CAPTURE(blk);
        CAPTURE(i);
        CAPTURE(n);
        CHECK(out[static_cast<std::size_t>(blk * 128 + i * 8 + n)] == want);
      }
}

TEST_CASE("an mma with some lanes missing is an error naming them") {
  sim::global_memory mem;
  mem.add<int>("x", 1, 0);
  std::string message;
  try {
    (void)sim::run(sim::launch{.block = 32, .wave_size = 32}, std::move(mem), [](sim::thread_context& ctx) {
      if (ctx.lane() >= 30) return;
      (void)mma_m16n8k16(ctx, {}, {}, {});
    });
  } catch (const sim::run_error& e) {
    message = e.what();
  }
  CHECK(message == "tilesim: block 0 wave 0: divergent warp collective: threads 0-29 wait at an mma.sync m16n8k16, but "
                   "threads 30-31 returned (every lane of a wave must take part)");
}

namespace {
// The bfloat16 bits of a float that has them exactly (its low 16 bits zero): bf16_of(1.5f) == 0x3fc0.
std::uint16_t bf16_of(float v) { return static_cast<std::uint16_t>(__builtin_bit_cast(std::uint32_t, v) >> 16); }
}  // namespace

TEST_CASE("mma_tile bf16: D == A * B + C with bfloat16 A and B (the same fragments), 3 blocks; values beyond fp16's "
          "range of exactness and the bit patterns show the bf16 reading, not the fp16 one") {
  const int grid = 3;
  std::vector<std::uint16_t> a(grid * 256), b(grid * 128);
  std::vector<float> c(grid * 128);
  // Small integers, some times 256, B's times 0.25: exact in bf16 (8-bit mantissa), and every product and sum of
  // 16 is exact in fp32 (an H100 rounds inexact sums differently: data/calibration/README.md).
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = bf16_of(static_cast<float>(static_cast<int>(k * 7 % 9) - 4) * (k % 5 == 0 ? 256.0f : 1.0f));
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = bf16_of(static_cast<float>(static_cast<int>(k * 5 % 7) - 3) * 0.25f);
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = static_cast<float>(static_cast<int>(k % 11) - 5);
  CHECK(bf16_to_float(0x3f80) == 1.0f);
  CHECK(bf16_to_float(bf16_of(-4.0f * 1048576.0f)) == -4194304.0f);
  sim::global_memory mem;
  mem.add<std::uint16_t>("A", a);
  mem.add<std::uint16_t>("B", b);
  mem.add<float>("C", c);
  const int d = mem.add<float>("D", grid * 128, -1.0f);
  programs::mma_tile_params p;
  p.bf16 = true;
  const sim::run_result r = sim::run(sim::launch{.grid = grid, .block = 32, .wave_size = 32}, std::move(mem),
                                     [&](sim::thread_context& ctx) { programs::mma_tile(ctx, p); });
  CHECK(r.clean());
  const std::vector<float> out = r.memory.get<float>(d);
  int differs_from_fp16_reading = 0;
  for (int blk = 0; blk < grid; ++blk)
    for (int i = 0; i < 16; ++i)
      for (int n = 0; n < 8; ++n) {
        float want = c[static_cast<std::size_t>(blk * 128 + i * 8 + n)], as_fp16 = want;
        for (int k = 0; k < 16; ++k) {
          const std::uint16_t x = a[static_cast<std::size_t>(blk * 256 + i * 16 + k)], y = b[static_cast<std::size_t>(blk * 128 + n * 16 + k)];
          want += bf16_to_float(x) * bf16_to_float(y);
          as_fp16 += half_to_float(x) * half_to_float(y);
        }
        CAPTURE(blk);
        CAPTURE(i);
        CAPTURE(n);
        CHECK(out[static_cast<std::size_t>(blk * 128 + i * 8 + n)] == want);
        differs_from_fp16_reading += out[static_cast<std::size_t>(blk * 128 + i * 8 + n)] != as_fp16;
      }
  CHECK(differs_from_fp16_reading > 300);  // the check can tell the two readings apart
}

TEST_CASE("an mma.sync whose lanes disagree on fp16 and bf16 is a divergent collective naming both groups") {
  sim::global_memory mem;
  mem.add<int>("x", 1, 0);
  std::string message;
  try {
    (void)sim::run(sim::launch{.block = 32, .wave_size = 32}, std::move(mem), [](sim::thread_context& ctx) {
      if (ctx.lane() < 16)
        (void)mma_m16n8k16(ctx, {}, {}, {});
      else
        (void)mma_m16n8k16_bf16(ctx, {}, {}, {});
    });
  } catch (const sim::run_error& e) {
    message = e.what();
  }
  CHECK(message.find("divergent warp collective") != std::string::npos);
  CHECK(message.find("mma.sync m16n8k16 (bf16)") != std::string::npos);
}
