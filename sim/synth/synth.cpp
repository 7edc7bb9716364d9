// tilesim/sim/synth/synth.cpp: candidates, pricing and the checks of the winner (see the header).
#include "sim/synth/synth.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <optional>
#include <string_view>
#include <tuple>

#include "sim/models/lds_banks.hpp"
#include "sim/synth/realise_layout.hpp"

namespace tilesim::synth {
namespace {

int log2_floor(long long v) { return v > 0 ? 63 - std::countl_zero(static_cast<unsigned long long>(v)) : -1; }

bool allowed(const synth_request& r, layout_family f) {
  return r.families.empty() || std::find(r.families.begin(), r.families.end(), f) != r.families.end();
}

int family_rank(layout_family f) {
  switch (f) {
    case layout_family::row_major: return 0;
    case layout_family::cute: return 1;
    case layout_family::ck: return 2;
    case layout_family::xor_linear: return 3;
    case layout_family::padded: return 4;
    case layout_family::gf2: return 5;
    case layout_family::padded_xor: return 6;
  }
  return 7;
}

// The tie-break key of the header: (wavefronts, extra LDS, XOR-ed bits, family).
auto key_of(const priced_layout& p) {
  return std::make_tuple(p.total(), p.layout.element_space() - p.layout.rows * p.layout.cols, p.layout.xor_bits(),
                         family_rank(p.layout.family));
}

}  // namespace

bool tma_mode(const sim::arch_table& arch, const lds_layout& l) {
  if (std::string_view(arch.name) != "sm90") return false;
  if (l.family == layout_family::row_major) return true;  // SWIZZLE_NONE
  if (l.family != layout_family::cute || l.terms.size() != 1) return false;
  const int eb = log2_floor(l.elem_bytes);
  const swizzle_term& t = l.terms[0];
  if (t.base + eb != 4 || t.shift != 3 || t.bits < 1 || t.bits > 3) return false;  // Swizzle<B,4,3> on bytes
  return l.cols * l.elem_bytes <= (16LL << t.bits);  // a box row fits the swizzle span (32, 64, 128 B)
}

long long ideal_wavefronts(const sim::arch_table& arch, const tile_shape& tile, const tile_side& s) {
  long long n = 0;
  for (const tile_instruction& i : s.instructions) {
    const sim::lds_phase_rule& rule = arch.lds_rule(i.kind, i.elems * tile.elem_bytes);
    const auto active = [&](const std::vector<int>& ph) {
      for (int l : ph)
        if (i.lanes[static_cast<std::size_t>(l)].active()) return true;
      return false;
    };
    const bool pairs = rule.merge == sim::lds_merge::sm90_pairs && i.kind == sim::access_kind::load;
    for (std::size_t p = 0; p < rule.phases.size(); ++p) {
      if (pairs && p % 2 == 0 && p + 1 < rule.phases.size() && pair_condition(i, rule.phases[p], rule.phases[p + 1])) {
        n += i.weight * (active(rule.phases[p]) || active(rule.phases[p + 1]));
        ++p;
      } else {
        n += i.weight * active(rule.phases[p]);
      }
    }
  }
  return n;
}

sim::wave_access wave_access_of(const tile_shape& tile, const tile_instruction& i, const std::vector<index_t>& offsets) {
  sim::wave_access a;
  a.label = i.label;
  a.kind = i.kind;
  a.space = sim::memory_space::lds;
  a.width = i.elems * tile.elem_bytes;
  a.address.resize(i.lanes.size());
  for (std::size_t l = 0; l < i.lanes.size(); ++l) {
    const lane_coord c = i.lanes[l];
    a.address[l] = c.active() ? static_cast<sim::address_t>(offsets[static_cast<std::size_t>(c.row * tile.cols + c.col)] *
                                                            tile.elem_bytes)
                              : sim::no_address;
  }
  return a;
}

side_cost price_side(const sim::arch_table& arch, const tile_shape& tile, const tile_side& s,
                     const std::vector<index_t>& offsets) {
  side_cost out;
  sim::wave_access a;
  a.space = sim::memory_space::lds;
  int worst_excess = -1;
  for (std::size_t k = 0; k < s.instructions.size(); ++k) {
    const tile_instruction& i = s.instructions[k];
    a.kind = i.kind;
    a.width = i.elems * tile.elem_bytes;
    a.address.resize(i.lanes.size());
    for (std::size_t l = 0; l < i.lanes.size(); ++l) {
      const lane_coord c = i.lanes[l];
      a.address[l] = c.active() ? static_cast<sim::address_t>(offsets[static_cast<std::size_t>(c.row * tile.cols + c.col)] *
                                                              tile.elem_bytes)
                                : sim::no_address;
    }
    const sim::lds_cost c = sim::lds_instruction_cost(arch, a);
    out.wavefronts += i.weight * c.wavefronts;
    out.ideal += i.weight * c.ideal;
    out.max_ways = std::max(out.max_ways, c.max_ways);
    if (c.excess > worst_excess) {
      worst_excess = c.excess;
      out.worst_instruction = static_cast<int>(k);
    }
  }
  return out;
}

std::vector<lds_layout> candidate_layouts(const synth_request& r, const xor_analysis& x) {
  const tile_shape& t = r.tile;
  const int vec = std::max(r.writer.max_elems(), r.reader.max_elems());
  lds_layout base;
  base.rows = t.rows;
  base.cols = t.cols;
  base.elem_bytes = t.elem_bytes;
  std::vector<lds_layout> out;
  out.push_back(base);  // row-major, always: the baseline
  const long long n = t.elements();
  const int nbits = (n & (n - 1)) == 0 ? log2_floor(n) : -1;
  const int eb = log2_floor(t.elem_bytes);
  const int bank_top = 2 + log2_floor(r.arch->banks) - eb;  // first element bit above the bank bits
  const int vbits = log2_floor(vec);
  const int word_elem_bits = std::max(0, 2 - eb);
  if (allowed(r, layout_family::cute) && nbits > 0)
    for (int b = 1; b <= nbits; ++b)
      for (int m = std::max(vbits, word_elem_bits); m < bank_top; ++m)
        for (int s = b; m + s + b <= nbits; ++s) {
          lds_layout l = base;
          l.family = layout_family::cute;
          l.terms = {{b, m, s}};
          out.push_back(l);
        }
  if (allowed(r, layout_family::ck))
    for (index_t kpack = vec; kpack <= t.cols; kpack *= 2) {
      if (t.cols % kpack != 0) continue;
      for (index_t layers = 1; layers <= 16; layers *= 2)
        for (ck_lds_order o : {ck_lds_order::l_k0_2025, ck_lds_order::k0_l_2024}) {
          lds_layout l = base;
          l.family = layout_family::ck;
          l.ck = {t.rows, t.cols, kpack, t.elem_bytes, layers, r.arch->banks, o};
          if (l.ck.check()) continue;
          if (layers == 1 && o == ck_lds_order::k0_l_2024) continue;  // the same map as 2025 at L = 1
          out.push_back(l);
        }
    }
  if (allowed(r, layout_family::xor_linear) && x.feasible && x.graph_form && !x.terms.empty() && x.terms.size() <= max_spelled_terms) {
    lds_layout l = base;
    l.family = layout_family::xor_linear;
    l.terms = x.terms;
    out.push_back(l);
  }
  if (allowed(r, layout_family::padded))
    for (index_t pad = vec; pad * t.elem_bytes <= r.arch->banks * 4; pad += vec) {
      lds_layout l = base;
      l.family = layout_family::padded;
      l.pad = pad;
      out.push_back(l);
    }
  return out;
}

synth_result synthesize(const synth_request& r) {
  if (!r.arch) throw std::invalid_argument("synthesize: no architecture");
  if (r.tile.rows < 1 || r.tile.cols < 1 || r.tile.rows * r.tile.cols > (index_t{1} << 24))
    throw std::invalid_argument("tile " + std::to_string(r.tile.rows) + " x " + std::to_string(r.tile.cols) +
                                " must have 1 to 2^24 elements");
  if (r.write_weight < 0 || r.read_weight < 0 || r.write_weight + r.read_weight < 1 || r.write_weight > 1'000'000 || r.read_weight > 1'000'000)
    throw std::invalid_argument("weights write " + std::to_string(r.write_weight) + ", read " + std::to_string(r.read_weight) +
                                " must be 0 to 10^6 and not both 0");
  for (const tile_side* s : {&r.writer, &r.reader})
    if (auto e = check_side(*s, r.tile, r.arch->wave_size)) throw std::invalid_argument(*e);
  synth_result out;
  const int vec = std::max(r.writer.max_elems(), r.reader.max_elems());
  out.xor_info = analyse_xor(*r.arch, r.tile, r.writer, r.reader, vec, r.search_budget, r.write_weight, r.read_weight);
  const std::vector<lds_layout> cands = candidate_layouts(r, out.xor_info);
  bool have = false;
  out.ideal = r.write_weight * ideal_wavefronts(*r.arch, r.tile, r.writer) + r.read_weight * ideal_wavefronts(*r.arch, r.tile, r.reader);
  // Per enumerated family: its best member (every member is priced, so that is its optimum).
  std::vector<family_certificate> enumerated;
  const auto note = [&](const std::string& fam, long long cost) {
    for (family_certificate& c : enumerated)
      if (c.family == fam) {
        c.best = std::min(c.best, cost);
        c.lower_bound = c.best;
        ++c.nodes_or_members;
        return;
      }
    enumerated.push_back({fam, cost, cost, "", 1});
  };
  const auto price = [&](const lds_layout& l) -> std::optional<priced_layout> {
    std::vector<index_t> off;
    try {
      off = layout_offsets(l);
    } catch (const std::exception&) {
      return std::nullopt;  // parameters the family rejects for this tile (e.g. a swizzle block that does not divide it)
    }
    if (check_vectors(r.writer, l, off) || check_vectors(r.reader, l, off)) {
      ++out.rejected;
      return std::nullopt;
    }
    priced_layout p{l, price_side(*r.arch, r.tile, r.writer, off), price_side(*r.arch, r.tile, r.reader, off),
                    r.write_weight, r.read_weight};
    ++out.candidates;
    return p;
  };
  for (const lds_layout& l : cands) {
    const std::optional<priced_layout> p = price(l);
    if (!p) continue;
    // The xor candidate is one witness of the feasibility search, not the family: the branch-and-bound speaks for it.
    if (l.family != layout_family::xor_linear) note(family_name(l.family), p->total());
    if (tma_mode(*r.arch, l)) note("tma", p->total());
    if (l.family == layout_family::row_major) out.row_major = *p;
    if (!have || key_of(*p) < key_of(out.best)) {
      out.best = *p;
      out.best_family = family_name(l.family);
      have = true;
    }
  }
  out.old_best = out.best.total();
  for (family_certificate& c : enumerated) {
    c.how = "every member priced (" + std::to_string(c.nodes_or_members) + ")";
    if (c.family == "tma")
      c.how = "every TMA / wgmma swizzle mode the tile admits priced (" + std::to_string(c.nodes_or_members) +
              " of none, SW32, SW64, SW128; rows at most the span, the tile on the swizzle's repeat)";
    out.certificate.push_back(c);
  }
  // The branch-and-bound over the XOR-linear families (xor_minimise.hpp): its row-xor and xor optima become
  // candidates that replace the enumerated best only when strictly cheaper (ties keep the old, simpler answer).
  // When the enumerated best already reaches the ideal, which bounds every layout, there is nothing to search.
  if (allowed(r, layout_family::xor_linear) && out.best.total() > out.ideal) {
    out.minimum = minimise_xor(*r.arch, r.tile, r.writer, r.reader, vec,
                               {r.min_nodes, r.min_seconds, r.write_weight, r.read_weight});
    const xor_minimum& x = out.minimum;
    for (const family_optimum* o : {&x.row_xor, &x.graph, &x.gf2}) {
      if (!x.applicable || o->best < 0) continue;
      family_certificate c{xor_family_name(o->family), o->best, o->lower_bound,
                           "branch-and-bound over GF(2), " + std::to_string(o->nodes) + " nodes, " +
                               (o->exhaustive ? "finished" : "cut by the budget: the bound is the least of the open branches'"),
                           o->nodes};
      out.certificate.push_back(c);
      // gf2's bank map completed to an invertible map of the chunk bits (realise_layout.hpp); a row-xor or xor
      // optimum of more CuTe terms than a descriptor chain spells is the same map as one gf2_linear transform.
      lds_layout l = o->family == xor_family::gf2 ? layout_of_gf2(x, r.tile, o->columns)
                                                   : layout_of_columns(x, r.tile, o->columns);
      if (l.terms.size() > max_spelled_terms) {
        out.certificate.back().how += "; its " + std::to_string(l.terms.size()) + " XOR terms spelled as one GF(2) map";
        l = layout_of_gf2(x, r.tile, o->columns);
      }
      const std::optional<priced_layout> p = price(l);
      if (!p) throw std::logic_error("synthesize: the " + xor_family_name(o->family) + " optimum " + l.name() + " splits a vector");
      if (p->total() != o->best)
        throw std::logic_error("synthesize: the " + xor_family_name(o->family) + " search says " + std::to_string(o->best) +
                               " wavefronts for " + l.name() + ", the bank model " + std::to_string(p->total()));
      if (p->total() < out.best.total()) {
        out.best = *p;
        out.best_family = xor_family_name(o->family);
      }
    }
  }
  if (out.minimum.padded_xor.searched && out.minimum.padded_xor.best >= 0) {  // every member priced: its optimum
    const padded_xor_optimum& p = out.minimum.padded_xor;
    out.certificate.push_back({"padded-xor", p.best, p.best,
                               "every member priced (" + std::to_string(p.members) + "); the best pads " +
                                   std::to_string(p.pad_chunks) + " chunks",
                               p.members});
    const lds_layout l = layout_of_padded_xor(out.minimum, r.tile, p);
    const std::optional<priced_layout> q = price(l);
    if (!q) throw std::logic_error("synthesize: the padded-xor optimum " + l.name() + " splits a vector");
    if (q->total() != p.best)
      throw std::logic_error("synthesize: the padded-xor search says " + std::to_string(p.best) + " wavefronts for " + l.name() +
                             ", the bank model " + std::to_string(q->total()));
    if (q->total() < out.best.total()) {  // padding costs LDS: only when strictly cheaper than every unpadded answer
      out.best = *q;
      out.best_family = "padded-xor";
    }
  }
  // sm90's ldmatrix family: layouts whose XOR moves whole 16-byte chunks, so every 8x8-matrix row ldmatrix reads
  // stays 16 contiguous bytes. gf2 over 16-byte chunks holds them all; a subset of gf2 over finer chunks, so it
  // never beats the answer, but it is what a user reading with ldmatrix may ship (out.ldmatrix).
  const xor_minimum& x = out.minimum;
  if (std::string_view(r.arch->name) == "sm90" && x.applicable && x.gf2.best >= 0) {
    if (x.chunk_bytes >= 16) {
      out.certificate.push_back({"ldmatrix", x.gf2.best, x.gf2.lower_bound,
                                 "the gf2 family: its chunks are already " + std::to_string(x.chunk_bytes) +
                                     " bytes, so every member keeps each 16-byte ldmatrix row whole",
                                 x.gf2.nodes});
    } else if (16 % r.tile.elem_bytes == 0 && r.tile.cols * r.tile.elem_bytes >= 16) {
      const xor_minimum y = minimise_xor(*r.arch, r.tile, r.writer, r.reader, 16 / r.tile.elem_bytes,
                                         {r.min_nodes, r.min_seconds, r.write_weight, r.read_weight, 0});
      if (y.applicable && y.gf2.best >= 0) {
        const lds_layout l = layout_of_gf2(y, r.tile, y.gf2.columns);
        const std::optional<priced_layout> q = price(l);
        if (!q || q->total() != y.gf2.best)
          throw std::logic_error("synthesize: the ldmatrix search says " + std::to_string(y.gf2.best) + " wavefronts for " +
                                 l.name() + ", the bank model " + (q ? std::to_string(q->total()) : std::string("splits a vector")));
        out.ldmatrix = *q;
        out.certificate.push_back({"ldmatrix", y.gf2.best, std::max(y.gf2.lower_bound, x.gf2.lower_bound),
                                   "branch-and-bound over GF(2) on 16-byte chunks, " + std::to_string(y.gf2.nodes) + " nodes, " +
                                       (y.gf2.exhaustive ? "finished" : "cut by the budget: the bound is the least of the open branches'") +
                                       "; " + l.name(),
                                   y.gf2.nodes});
      }
    }
  }
  if (!out.minimum.applicable && out.best_family == "xor")  // the witness alone; it reaches the ideal, which bounds all
    out.certificate.push_back({"xor", out.best.total(), out.ideal, "the GF(2) witness; the ideal bounds every layout", 1});
  out.lower_bound = out.best.total();
  for (const family_certificate& c : out.certificate) out.lower_bound = std::min(out.lower_bound, c.lower_bound);
  out.lower_bound = std::max(out.lower_bound, out.ideal);  // no layout beats the ideal
  // The winner, checked through its spelling (see the header).
  const lds_layout& b = out.best.layout;
  const std::vector<index_t> direct = layout_offsets(b), desc = descriptor_offsets(b);
  if (desc != direct) throw std::logic_error("synthesize: " + b.name() + ": the spec/ descriptor disagrees with the formula");
  if (has_ck_spelling(b) && ck_mirror_offsets(b) != direct)
    throw std::logic_error("synthesize: " + b.name() + ": the CK Tile mirror disagrees");
  if (auto c = cute_offsets(b); c && *c != direct) throw std::logic_error("synthesize: " + b.name() + ": CuTe disagrees");
  if (auto e = check_bijection(b, desc)) throw std::logic_error("synthesize: not a bijection: " + *e);
  const long long again = r.write_weight * price_side(*r.arch, r.tile, r.writer, desc).wavefronts +
                         r.read_weight * price_side(*r.arch, r.tile, r.reader, desc).wavefronts;
  if (again != out.best.total()) throw std::logic_error("synthesize: re-measured " + std::to_string(again) + " wavefronts");
  out.checked = std::string(b.family == layout_family::padded       ? "injective into [0, "
                            : b.family == layout_family::padded_xor ? "a bijection onto its rows' first cols slots, in [0, "
                                                                    : "bijection onto [0, ") +
                std::to_string(b.element_space()) + "); spec/ descriptor" + (has_ck_spelling(b) ? ", CK Tile mirror" : "") +
                (cute_offsets(b) ? ", CuTe swizzle" : "") + " and formula agree on all " +
                std::to_string(r.tile.elements()) + " elements; re-measured through the descriptor: " +
                std::to_string(again) + " wavefronts";
  return out;
}

}  // namespace tilesim::synth
