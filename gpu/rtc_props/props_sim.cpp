// tilesim/gpu/rtc_props/props_sim.cpp: inputs, simulator side and output check of a generated case (props_sim.hpp).
#include "gpu/rtc_props/props_sim.hpp"

#include <algorithm>
#include <cstring>
#include <random>

#include "gpu/rtc_props/props_program.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/report/program_report.hpp"

namespace tilesim::gpu::props {

index_t reader_replication(const props_case& c) {
  index_t r = 1;
  for (int i = 0; i < c.reader.n_r; ++i) r *= c.reader.r[i];
  return r;
}

std::size_t lds_bytes_of(const props_case& c) {
  index_t space = 0;
  with_props_layout(c, [&](auto family) { space = props_lds_descriptor<decltype(family)::value>(c, false).element_space_size; });
  return static_cast<std::size_t>(space * c.element_bytes * (c.double_buffer ? 2 : 1));
}

case_inputs make_case_inputs(const props_case& c, std::uint64_t seed) {
  case_inputs in;
  in.seed = seed;
  const std::size_t es = static_cast<std::size_t>(c.element_bytes);
  const std::size_t count = static_cast<std::size_t>(c.tensor_rows * c.tensor_cols);
  byte_buffer x(count * es), y(count * es, 0xFF);
  std::mt19937_64 g(seed);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t v = g();
    std::memcpy(x.data() + i * es, &v, es);
    if (std::all_of(x.begin() + static_cast<long>(i * es), x.begin() + static_cast<long>((i + 1) * es),
                    [](unsigned char b) { return b == 0xFF; }))
      x[i * es] = 0x7F;  // never the poison
  }
  in.buffers = {std::move(x), std::move(y)};
  return in;
}

namespace {

template <class T>
sim::run_result run_typed(const props_case& c, const case_inputs& in) {
  sim::launch l;
  l.grid = static_cast<int>(c.grid);
  l.block = static_cast<int>(c.threads);
  // The arch's guard rules (sm90: invalid global loads masked, empty warp instructions skipped; gfx942: CK's).
  sim::apply_guard_rules(props_arch(c), l);
  l.wave_size = static_cast<int>(c.wave);
  sim::global_memory mem;
  auto typed = [](const byte_buffer& b) {
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
    return v;
  };
  mem.add<T>("in", typed(in.buffers[0]));
  mem.add<T>("out", typed(in.buffers[1]));
  return sim::run(l, std::move(mem), [&](sim::thread_context& ctx) { props_copy<T>(ctx, c); });
}

template <class T>
byte_buffer bytes_of_slot(const sim::run_result& r, int slot) {
  const auto v = r.memory.get<T>(slot);
  byte_buffer b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

}  // namespace

const sim::arch_table& props_arch(const props_case& c) { return sim::arch_named(c.wave == 64 ? "gfx942" : "sm90"); }

case_simulation simulate_case(const props_case& c, const case_inputs& in) {
  case_simulation s;
  sim::run_result run;
  if (c.element_bytes == 2) {
    run = run_typed<std::uint16_t>(c, in);
    s.buffers = {bytes_of_slot<std::uint16_t>(run, 0), bytes_of_slot<std::uint16_t>(run, 1)};
  } else if (c.element_bytes == 8) {
    run = run_typed<std::uint64_t>(c, in);
    s.buffers = {bytes_of_slot<std::uint64_t>(run, 0), bytes_of_slot<std::uint64_t>(run, 1)};
  } else {
    run = run_typed<std::uint32_t>(c, in);
    s.buffers = {bytes_of_slot<std::uint32_t>(run, 0), bytes_of_slot<std::uint32_t>(run, 1)};
  }
  s.clean = run.clean();
  if (!s.clean) {
    const auto& f = run.found;
    s.findings = std::to_string(f.races) + " races, " + std::to_string(f.bounds_errors) + " bounds errors, " +
                 std::to_string(f.misaligned) + " misaligned, " + std::to_string(f.barrier_mismatches) +
                 " barrier mismatches";
  }
  // Stores per output element, from the simulator's records of every lane's global store.
  const std::size_t es = static_cast<std::size_t>(c.element_bytes);
  const sim::address_t base = run.memory.info(1).base;
  const std::size_t count = static_cast<std::size_t>(c.tensor_rows * c.tensor_cols);
  std::vector<int> stores(count, 0);
  long long outside = 0;
  for (const sim::workgroup_record& w : run.workgroups)
    for (const sim::wave_record& v : w.waves)
      for (const sim::wave_instruction& i : v.instructions) {
        if (i.access.space != sim::memory_space::global || i.access.kind != sim::access_kind::store) continue;
        for (sim::address_t a : i.access.address) {
          if (a == sim::no_address) continue;
          for (std::size_t b = 0; b < static_cast<std::size_t>(i.access.width); b += es) {
            const sim::address_t e = (a + b - base) / es;
            if (a + b < base || e >= count) ++outside;
            else ++stores[e];
          }
        }
      }
  // Replica 0 of a replicated reader stores each element once (props_program.hpp); a reduce stores column 0 only.
  const auto want_at = [&](std::size_t e) {
    return c.kind != props_kind::reduce || e % static_cast<std::size_t>(c.tensor_cols) == 0 ? 1 : 0;
  };
  s.stores_per_element_ok = outside == 0;
  if (outside) s.stores_note = std::to_string(outside) + " stored elements outside the output tensor";
  for (std::size_t e = 0; e < count && s.stores_per_element_ok; ++e)
    if (const int want = want_at(e); stores[e] != want) {
      s.stores_per_element_ok = false;
      s.stores_note = "element (row " + std::to_string(e / static_cast<std::size_t>(c.tensor_cols)) + ", col " +
                      std::to_string(e % static_cast<std::size_t>(c.tensor_cols)) + ") stored " +
                      std::to_string(stores[e]) + " times, expected " + std::to_string(want);
    }
  // The LDS instructions of each wave, by kind and width (the AMD check holds the assembly to them).
  bool first_wave = true;
  for (const sim::workgroup_record& w : run.workgroups)
    for (const sim::wave_record& v : w.waves) {
      std::map<std::pair<int, int>, int> counts;
      for (const sim::wave_instruction& i : v.instructions)
        if (i.access.space == sim::memory_space::lds)
          ++counts[{i.access.kind == sim::access_kind::store ? 1 : 0, i.access.width}];
      if (first_wave) s.lds_per_wave = counts;
      else if (counts != s.lds_per_wave) s.lds_uniform = false;
      first_wave = false;
    }
  // What Nsight Compute counts, and the dynamic shared memory: gpu/crosscheck's own totals (counters.hpp).
  const sim::program_report report = sim::make_program_report(props_arch(c), run);
  s.predicted = predicted_counters(report);
  s.cycles_per_workgroup = report.cycles_per_workgroup;
  s.lds_bytes = gpu::lds_bytes_of(run);
  return s;
}

byte_buffer reference_output(const props_case& c, const case_inputs& in) {
  if (c.kind == props_kind::copy || c.kind == props_kind::loop) return in.buffers[0];
  const std::size_t es = static_cast<std::size_t>(c.element_bytes);
  const std::uint64_t mask = es == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * es)) - 1;
  const byte_buffer& x = in.buffers[0];
  // Block b's tile element (r, k): the input inside the tensor, 0 in the pads (what the writer stored to LDS).
  auto tile = [&](index_t b, index_t r, index_t k) -> std::uint64_t {
    const index_t row = b * c.rows() + r;
    if (row >= c.tensor_rows || k >= c.tensor_cols) return 0;
    std::uint64_t v = 0;
    std::memcpy(&v, x.data() + static_cast<std::size_t>(row * c.tensor_cols + k) * es, es);
    return v;
  };
  if (c.kind == props_kind::reduce) {
    byte_buffer out = in.buffers[1];  // the poison, but at (row, 0): the row's sum
    for (index_t row = 0; row < c.tensor_rows; ++row) {
      std::uint64_t sum = 0;
      for (index_t k = 0; k < c.cols(); ++k) sum += tile(row / c.rows(), row % c.rows(), k);
      sum &= mask;
      std::memcpy(out.data() + static_cast<std::size_t>(row * c.tensor_cols) * es, &sum, es);
    }
    return out;
  }
  byte_buffer out(x.size());
  for (index_t row = 0; row < c.tensor_rows; ++row)
    for (index_t k = 0; k < c.tensor_cols; ++k) {
      const index_t b = row / c.rows(), r = row % c.rows();
      std::uint64_t sum = 0;
      for (int p = 0; p < c.stencil_points; ++p)
        sum += tile(b, floor_mod(r + c.stencil_dr[p], c.rows()), floor_mod(k + c.stencil_dc[p], c.cols()));
      sum &= mask;
      std::memcpy(out.data() + static_cast<std::size_t>(row * c.tensor_cols + k) * es, &sum, es);
    }
  return out;
}

case_check check_case_output(const props_case& c, const case_inputs& in, const byte_buffer& output) {
  case_check k;
  const std::size_t es = static_cast<std::size_t>(c.element_bytes);
  const byte_buffer want = reference_output(c, in);
  k.compared = static_cast<long long>(want.size() / es);
  for (std::size_t i = 0; i < want.size() / es; ++i) {
    if (output.size() >= (i + 1) * es && std::memcmp(want.data() + i * es, output.data() + i * es, es) == 0) continue;
    if (k.mismatches++ == 0) {
      std::uint64_t a = 0, b = 0;
      std::memcpy(&a, want.data() + i * es, es);
      if (output.size() >= (i + 1) * es) std::memcpy(&b, output.data() + i * es, es);
      char buf[160];
      std::snprintf(buf, sizeof buf, "(row %zu, col %zu): expected 0x%0*llx, got 0x%0*llx",
                    i / static_cast<std::size_t>(c.tensor_cols), i % static_cast<std::size_t>(c.tensor_cols),
                    static_cast<int>(2 * es), static_cast<unsigned long long>(a), static_cast<int>(2 * es),
                    static_cast<unsigned long long>(b));
      k.first_mismatch = buf;
    }
  }
  return k;
}

}  // namespace tilesim::gpu::props
