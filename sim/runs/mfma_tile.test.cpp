// Laws of MFMA f16 (kernel/model/mfma.hpp) through kernel/mfma_tile/mfma_tile.hpp: for both shapes D equals A * B + C
// computed on the host, every element (integer inputs: exact in fp32); the per-lane loads the program makes
// from the ISA's formulas are the elements the spec/ encodings name (else D would be wrong); a wave that is not
// 64 lanes, or whose lanes do not all arrive, is an error naming the lanes.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/mfma_tile/mfma_tile.hpp"

using namespace tilesim;

namespace {

template <mfma_shape Shape>
void check_shape() {
  const mfma_dims_t dim = mfma_dims(Shape);
  const int grid = 2, mk = dim.m * dim.k, nk = dim.n * dim.k, mn = dim.m * dim.n;
  std::vector<std::uint16_t> a(static_cast<std::size_t>(grid * mk)), b(static_cast<std::size_t>(grid * nk));
  std::vector<float> c(static_cast<std::size_t>(grid * mn));
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = integer_to_half(static_cast<int>(k * 7 % 9) - 4);
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = integer_to_half(static_cast<int>(k * 5 % 7) - 3);
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = static_cast<float>(static_cast<int>(k % 11) - 5);
  sim::global_memory mem;
  mem.add<std::uint16_t>("A", a);
  mem.add<std::uint16_t>("B", b);
  mem.add<float>("C", c);
  const int d = mem.add<float>("D", grid * mn, -1000.0f);
  const sim::run_result r = sim::run(sim::launch{.grid = grid, .block = 64, .wave_size = 64}, std::move(mem),
                                     [](sim::thread_context& ctx) { programs::mfma_tile<Shape>(ctx, {}); });
  CHECK(r.clean());
  const std::vector<float> out = r.memory.get<float>(d);
  for (int blk = 0; blk < grid; ++blk)
    for (int i = 0; i < dim.m; ++i)
      for (int n = 0; n < dim.n; ++n) {
        float want = c[static_cast<std::size_t>(blk * mn + i * dim.n + n)];
        for (int k = 0; k < dim.k; ++k)
          want += half_to_float(a[static_cast<std::size_t>(blk * mk + i * dim.k + k)]) *
                  half_to_float(b[static_cast<std::size_t>(blk * nk + n * dim.k + k)]);
        CAPTURE(blk);
        CAPTURE(i);
        CAPTURE(n);
        CHECK(out[static_cast<std::size_t>(blk * mn + i * dim.n + n)] == want);
      }
}

}  // namespace

TEST_CASE("mfma: the worked example and the matrix units (multiply-adds / 2048) the timing model prices") {
  const matrix_position a = mfma_a_position(mfma_shape::f32_16x16x16_f16, 17, 0);
  const matrix_position b = mfma_b_position(mfma_shape::f32_16x16x16_f16, 17, 3);
  const matrix_position c = mfma_c_position(mfma_shape::f32_16x16x16_f16, 17, 2);
  CHECK(a.row == 1);
  CHECK(a.col == 4);
  CHECK(b.row == 7);  // k
  CHECK(b.col == 1);  // n
  CHECK(c.row == 6);
  CHECK(c.col == 1);
  CHECK(mfma_matrix_units(mfma_shape::f32_32x32x8_f16) == 4);
  CHECK(mfma_matrix_units(mfma_shape::f32_16x16x16_f16) == 2);
}

TEST_CASE("mfma_tile: D == A * B + C, every element, 32x32x8 and 16x16x16, 2 blocks of integer inputs") {
  check_shape<mfma_shape::f32_32x32x8_f16>();
  check_shape<mfma_shape::f32_16x16x16_f16>();
}

TEST_CASE("an MFMA on a wave of 32, or with lanes missing, is an error naming them") {
  auto message_of = [](int wave, int lanes) {
    sim::global_memory mem;
    mem.add<int>("x", 1, 0);
    try {
      (void)sim::run(sim::launch{.block = 64, .wave_size = wave}, std::move(mem), [lanes](sim::thread_context& ctx) {
        if (ctx.lane() >= lanes) return;
        (void)mfma_16x16x16_f16(ctx, {}, {}, {});
      });
    } catch (const sim::run_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message_of(32, 32) == "tilesim: block 0 wave 0: a v_mfma_f32_16x16x16_f16 needs a whole wave of 64 lanes (wave "
                              "size 32, lanes in this wave 32)");
  CHECK(message_of(64, 60) == "tilesim: block 0 wave 0: divergent warp collective: threads 0-59 wait at a "
                              "v_mfma_f32_16x16x16_f16, but threads 60-63 returned (every lane of a wave must take part)");
}
