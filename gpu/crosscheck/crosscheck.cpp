// tilesim/gpu/crosscheck/crosscheck.cpp: a point's inputs, its simulator side and its output check, each handed
// to the point's program adapter (program_adapter.hpp); the catalogue and the points' JSON form are points.cpp.
#include "gpu/crosscheck/crosscheck.hpp"

#include <cstdio>
#include <stdexcept>

#include "gpu/crosscheck/adapter_kit.hpp"
#include "gpu/crosscheck/program_adapter.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"

namespace tilesim::gpu {

using util::json_value;

const program_adapter* adapter_named(const std::string& name) {
  for (const program_adapter* a : registered_programs())
    if (name == a->name) return a;
  return nullptr;
}

const program_adapter& crosscheck_point::adapter() const {
  if (const program_adapter* a = adapter_named(program)) return *a;
  throw std::logic_error("cross-check point \"" + name + "\" names program \"" + program +
                         "\", which no adapter is registered as (examples/adapters/adapters.cpp)");
}

std::string hex(std::uint32_t v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}

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

std::string element_at(const crosscheck_point& p, const point_inputs& in, const simulated* sim, index_t i,
                       std::size_t element_bytes, index_t block_rows, index_t block_cols, index_t blocks_n) {
  const index_t cols = in.output_cols;
  const index_t r = i / cols, col = i % cols;
  std::string who = "block " + std::to_string((r / block_rows) * blocks_n + col / block_cols);
  if (sim) {
    const sim::address_t base = sim->run.memory.info(in.output_slot).base;
    who = writer_of(*sim, base + static_cast<sim::address_t>(i) * element_bytes, p.wave_size);
  }
  return who + " (row " + std::to_string(r) + ", col " + std::to_string(col) + ")";
}

point_inputs make_inputs(const crosscheck_point& p, std::uint64_t seed) {
  point_inputs in;
  in.seed = seed;
  std::mt19937_64 g(seed);
  p.adapter().make_inputs(p, g, in);
  return in;
}

simulated simulate(const crosscheck_point& p, const point_inputs& in) {
  sim::launch l;
  l.grid = p.grid;
  l.block = p.block;
  sim::apply_guard_rules(sim::arch_named("sm90"), l);  // the points run on sm90 (its guard rules)
  l.wave_size = p.wave_size;
  simulated s;
  p.adapter().simulate(p, in, l, s);
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
  return p.adapter().check_output(p, in, buffers, sim);
}

}  // namespace tilesim::gpu
