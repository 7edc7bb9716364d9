// tilesim/gpu/crosscheck/source_match.cpp: SASS counters matched to labels, the table and JSON (source_match.hpp).
#include "gpu/crosscheck/source_match.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "sim/models/global_coalescing.hpp"
#include "sim/models/lds_banks.hpp"

namespace tilesim::gpu {

using util::json_value;

namespace {

// One (label, class) of the simulated run.
struct sim_label {
  std::string label;
  sass_class cls;
  long long instances = 0, wavefronts = 0, sectors = 0, lanes = 0;
  long long off_slots = 0;  // per workgroup: waves x the busiest wave's instances - the waves' instances
  int max_ways = 0;
  std::pair<int, int> first{1 << 30, 1 << 30};  // (interval, position) of the first issue
  std::set<int> intervals;
};

sass_class class_of(const sim::wave_instruction& i) {
  sass_class c;
  c.space = i.access.space == sim::memory_space::lds ? sass_space::lds : sass_space::global;
  c.op = i.atomic ? sass_op::atomic : i.access.kind == sim::access_kind::load ? sass_op::load : sass_op::store;
  c.width = i.access.width;
  c.matrix = i.matrix_access && i.access.kind == sim::access_kind::load;  // ldmatrix (LDSM); stmatrix: a store
  if (i.async_copy) {  // one LDGSTS: its LDS landing is the same instruction as its global read
    c.space = sass_space::global;
    c.op = sass_op::load;
    c.async_copy = true;
  }
  return c;
}

// Every (label, class) of the run with its counts, in order of first issue.
std::vector<sim_label> labels_of(const sim::arch_table& arch, const sim::run_result& run) {
  std::vector<sim_label> out;
  std::map<std::string, std::size_t> index;
  for (const sim::workgroup_record& w : run.workgroups) {
    std::map<std::size_t, std::vector<long long>> per_wave;  // label index -> instances per wave of w
    for (std::size_t v = 0; v < w.waves.size(); ++v)
      for (const sim::wave_instruction& i : w.waves[v].instructions) {
        const sass_class c = class_of(i);
        const std::string key = i.access.label + '\x01' + c.text();
        auto [it, fresh] = index.try_emplace(key, out.size());
        if (fresh) {
          out.emplace_back();
          out.back().label = i.access.label;
          out.back().cls = c;
        }
        sim_label& l = out[it->second];
        if (i.async_copy && i.access.space == sim::memory_space::lds) {  // the landing: wavefronts of the LDGSTS
          const sim::lds_cost cost = sim::lds_instruction_cost(arch, i.access);
          l.wavefronts += cost.wavefronts;
          l.max_ways = std::max(l.max_ways, cost.max_ways);
          continue;
        }
        ++l.instances;
        l.lanes += i.access.active_lanes();
        std::vector<long long>& counts = per_wave[it->second];
        counts.resize(w.waves.size(), 0);
        ++counts[v];
        if (c.space == sass_space::lds) {
          const sim::lds_cost cost = sim::lds_instruction_cost(arch, i.access);
          l.wavefronts += cost.wavefronts;
          l.max_ways = std::max(l.max_ways, cost.max_ways);
        } else {
          l.sectors += sim::global_instruction_cost(arch, i.access).sectors;
        }
        l.first = std::min(l.first, std::pair<int, int>{i.interval, i.position});
        l.intervals.insert(i.interval);
      }
    for (const auto& [index, counts] : per_wave) {
      const long long busiest = *std::max_element(counts.begin(), counts.end());
      for (const long long c : counts) out[index].off_slots += busiest - c;
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const sim_label& a, const sim_label& b) { return a.first < b.first; });
  return out;
}

bool share_interval(const std::set<int>& a, const std::set<int>& b) {
  for (int x : a)
    if (b.count(x)) return true;
  return false;
}

// Wavefronts per instruction, at most two decimals: 2048 / 512 -> "4", 9 / 4 -> "2.25"; "-" without instructions.
std::string per_instruction(long long wavefronts, long long instructions) {
  if (instructions <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(wavefronts) / static_cast<double>(instructions));
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%04llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::string source_row::name() const {
  if (labels.empty()) return "(no label)";
  std::string s;
  for (const std::string& l : labels) s += (s.empty() ? "" : " + ") + l;
  return s;
}

source_comparison compare_source_counters(const sim::arch_table& arch, const sim::run_result& run,
                                          const std::vector<sass_row>& sass, const std::string& origin) {
  source_comparison out;
  out.origin = origin;
  const std::vector<sim_label> labels = labels_of(arch, run);
  // Groups: per class, labels that share a barrier interval (with everything between them) are one group.
  struct group {
    std::vector<const sim_label*> members;
    std::set<int> intervals;
  };
  std::vector<std::pair<sass_class, std::vector<group>>> classes;
  for (const sim_label& l : labels) {
    auto it = std::find_if(classes.begin(), classes.end(), [&](const auto& c) { return c.first == l.cls; });
    if (it == classes.end()) it = classes.insert(classes.end(), {l.cls, {}});
    std::vector<group>& gs = it->second;
    std::size_t g = 0;
    while (g < gs.size() && !share_interval(gs[g].intervals, l.intervals)) ++g;
    if (g == gs.size()) {
      gs.push_back({{&l}, l.intervals});
      continue;
    }
    for (std::size_t k = g + 1; k < gs.size(); ++k) {  // merge g .. end: their SASS may interleave with l's
      gs[g].members.insert(gs[g].members.end(), gs[k].members.begin(), gs[k].members.end());
      gs[g].intervals.insert(gs[k].intervals.begin(), gs[k].intervals.end());
    }
    gs.resize(g + 1);
    gs[g].members.push_back(&l);
    gs[g].intervals.insert(l.intervals.begin(), l.intervals.end());
  }
  // Walk each class's executed SASS in address order.
  std::vector<std::pair<std::pair<int, int>, source_row>> ordered;
  std::vector<bool> taken(sass.size(), false);
  std::uint64_t base = sass.empty() ? 0 : sass.front().address;
  for (const sass_row& s : sass) base = std::min(base, s.address);
  auto counted = [](const sass_row& s) { return s.executed > 0 && !s.predicated_off; };
  for (const sass_row& s : sass) out.predicated_off += s.cls.space != sass_space::none && s.predicated_off;
  for (const auto& [cls, groups] : classes) {
    std::vector<std::size_t> rows;
    for (std::size_t k = 0; k < sass.size(); ++k)
      if (sass[k].cls == cls && counted(sass[k])) rows.push_back(k);
    std::size_t next = 0;
    bool aligned = true;
    for (const group& g : groups) {
      source_row r;
      r.cls = cls;
      for (const sim_label* m : g.members) {
        r.labels.push_back(m->label);
        r.sim_instances += m->instances;
        r.sim_wavefronts += m->wavefronts;
        r.sim_max_ways = std::max(r.sim_max_ways, m->max_ways);
        r.sim_sectors += m->sectors;
        r.sim_lanes += m->lanes;
        r.predicated_off_slots += m->off_slots;
      }
      if (g.members.size() > 1)
        r.note = "labels of one class in one barrier interval: the compiler may interleave their SASS, compared together";
      const std::size_t start = next;
      while (aligned && next < rows.size() && r.gpu_executed < r.sim_instances) {
        const sass_row& s = sass[rows[next++]];
        r.gpu_executed += s.executed;
        r.gpu_wavefronts += s.wavefronts;
        r.gpu_sectors += s.sectors;
      }
      r.sass_instructions = static_cast<int>(next - start);
      bool threads_known = next > start;
      long long threads = 0;
      for (std::size_t k = start; k < next; ++k) {
        threads_known = threads_known && sass[rows[k]].threads_on >= 0;
        threads += std::max(0LL, sass[rows[k]].threads_on);
      }
      r.gpu_threads_on = threads_known ? threads : -1;
      if (r.sass_instructions > 0) r.first_offset = sass[rows[start]].address - base;
      for (std::size_t k = start; k < next; ++k) {
        taken[rows[k]] = true;
        const std::string& l = sass[rows[k]].program_line;
        if (!l.empty() && std::find(r.program_lines.begin(), r.program_lines.end(), l) == r.program_lines.end())
          r.program_lines.push_back(l);
      }
      if (!aligned) {
        r.status = "unmatched";
        r.note = "not aligned: an earlier label of this class did not match";
      } else if (r.gpu_executed != r.sim_instances && r.predicated_off_slots > 0 &&
                 r.gpu_executed == r.sim_instances + r.predicated_off_slots &&
                 (r.gpu_threads_on < 0 || r.cls.matrix || r.gpu_threads_on == r.sim_lanes)) {
        r.gpu_all_off = r.predicated_off_slots;
        r.status = r.gpu_wavefronts == r.sim_wavefronts && r.gpu_sectors == r.sim_sectors ? "equal" : "DIFFER";
        r.note = std::to_string(r.gpu_all_off) + " of Nsight's executions ran with every lane predicated off (nvcc " +
                 "predicated the guard the simulator's lanes branch around; it issues " +
                 std::to_string(r.sim_instances) + ")" +
                 (r.gpu_threads_on >= 0 ? "; predicated-on threads " + std::to_string(r.gpu_threads_on) + " = the lanes"
                                        : std::string());
      } else if (r.gpu_executed != r.sim_instances) {
        r.status = "unmatched";
        r.note = r.sass_instructions == 0
                     ? "no executed SASS instruction of this class is left for it"
                     : "Nsight's executed counts of the next " + std::to_string(r.sass_instructions) +
                           " SASS instructions of this class add up to " + std::to_string(r.gpu_executed) + ", not " +
                           std::to_string(r.sim_instances) + " instances";
        aligned = false;
      } else {
        r.status = r.gpu_wavefronts == r.sim_wavefronts && r.gpu_sectors == r.sim_sectors ? "equal" : "DIFFER";
      }
      ordered.push_back({g.members.front()->first, std::move(r)});
    }
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& o : ordered) out.rows.push_back(std::move(o.second));
  // Executed SASS memory instructions no label took: one row per class.
  for (std::size_t k = 0; k < sass.size(); ++k) {
    if (taken[k] || !counted(sass[k]) || sass[k].cls.space == sass_space::none) continue;
    auto it = std::find_if(out.rows.begin(), out.rows.end(),
                           [&](const source_row& r) { return r.labels.empty() && r.cls == sass[k].cls; });
    if (it == out.rows.end()) {
      source_row r;
      r.cls = sass[k].cls;
      r.status = "unmatched";
      r.note = "executed SASS instructions that no label of the simulated program took";
      r.first_offset = sass[k].address - base;
      out.rows.push_back(r);
      it = out.rows.end() - 1;
    }
    ++it->sass_instructions;
    const std::string& l = sass[k].program_line;
    if (!l.empty() && std::find(it->program_lines.begin(), it->program_lines.end(), l) == it->program_lines.end())
      it->program_lines.push_back(l);
    it->gpu_executed += sass[k].executed;
    it->gpu_wavefronts += sass[k].wavefronts;
    it->gpu_sectors += sass[k].sectors;
  }
  out.all_equal = !out.rows.empty() &&
                  std::all_of(out.rows.begin(), out.rows.end(), [](const source_row& r) { return r.status == "equal"; });
  return out;
}

std::string source_table(const source_comparison& c, const std::string& indent) {
  char line[512];
  const bool lines = std::any_of(c.rows.begin(), c.rows.end(), [](const source_row& r) { return !r.program_lines.empty(); });
  // One table line: the fixed columns, then the agree column and, when the page has program lines, those.
  auto add = [&](std::string& s, const char* status, const std::string& where) {
    std::string l = line + std::string(status);
    if (lines) l += std::string(std::max<std::size_t>(1, 10 - std::string(status).size()), ' ') + where;
    while (!l.empty() && l.back() == ' ') l.pop_back();
    s += l + "\n";
  };
  std::string s = indent + "per instruction: Nsight Compute's source counters (" + c.origin + ") matched to the labels\n";
  std::snprintf(line, sizeof line, "%s  %-24s %-18s %8s %8s %5s %-8s %5s %7s %7s %8s %8s  ", indent.c_str(), "label",
                "class", "inst sim", "gpu", "SASS", "at", "N-way", "wf/inst", "gpu", "sectors", "gpu");
  add(s, "agree", "line");
  for (const source_row& r : c.rows) {
    const bool lds = r.cls.space == sass_space::lds;
    std::snprintf(line, sizeof line, "%s  %-24s %-18s %8lld %8lld %5d %-8s %5s %7s %7s %8s %8s  ", indent.c_str(),
                  r.name().c_str(), r.cls.text().c_str(), r.sim_instances, r.gpu_executed, r.sass_instructions,
                  r.sass_instructions ? hex(r.first_offset).c_str() : "-",
                  lds && !r.labels.empty() ? std::to_string(r.sim_max_ways).c_str() : "-",
                  lds ? per_instruction(r.sim_wavefronts, r.sim_instances).c_str() : "-",
                  lds ? per_instruction(r.gpu_wavefronts, r.gpu_executed).c_str() : "-",
                  lds ? "-" : std::to_string(r.sim_sectors).c_str(), lds ? "-" : std::to_string(r.gpu_sectors).c_str());
    std::string where;
    for (const std::string& x : r.program_lines) where += (where.empty() ? "" : ", ") + x;
    add(s, r.status.c_str(), where.empty() ? "-" : where);
    if (!r.note.empty()) s += indent + "    (" + r.note + ")\n";
  }
  s += indent + "  (SASS: the instructions taken, at: the first one's offset in the kernel; N-way: the simulator's most "
                "distinct words one bank serves in one phase; wf/inst: shared wavefronts per warp-level instruction, "
                "Nsight's L1 Wavefronts Shared / Instructions Executed (its \"L1 Conflicts Shared N-Way\" column); "
                "sectors: 32-byte global sectors, Nsight's L2 Theoretical Sectors Global" +
       std::string(lines ? "; line: the program lines its SASS instructions came from (nvdisasm -g -gi)" : "") + ")\n";
  if (c.predicated_off)
    s += indent + "  (" + std::to_string(c.predicated_off) + " SASS memory instruction" +
         (c.predicated_off == 1 ? "" : "s") + " ran only with every lane predicated off: no access, not compared)\n";
  s += indent + (c.all_equal ? "  every label agrees with Nsight Compute\n"
                             : "  NOT every label agrees with Nsight Compute: see the rows above\n");
  return s;
}

json_value to_json(const source_comparison& c) {
  json_value v;
  v.set("origin", c.origin);
  v.set("all_equal", c.all_equal);
  v.set("predicated_off", c.predicated_off);
  json_value& rows = v.set("rows", json_value::array{});
  for (const source_row& r : c.rows) {
    json_value j;
    json_value::array labels;
    for (const std::string& l : r.labels) labels.push_back(json_value(l));
    j.set("labels", json_value(labels));
    j.set("class", r.cls.text());
    j.set("sim_instances", r.sim_instances);
    j.set("gpu_instructions_executed", r.gpu_executed);
    j.set("sass_instructions", r.sass_instructions);
    j.set("first_offset", r.sass_instructions ? json_value(hex(r.first_offset)) : json_value());
    j.set("sim_wavefronts", r.sim_wavefronts);
    j.set("sim_max_ways", r.sim_max_ways);
    j.set("gpu_wavefronts", r.gpu_wavefronts);
    j.set("sim_sectors", r.sim_sectors);
    j.set("gpu_sectors", r.gpu_sectors);
    j.set("gpu_all_off_executions", r.gpu_all_off);
    j.set("status", r.status);
    json_value::array where;
    for (const std::string& l : r.program_lines) where.push_back(json_value(l));
    j.set("program_lines", json_value(where));
    j.set("note", r.note.empty() ? json_value() : json_value(r.note));
    rows.push(std::move(j));
  }
  return v;
}

}  // namespace tilesim::gpu
