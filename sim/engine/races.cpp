// tilesim/sim/engine/races.cpp: overlap search over sorted writes, byte attribution, coalescing.
#include "sim/engine/races.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace tilesim::sim {

namespace {

using side_key = std::tuple<int, int, int, int, bool, bool>;  // block, thread, interval, label, write, atomic
using race_key = std::tuple<int, int, side_key, side_key>;    // space, buffer, first, second
using byte_range = std::pair<address_t, address_t>;

side_key key_of(const touch& t) { return {t.block, t.thread, t.interval, t.label, t.write, t.atomic}; }

race_side side_of(const side_key& k, const race_naming& naming) {
  const auto [block, thread, interval, label, write, atomic] = k;
  race_side s;
  s.who = {block, thread, thread / naming.wave_size, thread % naming.wave_size};
  s.interval = interval;
  s.label = (*naming.labels)[static_cast<std::size_t>(label)];
  s.kind = write ? access_kind::store : access_kind::load;
  s.atomic = atomic;
  return s;
}

// [lo, hi) minus the ranges in `covered` (unsorted, possibly overlapping): the uncovered pieces.
std::vector<byte_range> uncovered(address_t lo, address_t hi, std::vector<byte_range> covered) {
  std::sort(covered.begin(), covered.end());
  std::vector<byte_range> out;
  address_t at = lo;
  for (const byte_range& c : covered) {
    if (c.second <= at) continue;
    if (c.first >= hi) break;
    if (c.first > at) out.emplace_back(at, std::min(c.first, hi));
    at = std::max(at, c.second);
    if (at >= hi) break;
  }
  if (at < hi) out.emplace_back(at, hi);
  return out;
}

}  // namespace

void append_touches(std::vector<touch>& out, const std::vector<lane_access>& accesses, int block, int thread,
                    const std::vector<address_t>& lds_bases, const std::vector<address_t>& global_bases,
                    bool with_lds) {
  for (const lane_access& a : accesses) {
    if (!a.touched() || (!with_lds && a.space == memory_space::lds)) continue;
    const std::vector<address_t>& bases = a.space == memory_space::lds ? lds_bases : global_bases;
    const auto slot = static_cast<std::size_t>(a.buffer);
    const address_t base = slot < bases.size() ? bases[slot] : 0;
    out.push_back({a.touch_begin, a.touch_end, base, a.space, a.kind == access_kind::store, a.atomic, block, thread,
                   a.interval, a.label, a.buffer});
  }
}

std::vector<race> find_races(const std::vector<touch>& t, race_scope scope, const race_naming& naming) {
  const bool within = scope == race_scope::within_workgroup;
  // Touches that may race are in the same class: (block, interval) within a workgroup, all across them.
  auto class_of = [&](const touch& x) {
    return within ? std::pair<int, int>{x.block, x.interval} : std::pair<int, int>{0, 0};
  };
  auto unordered = [&](const touch& a, const touch& b) {
    if (!a.write && !b.write) return false;
    if (a.atomic && b.atomic) return false;
    return within ? a.thread != b.thread : a.block != b.block;
  };
  // Writes in (class, space, first byte, position) order; the position makes ties deterministic. The keys are
  // copied out of the touches so that sorting and searching compare contiguous data.
  struct write_key {
    std::pair<int, int> cls;
    int space;
    address_t begin;
    std::size_t i;
    bool operator<(const write_key& o) const {
      return std::tie(cls, space, begin, i) < std::tie(o.cls, o.space, o.begin, o.i);
    }
  };
  std::vector<write_key> writes;
  address_t longest = 0;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i].write) {
      writes.push_back({class_of(t[i]), static_cast<int>(t[i].space), t[i].begin, i});
      longest = std::max(longest, t[i].end - t[i].begin);
    }
  std::sort(writes.begin(), writes.end());
  std::map<race_key, std::vector<byte_range>> found;
  std::vector<byte_range> explained;
  for (std::size_t i = 0; i < t.size() && !writes.empty(); ++i) {
    const touch& a = t[i];
    const address_t from = a.begin >= longest ? a.begin - longest + 1 : 0;
    const write_key lowest{class_of(a), static_cast<int>(a.space), from, std::size_t{0}};
    auto it = std::lower_bound(writes.begin(), writes.end(), lowest);
    explained.clear();
    for (; it != writes.end(); ++it) {
      if (it->cls != lowest.cls || it->space != lowest.space || it->begin >= a.end) break;
      const touch& w = t[it->i];
      if (it->i == i || w.end <= a.begin || !unordered(a, w)) continue;
      const address_t lo = std::max(a.begin, w.begin), hi = std::min(a.end, w.end);
      const std::vector<byte_range> fresh = uncovered(lo, hi, explained);
      explained.emplace_back(lo, hi);
      if (fresh.empty()) continue;
      const bool a_first = std::make_pair(a.block, a.thread) < std::make_pair(w.block, w.thread);
      const race_key key{static_cast<int>(a.space), a.buffer, a_first ? key_of(a) : key_of(w),
                         a_first ? key_of(w) : key_of(a)};
      std::vector<byte_range>& ranges = found[key];
      for (const byte_range& r : fresh) ranges.emplace_back(r.first - a.base, r.second - a.base);
    }
  }

  std::vector<race> races;
  for (auto& [key, ranges] : found) {
    std::sort(ranges.begin(), ranges.end());
    const auto& [space_number, buffer, first, second] = key;
    const auto space = static_cast<memory_space>(space_number);
    for (std::size_t k = 0; k < ranges.size();) {
      address_t lo = ranges[k].first, hi = ranges[k].second;
      std::size_t j = k + 1;
      while (j < ranges.size() && ranges[j].first <= hi) hi = std::max(hi, ranges[j++].second);
      race r;
      r.space = space;
      r.buffer = buffer;
      r.buffer_name = naming.buffer_name ? naming.buffer_name(space, buffer) : std::string();
      r.begin = static_cast<index_t>(lo);
      r.end = static_cast<index_t>(hi);
      r.first = side_of(first, naming);
      r.second = side_of(second, naming);
      races.push_back(std::move(r));
      k = j;
    }
  }
  std::stable_sort(races.begin(), races.end(), [](const race& x, const race& y) {
    return std::make_tuple(static_cast<int>(x.space), x.buffer, x.begin) <
           std::make_tuple(static_cast<int>(y.space), y.buffer, y.begin);
  });
  return races;
}

void race_screen::mark(address_t begin, address_t end, int thread, bool write, bool atomic) {
  constexpr std::uint8_t several = 1, plain = 2, added = 4, read = 8;
  end = std::min<address_t>(end, static_cast<address_t>(cells_.size()) * 4);
  if (begin >= end) return;
  const auto me = static_cast<std::uint16_t>(thread);
  const std::uint8_t kind = !write ? read : atomic ? added : plain;
  std::uint8_t seen = 0;
  for (address_t w = begin / 4; w < (end + 3) / 4; ++w) {
    cell& c = cells_[w];
    if (c.generation != generation_) {
      c = {generation_, me, kind};
      continue;
    }
    c.flags |= static_cast<std::uint8_t>((c.thread != me ? several : 0) | kind);
    seen |= (c.flags & several) && ((c.flags & plain) || ((c.flags & added) && (c.flags & read)));
  }
  race_ = race_ || seen;
}

}  // namespace tilesim::sim
