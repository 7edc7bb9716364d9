// tilesim/sim/models/global_coalescing.cpp: distinct sectors, lines and bytes (global_coalescing.hpp).
#include "sim/models/global_coalescing.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <stdexcept>
#include <string>

namespace tilesim::sim {
namespace {

// Distinct unit-sized blocks that n closed byte intervals, sorted by start, touch: {[0,3],[4,7]} / 32 -> 1.
int distinct_blocks(const std::array<std::pair<address_t, address_t>, max_wave_size>& spans, int n, int unit_shift) {
  int count = 0;
  address_t last_block = 0;
  bool any = false;
  for (int i = 0; i < n; ++i) {
    const auto [first, last] = spans[static_cast<std::size_t>(i)];
    address_t b = first >> unit_shift;
    if (any && b <= last_block) b = last_block + 1;
    const address_t end = last >> unit_shift;
    if (b <= end) {
      count += static_cast<int>(end - b + 1);
      last_block = end;
      any = true;
    }
  }
  return count;
}

}  // namespace

global_cost global_instruction_cost(const arch_table& arch, const wave_access& access) {
  if (access.address.size() != static_cast<std::size_t>(arch.wave_size))
    throw std::invalid_argument(std::string(arch.name) + ": the access has " + std::to_string(access.address.size()) +
                                " lane addresses, a wave has " + std::to_string(arch.wave_size));
  if (access.width < 1 || access.width > 16)
    throw std::invalid_argument("global width " + std::to_string(access.width) + " is not in 1..16 bytes per lane");
  const address_t width = static_cast<address_t>(access.width);
  // Each active lane's closed byte interval [addr, addr + width - 1], sorted by start.
  std::array<std::pair<address_t, address_t>, max_wave_size> spans{};
  int n = 0;
  for (std::size_t lane = 0; lane < access.address.size(); ++lane) {
    const address_t a = access.address[lane];
    if (a == no_address) continue;
    if (a > std::numeric_limits<address_t>::max() - width)
      throw std::invalid_argument("lane " + std::to_string(lane) + ": address " + std::to_string(a) + " + width " +
                                  std::to_string(access.width) + " overflows 64 bits");
    spans[static_cast<std::size_t>(n++)] = {a, a + width - 1};
  }
  global_cost g;
  if (n == 0) return g;
  if (!std::is_sorted(spans.begin(), spans.begin() + n)) std::sort(spans.begin(), spans.begin() + n);  // often sorted
  // Distinct bytes: the union of the intervals.
  address_t covered_to = 0;
  bool any = false;
  for (int i = 0; i < n; ++i) {
    auto [first, last] = spans[static_cast<std::size_t>(i)];
    if (any && first <= covered_to) first = covered_to + 1;
    if (first <= last) {
      g.bytes += static_cast<std::int64_t>(last - first + 1);
      covered_to = last;
      any = true;
    }
  }
  g.sectors = distinct_blocks(spans, n, std::countr_zero(static_cast<unsigned>(arch.sector_bytes)));
  g.lines = distinct_blocks(spans, n, std::countr_zero(static_cast<unsigned>(arch.line_bytes)));
  g.ideal_sectors = static_cast<int>((g.bytes + arch.sector_bytes - 1) / arch.sector_bytes);
  g.ideal_lines = static_cast<int>((g.bytes + arch.line_bytes - 1) / arch.line_bytes);
  return g;
}

}  // namespace tilesim::sim
