// tilesim/gpu/crosscheck/points.cpp: the cross-check's catalogue of points and their JSON form.
#include <stdexcept>
#include <utility>
#include <string>

#include "examples/conv/conv_variants.hpp"
#include "examples/cute_swizzle/cute_swizzle_variants.hpp"
#include "examples/gemm/gemm_variants.hpp"
#include "examples/gemm/mma_gemm_variants.hpp"
#include "examples/lds_index_swap/lds_index_swap_variants.hpp"
#include "examples/morton/morton_variants.hpp"
#include "examples/synthesized/synthesized_variants.hpp"
#include "gpu/crosscheck/crosscheck.hpp"
#include "sim/arch/arch.hpp"
#include "sim/runs/gemm_tile_run.hpp"
#include "sim/runs/mma_gemm_run.hpp"

namespace tilesim::gpu {

using util::json_value;
using util::json_error;

namespace {

const char* name_of(programs::copy_lds_layout l) {
  switch (l) {
    case programs::copy_lds_layout::row_major: return "row_major";
    case programs::copy_lds_layout::padded: return "padded";
    case programs::copy_lds_layout::ck_xor: return "ck_xor";
    case programs::copy_lds_layout::cute_swizzle: return "cute_swizzle";
  }
  return "?";
}
const char* name_of(programs::gemm_lds_layout l) {
  switch (l) {
    case programs::gemm_lds_layout::row_major: return "row_major";
    case programs::gemm_lds_layout::padded: return "padded";
    case programs::gemm_lds_layout::ck_xor: return "ck_xor";
  }
  return "?";
}
const char* name_of(program_kind k) {
  switch (k) {
    case program_kind::copy_fp16: return "copy_fp16";
    case program_kind::copy_fp32: return "copy_fp32";
    case program_kind::gemm_fp32: return "gemm_fp32";
    case program_kind::lds_sweep_u32: return "lds_sweep_u32";
    case program_kind::morton_f32: return "morton_f32";
    case program_kind::conv_f32: return "conv_f32";
    case program_kind::transpose_f32: return "transpose_f32";
    case program_kind::mma_gemm_f16: return "mma_gemm_f16";
  }
  return "?";
}
const char* name_of(programs::copy_read_order r) {
  switch (r) {
    case programs::copy_read_order::same_as_write: return "same_as_write";
    case programs::copy_read_order::lanes_down_rows: return "lanes_down_rows";
    case programs::copy_read_order::gemm_operand: return "gemm_operand";
    case programs::copy_read_order::ldmatrix_operand: return "ldmatrix_operand";
  }
  return "?";
}
const char* name_of(ck_lds_order o) { return o == ck_lds_order::k0_l_2024 ? "k0_l_2024" : "l_k0_2025"; }

template <class Enum, std::size_t N>
Enum enum_named(const std::string& s, const Enum (&all)[N], const char* what) {
  for (Enum e : all)
    if (s == name_of(e)) return e;
  throw json_error(std::string("unknown ") + what + " \"" + s + "\"");
}

crosscheck_point copy_point(program_kind kind, index_t rows, index_t cols, index_t vector,
                            programs::copy_lds_layout layout) {
  crosscheck_point p;
  p.program = kind;
  p.copy.rows = rows;
  p.copy.cols = cols;
  p.copy.vector = vector;
  p.copy.layout = layout;
  p.copy.read = programs::copy_read_order::lanes_down_rows;
  p.grid = 64;
  p.name = std::string(kind == program_kind::copy_fp16 ? "copy fp16 " : "copy fp32 ") + std::to_string(rows) + "x" +
           std::to_string(cols) + " v" + std::to_string(vector) + " " + name_of(layout);
  return p;
}

crosscheck_point sweep_point(programs::copy_lds_layout layout, index_t iterations) {
  crosscheck_point p;
  p.program = program_kind::lds_sweep_u32;
  p.sweep.tile.rows = 32;
  p.sweep.tile.cols = 32;
  p.sweep.tile.vector = 4;
  p.sweep.tile.layout = layout;
  p.sweep.tile.read = programs::copy_read_order::lanes_down_rows;
  p.sweep.iterations = iterations;
  p.grid = 8;
  p.name = "lds_sweep u32 32x32 v4 " + std::string(name_of(layout)) + " x" + std::to_string(iterations);
  return p;
}

crosscheck_point gemm_point(index_t mn, index_t k, programs::gemm_lds_layout layout) {
  crosscheck_point p;
  p.program = program_kind::gemm_fp32;
  p.gemm.m = p.gemm.n = mn;
  p.gemm.k = k;
  p.gemm.layout = layout;
  p.grid = static_cast<int>((mn / p.gemm.m_per_block) * (mn / p.gemm.n_per_block));
  p.name = "gemm fp32 " + std::to_string(mn) + "x" + std::to_string(mn) + "x" + std::to_string(k) + " " + name_of(layout);
  return p;
}

// Every sm90 case of every example (the GPU here is NVIDIA), named "example NAME: CASE".
std::vector<crosscheck_point> example_points() {
  std::vector<crosscheck_point> v;
  auto add = [&v](program_kind kind, const std::string& example, const std::string& name, int grid, int block) {
    crosscheck_point p;
    p.program = kind;
    p.example = example;
    p.name = "example " + example + ": " + name;
    p.grid = grid;
    p.block = block;
    p.wave_size = sim::arch_named("sm90").wave_size;
    v.push_back(p);
    return &v.back();
  };
  for (const examples::lds_index_swap_case& c : examples::lds_index_swap_cases())
    if (c.arch == "sm90") add(program_kind::copy_fp16, "lds-index-swap", c.name, 1, c.block)->copy = c.params;
  for (const examples::cute_swizzle_case& c : examples::cute_swizzle_cases())
    if (c.arch == "sm90") add(program_kind::copy_fp16, "cute-swizzle", c.name, 1, c.block)->copy = c.params;
  for (const examples::morton_case& c : examples::morton_cases())
    if (c.arch == "sm90") add(program_kind::morton_f32, "morton", c.name, c.grid, c.block)->morton = c.params;
  for (const examples::gemm_case& c : examples::gemm_cases())
    if (c.arch == "sm90")
      add(program_kind::gemm_fp32, "gemm", c.name, programs::gemm_workgroups(c.params), c.block)->gemm = c.params;
  for (const examples::mma_gemm_case& c : examples::mma_gemm_cases())
    if (c.arch == "sm90")
      add(program_kind::mma_gemm_f16, "gemm", c.name, programs::mma_gemm_workgroups(c.params), c.block)->mma_gemm = c.params;
  for (const examples::conv_case& c : examples::conv_cases())
    if (c.arch == "sm90") add(program_kind::conv_f32, "conv", c.name, c.grid, c.block)->conv = c.params;
  for (const examples::copy_case& c : examples::synthesized_cases())
    if (c.arch == "sm90") add(program_kind::copy_fp16, "synthesized", c.name, 1, c.block)->copy = c.params;
  return v;
}

}  // namespace

std::vector<crosscheck_point> catalogue() {
  using programs::copy_lds_layout;
  using programs::gemm_lds_layout;
  std::vector<crosscheck_point> v;
  for (copy_lds_layout l : {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor,
                            copy_lds_layout::cute_swizzle})
    v.push_back(copy_point(program_kind::copy_fp16, 64, 32, 8, l));
  for (copy_lds_layout l : {copy_lds_layout::row_major, copy_lds_layout::ck_xor, copy_lds_layout::cute_swizzle})
    v.push_back(copy_point(program_kind::copy_fp16, 64, 64, 8, l));
  for (copy_lds_layout l : {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor})
    v.push_back(copy_point(program_kind::copy_fp32, 64, 32, 4, l));
  for (gemm_lds_layout l : {gemm_lds_layout::row_major, gemm_lds_layout::padded, gemm_lds_layout::ck_xor})
    v.push_back(gemm_point(128, 64, l));
  v.push_back(gemm_point(256, 128, gemm_lds_layout::row_major));
  v.push_back(gemm_point(256, 128, gemm_lds_layout::ck_xor));
  for (copy_lds_layout l : {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor,
                            copy_lds_layout::cute_swizzle})
    v.push_back(sweep_point(l, 1024));
  for (index_t n : {64, 256, 1024}) {  // the scalar program: every access one element through load_element / store_element
    crosscheck_point p;
    p.program = program_kind::transpose_f32;
    p.transpose.n = n;
    p.grid = static_cast<int>(programs::transpose_workgroups(p.transpose));
    p.name = "transpose fp32 " + std::to_string(n) + "x" + std::to_string(n) + " scalar";
    v.push_back(p);
  }
  for (crosscheck_point& p : example_points()) v.push_back(std::move(p));
  return v;
}

json_value to_json(const crosscheck_point& p) {
  json_value v;
  v.set("name", p.name);
  v.set("program", name_of(p.program));
  if (!p.example.empty()) v.set("example", p.example);
  json_value params;
  if (p.program == program_kind::morton_f32) {
    const examples::morton_params& m = p.morton;
    params.set("height", static_cast<long long>(m.height));
    params.set("width", static_cast<long long>(m.width));
    params.set("tile", static_cast<long long>(m.tile));
    params.set("footprint_rows", static_cast<long long>(m.footprint_rows));
    params.set("footprint_cols", static_cast<long long>(m.footprint_cols));
    params.set("layout", static_cast<int>(m.layout));
    params.set("staging", static_cast<int>(m.staging));
  } else if (p.program == program_kind::conv_f32) {
    const examples::conv_params& c = p.conv;
    params.set("mode", static_cast<int>(c.mode));
    for (const auto& [key, value] : {std::pair<const char*, index_t>{"n", c.n}, {"h", c.h}, {"w", c.w}, {"c_in", c.c_in},
                                     {"c_out", c.c_out}, {"r", c.r}, {"s", c.s}})
      params.set(key, static_cast<long long>(value));
  } else if (p.program == program_kind::transpose_f32) {
    params.set("n", static_cast<long long>(p.transpose.n));
  } else if (p.program == program_kind::mma_gemm_f16) {
    const programs::mma_gemm_params& g = p.mma_gemm;
    for (const auto& [key, value] : {std::pair<const char*, index_t>{"m", g.m}, {"n", g.n}, {"k", g.k},
                                     {"m_per_block", g.m_per_block}, {"n_per_block", g.n_per_block},
                                     {"k_per_block", g.k_per_block}, {"m_warps", g.m_warps}})
      params.set(key, static_cast<long long>(value));
    params.set("layout", name_of(g.layout));
    params.set("ck_order", name_of(g.ck_order));
  } else if (p.program == program_kind::gemm_fp32) {
    const programs::gemm_params& g = p.gemm;
    params.set("m", static_cast<long long>(g.m));
    params.set("n", static_cast<long long>(g.n));
    params.set("k", static_cast<long long>(g.k));
    params.set("m_per_block", static_cast<long long>(g.m_per_block));
    params.set("n_per_block", static_cast<long long>(g.n_per_block));
    params.set("k_per_block", static_cast<long long>(g.k_per_block));
    params.set("vector", static_cast<long long>(g.vector));
    params.set("m_warps", static_cast<long long>(g.m_warps));
    params.set("layout", name_of(g.layout));
    params.set("pad", static_cast<long long>(g.pad));
    params.set("ck_banks", static_cast<long long>(g.ck_banks));
  } else {
    const programs::copy_params& c = p.program == program_kind::lds_sweep_u32 ? p.sweep.tile : p.copy;
    if (p.program == program_kind::lds_sweep_u32) params.set("iterations", static_cast<long long>(p.sweep.iterations));
    params.set("rows", static_cast<long long>(c.rows));
    params.set("cols", static_cast<long long>(c.cols));
    params.set("vector", static_cast<long long>(c.vector));
    params.set("layout", name_of(c.layout));
    params.set("read", name_of(c.read));
    params.set("lane_rows", static_cast<long long>(c.lane_rows));
    params.set("ck_order", name_of(c.ck_order));
    params.set("pad", static_cast<long long>(c.pad));
    params.set("swizzle_bits", c.swizzle_bits);
    params.set("swizzle_base", c.swizzle_base);
    params.set("swizzle_shift", c.swizzle_shift);
    params.set("ck_banks", static_cast<long long>(c.ck_banks));
  }
  v.set("params", std::move(params));
  json_value launch;
  launch.set("grid", p.grid);
  launch.set("block", p.block);
  launch.set("wave_size", p.wave_size);
  v.set("launch", std::move(launch));
  return v;
}

namespace {
// Example cases renamed after recordings named them (same parameters): the recorded name -> today's.
constexpr std::pair<const char*, const char*> renamed_cases[] = {
    {"example lds-index-swap: row-major, ldmatrix read", "example lds-index-swap: row-major, LDS.128 at ldmatrix rows"},
    {"example lds-index-swap: padded, ldmatrix read", "example lds-index-swap: padded, LDS.128 at ldmatrix rows"},
    {"example lds-index-swap: ck-xor 2024, ldmatrix read", "example lds-index-swap: ck-xor 2024, LDS.128 at ldmatrix rows"},
    {"example lds-index-swap: ck-xor 2025, ldmatrix read", "example lds-index-swap: ck-xor 2025, LDS.128 at ldmatrix rows"},
};
}  // namespace

crosscheck_point point_from_json(const json_value& v) {
  using programs::copy_lds_layout;
  using programs::gemm_lds_layout;
  crosscheck_point p;
  p.name = v["name"].string();
  for (const auto& [recorded, today] : renamed_cases)
    if (p.name == recorded) p.name = today;
  p.program = enum_named(v["program"].string(),
                         {program_kind::copy_fp16, program_kind::copy_fp32, program_kind::gemm_fp32,
                          program_kind::lds_sweep_u32, program_kind::morton_f32, program_kind::conv_f32,
                          program_kind::transpose_f32, program_kind::mma_gemm_f16},
                         "program");
  if (const json_value* example = v.get("example")) {  // a reference program's case: its parameters live in examples/
    for (const crosscheck_point& known : catalogue())
      if (known.name == p.name && known.example == example->string() && known.program == p.program) return known;
    throw json_error("the recording's point \"" + p.name + "\" is no case of example " + example->string() +
                     " any more (examples/ renamed or removed it)");
  }
  const json_value& q = v["params"];
  auto n = [&](const char* key) { return static_cast<index_t>(q[key].number()); };
  if (p.program == program_kind::transpose_f32) {
    p.transpose.n = n("n");
  } else if (p.program == program_kind::mma_gemm_f16) {
    programs::mma_gemm_params& g = p.mma_gemm;
    g.m = n("m"), g.n = n("n"), g.k = n("k");
    g.m_per_block = n("m_per_block"), g.n_per_block = n("n_per_block"), g.k_per_block = n("k_per_block");
    g.m_warps = n("m_warps");
    g.layout = enum_named(q["layout"].string(),
                          {gemm_lds_layout::row_major, gemm_lds_layout::padded, gemm_lds_layout::ck_xor}, "layout");
    g.ck_order = enum_named(q["ck_order"].string(), {ck_lds_order::l_k0_2025, ck_lds_order::k0_l_2024}, "ck order");
  } else if (p.program == program_kind::gemm_fp32) {
    programs::gemm_params& g = p.gemm;
    g.m = n("m"), g.n = n("n"), g.k = n("k");
    g.m_per_block = n("m_per_block"), g.n_per_block = n("n_per_block"), g.k_per_block = n("k_per_block");
    g.vector = n("vector"), g.m_warps = n("m_warps"), g.pad = n("pad"), g.ck_banks = n("ck_banks");
    g.layout = enum_named(q["layout"].string(),
                          {gemm_lds_layout::row_major, gemm_lds_layout::padded, gemm_lds_layout::ck_xor}, "layout");
  } else {
    programs::copy_params& c = p.program == program_kind::lds_sweep_u32 ? p.sweep.tile : p.copy;
    if (p.program == program_kind::lds_sweep_u32) p.sweep.iterations = n("iterations");
    c.rows = n("rows"), c.cols = n("cols"), c.vector = n("vector"), c.pad = n("pad"), c.ck_banks = n("ck_banks");
    c.layout = enum_named(q["layout"].string(),
                          {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor,
                           copy_lds_layout::cute_swizzle},
                          "layout");
    c.read = enum_named(q["read"].string(),
                        {programs::copy_read_order::same_as_write, programs::copy_read_order::lanes_down_rows,
                         programs::copy_read_order::gemm_operand, programs::copy_read_order::ldmatrix_operand},
                        "read order");
    if (const json_value* r = q.get("lane_rows")) c.lane_rows = static_cast<index_t>(r->number());
    if (const json_value* o = q.get("ck_order"))
      c.ck_order = enum_named(o->string(), {ck_lds_order::l_k0_2025, ck_lds_order::k0_l_2024}, "ck order");
    c.swizzle_bits = static_cast<int>(n("swizzle_bits"));
    c.swizzle_base = static_cast<int>(n("swizzle_base"));
    c.swizzle_shift = static_cast<int>(n("swizzle_shift"));
  }
  const json_value& l = v["launch"];
  p.grid = static_cast<int>(l["grid"].number());
  p.block = static_cast<int>(l["block"].number());
  p.wave_size = static_cast<int>(l["wave_size"].number());
  return p;
}

}  // namespace tilesim::gpu
