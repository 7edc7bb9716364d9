// tilesim/sim/pricing/partial_checks.cpp: see partial_checks.hpp.
#include "sim/pricing/partial_checks.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/pricing/partial_report.hpp"

namespace tilesim::sim {

namespace {

[[noreturn]] void refuse(const std::string& field, const std::string& what) {
  throw std::invalid_argument("'" + field + "': " + what);
}

std::string range_text(long long lo, long long hi) { return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]"; }

// How the sets of one processor lie: its workgroups and how many sets they make.
struct processor_sets {
  long long workgroups = 0, sets = 0;
};

processor_sets sets_of(const arch_table& arch, long long grid, long long per, long long proc) {
  const long long p = std::max(1, arch.occupancy.processors);
  processor_sets s;
  s.workgroups = proc < grid ? (grid - proc + p - 1) / p : 0;
  s.sets = (s.workgroups + per - 1) / per;
  return s;
}

// The workgroups of sets [first, last) of plan_sets' order, summed without making the sets.
long long workgroups_in(const arch_table& arch, long long grid, long long per, long long first, long long last) {
  const long long p = std::max(1, arch.occupancy.processors);
  long long offset = 0, total = 0;
  for (long long proc = 0; proc < std::min(p, grid) && offset < last; ++proc) {
    const processor_sets s = sets_of(arch, grid, per, proc);
    const long long a = std::max(first, offset) - offset, b = std::min(last, offset + s.sets) - offset;
    for (long long j = a; j < b; ++j) total += std::min(per, s.workgroups - j * per);  // at most `last - first` steps
    offset += s.sets;
  }
  return total;
}

}  // namespace

std::int64_t integer_in(const util::json_value& v, const std::string& field, std::int64_t lo, std::int64_t hi) {
  if (!v.is_number()) refuse(field, "expected an integer");
  std::int64_t x = 0;
  try {
    x = v.integer();
  } catch (const std::invalid_argument&) {
    refuse(field, "expected an integer in " + range_text(lo, hi));
  }
  if (x < lo || x > hi) refuse(field, std::to_string(x) + " is outside " + range_text(lo, hi));
  return x;
}

long long set_count(const arch_table& arch, long long grid, int resident) {
  const long long p = std::max(1, arch.occupancy.processors), per = std::max(1, resident);
  long long n = 0;
  for (long long proc = 0; proc < std::min(p, grid); ++proc) n += sets_of(arch, grid, per, proc).sets;
  return n;
}

const arch_table& arch_of(const partial_report& p) {
  try {
    return arch_named(p.arch);
  } catch (const std::invalid_argument& e) {
    refuse("arch", e.what());
  }
}

void check_partial(const arch_table& arch, const partial_report& p) {
  if (p.arch != arch.name) refuse("arch", "'" + p.arch + "', but the merge is on " + std::string(arch.name));
  if (p.res.processors < 1 || p.res.processors > arch.occupancy.processors)
    refuse("residency.processors", std::to_string(p.res.processors) + " is outside " +
                                       range_text(1, arch.occupancy.processors) + " (" + std::string(arch.name) + "'s processors)");
  if (p.res.workgroups < 1 || p.res.workgroups > p.grid)
    refuse("residency.workgroups", std::to_string(p.res.workgroups) + " is outside " + range_text(1, p.grid) + " (the grid)");
  const long long sets = set_count(arch, p.grid, p.res.workgroups);
  if (p.total_sets != sets)
    refuse("total_sets", std::to_string(p.total_sets) + ", but grid " + std::to_string(p.grid) + " on " + std::string(arch.name) +
                             " with " + std::to_string(p.res.workgroups) + " resident workgroup(s) per SM makes " +
                             std::to_string(sets) + " sets");
  std::vector<std::pair<long long, long long>> ranges = p.sets;
  std::sort(ranges.begin(), ranges.end());
  long long workgroups = 0, end = 0;
  for (const auto& [a, b] : ranges) {
    if (a < end || b > p.total_sets)
      refuse("sets", "[" + std::to_string(a) + ", " + std::to_string(b) + ") overlaps another range or lies outside [0, " +
                         std::to_string(p.total_sets) + ")");
    end = b;
    workgroups += workgroups_in(arch, p.grid, p.res.workgroups, a, b);
  }
  if (p.part.workgroups != workgroups)
    refuse("workgroups", std::to_string(p.part.workgroups) + ", but the sets priced hold " + std::to_string(workgroups));
  if (static_cast<long long>(p.part.workgroup_cycles.size()) != workgroups)
    refuse("workgroup_cycles", std::to_string(p.part.workgroup_cycles.size()) + " entries for " + std::to_string(workgroups) +
                                   " workgroups");
  const int waves = (p.block + arch.wave_size - 1) / arch.wave_size;
  if (p.part.waves_per_workgroup != waves)
    refuse("waves_per_workgroup", std::to_string(p.part.waves_per_workgroup) + ", but a block of " + std::to_string(p.block) +
                                      " threads on " + std::string(arch.name) + " has " + std::to_string(waves));
  if (p.part.worst_excess >= 0) {
    const wave_access& w = p.part.worst_lds;
    if (w.space != memory_space::lds) refuse("worst.space", "the worst access is an LDS access");
    try {
      (void)arch.lds_rule(w.kind, w.width);
    } catch (const std::invalid_argument&) {
      refuse("worst.width", std::to_string(w.width) + " is not one of 1, 2, 4, 8, 16 bytes per lane");
    }
    if (static_cast<int>(w.address.size()) != arch.wave_size)
      refuse("worst.address", std::to_string(w.address.size()) + " addresses, but a wave of " + std::string(arch.name) + " has " +
                                  std::to_string(arch.wave_size) + " lanes");
  }
}

}  // namespace tilesim::sim
