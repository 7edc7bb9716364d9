// tilesim/gpu/crosscheck/crosscheck.cpp: a point's inputs, its simulator side, counters and output check
// (the catalogue and the points' JSON form are points.cpp).
#include "gpu/crosscheck/crosscheck.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>

#include "examples/conv/conv_variants.hpp"
#include "examples/gemm/gemm_variants.hpp"
#include "examples/gemm/mma_gemm_variants.hpp"
#include "examples/morton/morton_variants.hpp"
#include "gpu/kernels/compiled_shapes.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"

namespace tilesim::gpu {

using util::json_value;

namespace {

template <class T>
std::vector<T> typed(const byte_buffer& b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

template <class T>
byte_buffer bytes_of(const std::vector<T>& v) {
  byte_buffer b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// A float in [-1, 1) with 24 significant bits: every product of two is exact in double.
float unit_float(std::mt19937_64& g) { return static_cast<float>(static_cast<double>(g() >> 40) / (1 << 23) - 1.0); }

// Which thread's global store covered `address` (from the simulator's records): "block 3 thread 70".
std::string writer_of(const simulated& s, sim::address_t address, int wave_size) {
  for (std::size_t b = 0; b < s.run.workgroups.size(); ++b) {
    const auto& waves = s.run.workgroups[b].waves;
    for (std::size_t w = 0; w < waves.size(); ++w)
      for (const sim::wave_instruction& i : waves[w].instructions) {
        if (i.access.space != sim::memory_space::global || i.access.kind != sim::access_kind::store) continue;
        for (std::size_t l = 0; l < i.access.address.size(); ++l) {
          const sim::address_t a = i.access.address[l];
          if (a != sim::no_address && address >= a && address < a + static_cast<sim::address_t>(i.access.width))
            return "block " + std::to_string(b) + " thread " + std::to_string(w * static_cast<std::size_t>(wave_size) + l);
        }
      }
  }
  return "no thread (the simulator stored nothing there)";
}

// Runs program<S> on the simulator for the compiled shape S == shape of `Table` (the instance the GPU kernel
// runs: gpu/kernels/compiled_shapes.hpp); a shape with no entry is std::invalid_argument.
template <const auto& Table, class Shape, class Program>
sim::run_result compiled_run(const Shape& shape, const sim::launch& l, sim::global_memory mem, Program program) {
  sim::run_result r;
  const bool found = compiled::with_compiled_shape<Table>(shape, [&]<int I>() {
    r = sim::run(l, std::move(mem), [&](sim::thread_context& ctx) { program.template operator()<Table[I]>(ctx); });
  });
  if (!found)
    throw std::invalid_argument("no compiled kernel for this point's shape (grid " + std::to_string(l.grid) + ", block " +
                                std::to_string(l.block) + "): add it to gpu/kernels/compiled_shapes.hpp");
  return r;
}

std::string hex(std::uint32_t v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}

}  // namespace

point_inputs make_inputs(const crosscheck_point& p, std::uint64_t seed) {
  point_inputs in;
  in.seed = seed;
  std::mt19937_64 g(seed);
  if (p.program == program_kind::gemm_fp32) {
    const programs::gemm_params& q = p.gemm;
    std::vector<float> a(static_cast<std::size_t>(q.m * q.k)), b(static_cast<std::size_t>(q.n * q.k));
    for (float& x : a) x = unit_float(g);
    for (float& x : b) x = unit_float(g);
    in.buffers = {bytes_of(a), bytes_of(b),
                  bytes_of(std::vector<float>(static_cast<std::size_t>(q.m * q.n), std::numeric_limits<float>::quiet_NaN()))};
    in.output_slot = q.c;
    in.output_rows = q.m;
    in.output_cols = q.n;
    return in;
  }
  if (p.program == program_kind::mma_gemm_f16) {  // fp16 multiples of 1/16 in [-1, 1]: C exact in fp32, any order
    const programs::mma_gemm_params& q = p.mma_gemm;
    auto sixteenths = [&](index_t count) {
      std::vector<std::uint16_t> h(static_cast<std::size_t>(count));
      for (std::uint16_t& x : h) {
        const int v = static_cast<int>(g() % 33) - 16;
        x = v == 0 ? 0 : static_cast<std::uint16_t>(integer_to_half(v) - (4 << 10));  // v / 16: exponent - 4
      }
      return h;
    };
    in.buffers = {bytes_of(sixteenths(q.m * q.k)), bytes_of(sixteenths(q.n * q.k)),
                  bytes_of(std::vector<float>(static_cast<std::size_t>(q.m * q.n), std::numeric_limits<float>::quiet_NaN()))};
    in.output_slot = q.c;
    in.output_rows = q.m;
    in.output_cols = q.n;
    return in;
  }
  if (p.program == program_kind::morton_f32) {  // the image stored in the point's layout, output -1
    const examples::morton_params& m = p.morton;
    std::vector<float> stored(static_cast<std::size_t>(m.height * m.width));
    for (float& x : stored) {
      x = unit_float(g);
      if (x == -1.0f) x = 0.5f;  // never the poison
    }
    in.buffers = {bytes_of(stored), bytes_of(std::vector<float>(stored.size(), -1.0f))};
    in.output_slot = m.output;
    in.output_rows = m.height;
    in.output_cols = m.width;
    return in;
  }
  if (p.program == program_kind::conv_f32) {  // NHWC input, KRSC weights, output NaN
    const examples::conv_params& c = p.conv;
    std::vector<float> x(static_cast<std::size_t>(examples::conv_input_count(c))),
        w(static_cast<std::size_t>(examples::conv_weight_count(c)));
    for (float& e : x) e = unit_float(g);
    for (float& e : w) e = unit_float(g);
    const index_t outputs = examples::conv_output_count(c);
    in.buffers = {bytes_of(x), bytes_of(w),
                  bytes_of(std::vector<float>(static_cast<std::size_t>(outputs), std::numeric_limits<float>::quiet_NaN()))};
    in.output_slot = c.output;
    in.output_cols = c.c_out;
    in.output_rows = outputs / c.c_out;
    return in;
  }
  if (p.program == program_kind::transpose_f32) {  // random finite floats, output -1
    const programs::transpose_params& t = p.transpose;
    std::vector<float> x(static_cast<std::size_t>(t.n * t.n));
    for (float& e : x) {
      e = unit_float(g);
      if (e == -1.0f) e = 0.25f;  // never the poison
    }
    in.buffers = {bytes_of(x), bytes_of(std::vector<float>(x.size(), -1.0f))};
    in.output_slot = t.output;
    in.output_rows = in.output_cols = t.n;
    return in;
  }
  const programs::copy_params& tile = p.program == program_kind::lds_sweep_u32 ? p.sweep.tile : p.copy;
  const index_t count = static_cast<index_t>(p.grid) * tile.rows * tile.cols;
  if (p.program == program_kind::copy_fp16) {
    std::vector<std::uint16_t> x(static_cast<std::size_t>(count));
    for (auto& e : x) e = static_cast<std::uint16_t>(g() % 0xFFFFu);  // never the poison 0xFFFF
    in.buffers = {bytes_of(x), bytes_of(std::vector<std::uint16_t>(x.size(), 0xFFFFu))};
  } else if (p.program == program_kind::lds_sweep_u32) {
    // Never an element whose expected output (itself times the iterations) is the poison 0xFFFFFFFF.
    const auto times = static_cast<std::uint32_t>(p.sweep.iterations);
    std::vector<std::uint32_t> x(static_cast<std::size_t>(count));
    for (auto& e : x) {
      do e = static_cast<std::uint32_t>(g());
      while (static_cast<std::uint32_t>(e * times) == 0xFFFFFFFFu);
    }
    in.buffers = {bytes_of(x), bytes_of(std::vector<std::uint32_t>(x.size(), 0xFFFFFFFFu))};
  } else {
    std::vector<float> x(static_cast<std::size_t>(count));
    for (auto& e : x) {
      std::uint32_t bits = static_cast<std::uint32_t>(g());
      if ((bits & 0x7F800000u) == 0x7F800000u) bits ^= 0x00800000u;  // finite: no NaN payload to argue about
      if (bits == std::bit_cast<std::uint32_t>(-1.0f)) bits ^= 1u;    // never the poison
      e = std::bit_cast<float>(bits);
    }
    in.buffers = {bytes_of(x), bytes_of(std::vector<float>(x.size(), -1.0f))};
  }
  in.output_slot = tile.output;
  in.output_rows = static_cast<index_t>(p.grid) * tile.rows;
  in.output_cols = tile.cols;
  return in;
}

simulated simulate(const crosscheck_point& p, const point_inputs& in) {
  sim::launch l;
  l.grid = p.grid;
  l.block = p.block;
  sim::apply_guard_rules(sim::arch_named("sm90"), l);  // the points run on sm90 (its guard rules)
  l.wave_size = p.wave_size;
  sim::global_memory mem;
  simulated s;
  if (p.program == program_kind::gemm_fp32) {
    mem.add<float>("a", typed<float>(in.buffers[0]));
    mem.add<float>("b", typed<float>(in.buffers[1]));
    mem.add<float>("c", typed<float>(in.buffers[2]));
    const programs::gemm_shape shape{p.gemm, p.block, p.wave_size};
    s.run = compiled_run<compiled::gemm_shapes>(shape, l, std::move(mem), [&]<auto S>(sim::thread_context& ctx) {
      programs::gemm_tile(ctx, constant<S>{});
    });
    s.buffers = {bytes_of(s.run.memory.get<float>(0)), bytes_of(s.run.memory.get<float>(1)),
                 bytes_of(s.run.memory.get<float>(2))};
  } else if (p.program == program_kind::mma_gemm_f16) {
    mem.add<std::uint16_t>("a", typed<std::uint16_t>(in.buffers[0]));
    mem.add<std::uint16_t>("b", typed<std::uint16_t>(in.buffers[1]));
    mem.add<float>("c", typed<float>(in.buffers[2]));
    const programs::mma_gemm_shape shape{p.mma_gemm, p.block, p.wave_size};
    s.run = compiled_run<compiled::mma_gemm_shapes>(shape, l, std::move(mem), [&]<auto S>(sim::thread_context& ctx) {
      programs::mma_gemm(ctx, constant<S>{});
    });
    s.buffers = {bytes_of(s.run.memory.get<std::uint16_t>(0)), bytes_of(s.run.memory.get<std::uint16_t>(1)),
                 bytes_of(s.run.memory.get<float>(2))};
  } else if (p.program == program_kind::morton_f32) {
    mem.add<float>("in", typed<float>(in.buffers[0]));
    mem.add<float>("out", typed<float>(in.buffers[1]));
    const examples::morton_shape shape{p.morton, p.block, p.wave_size, p.grid};
    s.run = compiled_run<compiled::morton_shapes>(shape, l, std::move(mem), [&]<auto S>(sim::thread_context& ctx) {
      examples::morton_read<float>(ctx, constant<S>{});
    });
    s.buffers = {bytes_of(s.run.memory.get<float>(0)), bytes_of(s.run.memory.get<float>(1))};
  } else if (p.program == program_kind::conv_f32) {
    mem.add<float>("in", typed<float>(in.buffers[0]));
    mem.add<float>("w", typed<float>(in.buffers[1]));
    mem.add<float>("out", typed<float>(in.buffers[2]));
    const examples::conv_shape shape{p.conv, p.block, p.wave_size, p.grid};
    s.run = compiled_run<compiled::conv_shapes>(shape, l, std::move(mem), [&]<auto S>(sim::thread_context& ctx) {
      examples::conv(ctx, constant<S>{});
    });
    s.buffers = {bytes_of(s.run.memory.get<float>(0)), bytes_of(s.run.memory.get<float>(1)),
                 bytes_of(s.run.memory.get<float>(2))};
  } else if (p.program == program_kind::transpose_f32) {
    mem.add<float>("in", typed<float>(in.buffers[0]));
    mem.add<float>("out", typed<float>(in.buffers[1]));
    const programs::transpose_shape shape{p.transpose, p.block, p.wave_size};
    s.run = compiled_run<compiled::transpose_shapes>(shape, l, std::move(mem), [&]<auto S>(sim::thread_context& ctx) {
      programs::transpose(ctx, constant<S>{});
    });
    s.buffers = {bytes_of(s.run.memory.get<float>(0)), bytes_of(s.run.memory.get<float>(1))};
  } else if (p.program == program_kind::lds_sweep_u32) {
    mem.add<std::uint32_t>("in", typed<std::uint32_t>(in.buffers[0]));
    mem.add<std::uint32_t>("out", typed<std::uint32_t>(in.buffers[1]));
    const programs::copy_shape shape{p.sweep.tile, p.block, p.wave_size, p.grid};
    const index_t iterations = p.sweep.iterations;
    s.run = compiled_run<compiled::lds_sweep_shapes>(shape, l, std::move(mem), [&]<auto S>(sim::thread_context& ctx) {
      programs::lds_sweep<std::uint32_t, 4>(ctx, constant<S>{}, iterations);
    });
    s.buffers = {bytes_of(s.run.memory.get<std::uint32_t>(0)), bytes_of(s.run.memory.get<std::uint32_t>(1))};
  } else if (p.program == program_kind::copy_fp16) {
    mem.add<std::uint16_t>("in", typed<std::uint16_t>(in.buffers[0]));
    mem.add<std::uint16_t>("out", typed<std::uint16_t>(in.buffers[1]));
    const programs::copy_shape shape{p.copy, p.block, p.wave_size, p.grid};
    s.run = compiled_run<compiled::copy_fp16_shapes>(shape, l, std::move(mem), [&]<auto S>(sim::thread_context& ctx) {
      programs::copy_tile<std::uint16_t>(ctx, constant<S>{});
    });
    s.buffers = {bytes_of(s.run.memory.get<std::uint16_t>(0)), bytes_of(s.run.memory.get<std::uint16_t>(1))};
  } else {
    mem.add<float>("in", typed<float>(in.buffers[0]));
    mem.add<float>("out", typed<float>(in.buffers[1]));
    const programs::copy_shape shape{p.copy, p.block, p.wave_size, p.grid};
    s.run = compiled_run<compiled::copy_fp32_shapes>(shape, l, std::move(mem), [&]<auto S>(sim::thread_context& ctx) {
      programs::copy_tile<float>(ctx, constant<S>{});
    });
    s.buffers = {bytes_of(s.run.memory.get<float>(0)), bytes_of(s.run.memory.get<float>(1))};
  }
  s.report = sim::make_program_report(sim::arch_named("sm90"), s.run);
  s.predicted = predicted_counters(s.report);
  s.cycles_per_workgroup = s.report.cycles_per_workgroup;
  s.lds_bytes = lds_bytes_of(s.run);
  return s;
}

json_value to_json(const output_check& c) {
  json_value v;
  v.set("method", c.method);
  v.set("compared", c.compared);
  v.set("mismatches", c.mismatches);
  v.set("max_error_over_bound", c.max_error);
  v.set("first_mismatch", c.first_mismatch.empty() ? json_value() : json_value(c.first_mismatch));
  return v;
}

output_check check_output(const crosscheck_point& p, const point_inputs& in, const std::vector<byte_buffer>& buffers,
                          const simulated* sim) {
  output_check c;
  const byte_buffer& out = buffers.at(static_cast<std::size_t>(in.output_slot));
  const index_t cols = in.output_cols;
  auto where = [&](index_t i, std::size_t element_bytes, index_t block_rows, index_t block_cols, index_t blocks_n) {
    const index_t r = i / cols, col = i % cols;
    std::string who = "block " + std::to_string((r / block_rows) * blocks_n + col / block_cols);
    if (sim) {
      const sim::address_t base = sim->run.memory.info(in.output_slot).base;
      who = writer_of(*sim, base + static_cast<sim::address_t>(i) * element_bytes, p.wave_size);
    }
    return who + " (row " + std::to_string(r) + ", col " + std::to_string(col) + ")";
  };
  if (p.program == program_kind::morton_f32) {  // out(y, x) == in[layout(y, x)], bit for bit
    const examples::morton_params& m = p.morton;
    const std::vector<float> stored = typed<float>(in.buffers[0]), got = typed<float>(out);
    c.method = "bit-exact: out(y, x) == in[layout(y, x)]";
    c.compared = m.height * m.width;
    examples::with_texel_layout(m.layout, m.height, m.width, m.tile, [&](const auto& layout) {
      for (index_t y = 0; y < m.height; ++y)
        for (index_t x = 0; x < m.width; ++x) {
          const float want = stored[static_cast<std::size_t>(layout.calculate_offset({y, x}))];
          const float have = got[static_cast<std::size_t>(y * m.width + x)];
          if (std::bit_cast<std::uint32_t>(want) == std::bit_cast<std::uint32_t>(have)) continue;
          if (c.mismatches++ == 0) {
            char buf[128];
            std::snprintf(buf, sizeof buf, "texel (%lld, %lld): expected %.9g, got %.9g", static_cast<long long>(y),
                          static_cast<long long>(x), want, have);
            c.first_mismatch = buf;
          }
        }
    });
    return c;
  }
  if (p.program == program_kind::conv_f32) {  // examples/conv's Eigen check
    const examples::conv_check r =
        examples::check_conv_result(p.conv, typed<float>(in.buffers[0]), typed<float>(in.buffers[1]), typed<float>(out));
    c.method = "|out - Eigen| <= K * 2^-23 * sum|a*b| (examples/conv)";
    c.compared = examples::conv_output_count(p.conv);
    c.mismatches = r.passed ? 0 : 1;  // the check stops at the first element that is off
    if (!r.passed) c.first_mismatch = r.text;
    return c;
  }
  if (p.program == program_kind::transpose_f32) {  // out[j][i] == in[i][j], bit for bit
    const index_t n = p.transpose.n;
    const std::vector<float> x = typed<float>(in.buffers[0]), y = typed<float>(out);
    c.method = "bit-exact: out[j][i] == in[i][j]";
    c.compared = n * n;
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j) {
        const float want = x[static_cast<std::size_t>(i * n + j)], have = y[static_cast<std::size_t>(j * n + i)];
        if (std::bit_cast<std::uint32_t>(want) == std::bit_cast<std::uint32_t>(have)) continue;
        if (c.mismatches++ == 0)
          c.first_mismatch = where(j * n + i, 4, programs::transpose_tile_side, programs::transpose_tile_side,
                                   n / programs::transpose_tile_side) +
                             ": expected " + hex(std::bit_cast<std::uint32_t>(want), 8) + ", got " +
                             hex(std::bit_cast<std::uint32_t>(have), 8);
      }
    return c;
  }
  if (p.program == program_kind::lds_sweep_u32) {  // the sweep: in * iterations, then as a copy
    point_inputs expected = in;
    const std::vector<std::uint32_t> x = typed<std::uint32_t>(in.buffers[0]);
    std::vector<std::uint32_t> y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
      y[i] = static_cast<std::uint32_t>(x[i] * static_cast<std::uint32_t>(p.sweep.iterations));
    expected.buffers[0] = bytes_of(y);
    crosscheck_point as_copy = p;
    as_copy.program = program_kind::copy_fp32;  // 4-byte elements, bit for bit
    as_copy.copy = p.sweep.tile;
    output_check c = check_output(as_copy, expected, buffers, sim);
    c.method = "bit-exact against input * iterations (mod 2^32)";
    return c;
  }
  if (p.program != program_kind::gemm_fp32 && p.program != program_kind::mma_gemm_f16) {
    c.method = "bit-exact";
    const byte_buffer& expected = in.buffers.at(static_cast<std::size_t>(p.copy.input));
    const std::size_t es = p.program == program_kind::copy_fp16 ? 2 : 4;
    c.compared = static_cast<long long>(expected.size() / es);
    for (std::size_t i = 0; i < expected.size() / es; ++i) {
      if (std::memcmp(expected.data() + i * es, out.data() + i * es, es) == 0) continue;
      if (c.mismatches++ == 0) {
        std::uint32_t want = 0, got = 0;
        std::memcpy(&want, expected.data() + i * es, es);
        std::memcpy(&got, out.data() + i * es, es);
        c.first_mismatch = where(static_cast<index_t>(i), es, p.copy.rows, p.copy.cols, 1) + ": expected " +
                           hex(want, static_cast<int>(2 * es)) + ", got " + hex(got, static_cast<int>(2 * es));
      }
    }
    return c;
  }
  programs::gemm_params q = p.gemm;
  std::vector<float> a, b;
  if (p.program == program_kind::mma_gemm_f16) {  // the fp16 operands as floats (exact); the same bound
    const programs::mma_gemm_params& h = p.mma_gemm;
    q.m = h.m, q.n = h.n, q.k = h.k, q.m_per_block = h.m_per_block, q.n_per_block = h.n_per_block;
    a = examples::halves_to_floats(typed<std::uint16_t>(in.buffers[0]));
    b = examples::halves_to_floats(typed<std::uint16_t>(in.buffers[1]));
  } else {
    a = typed<float>(in.buffers[0]);
    b = typed<float>(in.buffers[1]);
  }
  c.method = "|c - fp64| <= k * 2^-23 * sum_k |a_ik * b_jk| (Eigen, double)";
  const std::vector<float> got = typed<float>(out);
  const examples::gemm_fp64_reference want = examples::gemm_reference_fp64(q, a, b);
  c.compared = q.m * q.n;
  for (index_t e = 0; e < q.m * q.n; ++e) {
    const std::size_t i = static_cast<std::size_t>(e);
    const double g = got[i], err = std::fabs(g - want.c[i]), bound = want.bound[i];
    const bool ok = err <= bound;  // false for NaN
    if (bound > 0 && std::isfinite(err)) c.max_error = std::max(c.max_error, err / bound);
    if (ok) continue;
    if (c.mismatches++ == 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf, ": expected %.9g (fp64 %.17g, bound %.3g), got %.9g", static_cast<float>(want.c[i]),
                    want.c[i], bound, g);
      c.first_mismatch = where(e, 4, q.m_per_block, q.n_per_block, q.n / q.n_per_block) + buf;
    }
  }
  return c;
}

}  // namespace tilesim::gpu
