// tilesim/sim/synth/prove.cpp: grids, shards, shrinking, reports (see the header).
#include "sim/synth/prove.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "sim/synth/synth.hpp"

namespace tilesim::synth {
namespace {

const char* const arch_list[] = {"sm90", "gfx90a", "gfx942", "gfx950"};

std::vector<long long> powers(long long from, long long to) {
  std::vector<long long> v;
  for (long long x = from; x <= to; x *= 2) v.push_back(x);
  return v;
}
std::vector<long long> range(long long from, long long to) {
  std::vector<long long> v;
  for (long long x = from; x <= to; ++x) v.push_back(x);
  return v;
}

// Both sides of a conflict-free claim on `arch` for `tile`, KPack-wide accesses, one wave.
std::optional<std::pair<tile_side, tile_side>> sides(const sim::arch_table& arch, const tile_shape& t, index_t vector,
                                                      const std::string& read, std::string& why) {
  try {
    const std::string r = read != "default" ? read : arch.wave_size == 32 ? "ldmatrix" : "mfma";
    return std::pair{named_side("warp-raked", t, arch.wave_size, arch.wave_size, vector, sim::access_kind::store),
                     named_side(r, t, arch.wave_size, arch.wave_size, vector, sim::access_kind::load)};
  } catch (const std::exception& e) {
    why = e.what();
    return std::nullopt;
  }
}

point_result conflict_free(const sim::arch_table& arch, const lds_layout& l, index_t vector, const std::string& read) {
  std::string why;
  const tile_shape t{l.rows, l.cols, l.elem_bytes};
  const auto s = sides(arch, t, vector, read, why);
  if (!s) return {verdict::skipped, why};
  if (check_side(s->first, t, arch.wave_size) || check_side(s->second, t, arch.wave_size))
    return {verdict::skipped, "access width not 1..16 bytes"};
  const std::vector<index_t> off = descriptor_offsets(l);
  if (auto e = check_vectors(s->first, l, off)) return {verdict::skipped, *e};
  if (auto e = check_vectors(s->second, l, off)) return {verdict::skipped, *e};
  const side_cost w = price_side(arch, t, s->first, off), r = price_side(arch, t, s->second, off);
  if (w.wavefronts == w.ideal && r.wavefronts == r.ideal) return {};
  return {verdict::fails, std::string(arch.name) + ": " + l.name() + " write " + std::to_string(w.wavefronts) + "/" +
                              std::to_string(w.ideal) + " (" + std::to_string(w.max_ways) + "-way), read " +
                              std::to_string(r.wavefronts) + "/" + std::to_string(r.ideal) + " (" +
                              std::to_string(r.max_ways) + "-way) wavefronts actual/ideal"};
}

point_result bijective(const lds_layout& l, index_t vector) {
  std::vector<index_t> off;
  try {
    off = descriptor_offsets(l);
  } catch (const std::exception& e) {
    return {verdict::skipped, e.what()};
  }
  if (auto e = check_bijection(l, off)) return {verdict::fails, *e};
  for (index_t r = 0; r < l.rows; ++r)
    for (index_t c = 0; c + vector <= l.cols; c += vector)
      for (index_t k = 1; k < vector; ++k)
        if (off[static_cast<std::size_t>(r * l.cols + c + k)] != off[static_cast<std::size_t>(r * l.cols + c)] + k)
          return {verdict::fails, l.name() + " splits the vector of " + std::to_string(vector) + " at (" +
                                      std::to_string(r) + ", " + std::to_string(c) + ")"};
  return {};
}

lds_layout ck_layout(long long elem, long long m, long long k, long long kpack, long long layers, long long order,
                     long long banks) {
  lds_layout l;
  l.family = layout_family::ck;
  l.rows = m;
  l.cols = k;
  l.elem_bytes = static_cast<int>(elem);
  l.ck = {m, k, kpack, elem, layers, banks, order ? ck_lds_order::k0_l_2024 : ck_lds_order::l_k0_2025};
  return l;
}

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (c == '\n') o += "\\n";
    else if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o + "\"";
}

}  // namespace

long long claim::points() const {
  long long n = 1;
  for (const grid_param& g : grid) n *= static_cast<long long>(g.values.size());
  return n;
}

grid_point claim::point_at(long long index) const {
  grid_point p(grid.size());
  for (std::size_t i = grid.size(); i-- > 0;) {
    const auto n = static_cast<long long>(grid[i].values.size());
    p[i] = grid[i].values[static_cast<std::size_t>(index % n)];
    index /= n;
  }
  return p;
}

std::string claim::describe(const grid_point& p) const {
  std::string s;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    s += (i ? " " : "") + grid[i].name + "=";
    s += grid[i].name == "arch" ? arch_list[p[i]] : grid[i].name == "order" ? (p[i] ? "2024" : "2025") : std::to_string(p[i]);
  }
  return s;
}

std::string claim::fingerprint() const {
  std::string text = name;
  for (const grid_param& g : grid) {
    text += "|" + g.name;
    for (long long v : g.values) text += "," + std::to_string(v);
  }
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  std::ostringstream s;
  s << std::hex << h;
  return s.str();
}

claim make_claim(const std::string& name, const std::string& kind, const std::string& read) {
  if (kind != "bijective" && kind != "conflict-free")
    throw std::invalid_argument("unknown claim kind '" + kind + "' (known: bijective, conflict-free)");
  claim c;
  c.name = name + " " + kind;
  const bool bij = kind == "bijective";
  const std::string flags = " --claim " + kind + (bij || read == "default" ? "" : " --read " + read);
  if (name == "ck-lds") {
    if (bij) {
      c.grid = {{"elem", {1, 2, 4}}, {"m", powers(16, 256)}, {"k", powers(8, 128)}, {"kpack", powers(1, 16)},
                {"layers", {0, 1, 2, 4, 8}}, {"order", {0, 1}}, {"banks", {32, 64}}};
      c.check = [](const grid_point& p) {
        const lds_layout l = ck_layout(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
        if (l.ck.check()) return point_result{verdict::skipped, "spec/ rejects the parameters"};
        return bijective(l, p[3]);
      };
    } else {
      c.grid = {{"arch", {0, 1, 2, 3}}, {"elem", {1, 2, 4}}, {"m", powers(32, 256)}, {"k", powers(16, 128)},
                {"kpack", powers(2, 16)}, {"layers", {0, 1, 2, 4}}, {"order", {0, 1}}};
      c.check = [read](const grid_point& p) {
        const sim::arch_table& a = sim::arch_named(arch_list[p[0]]);
        const lds_layout l = ck_layout(p[1], p[2], p[3], p[4], p[5], p[6], a.banks);
        if (l.ck.check() || p[4] * p[1] > 16) return point_result{verdict::skipped, "spec/ rejects the parameters"};
        return conflict_free(a, l, p[4], read);
      };
    }
  } else if (name == "cute") {
    if (bij) {
      c.grid = {{"b", range(0, 5)}, {"mbase", range(0, 5)}, {"s", range(0, 8)}, {"rows", powers(1, 256)},
                {"cols", powers(1, 256)}};
      c.check = [](const grid_point& p) {
        if (p[2] < p[0] || (p[0] + p[1] + p[2]) > 16) return point_result{verdict::skipped, "S < B"};
        lds_layout l;
        l.family = layout_family::cute;
        l.rows = p[3];
        l.cols = p[4];
        l.terms = {{static_cast<int>(p[0]), static_cast<int>(p[1]), static_cast<int>(p[2])}};
        if ((p[3] * p[4]) % (1LL << (p[0] + p[1] + p[2])) != 0) return point_result{verdict::skipped, "not whole blocks"};
        return bijective(l, std::min<long long>(1LL << p[1], p[4]));
      };
    } else {
      c.grid = {{"arch", {0, 1, 2, 3}}, {"b", range(0, 4)}, {"mbase", range(3, 5)}, {"s", range(0, 6)},
                {"rows", powers(16, 128)}, {"cols", powers(16, 128)}};
      c.check = [read](const grid_point& p) {
        if (p[3] < p[1] || (p[4] * p[5]) % (1LL << (p[1] + p[2] + p[3])) != 0)
          return point_result{verdict::skipped, "not a valid swizzle of the tile"};
        lds_layout l;
        l.family = layout_family::cute;
        l.rows = p[4];
        l.cols = p[5];
        l.terms = {{static_cast<int>(p[1]), static_cast<int>(p[2]), static_cast<int>(p[3])}};
        return conflict_free(sim::arch_named(arch_list[p[0]]), l, 8, read);
      };
    }
  } else {
    throw std::invalid_argument("unknown claim '" + name + "' (known: ck-lds, cute)");
  }
  const std::string base = name;
  c.reproduce = [base, flags, cl = c](const grid_point& p) {
    return "tilesim prove " + base + flags + " --only '" + cl.describe(p) + "'";
  };
  return c;
}

void restrict_claim(claim& c, const std::string& where) {
  std::stringstream in(where);
  for (std::string item; std::getline(in, item, ',');) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("--where: '" + item + "' is not NAME=VALUE[|VALUE...]");
    const std::string name = item.substr(0, eq);
    auto g = std::find_if(c.grid.begin(), c.grid.end(), [&](const grid_param& p) { return p.name == name; });
    if (g == c.grid.end()) {
      std::string known;
      for (const grid_param& p : c.grid) known += (known.empty() ? "" : " ") + p.name;
      throw std::invalid_argument("--where: " + c.name + " has no parameter '" + name + "' (its parameters: " + known + ")");
    }
    std::vector<long long> keep;
    std::stringstream vs(item.substr(eq + 1));
    for (std::string v; std::getline(vs, v, '|');) {
      long long x = -1;
      if (name == "arch") {
        for (long long k = 0; k < 4; ++k)
          if (v == arch_list[k]) x = k;
      } else if (name == "order") {
        x = v == "2025" ? 0 : v == "2024" ? 1 : -1;
      } else {
        try {
          std::size_t used = 0;
          x = std::stoll(v, &used);
          if (used != v.size()) x = -1;
        } catch (const std::exception&) {
          x = -1;
        }
      }
      if (x < 0 || std::find(g->values.begin(), g->values.end(), x) == g->values.end())
        throw std::invalid_argument("--where: '" + v + "' is not a value of " + name + " in " + c.name);
      if (std::find(keep.begin(), keep.end(), x) == keep.end()) keep.push_back(x);
    }
    if (keep.empty()) throw std::invalid_argument("--where: no value for " + name);
    std::sort(keep.begin(), keep.end());
    g->values = keep;
  }
  const claim copy = c;
  const std::string flags = c.reproduce(c.point_at(0));
  const std::string prefix = flags.substr(0, flags.find(" --only "));
  c.reproduce = [prefix, copy](const grid_point& p) { return prefix + " --only '" + copy.describe(p) + "'"; };
}

prove_report run_claim(const claim& c, int shard, int shards, const std::optional<std::string>& only) {
  if (shards < 1 || shard < 1 || shard > shards)
    throw std::invalid_argument("shard " + std::to_string(shard) + "/" + std::to_string(shards) +
                                " is not I/N with 1 <= I <= N");
  prove_report r;
  r.claim = c.name;
  r.fingerprint = c.fingerprint();
  r.grid_points = c.points();
  r.shard = shard;
  r.shards = shards;
  r.merged = {shard};
  bool found_only = false;
  for (long long i = shard - 1; i < r.grid_points; i += shards) {
    const grid_point p = c.point_at(i);
    if (only) {
      if (c.describe(p) != *only) continue;
      found_only = true;
    }
    const point_result res = c.check(p);
    ++r.checked;
    if (res.v == verdict::holds) ++r.held;
    if (res.v == verdict::skipped) ++r.skipped;
    if (res.v != verdict::fails) continue;
    ++r.failed;
    if (r.first) continue;
    // Shrink: move each parameter to its smallest earlier value that still fails, until none moves.
    grid_point s = p;
    std::string detail = res.detail;
    for (bool moved = true; moved;) {
      moved = false;
      for (std::size_t k = 0; k < s.size(); ++k)
        for (long long v : c.grid[k].values) {
          if (v >= s[k]) break;
          grid_point t = s;
          t[k] = v;
          const point_result tr = c.check(t);
          if (tr.v == verdict::fails) {
            s = t;
            detail = tr.detail;
            moved = true;
            break;
          }
        }
    }
    r.first = counterexample{i, c.describe(s), detail, c.reproduce(s)};
  }
  if (only && !found_only)
    throw std::invalid_argument("--only '" + *only + "' is not a point of " + c.name + " in shard " +
                                std::to_string(shard) + "/" + std::to_string(shards) + " (write it as: " +
                                c.describe(c.point_at(0)) + ")");
  return r;
}

std::string to_json(const prove_report& r) {
  std::ostringstream s;
  s << "{\"schema\": \"" << prove_schema << "\", \"claim\": " << json_string(r.claim) << ", \"fingerprint\": " << json_string(r.fingerprint)
    << ", \"grid_points\": " << r.grid_points << ", \"shard\": " << r.shard << ", \"shards\": " << r.shards
    << ", \"merged\": \"";
  for (std::size_t i = 0; i < r.merged.size(); ++i) s << (i ? "," : "") << r.merged[i];
  s << "\", \"checked\": " << r.checked << ", \"held\": " << r.held << ", \"failed\": " << r.failed
    << ", \"skipped\": " << r.skipped << ", \"first_index\": " << (r.first ? r.first->index : -1)
    << ", \"first_point\": " << (r.first ? json_string(r.first->point) : "null")
    << ", \"first_detail\": " << (r.first ? json_string(r.first->detail) : "null")
    << ", \"first_reproduce\": " << (r.first ? json_string(r.first->reproduce) : "null") << "}\n";
  return s.str();
}

// parse_report: prove_report_reader.cpp (the shard checks of issue 38).

prove_report merge_reports(const std::vector<prove_report>& parts) {
  if (parts.empty()) throw std::invalid_argument("--merge: no report given");
  prove_report r = parts[0];
  r.merged.clear();
  r.checked = r.held = r.failed = r.skipped = 0;
  r.first.reset();
  for (const prove_report& p : parts) {
    if (p.fingerprint != r.fingerprint || p.shards != r.shards)
      throw std::invalid_argument("--merge: reports of different runs ('" + r.claim + "' in " + std::to_string(r.shards) +
                                  " shards, grid " + r.fingerprint + " vs '" + p.claim + "' in " +
                                  std::to_string(p.shards) + " shards, grid " + p.fingerprint + ")");
    for (int s : p.merged) {
      if (std::find(r.merged.begin(), r.merged.end(), s) != r.merged.end())
        throw std::invalid_argument("--merge: shard " + std::to_string(s) + "/" + std::to_string(r.shards) + " given twice");
      r.merged.push_back(s);
    }
    r.checked += p.checked;
    r.held += p.held;
    r.failed += p.failed;
    r.skipped += p.skipped;
    if (p.first && (!r.first || p.first->index < r.first->index)) r.first = p.first;
  }
  std::sort(r.merged.begin(), r.merged.end());
  r.shard = static_cast<int>(r.merged.size()) == r.shards ? 0 : r.merged.front();
  return r;
}

}  // namespace tilesim::synth
