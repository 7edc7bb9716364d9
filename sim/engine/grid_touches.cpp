// tilesim/sim/engine/grid_touches.cpp: the interval map of global touches per kind and block, its conflicts.
#include "sim/engine/grid_touches.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#include "sim/engine/internal/byte_bitmap.hpp"

namespace tilesim::sim {

namespace {

// The maximal runs of bytes covered by dense ranges, from a bitmap of [lo, hi): no sort. A 64 x 64 GEMM tile's
// 4096 16-byte loads of A and B become two runs in one pass over 32 KiB of bits.
byte_ranges coalesced_dense(const byte_ranges& r, address_t lo, address_t hi) {
  std::vector<std::uint64_t> bits((hi - lo + 63) / 64, 0);
  for (const auto& [b, e] : r)
    detail::for_each_word_mask(b - lo, e - lo, [&](std::size_t word, std::uint64_t mask) { bits[word] |= mask; });
  byte_ranges out;
  address_t run = 0;
  bool open = false;
  for (std::size_t w = 0; w < bits.size(); ++w) {
    std::uint64_t v = bits[w];
    address_t at = 0;  // bits below `at` are handled
    while (at < 64) {
      // Runs alternate: find the next set bit when closed, the next clear bit when open.
      const std::uint64_t look = (open ? ~v : v) & (at == 0 ? ~std::uint64_t{0} : ~((std::uint64_t{1} << at) - 1));
      if (look == 0) break;
      const auto next = static_cast<address_t>(__builtin_ctzll(look));
      if (open) out.emplace_back(lo + run, lo + w * 64 + next);
      else run = w * 64 + next;
      open = !open;
      at = next;
    }
  }
  if (open) out.emplace_back(lo + run, hi);
  return out;
}

// Sorted, coalesced union of ranges (overlapping or adjacent ranges join): the maximal runs of bytes they cover,
// by a bitmap when they are dense, else sorted.
byte_ranges coalesced(byte_ranges r) {
  if (r.empty()) return r;
  address_t lo = r[0].first, hi = r[0].second, bytes = 0;
  for (const auto& [b, e] : r) {
    lo = std::min(lo, b);
    hi = std::max(hi, e);
    bytes += e - b;
  }
  if (detail::bitmap_pays(hi - lo, bytes)) return coalesced_dense(r, lo, hi);
  std::sort(r.begin(), r.end());
  byte_ranges out;
  for (const auto& x : r) {
    if (!out.empty() && x.first <= out.back().second) out.back().second = std::max(out.back().second, x.second);
    else out.push_back(x);
  }
  return out;
}

block_summary& of_kind(touch_cell& c, int kind) { return kind == 0 ? c.read : kind == 1 ? c.write : c.atomic; }
const block_summary& of_kind(const touch_cell& c, int kind) { return kind == 0 ? c.read : kind == 1 ? c.write : c.atomic; }

std::string summary_text(const block_summary& s) {
  if (s.empty()) return "-";
  return std::to_string(s.first) + (s.many ? "+" : "");
}

// Appends [b, e) to `out`, joining it to the last range when they touch.
void append_range(byte_ranges& out, address_t b, address_t e) {
  if (!out.empty() && out.back().second == b) out.back().second = e;
  else out.emplace_back(b, e);
}

}  // namespace

void block_summary::add(const block_summary& s) {
  if (s.empty()) return;
  if (empty()) {
    *this = s;
    return;
  }
  many = many || s.many || s.first != first;
  first = std::min(first, s.first);
}

bool touch_cell::conflict() const {
  if (write.many) return true;
  if (!write.empty() && (read.other_than(write.first) || atomic.other_than(write.first))) return true;
  return !atomic.empty() && (read.other_than(atomic.first) || (atomic.many && !read.empty()));
}

void grid_touch_map::split(address_t x) {
  auto it = runs_.upper_bound(x);
  if (it == runs_.begin()) {
    runs_.emplace_hint(it, x, touch_cell{});
    return;
  }
  const auto prev = std::prev(it);
  if (prev->first != x) runs_.emplace_hint(it, x, prev->second);
}

void grid_touch_map::add(address_t begin, address_t end, int kind, const block_summary& what) {
  if (begin >= end || what.empty()) return;
  split(begin);
  split(end);
  for (auto it = runs_.find(begin); it != runs_.end() && it->first < end; ++it) of_kind(it->second, kind).add(what);
}

void grid_touch_map::coalesce(address_t begin, address_t end) {
  auto it = runs_.lower_bound(begin);
  if (it != runs_.begin()) --it;
  while (it != runs_.end()) {
    const auto next = std::next(it);
    if (next == runs_.end()) break;
    if (next->second == it->second) {
      runs_.erase(next);
      continue;
    }
    if (next->first > end) break;
    it = next;
  }
  while (!runs_.empty() && runs_.begin()->second.empty()) runs_.erase(runs_.begin());  // nothing before it either
}

void grid_touch_map::add_workgroup(int block, const std::vector<touch>& touches) {
  byte_ranges kinds[3];
  for (const touch& t : touches) {
    if (t.end <= t.begin) continue;
    kinds[t.atomic ? 2 : t.write ? 1 : 0].emplace_back(t.begin, t.end);
  }
  const block_summary one{block, false};
  for (int kind = 0; kind < 3; ++kind)
    for (const auto& [b, e] : coalesced(std::move(kinds[kind]))) {
      add(b, e, kind, one);
      coalesce(b, e);
    }
}

void grid_touch_map::merge(const grid_touch_map& other) {
  for (auto it = other.runs_.begin(); it != other.runs_.end(); ++it) {
    const auto next = std::next(it);
    if (next == other.runs_.end() || it->second.empty()) continue;
    for (int kind = 0; kind < 3; ++kind) add(it->first, next->first, kind, of_kind(it->second, kind));
    coalesce(it->first, next->first);
  }
}

byte_ranges grid_touch_map::conflicts() const {
  byte_ranges out;
  for (auto it = runs_.begin(); it != runs_.end(); ++it) {
    const auto next = std::next(it);
    if (next != runs_.end() && it->second.conflict()) append_range(out, it->first, next->first);
  }
  return out;
}

byte_ranges grid_touch_map::written() const {
  byte_ranges out;
  for (auto it = runs_.begin(); it != runs_.end(); ++it) {
    const auto next = std::next(it);
    if (next != runs_.end() && (!it->second.write.empty() || !it->second.atomic.empty()))
      append_range(out, it->first, next->first);
  }
  return out;
}

std::string grid_touch_map::text() const {
  std::string s;
  for (const auto& [at, cell] : runs_) {
    if (!s.empty()) s += ';';
    s += std::to_string(at) + ":" + summary_text(cell.read) + "/" + summary_text(cell.write) + "/" + summary_text(cell.atomic);
  }
  return s;
}

grid_touch_map grid_touch_map::parse(const std::string& text) {
  grid_touch_map m;
  std::size_t at = 0;
  long long previous = -1;
  auto summary = [&](const std::string& run, const std::string& t) {
    block_summary s;
    if (t == "-") return s;
    const bool many = !t.empty() && t.back() == '+';
    const std::string digits = many ? t.substr(0, t.size() - 1) : t;
    char* end = nullptr;
    const long v = std::strtol(digits.c_str(), &end, 10);
    if (digits.empty() || *end != '\0' || v < 0 || digits[0] == '+' || v > (1L << 24))
      throw std::invalid_argument("grid touches: bad workgroup summary '" + t + "' in run '" + run + "'");
    s.first = static_cast<int>(v);
    s.many = many;
    return s;
  };
  while (at < text.size()) {
    const std::size_t semi = text.find(';', at);
    const std::string run = text.substr(at, semi == std::string::npos ? std::string::npos : semi - at);
    const std::size_t colon = run.find(':'), s1 = run.find('/', colon), s2 = run.find('/', s1 + 1);
    if (colon == std::string::npos || s1 == std::string::npos || s2 == std::string::npos || colon == 0)
      throw std::invalid_argument("grid touches: bad run '" + run + "' (expected BEGIN:R/W/A)");
    char* end = nullptr;
    const unsigned long long key = std::strtoull(run.c_str(), &end, 10);
    if (end != run.c_str() + colon || static_cast<long long>(key) <= previous || run[0] == '-' || run[0] == '+')
      throw std::invalid_argument("grid touches: bad or unordered run start in '" + run + "'");
    touch_cell c{summary(run, run.substr(colon + 1, s1 - colon - 1)), summary(run, run.substr(s1 + 1, s2 - s1 - 1)),
                 summary(run, run.substr(s2 + 1))};
    m.runs_.emplace_hint(m.runs_.end(), key, c);
    previous = static_cast<long long>(key);
    if (semi == std::string::npos) break;
    at = semi + 1;
  }
  if (!m.runs_.empty() && !m.runs_.rbegin()->second.empty())
    throw std::invalid_argument("grid touches: the last run must be empty (it ends the map)");
  return m;
}

}  // namespace tilesim::sim
