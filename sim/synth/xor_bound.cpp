// tilesim/sim/synth/xor_bound.cpp: forbidden differences, the rank bound and the echelon search (see the header).
#include "sim/synth/xor_bound.hpp"

#include <algorithm>
#include <bit>

namespace tilesim::synth {
namespace {

int log2_of(long long v) { return v > 0 && (v & (v - 1)) == 0 ? std::countr_zero(static_cast<unsigned long long>(v)) : -1; }

// Rank over GF(2) of the XOR-differences of `h` from its first element.
int difference_rank(const std::vector<std::uint32_t>& h) {
  std::uint32_t basis[32] = {};
  int rank = 0;
  for (std::size_t i = 1; i < h.size(); ++i) {
    std::uint32_t v = h[i] ^ h[0];
    for (int b = 31; b >= 0 && v; --b) {
      if (!((v >> b) & 1u)) continue;
      if (!basis[b]) {
        basis[b] = v;
        ++rank;
        v = 0;
      } else {
        v ^= basis[b];
      }
    }
  }
  return rank;
}

struct forbidden_difference {
  std::uint32_t d;
  int rows;  // L d must be nonzero in its first `rows` rows
};

// The echelon search over columns (see the header). graph: pivots fixed on columns [0, f).
class echelon_search {
 public:
  echelon_search(int m, int f, const std::vector<forbidden_difference>& ds, std::uint32_t active, long long budget)
      : m_(m), f_(f), active_(active), budget_(budget), groups_(static_cast<std::size_t>(m)) {
    for (const forbidden_difference& d : ds) groups_[static_cast<std::size_t>(31 - std::countl_zero(d.d))].push_back(d);
    cols_.assign(static_cast<std::size_t>(m), 0);
  }

  // True when a conflict-free L was found (columns()), false when none exists or the budget ran out (exhausted()).
  bool run(bool graph) {
    graph_ = graph;
    nodes_ = 0;
    cut_ = false;
    std::fill(cols_.begin(), cols_.end(), 0u);
    if (graph) {
      for (int j = 0; j < f_ && j < m_; ++j) cols_[static_cast<std::size_t>(j)] = 1u << j;
      for (int j = 0; j < f_ && j < m_; ++j)
        if (!group_ok(j)) return false;
      return dfs(f_, f_ < m_ ? f_ : m_);
    }
    return dfs(0, 0);
  }
  const std::vector<std::uint32_t>& columns() const { return cols_; }
  // Clears every entry of the witness's M (columns >= f) whose removal keeps it conflict-free: fewer XOR terms.
  void simplify() {
    for (int j = m_ - 1; j >= f_; --j)
      for (int i = 0; i < f_; ++i) {
        std::uint32_t& c = cols_[static_cast<std::size_t>(j)];
        if (!((c >> i) & 1u)) continue;
        c ^= 1u << i;
        bool ok = true;
        for (int k = j; k < m_ && ok; ++k) ok = group_ok(k);
        if (!ok) c ^= 1u << i;
      }
  }
  bool exhausted() const { return !cut_; }
  long long nodes() const { return nodes_; }

 private:
  bool group_ok(int j) const {
    for (const forbidden_difference& d : groups_[static_cast<std::size_t>(j)]) {
      std::uint32_t v = 0;
      for (std::uint32_t bits = d.d; bits; bits &= bits - 1) v ^= cols_[static_cast<std::size_t>(std::countr_zero(bits))];
      if ((v & ((1u << d.rows) - 1u)) == 0) return false;
    }
    return true;
  }

  bool dfs(int j, int rank) {
    if (j == m_) return true;
    if (++nodes_ > budget_) {
      cut_ = true;
      return false;
    }
    const auto col = static_cast<std::size_t>(j);
    if (!((active_ >> j) & 1u)) {
      cols_[col] = 0;
      return dfs(j + 1, rank);
    }
    if (!graph_ && rank < f_) {  // a new pivot first
      cols_[col] = 1u << rank;
      if (group_ok(j) && dfs(j + 1, rank + 1)) return true;
      if (cut_) return false;
    }
    const std::uint32_t span = graph_ ? (1u << f_) : (1u << rank);
    for (int pc = 0; pc <= f_; ++pc)
      for (std::uint32_t v = 0; v < span; ++v) {
        if (std::popcount(v) != pc) continue;
        cols_[col] = v;
        if (group_ok(j) && dfs(j + 1, rank)) return true;
        if (cut_) return false;
      }
    cols_[col] = 0;
    return false;
  }

  int m_, f_;
  std::uint32_t active_;
  long long budget_;
  std::vector<std::vector<forbidden_difference>> groups_;
  std::vector<std::uint32_t> cols_;
  bool graph_ = true, cut_ = false;
  long long nodes_ = 0;
};

}  // namespace

bool pair_condition(const tile_instruction& ins, const std::vector<int>& a, const std::vector<int>& b) {
  for (int partner : {1, 2}) {
    bool ok = true;
    for (const std::vector<int>* ph : {&a, &b})
      for (int l : *ph) {
        const auto q = static_cast<std::size_t>(l ^ partner);
        if (q >= ins.lanes.size()) continue;
        const lane_coord x = ins.lanes[static_cast<std::size_t>(l)], y = ins.lanes[q];
        if (x.active() && y.active() && (x.row != y.row || x.col != y.col)) ok = false;
      }
    if (ok) return true;
  }
  return false;
}

std::vector<swizzle_term> terms_of_graph(const std::vector<std::uint32_t>& columns, int free_bits, int e0) {
  std::vector<swizzle_term> terms;
  const int m = static_cast<int>(columns.size());
  for (int s = 1; s < m; ++s) {
    int i = 0;
    while (i < free_bits) {
      const auto has = [&](int k) { return k + s >= free_bits && k + s < m && ((columns[static_cast<std::size_t>(k + s)] >> k) & 1u); };
      if (!has(i)) {
        ++i;
        continue;
      }
      int end = i;
      while (end < free_bits && has(end)) ++end;
      terms.push_back({end - i, e0 + i, s});
      i = end;
    }
  }
  return terms;
}

xor_analysis analyse_xor(const sim::arch_table& arch, const tile_shape& tile, const tile_side& writer,
                         const tile_side& reader, int keep_elems, long long budget, long long write_weight,
                         long long read_weight) {
  xor_analysis a;
  const int eb = log2_of(tile.elem_bytes), rb = log2_of(tile.rows), cb = log2_of(tile.cols);
  const long long bytes = static_cast<long long>(tile.elements()) * tile.elem_bytes;
  if (eb < 0 || rb < 0 || cb < 0) {
    a.not_applicable = "XOR-linear layouts need power-of-two rows, cols and element bytes (" + std::to_string(tile.rows) +
                       " x " + std::to_string(tile.cols) + " of " + std::to_string(tile.elem_bytes) + " B)";
    return a;
  }
  const int word_bits = log2_of(bytes) - 2;
  const int keep_bytes_bits = log2_of(static_cast<long long>(keep_elems) * tile.elem_bytes);
  a.low_bits = std::max(0, keep_bytes_bits - 2);
  a.bank_bits = log2_of(arch.banks);
  a.high_bits = word_bits - a.low_bits;
  a.free_bits = a.bank_bits - a.low_bits;
  if (word_bits < 1 || a.high_bits < 1 || a.high_bits > 24) {
    a.not_applicable = "the tile's " + std::to_string(bytes) + " bytes give " + std::to_string(a.high_bits) +
                       " address bits above the vector (the analysis takes 1 to 24)";
    return a;
  }
  a.applicable = true;
  const int m = a.high_bits, z = a.low_bits;
  const std::uint32_t low_mask = (1u << z) - 1u;
  std::vector<std::int8_t> need(std::size_t{1} << m, 0);
  bool uniform = true;
  std::vector<std::uint32_t> words, group;
  for (const tile_side* side : {&writer, &reader})
    for (const tile_instruction& ins : side->instructions) {
      const int width = ins.elems * tile.elem_bytes;
      const sim::lds_phase_rule& rule = arch.lds_rule(ins.kind, width);
      const int rows = log2_of(rule.banks) - z;
      // The objective's weight of every pass of this instruction (synth.hpp): side weight x instruction weight.
      const long long weight = (side == &writer ? write_weight : read_weight) * ins.weight;
      if (log2_of(rule.banks) != a.bank_bits) uniform = false;
      // One lane set (a phase, or an sm90 pair group): its forbidden differences and its rank bound.
      const auto process = [&](const std::vector<int>& lanes, const std::string& where) {
        words.clear();
        for (int lane : lanes) {
          const lane_coord c = ins.lanes[static_cast<std::size_t>(lane)];
          if (!c.active()) continue;
          const long long byte = (c.row * tile.cols + c.col) * tile.elem_bytes;
          const int n = width >= 4 ? width / 4 : 1;
          for (int k = 0; k < n; ++k) words.push_back(static_cast<std::uint32_t>(byte / 4 + k));
        }
        std::sort(words.begin(), words.end());
        words.erase(std::unique(words.begin(), words.end()), words.end());
        for (std::size_t i = 0; i < words.size(); ++i)
          for (std::size_t k = i + 1; k < words.size(); ++k) {
            const std::uint32_t x = words[i] ^ words[k];
            if (x & low_mask) continue;
            const std::uint32_t d = x >> z;
            if (rows <= 0) {
              if (!a.unavoidable)
                a.unavoidable = side->name + " '" + ins.label + "' " + where + ": words " + std::to_string(words[i]) +
                                " and " + std::to_string(words[k]) + " differ only above the bank bits and no bank bit is free";
              continue;
            }
            std::int8_t& nd = need[d];
            if (nd == 0 || rows < nd) nd = static_cast<std::int8_t>(rows);
          }
        // The rank bound: per low part, |H| / 2^min(rows, rank).
        long long lb = words.empty() ? 0 : 1;
        for (std::uint32_t lam = 0; lam <= low_mask && !words.empty(); ++lam) {
          group.clear();
          for (std::uint32_t w : words)
            if ((w & low_mask) == lam) group.push_back(w >> z);
          if (group.empty()) continue;
          const int rank = difference_rank(group);
          const int sep = std::max(0, std::min(rows, rank));
          lb = std::max(lb, (static_cast<long long>(group.size()) + (1LL << sep) - 1) >> sep);
        }
        return lb;
      };
      const bool pairs = rule.merge == sim::lds_merge::sm90_pairs && ins.kind == sim::access_kind::load;
      for (std::size_t p = 0; p < rule.phases.size(); ++p) {
        const std::string where = "phase " + std::to_string(p);
        const long long lb = process(rule.phases[p], where);
        if (pairs && p % 2 == 0 && p + 1 < rule.phases.size() && pair_condition(ins, rule.phases[p], rule.phases[p + 1])) {
          // A group sm90 serves in one pass when it is conflict-free as a whole: the ideal asks for that.
          const long long lb1 = process(rule.phases[p + 1], "phase " + std::to_string(p + 1));
          std::vector<int> both = rule.phases[p];
          both.insert(both.end(), rule.phases[p + 1].begin(), rule.phases[p + 1].end());
          const long long lbu = process(both, "phases " + std::to_string(p) + "+" + std::to_string(p + 1));
          a.lower_bound += weight * (lbu <= 1 ? std::max(lb, lb1) : lb + lb1);
          if (lbu > 1) a.rank_notes.push_back(side->name + " '" + ins.label + "' phases " + std::to_string(p) + "+" +
                                              std::to_string(p + 1) + ": cannot be served as one paired pass");
          ++p;
          continue;
        }
        if (lb > 1)
          a.rank_notes.push_back(side->name + " '" + ins.label + "' " + where + ": " + std::to_string(words.size()) +
                                 " words whose high bits span more than " + std::to_string(std::max(0, rows)) +
                                 " free bank bits: at least " + std::to_string(lb) + " passes");
        a.lower_bound += weight * lb;
      }
    }
  std::vector<forbidden_difference> ds;
  std::uint32_t active = 0;
  for (std::uint32_t d = 1; d < need.size(); ++d)
    if (need[d] > 0) {
      ds.push_back({d, need[d]});
      active |= d;
    }
  a.forbidden = static_cast<long long>(ds.size());
  a.active_bits = std::popcount(active);
  if (a.unavoidable) {
    a.exhaustive = true;
    return a;
  }
  if (a.free_bits <= 0) {
    a.feasible = ds.empty();
    a.exhaustive = true;
    return a;
  }
  echelon_search search(m, a.free_bits, ds, active, budget);
  const int e0 = z + 2 - eb;
  if (m >= a.free_bits && search.run(true)) {
    a.feasible = a.graph_form = a.exhaustive = true;
    a.nodes = search.nodes();
    search.simplify();
    a.witness = search.columns();
    a.terms = terms_of_graph(a.witness, a.free_bits, e0);
    return a;
  }
  a.nodes = search.nodes();
  if (!uniform) {
    a.exhaustive = false;
    return a;
  }
  a.feasible = search.run(false);
  a.nodes += search.nodes();
  a.exhaustive = a.feasible || search.exhausted();
  if (a.feasible) a.witness = search.columns();
  return a;
}

}  // namespace tilesim::synth
