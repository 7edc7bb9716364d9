// tilesim/sim/engine/grouping.cpp: k-th access per lane -> one wave instruction, with divergence and ambiguity.
#include "sim/engine/grouping.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace tilesim::sim {

namespace {

// Instructions one lane access becomes: 32 bytes at split 16 -> 2.
std::uint32_t pieces(const lane_access& a, int split) {
  if (split <= 0 || a.width <= static_cast<std::uint32_t>(split)) return 1;
  return (a.width + static_cast<std::uint32_t>(split) - 1) / static_cast<std::uint32_t>(split);
}

// Width of piece p of an access: 40 bytes at split 16 -> 16, 16, 8.
std::uint32_t piece_width(const lane_access& a, std::uint32_t p, int split) {
  if (split <= 0 || a.width <= static_cast<std::uint32_t>(split)) return a.width;
  return std::min<std::uint32_t>(static_cast<std::uint32_t>(split), a.width - p * static_cast<std::uint32_t>(split));
}

// What a lane did at one position, as a report names it: "label 'st', 4-byte lds store".
std::string signature(const lane_access& a, std::uint32_t width, const std::vector<std::string>& labels) {
  return access_description(labels[static_cast<std::size_t>(a.label)], width, a.space, a.kind, a.atomic);
}

// A lane's walk through its accesses of one interval, piece by piece.
struct lane_cursor {
  std::size_t access = 0, end = 0;
  std::uint32_t piece = 0;
  bool done() const { return access >= end; }
};

}  // namespace

namespace {

void check_grouping(int wave_size, int split_bytes) {
  if (wave_size < 1)
    throw std::invalid_argument("group_accesses: wave_size must be >= 1 (wave_size = " + std::to_string(wave_size) +
                                ")");
  if (split_bytes < 0 || (split_bytes & (split_bytes - 1)) != 0)
    throw std::invalid_argument("group_accesses: split_bytes must be 0 or a power of two (split_bytes = " +
                                std::to_string(split_bytes) + ")");
}

}  // namespace

grouping group_accesses(const std::vector<const std::vector<lane_access>*>& threads, int block, int wave_size,
                        int intervals, int split_bytes, const std::vector<std::string>& labels,
                        const std::vector<std::vector<alu_work>>& alu_tails, bool empty_instructions_issue) {
  check_grouping(wave_size, split_bytes);
  grouping g;
  std::vector<std::size_t> next(threads.size(), 0);
  std::vector<std::span<const lane_access>> of_interval(threads.size());
  std::vector<alu_work> tails(threads.size());
  for (int interval = 0; interval < intervals; ++interval) {
    for (std::size_t t = 0; t < threads.size(); ++t) {
      const std::vector<lane_access>& acc = *threads[t];
      std::size_t end = next[t];
      while (end < acc.size() && acc[end].interval == interval) ++end;
      of_interval[t] = std::span<const lane_access>(acc.data() + next[t], end - next[t]);
      next[t] = end;
      tails[t] = t < alu_tails.size() && static_cast<std::size_t>(interval) < alu_tails[t].size()
                     ? alu_tails[t][static_cast<std::size_t>(interval)]
                     : alu_work{};
    }
    group_interval(of_interval, block, wave_size, interval, split_bytes, labels, tails, g, empty_instructions_issue);
  }
  if (g.waves.empty()) {  // no interval: the waves, without instructions
    const int n = static_cast<int>(threads.size());
    for (int w = 0; w < (n + wave_size - 1) / wave_size; ++w) g.waves.push_back({w, std::min(wave_size, n - w * wave_size), {}, {}});
  }
  std::stable_sort(g.divergences.begin(), g.divergences.end(), [](const divergence& a, const divergence& b) { return a.wave < b.wave; });
  std::stable_sort(g.ambiguities.begin(), g.ambiguities.end(), [](const ambiguity& a, const ambiguity& b) { return a.wave < b.wave; });
  return g;
}

void group_interval(const std::vector<std::span<const lane_access>>& threads, int block, int wave_size, int interval,
                    int split_bytes, const std::vector<std::string>& labels, const std::vector<alu_work>& tails,
                    grouping& g, bool empty_instructions_issue) {
  check_grouping(wave_size, split_bytes);
  const int n = static_cast<int>(threads.size());
  const int waves = (n + wave_size - 1) / wave_size;
  if (g.waves.empty())
    for (int w = 0; w < waves; ++w) g.waves.push_back({w, std::min(wave_size, n - w * wave_size), {}, {}});
  for (int w = 0; w < waves; ++w) {
    const int first = w * wave_size;
    const int lanes = std::min(wave_size, n - first);
    wave_record& rec = g.waves[static_cast<std::size_t>(w)];
    alu_work tail;
    for (int l = 0; l < lanes && !tails.empty(); ++l)
      for (int op = 0; op < alu_op_count; ++op) tail[op] = std::max(tail[op], tails[static_cast<std::size_t>(first + l)][op]);
    alu_work carried;  // arithmetic of instructions left out (no active lane), for the next one made
    std::vector<lane_cursor> cur(static_cast<std::size_t>(lanes));
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(lanes));  // pieces per lane, counted as they group
    for (int l = 0; l < lanes; ++l) cur[static_cast<std::size_t>(l)] = {0, threads[static_cast<std::size_t>(first + l)].size(), 0};
    for (int position = 0;; ++position) {
      int ref = -1;
      for (int l = 0; l < lanes && ref < 0; ++l)
        if (!cur[static_cast<std::size_t>(l)].done()) ref = l;
      if (ref < 0) break;
      const lane_cursor& rc = cur[static_cast<std::size_t>(ref)];
      const lane_access& r = threads[static_cast<std::size_t>(first + ref)][rc.access];
      const std::uint32_t rw = piece_width(r, rc.piece, split_bytes);
      wave_instruction ins;
      ins.access = {labels[static_cast<std::size_t>(r.label)], r.kind, r.space, static_cast<int>(rw),
                    std::vector<address_t>(static_cast<std::size_t>(wave_size), no_address)};
      ins.interval = interval;
      ins.position = position;
      ins.buffer = r.buffer;
      ins.atomic = r.atomic;
      ins.matrix_load = r.matrix_load;
      bool agree = true;
      bool any_active = false;
      for (int l = ref; l < lanes; ++l) {
        lane_cursor& c = cur[static_cast<std::size_t>(l)];
        if (c.done()) continue;
        const lane_access& a = threads[static_cast<std::size_t>(first + l)][c.access];
        const std::uint32_t aw = piece_width(a, c.piece, split_bytes);
        agree = agree && a.label == r.label && a.kind == r.kind && a.space == r.space && aw == rw &&
                a.atomic == r.atomic && a.matrix_load == r.matrix_load;
        if (a.buffer != ins.buffer) ins.buffer = -1;
        if (c.piece == 0)
          for (int op = 0; op < alu_op_count; ++op) ins.alu_before[op] = std::max(ins.alu_before[op], a.alu_before[op]);
        any_active = any_active || a.active;
        if (a.active && a.address != no_address)
          ins.access.address[static_cast<std::size_t>(l)] = a.address + static_cast<address_t>(c.piece) *
                                                                            static_cast<address_t>(split_bytes);
      }
      if (!agree) {
        std::map<std::string, std::vector<int>> by_signature;
        for (int l = ref; l < lanes; ++l) {
          const lane_cursor& c = cur[static_cast<std::size_t>(l)];
          if (c.done()) continue;
          const lane_access& a = threads[static_cast<std::size_t>(first + l)][c.access];
          by_signature[signature(a, piece_width(a, c.piece, split_bytes), labels)].push_back(l);
        }
        ambiguity amb{block, w, interval, position, {}};
        for (auto& [what, ids] : by_signature) amb.lanes.push_back({what, std::move(ids)});
        g.ambiguities.push_back(std::move(amb));
      }
      for (int l = ref; l < lanes; ++l) {  // advance every lane that took part by one piece
        lane_cursor& c = cur[static_cast<std::size_t>(l)];
        if (c.done()) continue;
        ++counts[static_cast<std::size_t>(l)];
        const lane_access& a = threads[static_cast<std::size_t>(first + l)][c.access];
        if (++c.piece >= pieces(a, split_bytes)) {
          c.piece = 0;
          ++c.access;
        }
      }
      if (!any_active && !empty_instructions_issue) {  // not issued: its arithmetic goes with the next one
        for (int op = 0; op < alu_op_count; ++op) carried[op] += ins.alu_before[op];
        continue;
      }
      for (int op = 0; op < alu_op_count; ++op) ins.alu_before[op] += carried[op];
      carried = {};
      rec.instructions.push_back(std::move(ins));
    }
    for (int op = 0; op < alu_op_count; ++op) tail[op] += carried[op];
    rec.alu_tail.push_back(tail);
    // Lanes that issued different numbers of instructions in the interval diverged.
    if (auto d = divergence_of(block, w, interval, counts)) g.divergences.push_back(std::move(*d));
  }
}

std::string access_description(const std::string& label, std::uint32_t width, memory_space space, access_kind kind,
                               bool atomic) {
  return "label '" + label + "', " + std::to_string(width) + "-byte " + space_name(space) + " " +
         (atomic ? "atomic add" : kind_name(kind));
}

std::optional<divergence> divergence_of(int block, int wave, int interval, std::span<const std::uint64_t> counts) {
  if (std::all_of(counts.begin(), counts.end(), [&](std::uint64_t c) { return c == counts[0]; })) return std::nullopt;
  std::map<std::uint64_t, std::vector<int>> by_count;
  for (std::size_t l = 0; l < counts.size(); ++l) by_count[counts[l]].push_back(static_cast<int>(l));
  divergence d{block, wave, interval, {}};
  for (const auto& [count, ids] : by_count)
    d.lanes.push_back({std::to_string(count) + (count == 1 ? " instruction" : " instructions"), ids});
  return d;
}

}  // namespace tilesim::sim
