// tilesim/sim/pricing/set_pricing.cpp: one set of co-resident workgroups priced and timed into a report_part.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <map>
#include <tuple>
#include <utility>

#include "sim/models/global_coalescing.hpp"
#include "sim/models/lds_timing.hpp"
#include "sim/pricing/address_arithmetic.hpp"
#include "sim/pricing/reused_loads.hpp"
#include "sim/pricing/report_part.hpp"
#include "sim/timing/program_timing.hpp"

namespace tilesim::sim {

namespace {

// The sectors an instruction's active lanes touch as the load path serves them: distinct within each phase of
// global.load_phase_bytes of lane data (every lane one phase when 0), phases one after another. 16-byte loads,
// 128-byte phases, lanes 0-7 at 0 and 8-15 at 4096: {0, 128}.
std::vector<address_t> sectors_of(const arch_table& arch, const wave_access& a) {
  std::vector<address_t> out, v;
  const auto sector = static_cast<address_t>(arch.sector_bytes);
  const int phase_bytes = arch.global.load_phase_bytes;
  const std::size_t lanes_per_phase =
      phase_bytes > 0 ? static_cast<std::size_t>(std::max(1, phase_bytes / std::max(1, a.width))) : a.address.size();
  for (std::size_t first = 0; first < a.address.size(); first += lanes_per_phase) {
    v.clear();
    for (std::size_t l = first; l < std::min(a.address.size(), first + lanes_per_phase); ++l) {
      const address_t x = a.address[l];
      if (x == no_address) continue;
      for (address_t s = x / sector; s <= (x + static_cast<address_t>(a.width) - 1) / sector; ++s) v.push_back(s);
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

// A global load of a set of co-resident workgroups: (interval, position, wave key, index), where the wave key
// is (workgroup in the set) * wave_key_stride + wave.
using load_key = std::tuple<int, int, std::size_t, std::size_t>;
constexpr std::size_t wave_key_stride = 4096;  // more waves than any workgroup has (1024 threads / 1 lane)

// Sectors of one global load by where the data comes from; `far`: those of miss and merged whose region
// (global.near_region_bytes) no earlier interval loaded from (all of them when the arch prices no L2 hit).
struct touch_count {
  long long miss = 0, merged = 0, hit = 0, far = 0;
};

// Which global sectors the SM has loaded before each load, in program order across the set (interval,
// position): a sector loaded in an earlier interval has arrived (the barrier waited for it): an L1 hit; one an
// earlier position of the same interval asked for (any wave of the set) is still on its way: the L1 merges the
// request (no L2 traffic) but the data comes with the first request's latency; any other misses. Counted
// interval by interval on sorted lists (no tree of sectors): an interval's requests, in program order, sorted
// stably by sector; a sector's run is all hits when it arrived before, else its first request misses and the
// others merge. A miss (and its merged requests) is near when an earlier interval loaded from its region.
std::map<load_key, touch_count> classify_global_loads(const arch_table& arch, const std::vector<const workgroup_record*>& set) {
  std::vector<load_key> order;
  for (std::size_t k = 0; k < set.size(); ++k)
    for (std::size_t w = 0; w < set[k]->waves.size(); ++w)
      for (std::size_t i = 0; i < set[k]->waves[w].instructions.size(); ++i) {
        const wave_instruction& ins = set[k]->waves[w].instructions[i];
        if (ins.access.space == memory_space::global && ins.access.kind == access_kind::load && !ins.atomic)
          order.emplace_back(ins.interval, ins.position, k * wave_key_stride + w, i);
      }
  std::sort(order.begin(), order.end());
  std::vector<touch_count> counts(order.size());
  std::vector<address_t> arrived, settled;           // sorted, distinct
  std::vector<address_t> regions;                    // the regions of `arrived`, sorted, distinct
  const bool near_rule = arch.global.l2_hit_latency > 0;
  const auto sectors_per_region =
      static_cast<address_t>(near_rule ? arch.global.near_region_bytes / arch.sector_bytes : 1);
  std::vector<std::pair<address_t, std::size_t>> asked;  // the open interval's requests: (sector, load in order)
  auto settle = [&] {
    std::stable_sort(asked.begin(), asked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    settled.clear();
    for (std::size_t r = 0; r < asked.size(); ++r) {
      const bool first = r == 0 || asked[r].first != asked[r - 1].first;
      touch_count& c = counts[asked[r].second];
      if (std::binary_search(arrived.begin(), arrived.end(), asked[r].first)) {
        ++c.hit;
      } else {
        ++(first ? c.miss : c.merged);
        c.far += !near_rule || !std::binary_search(regions.begin(), regions.end(), asked[r].first / sectors_per_region);
      }
      if (first) settled.push_back(asked[r].first);
    }
    std::vector<address_t> all;
    all.reserve(arrived.size() + settled.size());
    std::set_union(arrived.begin(), arrived.end(), settled.begin(), settled.end(), std::back_inserter(all));
    arrived.swap(all);
    if (near_rule) {  // the regions matter only where the arch prices an L2 hit
      std::vector<address_t> fresh;  // settled is sorted, so its regions come in order: linear, no sort
      for (address_t sct : settled)
        if (fresh.empty() || fresh.back() != sct / sectors_per_region) fresh.push_back(sct / sectors_per_region);
      all.clear();
      std::set_union(regions.begin(), regions.end(), fresh.begin(), fresh.end(), std::back_inserter(all));
      regions.swap(all);
    }
    asked.clear();
  };
  for (std::size_t n = 0; n < order.size(); ++n) {
    const load_key& key = order[n];
    if (n > 0 && std::get<0>(key) != std::get<0>(order[n - 1])) settle();
    const std::size_t kw = std::get<2>(key);
    const wave_instruction& ins = set[kw / wave_key_stride]->waves[kw % wave_key_stride].instructions[std::get<3>(key)];
    for (address_t sct : sectors_of(arch, ins.access)) asked.emplace_back(sct, n);
  }
  settle();
  std::map<load_key, touch_count> touches;
  for (std::size_t n = 0; n < order.size(); ++n) touches.emplace_hint(touches.end(), order[n], counts[n]);
  return touches;
}

}  // namespace

report_part price_set(const arch_table& arch, const residency& res, long long set_index,
                      const std::vector<const workgroup_record*>& set) {
  report_part part;
  const global_timing& g = arch.global;
  const issue_timing& is = arch.issue;
  const double l2_share = g.l2_sectors_per_clock / res.processors;  // each loading SM's part of the L2's rate
  const double load_rate = std::min(g.sm_load_sectors_per_clock, l2_share);
  const async_copy_timing& ac = arch.async_copy;  // a cp.async's read: its own rate and latency where measured
  const double async_rate = ac.sm_sectors_per_clock > 0 ? std::min(ac.sm_sectors_per_clock, l2_share) : load_rate;
  const double async_latency = ac.first_touch_latency > 0 ? ac.first_touch_latency : g.first_touch_latency;
  long long seen = 0;  // rows and instances in the order this pricing meets them

  auto row = [&](const std::string& label, const wave_instruction* i, int interval, int position) -> part_row& {
    // Barriers and cp.async landings (the LDS side of a copy whose global side has the label's row) key apart.
    const bool landing = i && i->async_copy && i->access.space == memory_space::lds;
    auto [it, fresh] = part.rows.try_emplace(!i ? "\x01" + label : landing ? "\x02" + label : label);
    part_row& pr = it->second;
    if (fresh) {
      pr.label = label;
      pr.barrier = i == nullptr;
      pr.interval = interval;
      pr.position = position;
      pr.first = {set_index, seen};
      if (i) {
        pr.kind = i->access.kind;
        pr.space = i->access.space;
        pr.width = i->access.width;
        pr.matrix_access = i->matrix_access;
        pr.async_copy = i->async_copy;
      }
    }
    ++seen;
    return pr;
  };

  const std::map<load_key, touch_count> touches = classify_global_loads(arch, set);
  std::vector<timed_wave> waves;
  std::vector<std::vector<part_row*>> owner;  // step -> row (nullptr: none)
  for (std::size_t k = 0; k < set.size(); ++k) {
    const workgroup_record& wg = *set[k];
    ++part.workgroups;
    std::vector<std::vector<bool>> address_arithmetic;  // [wave][its n-th LDS access]: needs its own
    if (is.address_ops > 0) {
      std::vector<std::vector<const wave_access*>> lds(wg.waves.size());
      for (std::size_t w = 0; w < wg.waves.size(); ++w)
        for (const wave_instruction& i : wg.waves[w].instructions)
          if (i.access.space == memory_space::lds) lds[w].push_back(&i.access);
      address_arithmetic = needs_address_arithmetic(lds);
    }
    part.waves_per_workgroup = std::max(part.waves_per_workgroup, static_cast<int>(wg.waves.size()));
    for (std::size_t w = 0; w < wg.waves.size(); ++w) {
      timed_wave tw;
      tw.workgroup = static_cast<int>(k);
      tw.scheduler = static_cast<int>((k * wg.waves.size() + w) % static_cast<std::size_t>(std::max(1, is.schedulers)));
      std::vector<part_row*> own;
      const wave_record& wr = wg.waves[w];
      std::size_t lds_seen = 0;       // wave w's LDS accesses priced so far
      int lds_interval = -1;          // the interval of the last of them
      bool guard_chain_paid = false;  // its first guarded global load waited for the guard's chain
      std::deque<int> copies_in_flight;  // steps of its cp.async global reads whose landing is not yet priced
      const std::vector<bool> reused = arch.codegen.reuses_lds_loads ? reused_lds_loads(wr) : std::vector<bool>(wr.instructions.size());
      bool shuffled = false;          // its first shuffle paid first_shuffle_latency
      auto add_alu = [&](const alu_work& a, part_row* owner_row) {
        if (a.empty()) return;
        timed_step s;
        s.kind = step_kind::alu;
        s.issue_slots = 0;
        for (int op = 0; op < alu_op_count; ++op) s.issue_slots += a[op] * is.alu_cycles[static_cast<std::size_t>(op)];
        s.latency = is.alu_latency;
        if (a[static_cast<std::size_t>(alu_op::shuffle)] > 0 && !shuffled) s.latency += is.first_shuffle_latency, shuffled = true;
        s.produces_data = true;
        s.waits_for_data = true;
        tw.steps.push_back(s);
        own.push_back(owner_row);
      };
      // `ops` integer instructions whose results form a chain `depth` deep, feeding the next step (it waits for them):
      // an address the access needs, a guard's compare. Counted in `r`'s arithmetic.
      auto add_integer_chain = [&](int ops, int depth, part_row& r) {
        timed_step a;
        a.kind = step_kind::alu;
        a.issue_slots = ops * is.alu_cycles[static_cast<std::size_t>(alu_op::integer)];
        a.latency = depth * is.alu_latency;
        a.feeds_next = true;
        tw.steps.push_back(a);
        own.push_back(&r);
        r.alu.integer += static_cast<std::uint32_t>(ops);
      };
      auto add_barrier = [&](int interval) {
        tw.steps.push_back({step_kind::barrier, pipe_id::lds, 0, 0, 0});
        own.push_back(&row("barrier " + std::to_string(interval + 1), nullptr, interval, 1 << 30));
      };
      std::size_t next = 0;
      for (int interval = 0; interval < wg.intervals; ++interval) {
        // Issue order, as nvcc and hipcc schedule independent loads: a global load moves up, ahead of the
        // LDS accesses and arithmetic before it, to just after the interval's last earlier global store (which
        // it may alias, so it stays behind it); its arithmetic stays where it was stated. Everything else keeps
        // program order. (A load whose address needs loaded data is outside the model.)
        enum class part_of { both, memory_only, alu_only };
        std::vector<std::pair<std::size_t, part_of>> in_order;
        std::size_t fence = 0;  // loads are placed at in_order[fence], after the last global store so far
        for (; next < wr.instructions.size() && wr.instructions[next].interval == interval; ++next) {
          const wave_instruction& i = wr.instructions[next];
          const bool global = i.access.space == memory_space::global;
          if (global && i.access.kind == access_kind::load && !i.atomic && !i.async_copy) {  // a cp.async writes LDS: in order
            in_order.insert(in_order.begin() + static_cast<std::ptrdiff_t>(fence++), {next, part_of::memory_only});
            if (!i.alu_before.empty()) in_order.emplace_back(next, part_of::alu_only);
          } else {
            in_order.emplace_back(next, part_of::both);
            if (global) fence = in_order.size();
          }
        }
        for (const auto& [at_index, what] : in_order) {
          const wave_instruction& i = wr.instructions[at_index];
          part_row& ir = row(i.access.label, &i, i.interval, i.position);
          if (what != part_of::memory_only) {
            add_alu(i.alu_before, &ir);
            for (int op = 0; op < alu_op_count; ++op) ir.alu[op] += i.alu_before[op];
          }
          if (what == part_of::alu_only) continue;
          if (reused[at_index]) {  // served from an earlier load's registers: no instruction (its arithmetic stays)
            if (is.address_ops > 0) ++lds_seen;
            continue;
          }
          ++ir.instances;
          timed_step s;
          s.produces_data = i.access.kind == access_kind::load && !i.async_copy;  // a cp.async fills no register
          s.waits_for_data = i.access.kind == access_kind::store;
          if (i.async_copy && i.access.space == memory_space::lds) {
            // A cp.async's landing: no instruction of its own (the LDGSTS issued with its global read); its LDS
            // write waits for that read's data only, not for the copies issued after it (the pipeline's point).
            s.issue_slots = 0;
            s.waits_for_data = false;
            if (!copies_in_flight.empty()) {
              s.waits_for_step = copies_in_flight.front();
              copies_in_flight.pop_front();
            }
          }
          if (i.access.space == memory_space::lds) {
            // The first LDS access after a barrier is free too: its address needs no loaded data, so the
            // compiler forms it before the barrier, while the wave waits there.
            const bool after_barrier = i.interval != lds_interval;
            lds_interval = i.interval;
            if (is.address_ops > 0 && address_arithmetic[w][lds_seen++] && !after_barrier) {
              // The address's own integer instructions take issue slots, and the access waits for them.
              add_integer_chain(is.address_ops, 1, ir);
            }
            const lds_cost c = lds_instruction_cost(arch, i.access);
            ir.wavefronts += c.wavefronts;
            ir.ideal += c.ideal;
            ir.excess += c.excess;
            ir.max_ways = std::max(ir.max_ways, c.max_ways);
            if (c.excess > part.worst_excess) {
              part.worst_excess = c.excess;
              part.worst_at = {set_index, seen};
              part.worst_lds = i.access;
            }
            s.pipe = pipe_id::lds;
            s.occupancy = lds_pipe_cycles(arch, c);
            s.latency = arch.lds_timing.latency_cycles;
          } else {
            const global_cost c = global_instruction_cost(arch, i.access);
            ir.sectors += c.sectors;
            ir.ideal_sectors += c.ideal_sectors;
            if ((s.produces_data || i.async_copy) && !i.atomic) {  // loads, and a cp.async's read (into no register)
              if (i.guarded && is.guarded_load_depth > 0 && !guard_chain_paid) {
                // The guard's compare, from the block and thread index: the wave's first guarded load waits for it.
                guard_chain_paid = true;
                add_integer_chain(is.guarded_load_depth, is.guarded_load_depth, ir);
              }
              const touch_count t = touches.at({i.interval, i.position, k * wave_key_stride + w, at_index});
              ir.l1_hit_sectors += t.hit;
              s.pipe = pipe_id::global_load;
              s.occupancy = static_cast<double>(t.miss) / (i.async_copy ? async_rate : load_rate) +
                            static_cast<double>(t.hit + t.merged) / g.l1_sectors_per_clock;
              s.latency = t.far > 0                 ? (i.async_copy ? async_latency : g.first_touch_latency)
                          : t.miss + t.merged > 0 ? g.l2_hit_latency
                                                  : g.l1_load_latency;
            } else {  // stores and atomics leave the SM through the store path
              if (i.guarded && is.guarded_store_ops > 0) {
                // The guard's compare and the store's address, recomputed in the compiler's branch around it: a
                // dependent chain the store waits for (arch.hpp: issue_timing::guarded_store_ops).
                add_integer_chain(is.guarded_store_ops, is.guarded_store_depth, ir);
              }
              s.pipe = pipe_id::global_store;
              s.occupancy = c.sectors / g.store_sectors_per_clock;
              s.latency = 0;
              s.waits_for_data = true;
            }
            if (g.datapath_bytes_per_clock > 0)
              s.datapath = static_cast<double>(c.sectors) * arch.sector_bytes / g.datapath_bytes_per_clock;
          }
          if (i.async_copy && i.access.space == memory_space::global) {
            copies_in_flight.push_back(static_cast<int>(tw.steps.size()));
            s.detached = true;  // bar.sync does not wait for an LDGSTS; cp.async.wait_group does (its landing)
          }
          tw.steps.push_back(s);
          own.push_back(&ir);
        }
        if (interval < static_cast<int>(wr.alu_tail.size()) && !wr.alu_tail[static_cast<std::size_t>(interval)].empty()) {
          // Arithmetic after the interval's last instruction: its row is the barrier that ends the interval,
          // or the last instruction when the program ends.
          part_row* at = interval < wg.intervals - 1 ? &row("barrier " + std::to_string(interval + 1), nullptr, interval, 1 << 30)
                         : own.empty()              ? nullptr
                                                    : own.back();
          if (at) {
            add_alu(wr.alu_tail[static_cast<std::size_t>(interval)], at);
            for (int op = 0; op < alu_op_count; ++op) at->alu[op] += wr.alu_tail[static_cast<std::size_t>(interval)][op];
          }
        }
        if (interval < wg.intervals - 1) add_barrier(interval);
      }
      waves.push_back(std::move(tw));
      owner.push_back(std::move(own));
    }
  }

  const timing_result t = time_waves(waves, timing_params{0, g.prologue_cycles});
  for (double c : t.workgroup_cycles) part.workgroup_cycles.push_back(c);
  part.slowest_cycles = t.total_cycles;
  part.slowest_set = set_index;
  const double total = std::max(t.total_cycles, 1e-9);
  part.issue_busy = t.scheduler_busy.empty() ? 0 : *std::max_element(t.scheduler_busy.begin(), t.scheduler_busy.end()) / total;
  part.lds_busy = t.pipe_busy[static_cast<int>(pipe_id::lds)] / total;
  part.global_load_busy = t.pipe_busy[static_cast<int>(pipe_id::global_load)] / total;
  part.global_store_busy = t.pipe_busy[static_cast<int>(pipe_id::global_store)] / total;
  for (std::size_t w = 0; w < waves.size(); ++w)
    for (std::size_t st = 0; st < waves[w].steps.size(); ++st) {
      part_row* at = owner[w][st];
      if (!at) continue;
      const timed_step& step = waves[w].steps[st];
      const step_times& tt = t.waves[w][st];
      if (step.kind == step_kind::barrier) {
        at->wait.add(tt.complete - tt.issue);
        ++at->instances;
        continue;
      }
      // From when program order allowed it: waiting for data, then for the scheduler, then its own slots,
      // then (memory) its pipe's queue, service and latency.
      const double data_wait = tt.data_ready - tt.ready;
      exact_sum& wait_bucket = tt.waited_on == static_cast<int>(pipe_id::lds) ? at->lds
                               : tt.waited_on >= 0                            ? at->global
                                                                              : at->issue;
      wait_bucket.add(data_wait);
      at->issue.add(tt.issue - tt.data_ready + (step.kind == step_kind::alu ? step.issue_slots + step.latency : 0));
      if (step.kind == step_kind::memory) {
        at->issue.add(step.issue_slots);
        (step.pipe == pipe_id::lds ? at->lds : at->global).add(tt.complete - tt.issue - step.issue_slots);
      }
    }
  return part;
}

}  // namespace tilesim::sim
