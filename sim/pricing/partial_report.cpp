// tilesim/sim/pricing/partial_report.cpp: report parts written and read exactly; slices checked and merged.
#include "sim/pricing/partial_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <tuple>

#include "sim/pricing/partial_checks.hpp"
#include "util/json.hpp"

namespace tilesim::sim {

using util::json_value;

namespace {

// 17 significant digits: strtod gives the same double back.
std::string exact_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string q(const std::string& s) { return util::json_quote(s); }
std::string n(long long v) { return std::to_string(v); }
const char* space_word(memory_space s) { return s == memory_space::lds ? "lds" : "global"; }
const char* kind_word(access_kind k) { return k == access_kind::load ? "load" : "store"; }

memory_space space_of(const json_value& v) {
  if (v.string() == "lds") return memory_space::lds;
  if (v.string() == "global") return memory_space::global;
  throw std::invalid_argument("'space': expected lds or global, found '" + v.string() + "'");
}
access_kind kind_of(const json_value& v) {
  if (v.string() == "load") return access_kind::load;
  if (v.string() == "store") return access_kind::store;
  throw std::invalid_argument("'kind': expected load or store, found '" + v.string() + "'");
}

std::string row_json(const std::string& key, const part_row& r) {
  return "{\"key\": " + q(key) + ", \"label\": " + q(r.label) + ", \"barrier\": " + (r.barrier ? "true" : "false") +
         ", \"kind\": \"" + kind_word(r.kind) + "\", \"space\": \"" + space_word(r.space) + "\", \"width\": " + n(r.width) +
         ", \"matrix_load\": " + (r.matrix_access ? "true" : "false") + (r.async_copy ? ", \"async_copy\": true" : "") +
         ", \"interval\": " + n(r.interval) +
         ", \"position\": " + n(r.position) + ", \"first\": [" + n(r.first.first) + ", " + n(r.first.second) +
         "], \"instances\": " + n(r.instances) + ", \"wavefronts\": " + n(r.wavefronts) + ", \"ideal\": " + n(r.ideal) +
         ", \"excess\": " + n(r.excess) + ", \"sectors\": " + n(r.sectors) + ", \"ideal_sectors\": " + n(r.ideal_sectors) +
         ", \"l1_hit_sectors\": " + n(r.l1_hit_sectors) + ", \"max_ways\": " + n(r.max_ways) + ", \"alu\": [" +
         n(r.alu.fma) + ", " + n(r.alu.integer) + ", " + n(r.alu.shuffle) + ", " + n(r.alu.matrix) + "], \"issue\": " +
         q(r.issue.text()) + ", \"lds\": " + q(r.lds.text()) + ", \"global\": " + q(r.global.text()) + ", \"wait\": " +
         q(r.wait.text()) + "}";
}

part_row row_of(const json_value& v) {
  part_row r;
  r.label = v["label"].string();
  r.barrier = v["barrier"].boolean();
  r.kind = kind_of(v["kind"]);
  r.space = space_of(v["space"]);
  r.width = static_cast<int>(v["width"].integer());
  r.matrix_access = v["matrix_load"].boolean();
  r.async_copy = v.get("async_copy") && v["async_copy"].boolean();
  r.interval = static_cast<int>(v["interval"].integer());
  r.position = static_cast<int>(v["position"].integer());
  const auto& first = v["first"].elements();
  if (first.size() != 2) throw std::invalid_argument("'first': expected [set, order]");
  r.first = {first[0].integer(), first[1].integer()};
  r.instances = v["instances"].integer();
  r.wavefronts = v["wavefronts"].integer();
  r.ideal = v["ideal"].integer();
  r.excess = v["excess"].integer();
  r.sectors = v["sectors"].integer();
  r.ideal_sectors = v["ideal_sectors"].integer();
  r.l1_hit_sectors = v["l1_hit_sectors"].integer();
  r.max_ways = static_cast<int>(v["max_ways"].integer());
  const auto& alu = v["alu"].elements();
  if (alu.size() != alu_op_count) throw std::invalid_argument("'alu': expected " + std::to_string(alu_op_count) + " counts");
  for (int op = 0; op < alu_op_count; ++op) r.alu[op] = static_cast<std::uint32_t>(alu[static_cast<std::size_t>(op)].integer());
  r.issue = exact_sum::parse(v["issue"].string());
  r.lds = exact_sum::parse(v["lds"].string());
  r.global = exact_sum::parse(v["global"].string());
  r.wait = exact_sum::parse(v["wait"].string());
  return r;
}

std::string counts_json(const diagnostic_counts& f) {
  return "[" + n(static_cast<long long>(f.races)) + ", " + n(static_cast<long long>(f.bounds_errors)) + ", " +
         n(static_cast<long long>(f.misaligned)) + ", " + n(static_cast<long long>(f.ambiguities)) + ", " +
         n(static_cast<long long>(f.divergences)) + ", " + n(static_cast<long long>(f.barrier_mismatches)) + "]";
}

diagnostic_counts counts_of(const json_value& v) {
  const auto& c = v.elements();
  if (c.size() != 6) throw std::invalid_argument("'found': expected 6 counts");
  auto at = [&](int i) { return static_cast<std::size_t>(integer_in(c[static_cast<std::size_t>(i)], "found", 0, std::int64_t{1} << 48)); };
  return {at(0), at(1), at(2), at(3), at(4), at(5)};
}

// A cycle count or busy fraction: a finite number >= 0 ("1e999" reads as infinity and is refused).
double cycles_of(const json_value& v, const std::string& field) {
  const double x = v.number();
  if (!std::isfinite(x) || x < 0) throw std::invalid_argument("'" + field + "': " + exact_double(x) + " is not a finite number >= 0");
  return x;
}

bool same_plan(const residency& a, const residency& b) {
  return a.workgroups == b.workgroups && a.processors == b.processors && a.limit == b.limit;
}

}  // namespace

partial_report make_partial(const arch_table& arch, const launch& config, int registers, const simulation& s,
                            std::map<std::string, std::string> meta) {
  partial_report p;
  p.meta = std::move(meta);
  p.arch = std::string(arch.name);
  p.grid = config.grid;
  p.block = config.block;
  p.max_reports = config.max_reports;
  p.registers = registers;
  p.max_lds_bytes = s.max_lds_bytes;
  p.res = s.res;
  p.total_sets = s.total_sets;
  for (long long k : s.set_indices) {
    if (!p.sets.empty() && p.sets.back().second == k) ++p.sets.back().second;
    else p.sets.emplace_back(k, k + 1);
  }
  p.part = s.part;
  p.touches = s.touches;
  for (const race& r : s.grid_races) p.grid_races.push_back(describe(r));
  return p;
}

std::string to_json(const partial_report& p) {
  const report_part& r = p.part;
  std::string s = "{\n  \"schema\": " + q(partial_schema) + ",\n  \"meta\": {";
  bool first = true;
  for (const auto& [k, v] : p.meta) {
    s += std::string(first ? "" : ", ") + q(k) + ": " + q(v);
    first = false;
  }
  s += "},\n  \"arch\": " + q(p.arch) + ", \"grid\": " + n(p.grid) + ", \"block\": " + n(p.block) + ", \"max_reports\": " +
       n(p.max_reports) + ", \"registers\": " + n(p.registers) + ", \"max_lds_bytes\": " +
       n(static_cast<long long>(p.max_lds_bytes)) + ",\n  \"residency\": {\"workgroups\": " + n(p.res.workgroups) +
       ", \"processors\": " + n(p.res.processors) + ", \"limit\": " + q(p.res.limit) + "},\n  \"total_sets\": " +
       n(p.total_sets) + ", \"sets\": [";
  for (std::size_t k = 0; k < p.sets.size(); ++k) s += (k ? ", [" : "[") + n(p.sets[k].first) + ", " + n(p.sets[k].second) + "]";
  s += "],\n  \"workgroups\": " + n(r.workgroups) + ", \"waves_per_workgroup\": " + n(r.waves_per_workgroup) +
       ",\n  \"workgroup_cycles\": [";
  for (std::size_t k = 0; k < r.workgroup_cycles.size(); ++k) s += (k ? ", " : "") + exact_double(r.workgroup_cycles[k]);
  s += "],\n  \"slowest\": {\"cycles\": " + exact_double(r.slowest_cycles) + ", \"set\": " + n(r.slowest_set) +
       ", \"issue\": " + exact_double(r.issue_busy) + ", \"lds\": " + exact_double(r.lds_busy) + ", \"global_load\": " +
       exact_double(r.global_load_busy) + ", \"global_store\": " + exact_double(r.global_store_busy) + "},\n  \"worst\": ";
  if (r.worst_excess < 0) {
    s += "null";
  } else {
    s += "{\"excess\": " + n(r.worst_excess) + ", \"at\": [" + n(r.worst_at.first) + ", " + n(r.worst_at.second) +
         "], \"label\": " + q(r.worst_lds.label) + ", \"kind\": \"" + kind_word(r.worst_lds.kind) + "\", \"space\": \"" +
         space_word(r.worst_lds.space) + "\", \"width\": " + n(r.worst_lds.width) + ", \"address\": [";
    for (std::size_t k = 0; k < r.worst_lds.address.size(); ++k)
      s += (k ? ", " : "") + (r.worst_lds.address[k] == no_address ? std::string("-1") : std::to_string(r.worst_lds.address[k]));
    s += std::string("]") + (r.worst_lds.matrix_access ? ", \"matrix_load\": true" : "") + "}";  // ldmatrix/stmatrix (old key)
  }
  s += ",\n  \"rows\": [";
  first = true;
  for (const auto& [key, row] : r.rows) {
    s += std::string(first ? "\n    " : ",\n    ") + row_json(key, row);
    first = false;
  }
  s += "],\n  \"findings\": [";
  first = true;
  for (const auto& [block, lists] : r.findings)
    for (int k = 0; k < finding_kinds; ++k)
      for (const std::string& f : lists[static_cast<std::size_t>(k)]) {
        s += std::string(first ? "\n    " : ",\n    ") + "{\"block\": " + n(block) + ", \"kind\": " + n(k) + ", \"text\": " + q(f) + "}";
        first = false;
      }
  s += "],\n  \"found\": " + counts_json(r.found) + ",\n  \"grid_races\": [";
  for (std::size_t k = 0; k < p.grid_races.size(); ++k) s += (k ? ", " : "") + q(p.grid_races[k]);
  s += "],\n  \"touches\": " + q(p.touches.text()) + "\n}\n";
  return s;
}

partial_report parse_partial(const std::string& text) {
  const json_value v = util::parse_json(text);
  if (!v.is_object()) throw std::invalid_argument("a partial report is one JSON object");
  if (!v.get("schema") || v["schema"].string() != partial_schema)
    throw std::invalid_argument(std::string("not a partial report: 'schema' must be \"") + partial_schema + "\"");
  partial_report p;
  for (const auto& [key, value] : v["meta"].members()) p.meta[key] = value.string();
  p.arch = v["arch"].string();
  // Every number in the range its field can hold (partial_checks.hpp), before anything is sized by it.
  p.grid = static_cast<int>(integer_in(v["grid"], "grid", 1, max_partial_grid));
  p.block = static_cast<int>(integer_in(v["block"], "block", 1, 1024));
  p.max_reports = static_cast<int>(integer_in(v["max_reports"], "max_reports", 0, 1 << 20));
  p.registers = static_cast<int>(integer_in(v["registers"], "registers", 0, 255));
  p.max_lds_bytes = static_cast<std::size_t>(integer_in(v["max_lds_bytes"], "max_lds_bytes", 0, std::int64_t{1} << 30));
  const json_value& res = v["residency"];
  p.res = {static_cast<int>(integer_in(res["workgroups"], "residency.workgroups", 1, max_partial_grid)),
           static_cast<int>(integer_in(res["processors"], "residency.processors", 1, 1 << 16)), res["limit"].string()};
  p.total_sets = integer_in(v["total_sets"], "total_sets", 1, p.grid);
  for (const json_value& range : v["sets"].elements()) {
    const auto& ab = range.elements();
    if (ab.size() != 2) throw std::invalid_argument("'sets': expected [first, last) ranges");
    const std::int64_t first = integer_in(ab[0], "sets", 0, p.total_sets - 1), last = integer_in(ab[1], "sets", first + 1, p.total_sets);
    p.sets.emplace_back(first, last);
  }
  report_part& r = p.part;
  r.workgroups = static_cast<int>(integer_in(v["workgroups"], "workgroups", 0, p.grid));
  r.waves_per_workgroup = static_cast<int>(integer_in(v["waves_per_workgroup"], "waves_per_workgroup", 1, 1024));
  for (const json_value& c : v["workgroup_cycles"].elements()) r.workgroup_cycles.push_back(cycles_of(c, "workgroup_cycles"));
  const json_value& slow = v["slowest"];
  r.slowest_cycles = cycles_of(slow["cycles"], "slowest.cycles");
  r.slowest_set = integer_in(slow["set"], "slowest.set", -1, p.total_sets - 1);
  r.issue_busy = cycles_of(slow["issue"], "slowest.issue");
  r.lds_busy = cycles_of(slow["lds"], "slowest.lds");
  r.global_load_busy = cycles_of(slow["global_load"], "slowest.global_load");
  r.global_store_busy = cycles_of(slow["global_store"], "slowest.global_store");
  const json_value& worst = v["worst"];
  if (!worst.is_null()) {
    r.worst_excess = worst["excess"].integer();
    const auto& at = worst["at"].elements();
    if (at.size() != 2) throw std::invalid_argument("'at': expected [set, order]");
    r.worst_at = {at[0].integer(), at[1].integer()};
    r.worst_lds.label = worst["label"].string();
    r.worst_lds.kind = kind_of(worst["kind"]);
    r.worst_lds.space = space_of(worst["space"]);
    r.worst_lds.width = static_cast<int>(integer_in(worst["width"], "worst.width", 1, 16));
    for (const json_value& a : worst["address"].elements()) {
      const std::int64_t x = integer_in(a, "worst.address", -1, std::int64_t{1} << 32);
      r.worst_lds.address.push_back(x < 0 ? no_address : static_cast<address_t>(x));
    }
    r.worst_lds.matrix_access = worst.get("matrix_load") && worst["matrix_load"].boolean();
  }
  for (const json_value& row : v["rows"].elements()) r.rows[row["key"].string()] = row_of(row);
  for (const json_value& f : v["findings"].elements()) {
    const std::int64_t kind = f["kind"].integer();
    if (kind < 0 || kind >= finding_kinds) throw std::invalid_argument("'kind': a finding kind is 0-5");
    r.findings[static_cast<int>(f["block"].integer())][static_cast<std::size_t>(kind)].push_back(f["text"].string());
  }
  r.found = counts_of(v["found"]);
  for (const json_value& g : v["grid_races"].elements()) p.grid_races.push_back(g.string());
  p.touches = grid_touch_map::parse(v["touches"].string());
  return p;
}

merged_report merge_partials(const arch_table& arch, std::vector<partial_report> parts) {
  if (parts.empty()) throw std::invalid_argument("merge: no partial reports");
  const partial_report& a = parts.front();
  auto differ = [&](std::size_t i, const std::string& field, const std::string& mine, const std::string& first) {
    throw std::invalid_argument("partial " + std::to_string(i + 1) + " is of another run: its " + field + " is '" + mine +
                                "', partial 1's '" + first + "'");
  };
  for (std::size_t i = 0; i < parts.size(); ++i) {  // every number believed before the owner table is sized by one
    try {
      check_partial(arch, parts[i]);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("partial " + std::to_string(i + 1) + ": " + e.what());
    }
  }
  std::vector<int> owner(static_cast<std::size_t>(std::max<long long>(0, a.total_sets)), -1);
  std::size_t max_lds = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const partial_report& p = parts[i];
    if (p.arch != a.arch) differ(i, "arch", p.arch, a.arch);
    const auto command = p.meta.count("command") ? p.meta.at("command") : "";
    const auto first_command = a.meta.count("command") ? a.meta.at("command") : "";
    if (command != first_command) differ(i, "command", command, first_command);
    for (const auto& [field, mine, first] : {std::tuple{"grid", p.grid, a.grid}, std::tuple{"block", p.block, a.block},
                                             std::tuple{"max_reports", p.max_reports, a.max_reports},
                                             std::tuple{"registers", p.registers, a.registers},
                                             std::tuple{"total_sets", static_cast<int>(p.total_sets), static_cast<int>(a.total_sets)}})
      if (mine != first) differ(i, field, std::to_string(mine), std::to_string(first));
    for (const auto& [b, e] : p.sets)
      for (long long k = b; k < e; ++k) {
        if (k < 0 || k >= a.total_sets)
          throw std::invalid_argument("partial " + std::to_string(i + 1) + " names set " + std::to_string(k) + " of " +
                                      std::to_string(a.total_sets));
        int& o = owner[static_cast<std::size_t>(k)];
        if (o >= 0)
          throw std::invalid_argument("partials " + std::to_string(o + 1) + " and " + std::to_string(i + 1) +
                                      " both priced set " + std::to_string(k) + " (their --workgroups slices overlap)");
        o = static_cast<int>(i);
      }
    max_lds = std::max(max_lds, p.max_lds_bytes);
  }
  for (std::size_t k = 0; k < owner.size(); ++k)
    if (owner[k] < 0)
      throw std::invalid_argument("no partial priced set " + std::to_string(k) + " of " + std::to_string(owner.size()) +
                                  " (a --workgroups slice is missing)");
  const residency res = plan_residency(arch, a.grid, a.block, max_lds, a.registers);
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (!same_plan(parts[i].res, res))
      throw std::invalid_argument("partial " + std::to_string(i + 1) + " priced " + std::to_string(parts[i].res.workgroups) +
                                  " resident workgroups (" + parts[i].res.limit + "), but the grid's largest LDS allocation (" +
                                  std::to_string(max_lds) + " bytes) gives " + std::to_string(res.workgroups) + " (" +
                                  res.limit + "): run it in one process");

  merged_report m;
  m.meta = a.meta;
  report_part all;
  grid_touch_map touches;
  byte_ranges inner;
  std::vector<std::string> grid_races;
  std::sort(parts.begin(), parts.end(), [](const partial_report& x, const partial_report& y) { return x.sets < y.sets; });
  for (partial_report& p : parts) {
    m.metas.push_back(p.meta);
    for (const auto& r : p.touches.conflicts()) inner.push_back(r);
    touches.merge(p.touches);
    grid_races.insert(grid_races.end(), p.grid_races.begin(), p.grid_races.end());
    all.merge(std::move(p.part), a.max_reports);
  }
  std::sort(inner.begin(), inner.end());
  for (const auto& [b, e] : touches.conflicts()) {  // the parts of [b, e) no shard saw race on its own
    address_t at = b;
    for (const auto& [ib, ie] : inner) {
      if (ie <= at || ib >= e) continue;
      if (ib > at) m.cross_races.emplace_back(at, ib);
      at = std::max(at, ie);
    }
    if (at < e) m.cross_races.emplace_back(at, e);
  }
  all.found.races += m.cross_races.size();
  all.trim_findings(a.max_reports);
  std::size_t listed = 0;
  for (const auto& [block, lists] : all.findings) listed += lists[static_cast<int>(finding_kind::race)].size();
  m.report = finish_report(arch, res, std::move(all), {}, a.max_reports);
  for (const std::string& g : grid_races)
    if (listed++ < static_cast<std::size_t>(a.max_reports)) m.report.findings.push_back(g);
  for (const auto& [b, e] : m.cross_races)
    if (listed++ < static_cast<std::size_t>(a.max_reports))
      m.report.findings.push_back("race between workgroups of different shards on global bytes [" + std::to_string(b) + ", " +
                                  std::to_string(e) + ") (the shards cannot name the threads: run it in one process)");
  return m;
}

}  // namespace tilesim::sim
