// tilesim/sim/timing/residency.cpp: the resident count from an arch's occupancy limits, and the sets it makes.
#include "sim/timing/residency.hpp"

#include <algorithm>
#include <utility>

namespace tilesim::sim {

residency plan_residency(const arch_table& arch, int grid_size, int block, std::size_t lds, int registers_per_thread) {
  const occupancy_limits& o = arch.occupancy;
  const long long grid = std::max(1, grid_size), threads = std::max(1, block);
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

std::vector<std::vector<int>> plan_sets(const arch_table& arch, int grid, const residency& res) {
  const int p = std::max(1, arch.occupancy.processors);
  const auto per = static_cast<std::size_t>(std::max(1, res.workgroups));
  std::vector<std::vector<int>> sets;
  for (int proc = 0; proc < std::min(p, grid); ++proc) {
    std::vector<int> list;
    for (int b = proc; b < grid; b += p) list.push_back(b);
    for (std::size_t at = 0; at < list.size(); at += per)
      sets.emplace_back(list.begin() + static_cast<std::ptrdiff_t>(at),
                        list.begin() + static_cast<std::ptrdiff_t>(std::min(list.size(), at + per)));
  }
  return sets;
}

}  // namespace tilesim::sim
