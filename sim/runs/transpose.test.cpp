// tilesim/sim/runs/transpose.test.cpp: the scalar transpose: out == in^T, one element per access, both forms.
#include "kernel/transpose/transpose.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "sim/engine/engine.hpp"
#include "sim/engine/same_accesses.test.hpp"

using namespace tilesim;
using namespace tilesim::programs;

namespace {

std::vector<float> matrix(index_t n) {
  std::vector<float> m(static_cast<std::size_t>(n * n));
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<float>(i) * 0.5f + 1.0f;
  return m;
}

// The transpose of an n x n matrix on the simulator; `program` runs one thread (either form).
template <class Program>
sim::run_result run_transpose(index_t n, int block, int wave, Program program) {
  sim::launch l;
  l.grid = static_cast<int>(transpose_workgroups({.n = n}));
  l.block = block;
  l.wave_size = wave;
  sim::global_memory mem;
  mem.add<float>("in", matrix(n));
  mem.add<float>("out", n * n, -1.0f);
  return sim::run(l, std::move(mem), program);
}

}  // namespace

TEST_CASE("transpose: out[j][i] == in[i][j] for n = 32, 64, 96 with 256, 128 and 1024 threads, wave 32 and 64") {
  for (index_t n : {32, 64, 96})
    for (int block : {128, 256, 1024})
      for (int wave : {32, 64}) {
        CAPTURE(n);
        CAPTURE(block);
        CAPTURE(wave);
        const transpose_params p{.n = n};
        const sim::run_result r = run_transpose(n, block, wave, [&p](sim::thread_context& ctx) { transpose(ctx, p); });
        REQUIRE(r.clean());
        const std::vector<float> in = matrix(n), out = r.memory.get<float>(1);
        int wrong = 0;
        for (index_t i = 0; i < n; ++i)
          for (index_t j = 0; j < n; ++j) wrong += out[static_cast<std::size_t>(j * n + i)] != in[static_cast<std::size_t>(i * n + j)];
        CHECK(wrong == 0);
      }
}

TEST_CASE("transpose: every access is one 4-byte element; each wave issues 4 of each kind with 256 threads") {
  const transpose_params p{.n = 64};
  const sim::run_result r = run_transpose(64, 256, 32, [&p](sim::thread_context& ctx) { transpose(ctx, p); });
  REQUIRE(r.clean());
  for (const auto& wave : r.workgroups[3].waves) {
    REQUIRE(wave.instructions.size() == 16);
    for (std::size_t i = 0; i < 16; ++i) {
      CAPTURE(i);
      const char* want = i < 8 ? (i % 2 == 0 ? "global load" : "lds store") : (i % 2 == 0 ? "lds load" : "global store");
      CHECK(wave.instructions[i].access.label == want);
      CHECK(wave.instructions[i].access.width == 4);
    }
  }
}

TEST_CASE("transpose: the compiled form (constant<transpose_shape>) makes the run-time form's accesses, lane by lane") {
  static constexpr transpose_shape shape{{.n = 64}, 256, 32};  // static: a captureless lambda names it
  const transpose_params p = shape.params;
  const sim::run_result a = run_transpose(64, 256, 32, [&p](sim::thread_context& ctx) { transpose(ctx, p); });
  const sim::run_result b = run_transpose(64, 256, 32, [](sim::thread_context& ctx) { transpose(ctx, constant<shape>{}); });
  REQUIRE(a.clean());
  REQUIRE(b.clean());
  sim::testing::check_same_accesses(a, b);
  CHECK(a.memory.get<float>(1) == b.memory.get<float>(1));
}

TEST_CASE("transpose: n not a multiple of 32, or threads that do not split a 32 x 32 tile, are errors naming them") {
  sim::launch l;
  l.grid = 1;
  l.block = 256;
  l.wave_size = 32;
  sim::global_memory mem;
  mem.add<float>("in", 48 * 48, 0.0f);
  mem.add<float>("out", 48 * 48, 0.0f);
  const transpose_params bad_n{.n = 48};
  CHECK_THROWS_WITH(sim::run(l, std::move(mem), [&](sim::thread_context& ctx) { transpose(ctx, bad_n); }),
                    doctest::Contains("n = 48"));
  CHECK(check_transpose({.n = 64}, 96).what == rule::launch_split_not_exact);
  CHECK(check_transpose({.n = 64}, 256).what == rule::none);
}
