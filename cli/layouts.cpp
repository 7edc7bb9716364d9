// tilesim/cli/layouts.cpp: the layout registry (see layouts.hpp).
//
// Each build function reads its options, checks the grid size, asks spec/ for the descriptor (which throws
// spec_error on a broken rule, e.g. a morton side that is not a power of two) and evaluates
// calculate_offset at every (row, col). The common options (--elem-bytes, --banks, ...) are read here only
// where they change the layout itself: ck-xor derives MLdsLayer from the bank count and the element size.
#include "cli/layouts.hpp"

#include "spec/spec.hpp"

namespace tilesim::cli {
namespace {

constexpr std::int64_t side_max = std::int64_t{1} << 20;

option_spec int_option(std::string name, std::string help, std::int64_t def, std::int64_t min, std::int64_t max) {
  return option_spec{std::move(name), std::move(help), def, min, max};
}

void require_grid_size(index_t rows, index_t cols) {
  if (rows * cols > max_cells)
    throw usage_error("a " + std::to_string(rows) + " x " + std::to_string(cols) + " grid has " +
                      std::to_string(rows * cols) + " cells, more than the limit of " + std::to_string(max_cells) +
                      " (2^20)");
}

// Evaluates any 2-D descriptor on [0, rows) x [0, cols).
template <class Descriptor>
layout_grid evaluate(const Descriptor& d, std::string name, std::string row_name, std::string col_name) {
  layout_grid g;
  g.name = std::move(name);
  g.row_name = std::move(row_name);
  g.col_name = std::move(col_name);
  const auto len = d.lengths();
  g.rows = len[0];
  g.cols = len[1];
  g.element_space = d.element_space_size;
  g.offsets.reserve(static_cast<std::size_t>(g.rows * g.cols));
  for (index_t r = 0; r < g.rows; ++r)
    for (index_t c = 0; c < g.cols; ++c) g.offsets.push_back(d.calculate_offset({r, c}));
  return g;
}

std::string num(index_t v) { return std::to_string(v); }

layout_grid build_row_major(const options& o, bool padded) {
  const index_t rows = o.integer("rows"), cols = o.integer("cols"), pad = padded ? o.integer("pad") : 0;
  require_grid_size(rows, cols);
  layout_grid g = evaluate(make_row_major_descriptor(rows, cols, pad), padded ? "padded" : "row-major", "r", "c");
  if (padded) {
    g.about = {"padded row-major tile, " + num(rows) + " x " + num(cols) + ", pad " + num(pad) +
                   " elements per row (make_row_major_descriptor(" + num(rows) + ", " + num(cols) + ", " + num(pad) +
                   "))",
               "offset(r, c) = r*(cols + pad) + c = r*" + num(cols + pad) + " + c"};
  } else {
    g.about = {"row-major tile, " + num(rows) + " x " + num(cols) + " (make_row_major_descriptor(" + num(rows) + ", " +
                   num(cols) + "))",
               "offset(r, c) = r*cols + c = r*" + num(cols) + " + c"};
  }
  return g;
}

layout_grid build_ck_xor(const options& o) {
  ck_lds_xor_params p{o.integer("m-per-block"), o.integer("k-per-block"), o.integer("k-pack")};
  p.element_bytes = o.integer("elem-bytes");
  p.m_lds_layer = o.integer("m-lds-layer");
  p.banks = o.integer("banks");
  require_grid_size(p.m_per_block, p.k_per_block);
  layout_grid g = evaluate(make_ck_lds_xor_descriptor(p), "ck-xor", "m", "k");
  const index_t L = p.layers();
  const std::string layer_source = p.m_lds_layer > 0 ? "given"
                                                     : "derived: max(1, " + num(p.banks) +
                                                           " banks * 4 B / KPerBlock / " + num(p.element_bytes) + " B)";
  g.about = {"CK Tile XOR-preshuffled LDS tile (make_ck_lds_xor_descriptor), top (m, k)",
             "MPerBlock=" + num(p.m_per_block) + " KPerBlock=" + num(p.k_per_block) + " KPack=" + num(p.k_pack) +
                 " MLdsLayer L=" + num(L) + " (" + layer_source + ") K0=KPerBlock/KPack=" + num(p.k0()),
             "offset(m, k) = ((l*K0 + k0) XOR (m' mod K0*L))*KPack + m'*KPerBlock*L + kp,  m'=m/L l=m%L k0=k/KPack "
             "kp=k%KPack"};
  return g;
}

// The XOR term of swizzle_offset: "((u >> 3) & (7 << 3))"; a negative S moves bits up instead of down.
std::string swizzle_formula(int bits, int base, int shift) {
  const std::string mask = num((index_t{1} << bits) - 1);
  if (shift >= 0) return "((u >> " + num(shift) + ") & (" + mask + " << " + num(base) + "))";
  return "((u << " + num(-shift) + ") & (" + mask + " << " + num(base - shift) + "))";
}

layout_grid build_cute_swizzle(const options& o) {
  const int bits = static_cast<int>(o.integer("bits")), base = static_cast<int>(o.integer("base")),
            shift = static_cast<int>(o.integer("shift"));
  const index_t rows = o.integer("rows"), row_length = o.integer("row-length");
  require_grid_size(rows, row_length);
  const auto d = make_cute_swizzle_descriptor(bits, base, shift, rows, row_length);
  layout_grid g = evaluate(d, "cute-swizzle", "r", "c");
  const std::string cute = get<1>(d.graph.stages).transform.cute_name();  // stage 1 is the swizzle
  g.about = {"CuTe " + cute + " o (" + num(rows) + "," + num(row_length) + "):(" + num(row_length) +
                 ",1), element units (make_cute_swizzle_descriptor(" + num(bits) + ", " + num(base) + ", " +
                 num(shift) + ", " + num(rows) + ", " + num(row_length) + "))",
             "offset(r, c) = swizzle(r*" + num(row_length) + " + c), swizzle(u) = u XOR " +
                 swizzle_formula(bits, base, shift)};
  return g;
}

layout_grid build_morton(const options& o) {
  const index_t rows = o.integer("rows"), cols = o.integer("cols");
  require_grid_size(rows, cols);
  layout_grid g = evaluate(make_morton_descriptor(rows, cols), "morton", "r", "c");
  g.about = {"Morton (Z-order) tile, " + num(rows) + " x " + num(cols) + " (make_morton_descriptor(" + num(rows) +
                 ", " + num(cols) + "))",
             "offset bits interleave column bit i -> bit 2i and row bit i -> bit 2i+1; the longer side's extra bits "
             "go on top"};
  return g;
}

std::vector<layout_entry> make_registry() {
  auto rows = [](std::int64_t def) { return int_option("rows", "number of rows", def, 1, side_max); };
  auto cols = [](std::int64_t def) { return int_option("cols", "number of columns", def, 1, side_max); };
  return {
      {"row-major",
       "packed row-major tile: offset = r*cols + c",
       {rows(4), cols(4)},
       [](const options& o) { return build_row_major(o, false); }},
      {"padded",
       "row-major tile with `pad` unused elements after each row: offset = r*(cols+pad) + c",
       {rows(4), cols(4), int_option("pad", "unused elements after each row", 1, 0, side_max)},
       [](const options& o) { return build_row_major(o, true); }},
      {"ck-xor",
       "CK Tile's XOR-preshuffled LDS layout of a K-major GEMM operand, top (m, k)",
       {int_option("m-per-block", "MPerBlock: rows (m) of the tile", 128, 1, side_max),
        int_option("k-per-block", "KPerBlock: columns (k) of the tile", 32, 1, side_max),
        int_option("k-pack", "KPack: elements per vector along k", 8, 1, side_max),
        int_option("m-lds-layer", "MLdsLayer: tile rows per LDS row; 0 derives it from --banks and --elem-bytes", 0, 0,
                   side_max)},
       build_ck_xor},
      {"cute-swizzle",
       "CuTe Swizzle<B,M,S> composed with a row-major rows x row-length tile (element units)",
       {int_option("bits", "B: number of bits XOR-ed", 3, 0, 40),
        int_option("base", "M: low bits kept (vector = 2^M elements)", 3, 0, 40),
        int_option("shift", "S: distance of the XOR source bits above the target bits", 3, -40, 40),
        int_option("rows", "number of rows", 8, 1, side_max),
        int_option("row-length", "elements per row (columns)", 64, 1, side_max)},
       build_cute_swizzle},
      {"morton", "Morton (Z-order) tile; both sides powers of two", {rows(4), cols(4)}, build_morton},
  };
}

}  // namespace

const std::vector<layout_entry>& layouts() {
  static const std::vector<layout_entry> registry = make_registry();
  return registry;
}

const layout_entry* find_layout(std::string_view name) {
  for (const layout_entry& e : layouts())
    if (e.name == name) return &e;
  return nullptr;
}

std::string layout_names() {
  std::string s;
  for (const layout_entry& e : layouts()) s += (s.empty() ? "" : " ") + e.name;
  return s;
}

}  // namespace tilesim::cli
