// tilesim/sim/report/program_report.cpp: pricing and timing of a simulated run (output: program_report_output.cpp).
#include "sim/report/program_report.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "sim/models/global_coalescing.hpp"
#include "sim/models/lds_timing.hpp"
#include "sim/timing/program_timing.hpp"

namespace tilesim::sim {

namespace {

// A program instruction is a label: every wave instruction carrying it is one of its instances.
using place = std::string;

// Distinct sectors an instruction's active lanes touch: {0, 1} for 8 bytes at 24 on 32-byte sectors.
std::vector<address_t> sectors_of(const arch_table& arch, const wave_access& a) {
  std::vector<address_t> v;
  const auto sector = static_cast<address_t>(arch.sector_bytes);
  for (address_t x : a.address) {
    if (x == no_address) continue;
    for (address_t s = x / sector; s <= (x + static_cast<address_t>(a.width) - 1) / sector; ++s) v.push_back(s);
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Which workgroups share an SM: the resident count and what limits it.
struct residency {
  int workgroups = 1;
  int processors = 1;
  std::string limit;
};

residency resident_workgroups(const arch_table& arch, const run_result& run, int registers_per_thread) {
  const occupancy_limits& o = arch.occupancy;
  const long long grid = std::max(1, run.config.grid), threads = std::max(1, run.config.block);
  std::size_t lds = 0;
  for (const workgroup_record& wg : run.workgroups) lds = std::max(lds, wg.lds_bytes);
  const std::string unit = arch.wave_size == 32 ? "SM" : "CU";
  residency r;
  r.processors = static_cast<int>(std::min<long long>(grid, o.processors));
  const long long per_processor = (grid + o.processors - 1) / o.processors;
  std::vector<std::pair<long long, std::string>> limits = {
      {per_processor, "the grid (" + std::to_string(grid) + (grid == 1 ? " workgroup on " : " workgroups on ") +
                          std::to_string(o.processors) + " " + unit + "s)"},
      {o.max_threads / threads, "threads (" + std::to_string(o.max_threads) + " per " + unit + ")"},
      {o.max_workgroups, "workgroups per " + unit + " (" + std::to_string(o.max_workgroups) + ")"}};
  if (lds > 0)
    limits.push_back({o.lds_bytes / static_cast<long long>(lds), "LDS (" + std::to_string(lds) + " of " +
                                                                     std::to_string(o.lds_bytes) + " bytes per " + unit + ")"});
  if (registers_per_thread > 0)  // allocation granularity not modelled
    limits.push_back({o.registers / (static_cast<long long>(registers_per_thread) * threads),
                      "registers (" + std::to_string(registers_per_thread) + " per thread, " + std::to_string(o.registers) +
                          " per " + unit + ")"});
  auto least = std::min_element(limits.begin(), limits.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  r.workgroups = static_cast<int>(std::max<long long>(1, least->first));
  r.limit = least->second;
  return r;
}

template <class List>
void add_findings(program_report& r, const List& list) {
  for (const auto& f : list) r.findings.push_back(describe(f));
}


// A global load of a set of co-resident workgroups: (interval, position, wave key, index), where the wave key
// is (workgroup in the set) * wave_key_stride + wave.
using load_key = std::tuple<int, int, std::size_t, std::size_t>;
constexpr std::size_t wave_key_stride = 4096;  // more waves than any workgroup has (1024 threads / 1 lane)

// Sectors of one global load by where the data comes from.
struct touch_count {
  long long miss = 0, merged = 0, hit = 0;
};

// Which global sectors the SM has loaded before each load, in program order across the set (interval,
// position): a sector loaded in an earlier interval has arrived (the barrier waited for it): an L1 hit; one an
// earlier position of the same interval asked for (any wave of the set) is still on its way: the L1 merges the
// request (no L2 traffic) but the data comes with the first request's latency; any other misses.
std::map<load_key, touch_count> classify_global_loads(const arch_table& arch, const run_result& run,
                                                      const std::vector<std::size_t>& set) {
  std::vector<load_key> order;
  for (std::size_t k = 0; k < set.size(); ++k)
    for (std::size_t w = 0; w < run.workgroups[set[k]].waves.size(); ++w)
      for (std::size_t i = 0; i < run.workgroups[set[k]].waves[w].instructions.size(); ++i) {
        const wave_instruction& ins = run.workgroups[set[k]].waves[w].instructions[i];
        if (ins.access.space == memory_space::global && ins.access.kind == access_kind::load && !ins.atomic)
          order.emplace_back(ins.interval, ins.position, k * wave_key_stride + w, i);
      }
  std::sort(order.begin(), order.end());
  std::map<load_key, touch_count> touches;
  std::set<address_t> arrived, pending;
  int interval = -1;
  for (const load_key& key : order) {
    if (std::get<0>(key) != interval) {
      arrived.insert(pending.begin(), pending.end());
      pending.clear();
      interval = std::get<0>(key);
    }
    const std::size_t kw = std::get<2>(key);
    const wave_instruction& ins = run.workgroups[set[kw / wave_key_stride]].waves[kw % wave_key_stride].instructions[std::get<3>(key)];
    touch_count c;
    for (address_t sct : sectors_of(arch, ins.access)) {
      if (arrived.count(sct)) ++c.hit;
      else if (!pending.insert(sct).second) ++c.merged;
      else ++c.miss;
    }
    touches[key] = c;
  }
  return touches;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f %%", 100 * fraction);
  return buf;
}

// One line: the unit busy most of the time, or what the waves wait for when none is.
std::string bottleneck_verdict(const program_report& r) {
  const std::pair<double, std::string> units[] = {
      {r.issue_busy, "issue-bound: the busiest scheduler issues " + percent(r.issue_busy) + " of the cycles"},
      {r.lds_busy, "LDS-bound: the LDS pipe is busy " + percent(r.lds_busy) + " of the cycles" +
                       (r.excess > 0 ? " (" + std::to_string(r.excess) + " of " + std::to_string(r.wavefronts) +
                                           " wavefronts are bank conflicts)"
                                     : " (no bank conflict)")},
      {r.global_load_busy, "global-load-bound: the SM's load path is busy " + percent(r.global_load_busy) + " of the cycles"},
      {r.global_store_busy, "global-store-bound: the SM's store path is busy " + percent(r.global_store_busy) + " of the cycles"}};
  const auto* busiest = &units[0];
  for (const auto& u : units)
    if (u.first > busiest->first) busiest = &u;
  if (busiest->first >= 0.6) return busiest->second;
  double issue = 0, lds = 0, global = 0, barrier = 0;
  for (const instruction_report& i : r.instructions) {
    issue += i.issue_cycles * i.instances;
    lds += i.lds_cycles * i.instances;
    global += i.global_cycles * i.instances;
  }
  for (const barrier_report& b : r.barriers) {
    barrier += b.wait * b.instances;
    issue += b.issue_cycles * b.instances;
  }
  const double all = std::max(issue + lds + global + barrier, 1e-9);
  const std::pair<double, std::string> waits[] = {
      {global, "global memory (load latency and the path to L2)"}, {lds, "LDS (latency and queueing)"},
      {barrier, "barriers (waves waiting for the slowest wave)"}, {issue, "issue (arithmetic and scheduler turns)"}};
  const auto* most = &waits[0];
  for (const auto& w : waits)
    if (w.first > most->first) most = &w;
  return "latency-bound: no unit is busy more than " + percent(busiest->first) + " of the cycles; " +
         percent(most->first / all) + " of the waves' time goes to " + most->second;
}

}  // namespace

program_report make_program_report(const arch_table& arch, const run_result& run, int registers_per_thread) {
  program_report r;
  r.arch = std::string(arch.name);
  r.workgroups = static_cast<int>(run.workgroups.size());
  const residency res = resident_workgroups(arch, run, registers_per_thread);
  r.resident_workgroups = res.workgroups;
  r.active_processors = res.processors;
  r.resident_limit = res.limit;
  const global_timing& g = arch.global;
  const issue_timing& is = arch.issue;
  const double load_rate = std::min(g.sm_load_sectors_per_clock, g.l2_sectors_per_clock / res.processors);

  std::map<place, std::size_t> index;  // label -> row
  std::vector<double> issue_sum, lds_sum, global_sum, wait_sum;
  std::vector<char> is_barrier;  // per row
  long long worst_excess = -1;
  auto row = [&](const std::string& label, const wave_instruction* i, int interval, int position) -> std::size_t {
    auto [it, fresh] = index.emplace(i ? label : "\x01" + label, r.instructions.size());  // barriers apart
    if (fresh) {
      instruction_report ir;
      ir.label = label;
      ir.interval = interval;
      ir.position = position;
      if (i) {
        ir.kind = i->access.kind;
        ir.space = i->access.space;
        ir.width = i->access.width;
        ir.matrix_load = i->matrix_load;
      }
      is_barrier.push_back(i == nullptr);
      r.instructions.push_back(ir);
      for (auto* v : {&issue_sum, &lds_sum, &global_sum, &wait_sum}) v->push_back(0);
    }
    return it->second;
  };

  // Sets of workgroups that share one SM: b, b + P, b + 2P, ... in groups of resident_workgroups.
  std::vector<std::vector<std::size_t>> sets;
  {
    std::map<long long, std::vector<std::size_t>> by_processor;
    for (std::size_t k = 0; k < run.workgroups.size(); ++k)
      by_processor[run.workgroups[k].block % arch.occupancy.processors].push_back(k);
    for (auto& [proc, list] : by_processor)
      for (std::size_t at = 0; at < list.size(); at += static_cast<std::size_t>(res.workgroups))
        sets.emplace_back(list.begin() + static_cast<std::ptrdiff_t>(at),
                          list.begin() + static_cast<std::ptrdiff_t>(std::min(list.size(), at + static_cast<std::size_t>(res.workgroups))));
  }

  std::vector<double> workgroup_cycles;
  double slowest_set = -1;
  for (const std::vector<std::size_t>& set : sets) {
    const std::map<load_key, touch_count> touches = classify_global_loads(arch, run, set);

    std::vector<timed_wave> waves;
    std::vector<std::vector<std::size_t>> owner;  // step -> row (SIZE_MAX: none)
    for (std::size_t k = 0; k < set.size(); ++k) {
      const workgroup_record& wg = run.workgroups[set[k]];
      r.waves_per_workgroup = std::max(r.waves_per_workgroup, static_cast<int>(wg.waves.size()));
      for (std::size_t w = 0; w < wg.waves.size(); ++w) {
        timed_wave tw;
        tw.workgroup = static_cast<int>(k);
        tw.scheduler = static_cast<int>((k * wg.waves.size() + w) % static_cast<std::size_t>(std::max(1, is.schedulers)));
        std::vector<std::size_t> own;
        const wave_record& wr = wg.waves[w];
        auto add_alu = [&](const alu_work& a, std::size_t owner_row) {
          if (a.empty()) return;
          timed_step s;
          s.kind = step_kind::alu;
          s.issue_slots = 0;
          for (int op = 0; op < alu_op_count; ++op) s.issue_slots += a[op] * is.alu_cycles[static_cast<std::size_t>(op)];
          s.latency = is.alu_latency;
          s.produces_data = true;
          s.waits_for_data = true;
          tw.steps.push_back(s);
          own.push_back(owner_row);
        };
        auto add_barrier = [&](int interval) {
          tw.steps.push_back({step_kind::barrier, pipe_id::lds, 0, 0, 0});
          own.push_back(row("barrier " + std::to_string(interval + 1), nullptr, interval, 1 << 30));
        };
        std::size_t next = 0;
        for (int interval = 0; interval < wg.intervals; ++interval) {
          // Issue order, as nvcc and hipcc schedule independent loads: a global load moves up, ahead of the
          // LDS accesses and arithmetic before it, to just after the interval's last earlier global store (which
          // it may alias, so it stays behind it); its arithmetic stays where it was stated. Everything else keeps
          // program order. (A load whose address needs loaded data is outside the model.)
          enum class part { both, memory_only, alu_only };
          std::vector<std::pair<std::size_t, part>> in_order;
          std::size_t fence = 0;  // loads are placed at in_order[fence], after the last global store so far
          for (; next < wr.instructions.size() && wr.instructions[next].interval == interval; ++next) {
            const wave_instruction& i = wr.instructions[next];
            const bool global = i.access.space == memory_space::global;
            if (global && i.access.kind == access_kind::load && !i.atomic) {
              in_order.insert(in_order.begin() + static_cast<std::ptrdiff_t>(fence++), {next, part::memory_only});
              if (!i.alu_before.empty()) in_order.emplace_back(next, part::alu_only);
            } else {
              in_order.emplace_back(next, part::both);
              if (global) fence = in_order.size();
            }
          }
          for (const auto& [at_index, what] : in_order) {
            const wave_instruction& i = wr.instructions[at_index];
            const std::size_t at = row(i.access.label, &i, i.interval, i.position);
            instruction_report& ir = r.instructions[at];
            if (what != part::memory_only) {
              add_alu(i.alu_before, at);
              for (int op = 0; op < alu_op_count; ++op) ir.alu[op] += i.alu_before[op];
            }
            if (what == part::alu_only) continue;
            ++ir.instances;
            timed_step s;
            s.produces_data = i.access.kind == access_kind::load;
            s.waits_for_data = i.access.kind == access_kind::store;
            if (i.access.space == memory_space::lds) {
              const lds_cost c = lds_instruction_cost(arch, i.access);
              ir.wavefronts += c.wavefronts;
              ir.ideal += c.ideal;
              ir.excess += c.excess;
              ir.max_ways = std::max(ir.max_ways, c.max_ways);
              if (c.excess > worst_excess) {
                worst_excess = c.excess;
                r.worst_lds = i.access;
                r.has_worst_lds = true;
              }
              s.pipe = pipe_id::lds;
              s.occupancy = lds_pipe_cycles(arch, c);
              s.latency = arch.lds_timing.latency_cycles;
            } else {
              const global_cost c = global_instruction_cost(arch, i.access);
              ir.sectors += c.sectors;
              ir.ideal_sectors += c.ideal_sectors;
              if (s.produces_data && !i.atomic) {
                const touch_count t = touches.at({i.interval, i.position, k * wave_key_stride + w, at_index});
                ir.l1_hit_sectors += t.hit;
                s.pipe = pipe_id::global_load;
                s.occupancy = static_cast<double>(t.miss) / load_rate +
                              static_cast<double>(t.hit + t.merged) / g.l1_sectors_per_clock;
                s.latency = t.miss + t.merged > 0 ? g.first_touch_latency : g.l1_load_latency;
              } else {  // stores and atomics leave the SM through the store path
                s.pipe = pipe_id::global_store;
                s.occupancy = c.sectors / g.store_sectors_per_clock;
                s.latency = 0;
                s.waits_for_data = true;
              }
              if (g.datapath_bytes_per_clock > 0)
                s.datapath = static_cast<double>(c.sectors) * arch.sector_bytes / g.datapath_bytes_per_clock;
            }
            tw.steps.push_back(s);
            own.push_back(at);
          }
          if (interval < static_cast<int>(wr.alu_tail.size()) && !wr.alu_tail[static_cast<std::size_t>(interval)].empty()) {
            // Arithmetic after the interval's last instruction: its row is the barrier that ends the interval,
            // or the last instruction when the program ends.
            const std::size_t at = interval < wg.intervals - 1 ? row("barrier " + std::to_string(interval + 1), nullptr, interval, 1 << 30)
                                   : own.empty() ? SIZE_MAX : own.back();
            if (at != SIZE_MAX) {
              add_alu(wr.alu_tail[static_cast<std::size_t>(interval)], at);
              for (int op = 0; op < alu_op_count; ++op) r.instructions[at].alu[op] += wr.alu_tail[static_cast<std::size_t>(interval)][op];
            }
          }
          if (interval < wg.intervals - 1) add_barrier(interval);
        }
        waves.push_back(std::move(tw));
        owner.push_back(std::move(own));
      }
    }

    const timing_result t = time_waves(waves, timing_params{0, g.prologue_cycles});
    for (double c : t.workgroup_cycles) workgroup_cycles.push_back(c);
    if (t.total_cycles > slowest_set) {
      slowest_set = t.total_cycles;
      const double total = std::max(t.total_cycles, 1e-9);
      r.issue_busy = t.scheduler_busy.empty() ? 0 : *std::max_element(t.scheduler_busy.begin(), t.scheduler_busy.end()) / total;
      r.lds_busy = t.pipe_busy[static_cast<int>(pipe_id::lds)] / total;
      r.global_load_busy = t.pipe_busy[static_cast<int>(pipe_id::global_load)] / total;
      r.global_store_busy = t.pipe_busy[static_cast<int>(pipe_id::global_store)] / total;
    }
    for (std::size_t w = 0; w < waves.size(); ++w)
      for (std::size_t st = 0; st < waves[w].steps.size(); ++st) {
        const std::size_t at = owner[w][st];
        if (at == SIZE_MAX) continue;
        const timed_step& step = waves[w].steps[st];
        const step_times& tt = t.waves[w][st];
        if (step.kind == step_kind::barrier) {
          wait_sum[at] += tt.complete - tt.issue;
          ++r.instructions[at].instances;
          continue;
        }
        // From when program order allowed it: waiting for data, then for the scheduler, then its own slots,
        // then (memory) its pipe's queue, service and latency.
        const double data_wait = tt.data_ready - tt.ready;
        double* wait_bucket = tt.waited_on == static_cast<int>(pipe_id::lds) ? &lds_sum[at]
                              : tt.waited_on >= 0                            ? &global_sum[at]
                                                                             : &issue_sum[at];
        *wait_bucket += data_wait;
        issue_sum[at] += tt.issue - tt.data_ready + (step.kind == step_kind::alu ? step.issue_slots + step.latency : 0);
        if (step.kind == step_kind::memory) {
          issue_sum[at] += step.issue_slots;
          (step.pipe == pipe_id::lds ? lds_sum[at] : global_sum[at]) += tt.complete - tt.issue - step.issue_slots;
        }
      }
  }
  for (const workgroup_record& wg : run.workgroups) {
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
  if (!workgroup_cycles.empty()) {
    std::vector<double> sorted = workgroup_cycles;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    r.cycles_per_workgroup = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    r.slowest_workgroup_cycles = sorted.back();
  }

  std::vector<std::size_t> order(r.instructions.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(r.instructions[a].interval, r.instructions[a].position) <
           std::tie(r.instructions[b].interval, r.instructions[b].position);
  });
  std::vector<instruction_report> sorted;
  for (std::size_t k : order) {
    instruction_report ir = r.instructions[k];
    const double n = ir.instances ? ir.instances : 1;
    if (is_barrier[k]) {
      r.barriers.push_back({ir.label, ir.interval, ir.instances, wait_sum[k] / n, issue_sum[k] / n, ir.alu});
      continue;
    }
    ir.issue_cycles = issue_sum[k] / n;
    ir.lds_cycles = lds_sum[k] / n;
    ir.global_cycles = global_sum[k] / n;
    ir.cycles = ir.issue_cycles + ir.lds_cycles + ir.global_cycles;
    r.wavefronts += ir.wavefronts;
    r.ideal += ir.ideal;
    r.excess += ir.excess;
    r.sectors += ir.sectors;
    r.ideal_sectors += ir.ideal_sectors;
    sorted.push_back(std::move(ir));
  }
  r.instructions = std::move(sorted);
  r.verdict = bottleneck_verdict(r);
  return r;
}

}  // namespace tilesim::sim
