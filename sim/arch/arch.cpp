// tilesim/sim/arch/arch.cpp: lookup by name, the table invariants, and the helpers the tables are built with.
#include "sim/arch/arch.hpp"

#include <stdexcept>

namespace tilesim::sim {
namespace {

// 1 -> 0, 2 -> 1, 4 -> 2, 8 -> 3, 16 -> 4; -1 for anything else.
int width_log2(int width) {
  switch (width) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    default: return -1;
  }
}

int slot(access_kind kind, int width) { return (kind == access_kind::store ? 5 : 0) + width_log2(width); }

const char* kind_name(access_kind k) { return k == access_kind::load ? "load" : "store"; }

}  // namespace

const lds_phase_rule& arch_table::lds_rule(access_kind kind, int width) const {
  if (width_log2(width) < 0)
    throw std::invalid_argument(std::string(name) + ": LDS width " + std::to_string(width) +
                                " is not one of 1, 2, 4, 8, 16 bytes per lane");
  return lds_rules[static_cast<std::size_t>(rule_index[static_cast<std::size_t>(slot(kind, width))])];
}

const std::vector<const arch_table*>& all_arch_tables() {
  static const std::vector<const arch_table*> tables = {&sm90_table(), &gfx90a_table(), &gfx942_table(),
                                                        &gfx950_table()};
  return tables;
}

std::string arch_names() {
  std::string s;
  for (const arch_table* a : all_arch_tables()) s += (s.empty() ? "" : ", ") + std::string(a->name);
  return s;
}

const arch_table& arch_named(std::string_view name) {
  for (const arch_table* a : all_arch_tables())
    if (a->name == name) return *a;
  throw std::invalid_argument("unknown architecture '" + std::string(name) + "' (known: " + arch_names() + ")");
}

std::optional<std::string> check_arch_table(const arch_table& a) {
  const std::string who = std::string(a.name) + ": ";
  if (a.wave_size < 1 || a.wave_size > max_wave_size) return who + "wave size must be in [1, 64]";
  if (a.banks < 1 || a.banks > max_banks) return who + "bank count must be in [1, 64]";
  if (a.bank_bytes != 4) return who + "banks must be 4 bytes wide (the models count 4-byte words)";
  if (a.sector_bytes < 1 || a.line_bytes < a.sector_bytes || (a.sector_bytes & (a.sector_bytes - 1)) != 0 ||
      (a.line_bytes & (a.line_bytes - 1)) != 0)
    return who + "global sectors and lines must be powers of two, a line at least a sector";
  if (a.global.l2_hit_latency > 0 && (a.global.near_region_bytes < a.sector_bytes ||
                                      (a.global.near_region_bytes & (a.global.near_region_bytes - 1)) != 0))
    return who + "global.near_region_bytes " + std::to_string(a.global.near_region_bytes) +
           " must be a power of two and at least a sector (" + std::to_string(a.sector_bytes) + " bytes)";
  for (access_kind kind : {access_kind::load, access_kind::store})
    for (int width : {1, 2, 4, 8, 16}) {
      int found = 0;
      for (const lds_phase_rule& r : a.lds_rules) found += r.kind == kind && r.width == width;
      if (found != 1)
        return who + "needs exactly one LDS rule for " + kind_name(kind) + " width " + std::to_string(width) +
               " (has " + std::to_string(found) + ")";
    }
  for (const lds_phase_rule& r : a.lds_rules) {
    const std::string rule = who + kind_name(r.kind) + " width " + std::to_string(r.width) + ": ";
    if (width_log2(r.width) < 0) return rule + "width must be 1, 2, 4, 8 or 16";
    if (r.banks < 1 || r.banks > max_banks || (r.banks & (r.banks - 1)) != 0)
      return rule + "bank count must be a power of two in [1, 64]";
    if (r.evidence.empty()) return rule + "says nothing about its evidence";
    std::vector<int> seen(static_cast<std::size_t>(a.wave_size), 0);
    for (const std::vector<int>& phase : r.phases) {
      if (phase.empty()) return rule + "has an empty phase";
      for (int lane : phase) {
        if (lane < 0 || lane >= a.wave_size) return rule + "names lane " + std::to_string(lane) + " outside the wave";
        if (seen[static_cast<std::size_t>(lane)]++) return rule + "names lane " + std::to_string(lane) + " twice";
      }
    }
    for (int lane = 0; lane < a.wave_size; ++lane)
      if (!seen[static_cast<std::size_t>(lane)]) return rule + "leaves lane " + std::to_string(lane) + " in no phase";
    if (r.merge == lds_merge::sm90_pairs) {
      if (r.phases.size() % 2 != 0) return rule + "pair merging needs an even number of phases";
      for (std::size_t p = 0; p < r.phases.size(); p += 2) {
        // The pair group must be an aligned block of lanes, so that lane^1 and lane^2 stay inside it.
        std::vector<int> group = r.phases[p];
        group.insert(group.end(), r.phases[p + 1].begin(), r.phases[p + 1].end());
        int lo = group.front(), hi = group.front();
        for (int lane : group) lo = lane < lo ? lane : lo, hi = lane > hi ? lane : hi;
        const int size = static_cast<int>(group.size());
        if (hi - lo + 1 != size || size % 4 != 0 || lo % size != 0)
          return rule + "a merged pair of phases must cover an aligned block of lanes";
      }
    }
  }
  return std::nullopt;
}

namespace arch_data {

std::vector<int> lanes(int first, int last) {
  std::vector<int> v;
  for (int l = first; l <= last; ++l) v.push_back(l);
  return v;
}

std::vector<int> lanes(std::initializer_list<std::pair<int, int>> ranges) {
  std::vector<int> v;
  for (const auto& [first, last] : ranges)
    for (int l = first; l <= last; ++l) v.push_back(l);
  return v;
}

std::vector<std::vector<int>> contiguous(int wave_size, int per_phase) {
  std::vector<std::vector<int>> v;
  for (int first = 0; first < wave_size; first += per_phase) v.push_back(lanes(first, first + per_phase - 1));
  return v;
}

arch_table finish_arch_table(arch_table a) {
  if (const auto broken = check_arch_table(a)) throw std::logic_error("broken arch table: " + *broken);
  for (std::size_t i = 0; i < a.lds_rules.size(); ++i)
    a.rule_index[static_cast<std::size_t>(slot(a.lds_rules[i].kind, a.lds_rules[i].width))] = static_cast<int>(i);
  return a;
}

}  // namespace arch_data
}  // namespace tilesim::sim
