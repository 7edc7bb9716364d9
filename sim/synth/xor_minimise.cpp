// tilesim/sim/synth/xor_minimise.cpp: phase units, the class bound and the branch-and-bound (see the header).
#include "sim/synth/xor_minimise.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <limits>
#include <tuple>

#include "sim/synth/xor_bound.hpp"

namespace tilesim::synth {
namespace {

int log2_of(long long v) { return v > 0 && (v & (v - 1)) == 0 ? std::countr_zero(static_cast<unsigned long long>(v)) : -1; }

// A range of word entries [begin, end), sorted and distinct.
struct span {
  std::size_t begin = 0, end = 0;
  bool empty() const { return begin == end; }
};

// One phase, or one sm90 paired group (a, b and their union u).
struct unit {
  long long weight = 1;
  std::uint32_t bank_mask = 0;  // banks - 1 of the instruction's rule
  std::uint32_t label_mask = 0; // free bank bits of the rule
  bool pair = false;
  span a, b, u;
  std::uint32_t mixed = 0;      // chunk bits some but not all of its words have: only those columns change its cost
};

class searcher {
 public:
  searcher(const xor_minimum& x, std::vector<std::uint32_t> words, std::vector<unit> units)
      : x_(x), words_(std::move(words)), labels_(words_.size(), 0), units_(std::move(units)) {
    by_bit_.resize(static_cast<std::size_t>(x_.m));
    for (std::size_t i = 0; i < words_.size(); ++i)
      for (int j = 0; j < x_.m; ++j)
        if ((words_[i] >> (x_.z + j)) & 1u) by_bit_[static_cast<std::size_t>(j)].push_back(i);
    for (unit& u : units_) {
      const span all = u.pair ? u.u : u.a;
      std::uint32_t any = 0, every = ~0u;
      for (std::size_t i = all.begin; i < all.end; ++i) {
        any |= words_[i] >> x_.z;
        every &= words_[i] >> x_.z;
      }
      u.mixed = all.empty() ? 0u : any & ~every;
    }
    cost_.assign(static_cast<std::size_t>(x_.m) + 1, std::vector<int>(units_.size(), 0));
  }

  family_optimum run(xor_family fam, long long incumbent, const std::vector<std::uint32_t>& incumbent_cols,
                     const minimise_limits& lim) {
    fam_ = fam;
    lim_ = lim;
    start_ = std::chrono::steady_clock::now();
    nodes_ = 0;
    cut_ = false;
    open_lb_ = std::numeric_limits<long long>::max();
    best_ = incumbent;
    best_cols_ = incumbent_cols;
    cols_.assign(static_cast<std::size_t>(x_.m), 0);
    std::fill(labels_.begin(), labels_.end(), 0u);
    root_ = bound(0, 0, true);
    if (best_ > root_) dfs(0, 0);
    family_optimum o;
    o.family = fam;
    o.best = best_;
    o.columns = best_cols_;
    o.nodes = nodes_;
    o.exhaustive = !cut_;
    o.lower_bound = cut_ ? std::min(best_, std::max(root_, open_lb_)) : best_;
    return o;
  }

 private:
  // The most words of one class (h >> depth) on one bank, with column `depth - 1` xor-ed by `extra` where bit
  // `bit` of h is set.
  int most(const span& s, int depth, std::uint32_t bank_mask, std::uint32_t label_mask) {
    int mx = 0;
    const int shift = x_.z + depth;
    std::size_t i = s.begin;
    while (i < s.end) {
      const std::uint32_t cls = words_[i] >> shift;
      std::size_t k = i;
      touched_.clear();
      for (; k < s.end && (words_[k] >> shift) == cls; ++k) {
        const std::uint32_t kk = words_[k] & ((1u << x_.z) - 1u);
        const std::uint32_t bank = (((labels_[k] & label_mask) << x_.z) | kk) & bank_mask;
        if (count_[bank]++ == 0) touched_.push_back(bank);
        mx = std::max(mx, count_[bank]);
      }
      for (std::uint32_t t : touched_) count_[t] = 0;
      i = k;
    }
    return mx;
  }

 public:
  // Every padded-xor member priced exactly (labels = the bank slot of each word's chunk), up to `limit` members.
  padded_xor_optimum padded_xor(long long limit, double seconds) {
    padded_xor_optimum o;
    const auto start = std::chrono::steady_clock::now();
    long long priced = 0;
    const int cb = x_.col_bits, rb = x_.row_bits, t = std::min(cb, x_.f);
    const long long q = 1LL << x_.f;
    if (rb * t >= 40) return o;
    o.members = (q - 1) * (1LL << (rb * t));
    if (o.members > limit || q < 2) return o;
    o.searched = true;
    std::vector<std::uint32_t> f(static_cast<std::size_t>(rb)), fr(std::size_t{1} << rb);
    for (long long pad = 1; pad < q; ++pad)
      for (long long code = 0; code < (1LL << (rb * t)); ++code) {
        if ((++priced & 255) == 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) {
          std::fill(labels_.begin(), labels_.end(), 0u);
          return padded_xor_optimum{false, o.members, -1, 0, {}};  // out of time: not searched
        }
        for (int i = 0; i < rb; ++i) f[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>((code >> (i * t)) & ((1LL << t) - 1));
        for (std::size_t r = 0; r < fr.size(); ++r) {
          std::uint32_t v = 0;
          for (int i = 0; i < rb; ++i)
            if ((r >> i) & 1u) v ^= f[static_cast<std::size_t>(i)];
          fr[r] = v;
        }
        const long long pitch = (1LL << cb) + pad;
        for (std::size_t i = 0; i < words_.size(); ++i) {
          const std::uint32_t h = words_[i] >> x_.z, c = h & ((1u << cb) - 1u), r = h >> cb;
          labels_[i] = static_cast<std::uint32_t>((static_cast<long long>(r) * pitch + (c ^ fr[r])) & (q - 1));
        }
        long long total = 0;
        for (const unit& u : units_) {
          total += u.weight * unit_cost(u, x_.m);
          if (o.best >= 0 && total >= o.best) break;
        }
        if (o.best < 0 || total < o.best) {
          o.best = total;
          o.pad_chunks = pad;
          o.f = f;
        }
      }
    std::fill(labels_.begin(), labels_.end(), 0u);
    return o;
  }

 private:
  // One unit's class bound at `depth` (see the header).
  int unit_cost(const unit& u, int depth) {
    if (!u.pair) return u.a.empty() ? 0 : most(u.a, depth, u.bank_mask, u.label_mask);
    if (u.u.empty()) return 0;
    if (most(u.u, depth, u.bank_mask, u.label_mask) <= 1) return 1;
    return most(u.a, depth, u.bank_mask, u.label_mask) + most(u.b, depth, u.bank_mask, u.label_mask);
  }

  // The class bound with columns [0, depth) chosen (labels_ hold them); the exact cost at depth m. A unit whose
  // words all have, or all lack, chunk bit depth-1 keeps its cost of depth-1 (cost_[depth-1]: the column only
  // moves all of it, or none). With `store`, the unit costs go to cost_[depth]; without, the sum stops early once
  // it reaches `cap` (any value >= cap is as good as the exact one to the caller).
  long long bound(int depth, long long cap, bool store) {
    long long total = 0;
    std::vector<int>* out = store ? &cost_[static_cast<std::size_t>(depth)] : nullptr;
    for (std::size_t k = 0; k < units_.size(); ++k) {
      const unit& u = units_[k];
      const int c = depth > 0 && !((u.mixed >> (depth - 1)) & 1u) ? cost_[static_cast<std::size_t>(depth - 1)][k]
                                                                  : unit_cost(u, depth);
      if (out) (*out)[k] = c;
      total += u.weight * c;
      if (!out && total >= cap) return total;
    }
    return total;
  }

  void apply(int j, std::uint32_t v) {
    if (!v) return;
    for (std::size_t i : by_bit_[static_cast<std::size_t>(j)]) labels_[i] ^= v;
  }

  // The column values allowed at chunk bit j with `rank` pivots so far (gf2), simplest first.
  void choices(int j, int rank, std::vector<std::pair<std::uint32_t, int>>& out) const {
    out.clear();
    const int f = x_.f;
    if (fam_ == xor_family::gf2) {
      if (rank < f) out.push_back({1u << rank, rank + 1});
      for (std::uint32_t v = 0; v < (1u << rank); ++v) out.push_back({v, rank});
      return;
    }
    const std::uint32_t id = j < f ? 1u << j : 0u;
    if (fam_ == xor_family::graph) {
      if (j < f) out.push_back({id, rank});
      else
        for (std::uint32_t v = 0; v < (1u << f); ++v) out.push_back({v, rank});
      return;
    }
    // row-xor: a row bit may add any value on the bank bits that are column-chunk bits.
    if (j < x_.col_bits) {
      out.push_back({id, rank});
      return;
    }
    const int t = std::min(x_.col_bits, f);
    for (std::uint32_t v = 0; v < (1u << t); ++v) out.push_back({id | v, rank});
  }

  bool out_of_time() {
    if (nodes_ > lim_.nodes) return true;
    if ((nodes_ & 63) == 0) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      if (s > lim_.seconds) return true;
    }
    return false;
  }

  void dfs(int j, int rank) {
    if (j == x_.m) {
      if (fam_ == xor_family::gf2 && rank < x_.f) return;
      long long c = 0;  // cost_[m] holds the leaf's unit costs (stored on the way down)
      for (std::size_t k = 0; k < units_.size(); ++k) c += units_[k].weight * cost_[static_cast<std::size_t>(j)][k];
      if (c < best_) {
        best_ = c;
        best_cols_ = cols_;
      }
      return;
    }
    ++nodes_;
    if (!cut_ && out_of_time()) cut_ = true;
    std::vector<std::pair<std::uint32_t, int>> ch;
    choices(j, rank, ch);
    struct child {
      long long lb;
      std::size_t order;
      std::uint32_t v;
      int rank;
    };
    std::vector<child> kids;
    for (std::size_t k = 0; k < ch.size(); ++k) {
      const auto [v, r] = ch[k];
      if (fam_ == xor_family::gf2 && x_.m - j - 1 < x_.f - r) continue;  // rank f can no longer be reached
      cols_[static_cast<std::size_t>(j)] = v;
      apply(j, v);
      kids.push_back({bound(j + 1, best_, false), k, v, r});
      apply(j, v);
    }
    std::sort(kids.begin(), kids.end(), [](const child& a, const child& b) { return std::tie(a.lb, a.order) < std::tie(b.lb, b.order); });
    for (const child& k : kids) {
      if (k.lb >= best_) break;
      if (best_ <= root_) break;  // the best meets the bound of the whole family: proved optimal
      // Cut: the branch stays open (its bound joins the lower bound), except that a search with no leaf yet dives
      // on into its best child, so that every family has a member to answer with.
      if (cut_ && best_ != std::numeric_limits<long long>::max()) {
        open_lb_ = std::min(open_lb_, k.lb);
        continue;
      }
      cols_[static_cast<std::size_t>(j)] = k.v;
      apply(j, k.v);
      bound(j + 1, 0, true);
      dfs(j + 1, k.rank);
      apply(j, k.v);
    }
    cols_[static_cast<std::size_t>(j)] = 0;
  }

  const xor_minimum& x_;
  std::vector<std::uint32_t> words_, labels_;
  std::vector<unit> units_;
  xor_family fam_ = xor_family::row_xor;
  minimise_limits lim_;
  std::chrono::steady_clock::time_point start_;
  long long nodes_ = 0, best_ = 0, root_ = 0, open_lb_ = 0;
  bool cut_ = false;
  std::vector<std::uint32_t> cols_, best_cols_;
  int count_[64] = {};
  std::vector<std::uint32_t> touched_;
  std::vector<std::vector<std::size_t>> by_bit_;  // per chunk bit, the words that have it
  std::vector<std::vector<int>> cost_;            // per depth, per unit: its bound on the current path
};

}  // namespace

std::string xor_family_name(xor_family f) {
  switch (f) {
    case xor_family::row_xor: return "row-xor";
    case xor_family::graph: return "xor";
    case xor_family::gf2: return "gf2";
  }
  return "?";
}

xor_minimum minimise_xor(const sim::arch_table& arch, const tile_shape& tile, const tile_side& writer,
                         const tile_side& reader, int keep_elems, const minimise_limits& limits) {
  xor_minimum x;
  x.row_xor.family = xor_family::row_xor;
  x.graph.family = xor_family::graph;
  x.gf2.family = xor_family::gf2;
  const int eb = log2_of(tile.elem_bytes), rb = log2_of(tile.rows), cbits = log2_of(tile.cols);
  if (eb < 0 || rb < 0 || cbits < 0) {
    x.not_applicable = "needs power-of-two rows, cols and element bytes (" + std::to_string(tile.rows) + " x " +
                       std::to_string(tile.cols) + " of " + std::to_string(tile.elem_bytes) + " B)";
    return x;
  }
  x.chunk_bytes = std::max(4, keep_elems * tile.elem_bytes);
  const int vb = log2_of(x.chunk_bytes);
  x.z = vb - 2;
  x.col_bits = cbits + eb - vb;
  x.row_bits = rb;
  x.m = x.col_bits + x.row_bits;
  x.f = log2_of(arch.banks) - x.z;
  if (vb < 0 || x.col_bits < 0 || x.f < 1 || x.m < x.f || x.m > 26) {
    x.not_applicable = "a row of " + std::to_string(tile.cols * tile.elem_bytes) + " B in " +
                       std::to_string(x.chunk_bytes) + "-byte chunks, " + std::to_string(x.m) +
                       " chunk bits against " + std::to_string(std::max(0, x.f)) + " free bank bits (needs f >= 1, f <= m <= 26)";
    return x;
  }
  x.applicable = true;
  std::vector<std::uint32_t> words;
  std::vector<unit> units;
  bool uniform = true;
  std::vector<std::uint32_t> tmp;
  const auto add = [&](const tile_instruction& ins, const std::vector<int>& lanes, int width) {
    span s;
    s.begin = words.size();
    tmp.clear();
    for (int lane : lanes) {
      const lane_coord c = ins.lanes[static_cast<std::size_t>(lane)];
      if (!c.active()) continue;
      const long long byte = (c.row * tile.cols + c.col) * tile.elem_bytes;
      // A whole chunk's words fill its banks alike: its first word stands for all (the same most-per-bank).
      const int n = width == x.chunk_bytes ? 1 : width >= 4 ? width / 4 : 1;
      for (int k = 0; k < n; ++k) tmp.push_back(static_cast<std::uint32_t>(byte / 4 + k));
    }
    std::sort(tmp.begin(), tmp.end());
    tmp.erase(std::unique(tmp.begin(), tmp.end()), tmp.end());
    words.insert(words.end(), tmp.begin(), tmp.end());
    s.end = words.size();
    return s;
  };
  for (const tile_side* side : {&writer, &reader}) {
    const long long w = side == &writer ? limits.write_weight : limits.read_weight;
    for (const tile_instruction& ins : side->instructions) {
      const int width = ins.elems * tile.elem_bytes;
      const sim::lds_phase_rule& rule = arch.lds_rule(ins.kind, width);
      if (rule.banks != arch.banks) uniform = false;
      const int fr = log2_of(rule.banks) - x.z;
      unit proto;
      proto.weight = w * ins.weight;
      proto.bank_mask = static_cast<std::uint32_t>(rule.banks - 1);
      proto.label_mask = fr > 0 ? (1u << fr) - 1u : 0u;
      const bool pairs = rule.merge == sim::lds_merge::sm90_pairs && ins.kind == sim::access_kind::load;
      for (std::size_t p = 0; p < rule.phases.size(); ++p) {
        unit u = proto;
        if (pairs && p % 2 == 0 && p + 1 < rule.phases.size() && pair_condition(ins, rule.phases[p], rule.phases[p + 1])) {
          u.pair = true;
          u.a = add(ins, rule.phases[p], width);
          u.b = add(ins, rule.phases[p + 1], width);
          std::vector<int> both = rule.phases[p];
          both.insert(both.end(), rule.phases[p + 1].begin(), rule.phases[p + 1].end());
          u.u = add(ins, both, width);
          ++p;
        } else {
          u.a = add(ins, rule.phases[p], width);
          if (u.a.empty()) continue;
        }
        units.push_back(u);
      }
    }
  }
  searcher s(x, std::move(words), std::move(units));
  minimise_limits lim = limits;
  lim.seconds = limits.seconds / (uniform ? 4 : 2);  // the time is for all families together (gf2 and padded-xor
                                                     // need uniform banks), shared evenly
  x.row_xor = s.run(xor_family::row_xor, std::numeric_limits<long long>::max(), {}, lim);
  x.graph = s.run(xor_family::graph, x.row_xor.best, x.row_xor.columns, lim);
  if (uniform) {
    x.gf2 = s.run(xor_family::gf2, x.graph.best, x.graph.columns, lim);
    // gf2 holds the other two: its bound is theirs too.
    x.graph.lower_bound = std::max(x.graph.lower_bound, x.gf2.lower_bound);
    x.row_xor.lower_bound = std::max(x.row_xor.lower_bound, x.gf2.lower_bound);
  } else {
    x.gf2.best = -1;
  }
  x.row_xor.lower_bound = std::max(x.row_xor.lower_bound, x.graph.lower_bound);
  if (uniform) x.padded_xor = s.padded_xor(limits.padded_members < 0 ? limits.nodes : limits.padded_members, lim.seconds);
  for (family_optimum* o : {&x.row_xor, &x.graph, &x.gf2})
    if (o->best >= 0 && o->lower_bound >= o->best) {
      o->lower_bound = o->best;
      o->exhaustive = true;  // the bound (its own search's or a superset's) meets the best: optimal
    }
  return x;
}

lds_layout layout_of_columns(const xor_minimum& x, const tile_shape& tile, const std::vector<std::uint32_t>& columns) {
  lds_layout l;
  l.rows = tile.rows;
  l.cols = tile.cols;
  l.elem_bytes = tile.elem_bytes;
  const int e0 = x.z + 2 - std::countr_zero(static_cast<unsigned>(tile.elem_bytes));
  // M: column j without its identity part; a term per run of consecutive target bits on one shift j - i.
  const int m = static_cast<int>(columns.size());
  for (int s = 1; s < m; ++s) {
    int i = 0;
    while (i < x.f) {
      const auto has = [&](int k) {
        const int j = k + s;
        if (k >= x.f || j >= m) return false;
        const std::uint32_t mpart = columns[static_cast<std::size_t>(j)] ^ (j < x.f ? 1u << j : 0u);
        return ((mpart >> k) & 1u) != 0;
      };
      if (!has(i)) {
        ++i;
        continue;
      }
      int end = i;
      while (has(end)) ++end;
      l.terms.push_back({end - i, e0 + i, s});
      i = end;
    }
  }
  if (!l.terms.empty()) l.family = layout_family::xor_linear;
  return l;
}

}  // namespace tilesim::synth
