// tilesim/sim/report/program_report.cpp: pricing, timing and printing of a simulated run.
#include "sim/report/program_report.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <tuple>

#include "sim/models/global_coalescing.hpp"
#include "sim/models/lds_timing.hpp"
#include "sim/timing/program_timing.hpp"

namespace tilesim::sim {

namespace {

// A program instruction is a label: every wave instruction carrying it is one of its instances.
using place = std::string;

struct priced {
  timed_step step;
  lds_cost lds;
  global_cost global;
};

priced price(const arch_table& arch, const wave_access& a, const global_timing& g) {
  priced p;
  if (a.space == memory_space::lds) {
    p.lds = lds_instruction_cost(arch, a);
    p.step = {false, pipe_id::lds, lds_pipe_cycles(arch, p.lds), arch.lds_timing.latency_cycles};
  } else {
    p.global = global_instruction_cost(arch, a);
    p.step = {false, pipe_id::global, p.global.sectors / g.sectors_per_clock, g.latency_cycles};
  }
  p.step.is_load = a.kind == access_kind::load;
  p.step.waits_for_loads = a.kind == access_kind::store;
  return p;
}

template <class List>
void add_findings(program_report& r, const List& list) {
  for (const auto& f : list) r.findings.push_back(describe(f));
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

program_report make_program_report(const arch_table& arch, const run_result& run, const global_timing& global) {
  program_report r;
  r.arch = std::string(arch.name);
  r.workgroups = static_cast<int>(run.workgroups.size());
  std::map<place, std::size_t> index;
  std::vector<double> cycle_sums;
  long long worst_excess = -1;

  for (const workgroup_record& wg : run.workgroups) {
    r.waves_per_workgroup = std::max(r.waves_per_workgroup, static_cast<int>(wg.waves.size()));
    std::vector<std::vector<timed_step>> steps(wg.waves.size());
    std::vector<std::vector<std::size_t>> owner(wg.waves.size());  // step -> instruction report (or npos)
    for (std::size_t w = 0; w < wg.waves.size(); ++w) {
      int interval = 0;
      for (const wave_instruction& i : wg.waves[w].instructions) {
        for (; interval < i.interval; ++interval) {
          steps[w].push_back({true, pipe_id::lds, 0, 0});
          owner[w].push_back(SIZE_MAX);
        }
        const priced p = price(arch, i.access, global);
        const place key = i.access.label;
        auto [it, fresh] = index.emplace(key, r.instructions.size());
        if (fresh) {
          instruction_report ir;
          ir.label = i.access.label;
          ir.kind = i.access.kind;
          ir.space = i.access.space;
          ir.width = i.access.width;
          ir.interval = i.interval;
          ir.position = i.position;
          r.instructions.push_back(ir);
          cycle_sums.push_back(0);
        }
        instruction_report& ir = r.instructions[it->second];
        ++ir.instances;
        if (i.access.space == memory_space::lds) {
          ir.wavefronts += p.lds.wavefronts;
          ir.ideal += p.lds.ideal;
          ir.excess += p.lds.excess;
          ir.max_ways = std::max(ir.max_ways, p.lds.max_ways);
          if (p.lds.excess > worst_excess) {
            worst_excess = p.lds.excess;
            r.worst_lds = i.access;
            r.has_worst_lds = true;
          }
        } else {
          ir.sectors += p.global.sectors;
          ir.ideal_sectors += p.global.ideal_sectors;
        }
        steps[w].push_back(p.step);
        owner[w].push_back(it->second);
      }
      for (; interval < wg.intervals - 1; ++interval) {
        steps[w].push_back({true, pipe_id::lds, 0, 0});
        owner[w].push_back(SIZE_MAX);
      }
    }
    const timing_result t = time_workgroup(steps, timing_params{});
    r.cycles_per_workgroup = std::max(r.cycles_per_workgroup, t.total_cycles);
    for (std::size_t w = 0; w < steps.size(); ++w)
      for (std::size_t s = 0; s < steps[w].size(); ++s)
        if (owner[w][s] != SIZE_MAX) cycle_sums[owner[w][s]] += t.waves[w][s].complete - t.waves[w][s].issue;
    add_findings(r, wg.races);
    add_findings(r, wg.bounds_errors);
    add_findings(r, wg.misaligned);
    add_findings(r, wg.ambiguities);
    add_findings(r, wg.divergences);
    add_findings(r, wg.barrier_mismatches);
  }
  add_findings(r, run.grid_races);
  const diagnostic_counts& f = run.found;
  r.finding_count = static_cast<long long>(f.races + f.bounds_errors + f.misaligned + f.ambiguities + f.divergences +
                                           f.barrier_mismatches);

  std::vector<std::size_t> order(r.instructions.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(r.instructions[a].interval, r.instructions[a].position) <
           std::tie(r.instructions[b].interval, r.instructions[b].position);
  });
  std::vector<instruction_report> sorted;
  for (std::size_t k : order) {
    instruction_report ir = r.instructions[k];
    ir.cycles = ir.instances ? cycle_sums[k] / ir.instances : 0;
    r.wavefronts += ir.wavefronts;
    r.ideal += ir.ideal;
    r.excess += ir.excess;
    r.sectors += ir.sectors;
    r.ideal_sectors += ir.ideal_sectors;
    sorted.push_back(std::move(ir));
  }
  r.instructions = std::move(sorted);
  return r;
}

std::string to_json(const program_report& r) {
  std::string s = "{\n  \"arch\": \"" + escape(r.arch) + "\",\n  \"workgroups\": " + std::to_string(r.workgroups) +
                  ",\n  \"waves_per_workgroup\": " + std::to_string(r.waves_per_workgroup) + ",\n  \"instructions\": [";
  for (std::size_t k = 0; k < r.instructions.size(); ++k) {
    const instruction_report& i = r.instructions[k];
    s += std::string(k ? "," : "") + "\n    {\"label\": \"" + escape(i.label) + "\", \"space\": \"" +
         (i.space == memory_space::lds ? "lds" : "global") + "\", \"kind\": \"" +
         (i.kind == access_kind::load ? "load" : "store") + "\", \"width\": " + std::to_string(i.width) +
         ", \"interval\": " + std::to_string(i.interval) + ", \"position\": " + std::to_string(i.position) +
         ", \"instances\": " + std::to_string(i.instances) + ", \"wavefronts\": " + std::to_string(i.wavefronts) +
         ", \"ideal_wavefronts\": " + std::to_string(i.ideal) + ", \"excess_wavefronts\": " + std::to_string(i.excess) +
         ", \"max_ways\": " + std::to_string(i.max_ways) + ", \"sectors\": " + std::to_string(i.sectors) +
         ", \"ideal_sectors\": " + std::to_string(i.ideal_sectors) + ", \"cycles\": " + number(i.cycles) + "}";
  }
  s += "\n  ],\n  \"totals\": {\"wavefronts\": " + std::to_string(r.wavefronts) + ", \"ideal_wavefronts\": " +
       std::to_string(r.ideal) + ", \"excess_wavefronts\": " + std::to_string(r.excess) + ", \"sectors\": " +
       std::to_string(r.sectors) + ", \"ideal_sectors\": " + std::to_string(r.ideal_sectors) +
       ", \"cycles_per_workgroup\": " + number(r.cycles_per_workgroup) + "},\n  \"findings\": [";
  for (std::size_t k = 0; k < r.findings.size(); ++k) s += std::string(k ? ", " : "") + "\"" + escape(r.findings[k]) + "\"";
  s += "],\n  \"finding_count\": " + std::to_string(r.finding_count) + "\n}\n";
  return s;
}

std::string bank_heat_map_svg(const arch_table& arch, const wave_access& access) {
  const lds_detail d = lds_instruction_detail(arch, access);
  const int cell = 22, left = 70, top = 60;
  const int banks = d.banks, phases = static_cast<int>(d.phases.size());
  const int width = left + banks * cell + 20, height = top + phases * cell + 40;
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
                  std::to_string(height) + "\" font-family=\"monospace\" font-size=\"10\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"4\" y=\"16\" font-size=\"12\">" + escape(access.label) + ": " + std::string(arch.name) + " " +
       (access.kind == access_kind::load ? "load" : "store") + " " + std::to_string(access.width) + " B/lane; " +
       std::to_string(d.cost.wavefronts) + " wavefronts (ideal " + std::to_string(d.cost.ideal) + "), " +
       std::to_string(d.cost.max_ways) + "-way</text>\n";
  s += "<text x=\"4\" y=\"32\">cell = distinct 4-byte words the bank serves in the phase</text>\n";
  for (int b = 0; b < banks; ++b)
    s += "<text x=\"" + std::to_string(left + b * cell + 4) + "\" y=\"" + std::to_string(top - 6) + "\">" +
         std::to_string(b) + "</text>\n";
  for (int p = 0; p < phases; ++p) {
    const lds_phase_detail& ph = d.phases[static_cast<std::size_t>(p)];
    s += "<text x=\"4\" y=\"" + std::to_string(top + p * cell + 15) + "\">phase " + std::to_string(p) + "</text>\n";
    for (int b = 0; b < banks; ++b) {
      const int n = b < static_cast<int>(ph.words.size()) ? static_cast<int>(ph.words[static_cast<std::size_t>(b)].size()) : 0;
      const char* fill = n == 0 ? "#ffffff" : n == 1 ? "#b7e4a7" : n == 2 ? "#ffe08a" : n <= 4 ? "#ffa95e" : "#e8505b";
      s += "<rect x=\"" + std::to_string(left + b * cell) + "\" y=\"" + std::to_string(top + p * cell) + "\" width=\"" +
           std::to_string(cell) + "\" height=\"" + std::to_string(cell) + "\" fill=\"" + fill +
           "\" stroke=\"#999\"/>\n";
      if (n > 0)
        s += "<text x=\"" + std::to_string(left + b * cell + 7) + "\" y=\"" + std::to_string(top + p * cell + 15) + "\">" +
             std::to_string(n) + "</text>\n";
    }
  }
  s += "</svg>\n";
  return s;
}

}  // namespace tilesim::sim
