// tilesim/sim/engine/grouping.cpp: lanes' accesses -> wave instructions by site and occurrence (reconvergence), divergence, ambiguity.
#include "sim/engine/grouping.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

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

namespace {

// What makes two lane accesses the same instruction, and which occurrence and piece of it a lane's piece is.
struct piece_key {
  const char* file = nullptr;
  std::int32_t line = 0;
  std::int32_t label = 0;
  std::uint32_t width = 0;  // the whole access's
  int kind = 0, space = 0;
  bool atomic = false, matrix_access = false, guarded = false, async_copy = false;
  std::uint64_t occurrence = 0;
  std::uint32_t piece = 0;
  auto tied() const {
    return std::tuple(reinterpret_cast<std::uintptr_t>(file), line, label, width, kind, space, atomic, matrix_access,
                      guarded, async_copy, occurrence, piece);
  }
  bool operator<(const piece_key& o) const { return tied() < o.tied(); }
};

// One lane's piece: which access and piece of the lane it is.
struct lane_piece {
  std::size_t access = 0;
  std::uint32_t piece = 0;
};

}  // namespace

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
    auto lane_accesses = [&](int l) -> std::span<const lane_access> { return threads[static_cast<std::size_t>(first + l)]; };
    alu_work tail;
    for (int l = 0; l < lanes && !tails.empty(); ++l)
      for (int op = 0; op < alu_op_count; ++op) tail[op] = std::max(tail[op], tails[static_cast<std::size_t>(first + l)][op]);

    // Every lane's pieces, keyed; the instructions are the distinct keys, each with its lanes (in lane order).
    std::map<piece_key, int> row_of;
    std::vector<piece_key> row_key;
    std::vector<std::vector<int>> members;                    // per row: its lanes
    std::vector<std::vector<lane_piece>> member_piece;        // per row: each member's piece
    std::vector<std::vector<int>> chain(static_cast<std::size_t>(lanes));  // per lane: its rows in order
    for (int l = 0; l < lanes; ++l) {
      std::map<piece_key, std::uint64_t> seen;  // (key without occurrence and piece) -> accesses so far
      const std::span<const lane_access> acc = lane_accesses(l);
      for (std::size_t i = 0; i < acc.size(); ++i) {
        const lane_access& a = acc[i];
        piece_key k{a.site.file, a.site.line, a.label, a.width, static_cast<int>(a.kind), static_cast<int>(a.space),
                    a.atomic, a.matrix_access, a.guarded, a.async_copy, 0, 0};
        const std::uint64_t occurrence = seen[k]++;
        for (std::uint32_t p = 0; p < pieces(a, split_bytes); ++p) {
          piece_key kp = k;
          kp.occurrence = occurrence;
          kp.piece = p;
          auto [it, added] = row_of.emplace(kp, static_cast<int>(row_key.size()));
          if (added) {
            row_key.push_back(kp);
            members.emplace_back();
            member_piece.emplace_back();
          }
          members[static_cast<std::size_t>(it->second)].push_back(l);
          member_piece[static_cast<std::size_t>(it->second)].push_back({i, p});
          chain[static_cast<std::size_t>(l)].push_back(it->second);
        }
      }
    }
    // The chase (grouping.hpp's ORDER), step by step.
    std::vector<bool> emitted(row_key.size(), false);
    std::vector<std::size_t> pos(static_cast<std::size_t>(lanes), 0);
    auto next = [&](int l) {  // lane l's first row not issued yet, -1 when none is left
      std::vector<int>& c = chain[static_cast<std::size_t>(l)];
      std::size_t& p = pos[static_cast<std::size_t>(l)];
      while (p < c.size() && emitted[static_cast<std::size_t>(c[p])]) ++p;
      return p < c.size() ? c[p] : -1;
    };
    auto describe_row = [&](int r) {
      const lane_piece& lp = member_piece[static_cast<std::size_t>(r)][0];
      const lane_access& a = lane_accesses(members[static_cast<std::size_t>(r)][0])[lp.access];
      return signature(a, piece_width(a, lp.piece, split_bytes), labels);
    };
    alu_work carried;  // arithmetic of instructions left out (no active lane), for the next one made
    auto continues = [&](int r) {  // an earlier occurrence of r's key was issued
      piece_key k = row_key[static_cast<std::size_t>(r)];
      for (std::uint64_t o = 0; o < row_key[static_cast<std::size_t>(r)].occurrence; ++o) {
        k.occurrence = o;
        for (k.piece = 0; row_of.count(k); ++k.piece)
          if (emitted[static_cast<std::size_t>(row_of.at(k))]) return true;
      }
      return false;
    };
    for (int position = 0;; ++position) {
      int first = -1, looping = -1;  // the lane whose next row comes first in the source; the lowest looping lane
      for (int l = 0; l < lanes; ++l) {
        const int nl = next(l);
        if (nl < 0) continue;
        const piece_key& k = row_key[static_cast<std::size_t>(nl)];
        if (first < 0 || source_before({k.file, k.line}, {row_key[static_cast<std::size_t>(next(first))].file,
                                                           row_key[static_cast<std::size_t>(next(first))].line}))
          first = l;
        if (continues(nl)) {
          looping = l;
          break;
        }
      }
      if (first < 0) break;
      int r = next(looping >= 0 ? looping : first);
      std::vector<int> passed;
      bool conflict = false;
      for (;;) {
        passed.push_back(r);
        int waiting = -1;
        for (int m : members[static_cast<std::size_t>(r)])
          if (next(m) != r) {
            waiting = m;
            break;
          }
        if (waiting < 0) break;
        const int earlier = next(waiting);
        if (std::find(passed.begin(), passed.end(), earlier) != passed.end()) {
          r = earlier;
          conflict = true;
          break;
        }
        r = earlier;
      }
      const auto ri = static_cast<std::size_t>(r);
      if (conflict) {  // lanes grouped by what they still had to issue before this instruction
        std::map<std::string, std::vector<int>> by_what;
        const std::string here = describe_row(r);
        for (int m : members[ri]) {
          const int e = next(m);
          by_what[e == r ? here : here + ", issued before their " + describe_row(e)].push_back(m);
        }
        ambiguity amb{block, w, interval, position, {}};
        for (auto& [what, ids] : by_what) amb.lanes.push_back({what, std::move(ids)});
        g.ambiguities.push_back(std::move(amb));
      }
      emitted[ri] = true;
      const lane_access& r0 = lane_accesses(members[ri][0])[member_piece[ri][0].access];
      wave_instruction ins;
      ins.access = {labels[static_cast<std::size_t>(r0.label)], r0.kind, r0.space,
                    static_cast<int>(piece_width(r0, row_key[ri].piece, split_bytes)),
                    std::vector<address_t>(static_cast<std::size_t>(wave_size), no_address)};
      ins.interval = interval;
      ins.position = position;
      ins.buffer = r0.buffer;
      ins.atomic = r0.atomic;
      ins.matrix_access = r0.matrix_access;
      ins.access.matrix_access = r0.matrix_access;  // priced as 8x8 matrix phases (sim/models/lds_banks.hpp)
      ins.guarded = r0.guarded;
      ins.async_copy = r0.async_copy;
      bool any_active = false;
      for (std::size_t j = 0; j < members[ri].size(); ++j) {
        const int l = members[ri][j];
        const lane_piece lp = member_piece[ri][j];
        const lane_access& a = lane_accesses(l)[lp.access];
        if (a.buffer != ins.buffer) ins.buffer = -1;
        if (lp.piece == 0)
          for (int op = 0; op < alu_op_count; ++op) ins.alu_before[op] = std::max(ins.alu_before[op], a.alu_before[op]);
        any_active = any_active || a.active;
        if (a.active && a.address != no_address)
          ins.access.address[static_cast<std::size_t>(l)] =
              a.address + static_cast<address_t>(lp.piece) * static_cast<address_t>(split_bytes);
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
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(lanes));
    for (int l = 0; l < lanes; ++l) counts[static_cast<std::size_t>(l)] = chain[static_cast<std::size_t>(l)].size();
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
