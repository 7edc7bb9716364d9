// tilesim/gpu/rtc_props/props_generators.cpp: the generators of props_generators.hpp and the case check.
#include "gpu/rtc_props/props_generators.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_program.hpp"

namespace tilesim::gpu::props {
namespace {

// One H component while an encoding is assembled: its length and who names it.
enum class owner { lane, warp, y, r };
struct part {
  index_t length;
  owner who;
};

// A uniform pick among `values`, shrinking toward values[0].
template <class T>
T pick(std::vector<T> values) {
  const std::size_t i = *rc::gen::inRange<std::size_t>(0, values.size());
  return values[i];
}

// An integer in [lo, hi) drawn at full size: RapidCheck scales inRange by the size (10 + the case's index), which
// would make the first cases of a run mostly the first kind; this draw does not depend on the index (it shrinks
// toward lo all the same). For the draws that came with kinds only: the older ones keep their scaling.
template <class T>
T uniform(T lo, T hi) {
  return *rc::gen::resize(100, rc::gen::inRange<T>(lo, hi));
}

// A random order of v (shrinks toward the given order).
template <class T>
std::vector<T> shuffled(std::vector<T> v) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[*rc::gen::inRange<std::size_t>(0, i)]);
  return v;
}

// Assembles an encoding: rows_parts / cols_parts are each dim's H components, outermost first; lane and
// warp components named by P in a random order; Ys in a random order. warps == 1: one P dim (the lane).
tile_distribution_encoding assemble(const std::vector<part>& rows_parts, const std::vector<part>& cols_parts,
                                    const std::vector<part>& r_parts, index_t warps) {
  tile_distribution_encoding e{};
  e.n_x = 2;
  std::vector<rh> lane, warp, ys;
  for (const part& p : r_parts) {
    e.r[e.n_r] = p.length;
    (p.who == owner::lane ? lane : warp).push_back({0, e.n_r});
    ++e.n_r;
  }
  const std::vector<part>* dims[2] = {&rows_parts, &cols_parts};
  for (int x = 0; x < 2; ++x)
    for (const part& p : *dims[x]) {
      e.h[x][e.n_h[x]] = p.length;
      const rh at{x + 1, e.n_h[x]};
      ++e.n_h[x];
      if (p.who == owner::lane) lane.push_back(at);
      else if (p.who == owner::warp) warp.push_back(at);
      else ys.push_back(at);
    }
  lane = shuffled(lane);
  warp = shuffled(warp);
  ys = shuffled(ys);
  e.n_p = warps > 1 ? 2 : 1;
  auto name = [&](int q, const std::vector<rh>& list) {
    e.p_size[q] = static_cast<int>(list.size());
    for (std::size_t k = 0; k < list.size(); ++k) e.p[q][k] = list[k];
  };
  if (warps > 1) {
    name(0, warp);
    name(1, lane);
  } else {
    name(0, lane);
  }
  e.n_y = static_cast<int>(ys.size());
  for (std::size_t j = 0; j < ys.size(); ++j) e.y[j] = ys[j];
  return e;
}

int log2_of(index_t v) {
  int k = 0;
  while ((index_t{1} << k) < v) ++k;
  return k;
}

// One dim's H components: the thread parts and a Y remainder (kept as a length-1 component when
// `keep_unit_y` or when the dim would have no component), in a random order; `innermost` (the vector, > 1) last.
std::vector<part> dim_parts(index_t lane_part, index_t warp_part, index_t y, bool keep_unit_y, index_t innermost) {
  std::vector<part> v;
  if (lane_part > 1) v.push_back({lane_part, owner::lane});
  if (warp_part > 1) v.push_back({warp_part, owner::warp});
  if (y > 1 || keep_unit_y || (lane_part <= 1 && warp_part <= 1 && innermost <= 1)) v.push_back({y, owner::y});
  v = shuffled(v);
  // A Y whose length is no power of two never ends a dim: the windows would move it as one vector of 3 or 6
  // elements, which no GPU instruction is (gpu/runtime/device_context.hpp takes 1, 2, 4, 8 or 16k bytes).
  if (!v.empty() && v.back().who == owner::y && (v.back().length & (v.back().length - 1)) != 0)
    std::rotate(v.begin(), v.end() - 1, v.end());
  if (innermost <= 1 && !v.empty() && v.back().who == owner::y && (v.back().length & (v.back().length - 1)) != 0)
    v.push_back({1, owner::y});  // it is the dim's only component: a unit Y ends the dim instead
  if (innermost > 1) v.push_back({innermost, owner::y});
  return v;
}

// The reader of a rows x cols tile for threads = 32 * warps: its own vector and bit split, R where drawn or forced.
// rows_only_warps (reduce): the warp bits go to the rows or to R, never to the columns.
tile_distribution_encoding gen_reader(index_t rows, index_t cols, index_t wave, index_t warps, index_t max_vector,
                                      bool rows_only_warps = false) {
  index_t vr = 1;
  while (vr * 2 <= max_vector && cols % (vr * 2) == 0) vr *= 2;
  vr = index_t{1} << *rc::gen::inRange(0, log2_of(vr) + 1);
  const bool allow_r = *rc::gen::inRange(0, 4) == 0;
  index_t rem_rows = rows, rem_cols = cols / vr;
  index_t split[2][3] = {{1, 1, 1}, {1, 1, 1}};  // [lane, warp][rows, cols, R]
  const int bits[2] = {log2_of(wave), log2_of(warps)};
  for (int who = 0; who < 2; ++who)
    for (int b = 0; b < bits[who]; ++b) {
      std::vector<int> targets;
      if (rem_rows % 2 == 0) targets.push_back(0);
      if (rem_cols % 2 == 0 && !(rows_only_warps && who == 1)) targets.push_back(1);
      if (allow_r || targets.empty()) targets.push_back(2);
      const int t = targets[*rc::gen::inRange<std::size_t>(0, targets.size())];
      split[who][t] *= 2;
      if (t == 0) rem_rows /= 2;
      if (t == 1) rem_cols /= 2;
    }
  const bool one_y = rem_rows == 1 && rem_cols == 1 && vr == 1;
  std::vector<part> r_parts;
  if (split[0][2] > 1) r_parts.push_back({split[0][2], owner::lane});
  if (split[1][2] > 1) r_parts.push_back({split[1][2], owner::warp});
  // Columns first: the recordings were drawn by g++, which evaluated assemble's arguments right to left.
  const std::vector<part> cols_parts = dim_parts(split[0][1], split[1][1], rem_cols, false, vr);
  const std::vector<part> rows_parts = dim_parts(split[0][0], split[1][0], rem_rows, one_y, 1);
  return assemble(rows_parts, cols_parts, r_parts, warps);
}

// The stencil offsets of a new stencil case (see the header).
void draw_stencil(props_case& c) {
  c.stencil_points = uniform(2, props_max_stencil_points + 1);
  std::vector<std::pair<index_t, index_t>> pool = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  if (uniform(0, 2) == 1) {
    for (index_t dr = -2; dr <= 2; ++dr)
      for (index_t dc = -2; dc <= 2; ++dc)
        if ((dr != 0 || dc != 0) && std::find(pool.begin(), pool.end(), std::pair{dr, dc}) == pool.end())
          pool.push_back({dr, dc});
    for (std::size_t i = pool.size(); i > 1; --i) std::swap(pool[i - 1], pool[uniform<std::size_t>(0, i)]);
  }
  for (int k = 0; k < c.stencil_points; ++k) c.stencil_dr[k] = pool[static_cast<std::size_t>(k)].first, c.stencil_dc[k] = pool[static_cast<std::size_t>(k)].second;
}

}  // namespace

std::vector<props_kind> parse_kinds(const std::string& list) {
  std::vector<props_kind> kinds;
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string name = list.substr(at, comma - at);
    bool known = false;
    for (props_kind k : {props_kind::copy, props_kind::stencil, props_kind::reduce, props_kind::loop})
      if (name == kind_name(k)) {
        if (std::find(kinds.begin(), kinds.end(), k) != kinds.end())
          throw std::invalid_argument("kind \"" + name + "\" is given twice in \"" + list + "\"");
        kinds.push_back(k), known = true;
      }
    if (!known) throw std::invalid_argument("kind \"" + name + "\" is not one of copy, stencil, reduce, loop (in \"" + list + "\")");
    at = comma + 1;
  }
  return kinds;
}

std::string check_props_case(const props_case& c) {
  try {
    if (c.element_bytes != 2 && c.element_bytes != 4 && c.element_bytes != 8) return "element_bytes must be 2, 4 or 8";
    if (c.wave != 32 && c.wave != 64) return "wave must be 32 or 64";
    if (c.threads < c.wave || c.threads > 1024 || c.threads % c.wave != 0) return "threads must be wave * warps (<= 1024)";
    if (c.grid < 1 || c.grid > 65535) return "grid must be in 1..65535";
    for (const tile_distribution_encoding* e : {&c.writer, &c.reader}) {
      if (violation v = e->check()) return spec_error::format(v);
      if (e->n_x != 2) return "the encodings must have 2 X dims";
      if (violation v = e->check_launch(c.threads, c.wave)) return spec_error::format(v);
      if (e->elements_per_thread() > props_max_elements) return "more than 64 elements per thread";
      if (e->elements_per_thread() * c.element_bytes > props_max_thread_bytes)
        return "more than 256 bytes (64 registers) of a window's tile per thread";
    }
    if (c.reader.x_length(0) != c.rows() || c.reader.x_length(1) != c.cols()) return "writer and reader tiles differ";
    for (int i = 0; i < c.writer.n_r; ++i)
      if (c.writer.r[i] > 1) return "the writer must not replicate (every LDS element written once)";
    const index_t blocks_rows = c.grid * c.tiles_per_block() * c.rows();
    if (c.tensor_rows <= blocks_rows - c.rows() || c.tensor_rows > blocks_rows)
      return "tensor_rows must be in ((grid*tiles-1)*rows, grid*tiles*rows]";
    if (c.tensor_cols < 1 || c.tensor_cols > c.cols()) return "tensor_cols must be in [1, cols]";
    if (c.fault != 0 && c.fault != 1) return "fault must be 0 or 1";
    if (c.kind != props_kind::copy && c.kind != props_kind::stencil && c.kind != props_kind::reduce &&
        c.kind != props_kind::loop)
      return "kind must be copy, stencil, reduce or loop";
    if (c.kind == props_kind::loop ? c.loop_tiles < 2 || c.loop_tiles > 4 || (c.double_buffer != 0 && c.double_buffer != 1)
                                   : c.loop_tiles != 0 || c.double_buffer != 0)
      return "a loop moves 2..4 tiles (loop_tiles " + std::to_string(c.loop_tiles) + ", double_buffer " +
             std::to_string(c.double_buffer) + "); other kinds set neither";
    if (c.kind == props_kind::reduce && c.reader.n_p == 2)
      for (int k = 0; k < c.reader.p_size[0]; ++k)
        if (c.reader.p[0][k].major == 2) return "a reduce's reader must not split the columns over warps";
    const int points = c.kind == props_kind::stencil ? c.stencil_points : 0;
    if (c.kind == props_kind::stencil && (points < 2 || points > props_max_stencil_points))
      return "a stencil reads 2..5 offsets (stencil_points " + std::to_string(c.stencil_points) + ")";
    for (int k = 0; k < props_max_stencil_points; ++k) {
      if (k >= points && (c.stencil_dr[k] != 0 || c.stencil_dc[k] != 0 || c.stencil_points != points))
        return "stencil offsets set past stencil_points (or on a copy)";
      if (c.stencil_dr[k] < -2 || c.stencil_dr[k] > 2 || c.stencil_dc[k] < -2 || c.stencil_dc[k] > 2)
        return "stencil offset " + std::to_string(k) + " outside [-2, 2] x [-2, 2]";
      for (int j = 0; j < k && k < points; ++j)
        if (c.stencil_dr[j] == c.stencil_dr[k] && c.stencil_dc[j] == c.stencil_dc[k])
          return "stencil offset " + std::to_string(k) + " repeats offset " + std::to_string(j);
    }
    index_t space = 0;
    with_props_layout(c, [&](auto family) {
      constexpr props_layout L = decltype(family)::value;
      space = props_lds_descriptor<L>(c, false).element_space_size;
      (void)props_lds_descriptor<L>(c, c.fault != 0);
    });
    (void)props_global_descriptor(c);
    if (space * c.element_bytes * (c.double_buffer ? 2 : 1) > props_max_lds_bytes) return "the LDS tile(s) exceed 48 KiB";
  } catch (const spec_error& e) {
    return e.what();
  }
  return "";
}

rc::Gen<props_case> gen_props_case(int fault, index_t wave, std::vector<props_kind> kinds) {
  if (kinds.empty()) kinds = {props_kind::copy};
  return rc::gen::exec([fault, wave, kinds] {
    props_case c;
    c.fault = fault;
    c.wave = wave;
    // First, and only when there is a choice (see the header: old seeds, old cases).
    c.kind = kinds.size() > 1 ? kinds[uniform<std::size_t>(0, kinds.size())] : kinds[0];
    if (c.kind == props_kind::loop) {
      c.loop_tiles = uniform<index_t>(2, 5);
      c.double_buffer = uniform(0, 2);
    }
    const index_t tiles = c.tiles_per_block();  // 1 but for a loop: the draws below are the old ones
    c.element_bytes = pick<int>({4, 2, 8});
    const int warp_bits = *rc::gen::inRange(0, 4);
    const index_t warps = index_t{1} << warp_bits;
    c.threads = wave * warps;
    c.layout = pick<props_layout>({props_layout::row_major, props_layout::padded, props_layout::ck_xor,
                                   props_layout::cute_swizzle, props_layout::morton});
    // Morton needs power-of-two sides; CK's XOR preshuffle a power-of-two K (K0 * MLdsLayer is one), any
    // MPerBlock its MLdsLayer divides; CuTe's swizzle only a tile whose 2-adic part holds its block.
    const bool pow2_rows = c.layout == props_layout::morton;
    const bool pow2_cols = c.layout == props_layout::morton || c.layout == props_layout::ck_xor;
    const index_t max_vector = 16 / c.element_bytes;
    index_t v = index_t{1} << *rc::gen::inRange(0, log2_of(max_vector) + 1);
    const int lane_row_bits = *rc::gen::inRange(0, log2_of(wave) + 1);
    int warp_row_bits = *rc::gen::inRange(0, warp_bits + 1);
    // A reduce's reader puts its warp bits on rows (or replicates), so its tile has a row per warp: otherwise a tile
    // only 1 row high folds every warp's columns into one thread and no reader fits the register budget (seed
    // 20261201, 300 cases: RapidCheck gave up). Drawn as before, so copies' draws are unchanged.
    if (c.kind == props_kind::reduce) warp_row_bits = warp_bits;
    index_t yr = pow2_rows ? index_t{1} << *rc::gen::inRange(0, 4) : pick<index_t>({1, 2, 3, 4, 5, 6, 8});
    index_t yc = pow2_cols ? index_t{1} << *rc::gen::inRange(0, 3) : pick<index_t>({1, 2, 3});
    // At most 32 elements (64 registers of fp64) and a 32 KiB tile: shrink the per-thread part until both hold.
    while (yr * yc * v > props_max_elements / 2 || c.threads * yr * yc * v * c.element_bytes > 32 * 1024) {
      if (yr > 1) yr = yr % 2 == 0 ? yr / 2 : 1;
      else if (yc > 1) yc = 1;
      else v /= 2;
    }
    const index_t lane_rows = index_t{1} << lane_row_bits, lane_cols = wave / lane_rows;
    const index_t warp_rows = index_t{1} << warp_row_bits, warp_cols = warps / warp_rows;
    const index_t rows = lane_rows * warp_rows * yr, cols = lane_cols * warp_cols * yc * v;
    // Each draw is its own statement, columns first (see gen_reader): argument order is the compiler's choice.
    const std::vector<part> writer_cols = dim_parts(lane_cols, warp_cols, yc, false, v);
    const std::vector<part> writer_rows = dim_parts(lane_rows, warp_rows, yr, v == 1 && yc == 1, 1);
    c.writer = assemble(writer_rows, writer_cols, {}, warps);
    const bool rows_only_warps = c.kind == props_kind::reduce;
    c.reader = *rc::gen::suchThat(rc::gen::exec([=] { return gen_reader(rows, cols, wave, warps, max_vector, rows_only_warps); }),
                                  [bytes = c.element_bytes](const tile_distribution_encoding& e) {
                                    return e.elements_per_thread() <= props_max_elements &&
                                           e.elements_per_thread() * bytes <= props_max_thread_bytes;
                                  });
    c.grid = *rc::gen::inRange<index_t>(1, 5);
    const bool exact = *rc::gen::inRange(0, 2) == 0;
    c.tensor_rows = exact ? c.grid * tiles * rows : *rc::gen::inRange<index_t>((c.grid * tiles - 1) * rows + 1, c.grid * tiles * rows + 1);
    c.tensor_cols = exact ? cols : *rc::gen::inRange<index_t>(1, cols + 1);
    // The widest vector either window may use along the columns (row starts must stay aligned to it).
    const index_t widest = std::max(c.writer.h[1][c.writer.n_h[1] - 1], c.reader.h[1][c.reader.n_h[1] - 1]);
    const index_t align = std::min(widest, max_vector);
    switch (c.layout) {
      case props_layout::row_major:
        break;
      case props_layout::padded:
      {
        // Any multiple of the widest vector that keeps the padded tile within the LDS limit.
        const index_t most = (props_max_lds_bytes / c.element_bytes / rows - cols) / align;
        if (most < 1) {
          c.layout = props_layout::row_major;
          break;
        }
        c.pad = align * *rc::gen::inRange<index_t>(1, std::min<index_t>(8, most) + 1);
      }
        break;
      case props_layout::ck_xor: {
        c.ck_k_pack = index_t{1} << *rc::gen::inRange(0, log2_of(cols) + 1);
        c.ck_banks = pick<index_t>({32, 64});
        c.ck_order = pick<ck_lds_order>({ck_lds_order::l_k0_2025, ck_lds_order::k0_l_2024});
        c.ck_m_lds_layer = pick<index_t>({0, 1, 2, 4, 8});
        ck_lds_xor_params x{rows, cols, c.ck_k_pack};
        x.element_bytes = c.element_bytes;
        x.banks = c.ck_banks;
        x.m_lds_layer = c.ck_m_lds_layer;
        if (x.check()) c.ck_m_lds_layer = 1;  // the derived or drawn MLdsLayer does not divide MPerBlock
        break;
      }
      case props_layout::cute_swizzle: {
        int b = *rc::gen::inRange(0, 4), m = *rc::gen::inRange(0, 5), s = b + *rc::gen::inRange(0, 4);
        int tile_bits = 0;  // the 2-adic valuation of the tile: the largest swizzle block that divides it
        while ((rows * cols) % (index_t{2} << tile_bits) == 0) ++tile_bits;
        while (b + m + s > tile_bits) {
          if (s > b) --s;
          else if (m > 0) --m;
          else --b, --s;
        }
        c.swizzle_b = b, c.swizzle_m = m, c.swizzle_s = s;
        break;
      }
      case props_layout::morton:
        break;
    }
    if (c.kind == props_kind::stencil) draw_stencil(c);
    if (c.double_buffer) {  // two buffers must fit too, else one
      index_t space = 0;
      with_props_layout(c, [&](auto family) { space = props_lds_descriptor<decltype(family)::value>(c, false).element_space_size; });
      if (2 * space * c.element_bytes > props_max_lds_bytes) c.double_buffer = 0;
    }
    return c;
  });
}

rc::Shrinkable<props_case> generate_case(std::uint64_t seed, int index, int fault, index_t wave,
                                         const std::vector<props_kind>& kinds) {
  rc::Random random(seed);
  for (int i = 0; i < index; ++i) random.split();
  rc::Random mine = random.split();
  return gen_props_case(fault, wave, kinds)(mine, std::min(100, 10 + index));
}

}  // namespace tilesim::gpu::props
