// tilesim/spec/distribution/encoding.hpp: CK Tile's tile distribution encoding (R, H, P -> RH, Y -> RH).
//
// DEFINITION. An encoding says which thread holds which elements of an X tile (X0 x X1 x ...):
//   H: each X dim i is split into components h_{i,0} .. h_{i,n-1} (unmerge, h_{i,0} most significant):
//        x_i = Σ_j h_{i,j} * Π_{j'>j} len(h_{i,j'})
//   R: replication components; they belong to no X, so threads that differ only in R hold the same data.
//   P: the thread's ids. With 2 P dims, P0 = warp and P1 = lane; with 1, P0 = lane. Each P dim is the merge
//      of the R/H components it names (first named = most significant).
//   Y: the thread's own index space. Each Y dim *is* one H component; d = row-major index over Y is the
//      register (element) number inside the thread.
// Components are addressed in "RH space" as rh{major, minor}: major 0 = R, major i+1 = H of X dim i,
// minor = position inside that list.
//
// WORKED EXAMPLE (CK docs, a 4x4 tile): H0 = <2,2>, H1 = <2,2>; P0 -> H0[0], P1 -> H1[0]; Y0 -> H0[1],
// Y1 -> H1[1], i.e. x0 = 2*warp + y0, x1 = 2*lane + y1, d = 2*y0 + y1:
//
//   (warp, lane)   y=(0,0)  (0,1)  (1,0)  (1,1)
//      (0,0)       (0,0)    (0,1)  (1,0)  (1,1)
//      (0,1)       (0,2)    (0,3)  (1,2)  (1,3)
//      (1,0)       (2,0)    (2,1)  (3,0)  (3,1)
//      (1,1)       (2,2)    (2,3)  (3,2)  (3,3)
//
// A thread whose P lies beyond the P lengths is not masked (CK does not): its top P component takes what is
// left, so lane 5 above sits at x = (0, 10), outside the 4x4 tile (check_launch tells you).
//
// INVARIANTS checked when an encoding is made (rules.hpp, encoding_*): 1 or 2 P dims; every (major, minor)
// named exists; Y never names R; no component is named twice; every H component is named by a P or a Y.
// Then, without R, every tile element is owned by exactly one (P, Y); with R, threads that differ only in R
// hold identical X (tested in distribution/encoding.test.cpp).
#pragma once

#include <initializer_list>
#include <string>

#include "spec/multi_index.hpp"
#include "spec/rules.hpp"
#include "spec/transform.hpp"

namespace tilesim {

// An address in RH space: major 0 = R, major i+1 = H of X dim i.
struct rh {
  int major;
  int minor;
  TILESIM_HOST_DEVICE friend constexpr bool operator==(const rh& a, const rh& b) {
    return a.major == b.major && a.minor == b.minor;
  }
};

struct tile_distribution_encoding {
  static constexpr int max_components = 8;  // per R list, per X's H list, per P
  static constexpr int max_x = 4, max_p = 2, max_y = 8;

  int n_r = 0;
  index_t r[max_components] = {};
  int n_x = 0;
  int n_h[max_x] = {};
  index_t h[max_x][max_components] = {};
  int n_p = 0;
  int p_size[max_p] = {};
  rh p[max_p][max_components] = {};
  int n_y = 0;
  rh y[max_y] = {};

  // Field-wise equality (unused slots are zero in every encoding make_encoding builds).
  TILESIM_HOST_DEVICE friend constexpr bool operator==(const tile_distribution_encoding& a,
                                                       const tile_distribution_encoding& b) {
    bool same = a.n_r == b.n_r && a.n_x == b.n_x && a.n_p == b.n_p && a.n_y == b.n_y;
    for (int i = 0; i < max_components; ++i) same = same && a.r[i] == b.r[i];
    for (int x = 0; x < max_x; ++x) {
      same = same && a.n_h[x] == b.n_h[x];
      for (int i = 0; i < max_components; ++i) same = same && a.h[x][i] == b.h[x][i];
    }
    for (int q = 0; q < max_p; ++q) {
      same = same && a.p_size[q] == b.p_size[q];
      for (int i = 0; i < max_components; ++i) same = same && a.p[q][i] == b.p[q][i];
    }
    for (int j = 0; j < max_y; ++j) same = same && a.y[j] == b.y[j];
    return same;
  }

  // The length of one R or H component.
  TILESIM_HOST_DEVICE constexpr index_t length_of(rh c) const { return c.major == 0 ? r[c.minor] : h[c.major - 1][c.minor]; }
  // Length of P dim i: the product of the components it merges.
  TILESIM_HOST_DEVICE constexpr index_t p_length(int i) const {
    index_t n = 1;
    for (int k = 0; k < p_size[i]; ++k) n *= length_of(p[i][k]);
    return n;
  }
  TILESIM_HOST_DEVICE constexpr index_t y_length(int j) const { return length_of(y[j]); }
  // Length of X dim i: Π of its H components. Docs example: x_length(0) == 4.
  TILESIM_HOST_DEVICE constexpr index_t x_length(int i) const {
    index_t n = 1;
    for (int j = 0; j < n_h[i]; ++j) n *= h[i][j];
    return n;
  }
  // Elements per thread: Π of the Y lengths (CK's thread buffer size).
  TILESIM_HOST_DEVICE constexpr index_t elements_per_thread() const {
    index_t n = 1;
    for (int j = 0; j < n_y; ++j) n *= y_length(j);
    return n;
  }

  // The X index that thread p holds at per-thread index y: docs example, x_of({1, 1}, {0, 1}) == {2, 3}.
  TILESIM_HOST_DEVICE constexpr multi_index<max_x> x_of(const multi_index<max_p>& ps, const multi_index<max_y>& ys) const {
    index_t value[1 + max_x][max_components] = {};
    assign_p(value, ps);
    for (int j = 0; j < n_y; ++j) value[y[j].major][y[j].minor] = ys[j];
    multi_index<max_x> x{};
    for (int i = 0; i < n_x; ++i) {
      index_t xi = 0;
      for (int j = 0; j < n_h[i]; ++j) xi = xi * h[i][j] + value[i + 1][j];
      x[i] = xi;
    }
    return x;
  }
  // The R index of thread p (the replica it belongs to).
  TILESIM_HOST_DEVICE constexpr multi_index<max_components> r_of(const multi_index<max_p>& ps) const {
    index_t value[1 + max_x][max_components] = {};
    assign_p(value, ps);
    multi_index<max_components> rs{};
    for (int k = 0; k < n_r; ++k) rs[k] = value[0][k];
    return rs;
  }
  // The register index of y: row-major over the Y lengths (CK's ys_to_d).
  TILESIM_HOST_DEVICE constexpr index_t d_of(const multi_index<max_y>& ys) const {
    index_t d = 0;
    for (int j = 0; j < n_y; ++j) d = d * y_length(j) + ys[j];
    return d;
  }
  // The inverse of d_of.
  TILESIM_HOST_DEVICE constexpr multi_index<max_y> y_of(index_t d) const {
    multi_index<max_y> ys{};
    for (int j = n_y - 1; j >= 0; --j) {
      ys[j] = d % y_length(j);
      d /= y_length(j);
    }
    return ys;
  }

  // Whether check() finds nothing: the same rules as booleans, no violation built (check() runs for every window
  // and encoding each simulated thread makes).
  TILESIM_HOST_DEVICE constexpr bool well_formed() const {
    if (n_r < 0 || n_r > max_components || n_x < 1 || n_x > max_x || n_y < 0 || n_y > max_y || n_p < 1 || n_p > 2)
      return false;
    for (int i = 0; i < n_x; ++i)
      if (n_h[i] < 1 || n_h[i] > max_components) return false;
    multi_index<max_components> lengths{};
    for (int i = 0; i < n_x; ++i) {
      for (int j = 0; j < max_components; ++j) lengths[j] = j < n_h[i] ? h[i][j] : 1;
      if (!lengths_within(lengths)) return false;
    }
    for (int k = 0; k < max_components; ++k) lengths[k] = k < n_r ? r[k] : 1;
    if (!lengths_within(lengths)) return false;
    unsigned claimed[1 + max_x] = {};  // bit minor of major: claimed by a P or a Y
    auto claim = [&](rh c, bool by_y) {
      const bool exists = c.major == 0 ? (c.minor >= 0 && c.minor < n_r)
                                       : (c.major >= 1 && c.major <= n_x && c.minor >= 0 && c.minor < n_h[c.major - 1]);
      if (!exists || (by_y && c.major == 0) || (claimed[c.major] >> c.minor & 1u)) return false;
      claimed[c.major] |= 1u << c.minor;
      return true;
    };
    for (int i = 0; i < n_p; ++i) {
      if (p_size[i] < 1 || p_size[i] > max_components) return false;
      for (int k = 0; k < p_size[i]; ++k)
        if (!claim(p[i][k], false)) return false;
    }
    for (int j = 0; j < n_y; ++j)
      if (!claim(y[j], true)) return false;
    for (int i = 0; i < n_x; ++i)
      if (claimed[i + 1] != (1u << n_h[i]) - 1u) return false;
    return true;
  }

  // The first broken structural rule, naming the component.
  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (well_formed()) return {};
    const char* where = "encoding";
    if (n_r < 0 || n_r > max_components || n_x < 1 || n_x > max_x || n_y < 0 || n_y > max_y || n_p < 0 || n_p > max_p)
      return broken_unless(false, rule::encoding_too_large, where, {"R", n_r}, {"X", n_x}, {"P", n_p}, {"Y", n_y});
    if (n_p != 1 && n_p != 2) return broken_unless(false, rule::encoding_p_count, where, {"P dims", n_p});
    for (int i = 0; i < n_x; ++i) {
      if (n_h[i] < 1 || n_h[i] > max_components)
        return broken_unless(false, rule::encoding_too_large, where, {"X dim", i}, {"H components", n_h[i]});
    }
    for (int i = 0; i < n_x; ++i) {
      multi_index<max_components> lengths = multi_index<max_components>::filled(1);
      for (int j = 0; j < n_h[i]; ++j) lengths[j] = h[i][j];
      if (violation v = check_lengths("encoding H", lengths)) return v;
    }
    multi_index<max_components> r_lengths = multi_index<max_components>::filled(1);
    for (int k = 0; k < n_r; ++k) r_lengths[k] = r[k];
    if (violation v = check_lengths("encoding R", r_lengths)) return v;
    bool claimed[1 + max_x][max_components] = {};
    auto claim = [&](rh c, bool by_y, int who) -> violation {
      const bool exists = c.major == 0 ? (c.minor >= 0 && c.minor < n_r)
                                       : (c.major >= 1 && c.major <= n_x && c.minor >= 0 && c.minor < n_h[c.major - 1]);
      if (!exists)
        return broken_unless(false, rule::encoding_rh_out_of_range, where, {by_y ? "Y" : "P", who}, {"major", c.major},
                             {"minor", c.minor});
      if (by_y && c.major == 0)
        return broken_unless(false, rule::encoding_y_names_r, where, {"Y", who}, {"R minor", c.minor});
      if (claimed[c.major][c.minor])
        return broken_unless(false, rule::encoding_rh_claimed_twice, where, {by_y ? "Y" : "P", who}, {"major", c.major},
                             {"minor", c.minor});
      claimed[c.major][c.minor] = true;
      return {};
    };
    for (int i = 0; i < n_p; ++i) {
      if (p_size[i] < 1 || p_size[i] > max_components)
        return broken_unless(false, rule::encoding_too_large, where, {"P", i}, {"components", p_size[i]});
      for (int k = 0; k < p_size[i]; ++k)
        if (violation v = claim(p[i][k], false, i)) return v;
    }
    for (int j = 0; j < n_y; ++j)
      if (violation v = claim(y[j], true, j)) return v;
    for (int i = 0; i < n_x; ++i)
      for (int j = 0; j < n_h[i]; ++j)
        if (!claimed[i + 1][j])
          return broken_unless(false, rule::encoding_h_unclaimed, where, {"major", i + 1}, {"minor", j}, {"length", h[i][j]});
    return {};
  }

  // Whether a launch of `threads` threads in warps of `warp_size` covers the P lengths (extra threads are
  // allowed, as in CK, and are not masked).
  TILESIM_HOST_DEVICE constexpr violation check_launch(index_t threads, index_t warp_size) const {
    const index_t lanes = p_length(n_p - 1), warps = n_p == 2 ? p_length(0) : 1;
    return broken_unless(lanes <= warp_size && warps * warp_size <= threads, rule::encoding_threads, "encoding",
                         {"P warps", warps}, {"P lanes", lanes}, {"threads", threads}, {"warp size", warp_size});
  }

  // Host only: CK's spelling, "tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, ...>, ...>".
  std::string ck_spelling() const {
    auto seq = [](auto&& value, int n) {
      std::string s = "sequence<";
      for (int k = 0; k < n; ++k) s += (k ? ", " : "") + std::to_string(value(k));
      return s + ">";
    };
    std::string hs, pm, pn;
    for (int i = 0; i < n_x; ++i) hs += (i ? ", " : "") + seq([&](int k) { return h[i][k]; }, n_h[i]);
    for (int i = 0; i < n_p; ++i) {
      pm += (i ? ", " : "") + seq([&](int k) { return p[i][k].major; }, p_size[i]);
      pn += (i ? ", " : "") + seq([&](int k) { return p[i][k].minor; }, p_size[i]);
    }
    return "tile_distribution_encoding<" + seq([&](int k) { return r[k]; }, n_r) + ", tuple<" + hs + ">, tuple<" + pm +
           ">, tuple<" + pn + ">, " + seq([&](int k) { return y[k].major; }, n_y) + ", " +
           seq([&](int k) { return y[k].minor; }, n_y) + ">";
  }

  // Host only: the make_encoding call that rebuilds this encoding; docs 4x4:
  // "make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}})".
  std::string cpp() const {
    auto list = [](auto&& item, int n) {
      std::string s = "{";
      for (int k = 0; k < n; ++k) s += (k ? ", " : "") + item(k);
      return s + "}";
    };
    auto address = [](rh c) { return "{" + std::to_string(c.major) + ", " + std::to_string(c.minor) + "}"; };
    return "make_encoding(" + list([&](int k) { return std::to_string(r[k]); }, n_r) + ", " +
           list([&](int i) { return list([&](int k) { return std::to_string(h[i][k]); }, n_h[i]); }, n_x) + ", " +
           list([&](int i) { return list([&](int k) { return address(p[i][k]); }, p_size[i]); }, n_p) + ", " +
           list([&](int j) { return address(y[j]); }, n_y) + ")";
  }

 private:
  // Splits each P value over the components it merges; the most significant one takes what is left.
  TILESIM_HOST_DEVICE constexpr void assign_p(index_t (&value)[1 + max_x][max_components], const multi_index<max_p>& ps) const {
    for (int i = 0; i < n_p; ++i) {
      index_t t = ps[i];
      for (int k = p_size[i] - 1; k > 0; --k) {
        const index_t len = length_of(p[i][k]);
        value[p[i][k].major][p[i][k].minor] = floor_mod(t, len);
        t = floor_div(t, len);
      }
      value[p[i][0].major][p[i][0].minor] = t;
    }
  }
};

// make_encoding(R, H per X, P -> RH lists, Y -> RH): the docs' 4x4 example is
// make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}}). Throws spec_error when invalid.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding make_encoding(
    std::initializer_list<index_t> rs, std::initializer_list<std::initializer_list<index_t>> hs,
    std::initializer_list<std::initializer_list<rh>> ps, std::initializer_list<rh> ys) {
  tile_distribution_encoding e{};
  const int cap = tile_distribution_encoding::max_components;
  e.n_r = static_cast<int>(rs.size());
  e.n_x = static_cast<int>(hs.size());
  e.n_p = static_cast<int>(ps.size());
  e.n_y = static_cast<int>(ys.size());
  require(broken_unless(e.n_r <= cap && e.n_x <= tile_distribution_encoding::max_x && e.n_p <= tile_distribution_encoding::max_p &&
                            e.n_y <= tile_distribution_encoding::max_y,
                        rule::encoding_too_large, "encoding", {"R", e.n_r}, {"X", e.n_x}, {"P", e.n_p}, {"Y", e.n_y}));
  // Copies one H or P list into its fixed-capacity row, refusing lists longer than the capacity.
  auto copy_list = [&](const auto& list, auto* row, int& size, const char* what, int which) {
    require(broken_unless(static_cast<int>(list.size()) <= cap, rule::encoding_too_large, "encoding", {what, which},
                          {"components", static_cast<index_t>(list.size())}));
    size = static_cast<int>(list.size());
    int k = 0;
    for (const auto& v : list) row[k++] = v;
  };
  int k = 0;
  for (index_t v : rs) e.r[k++] = v;
  int i = 0;
  for (const auto& list : hs) {
    copy_list(list, e.h[i], e.n_h[i], "X dim", i);
    ++i;
  }
  i = 0;
  for (const auto& list : ps) {
    copy_list(list, e.p[i], e.p_size[i], "P", i);
    ++i;
  }
  k = 0;
  for (rh c : ys) e.y[k++] = c;
  require(e.check());
  return e;
}

}  // namespace tilesim
