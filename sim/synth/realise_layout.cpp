// tilesim/sim/synth/realise_layout.cpp: completing a bank map to a layout (see the header).
#include "sim/synth/realise_layout.hpp"

#include <bit>
#include <stdexcept>

namespace tilesim::synth {
namespace {

// The element-offset bits of one chunk: log2(chunk bytes / element bytes).
int chunk_elem_bits(const xor_minimum& x, const tile_shape& tile) {
  return x.z + 2 - std::countr_zero(static_cast<unsigned>(tile.elem_bytes));
}

lds_layout base_of(const tile_shape& tile) {
  lds_layout l;
  l.rows = tile.rows;
  l.cols = tile.cols;
  l.elem_bytes = tile.elem_bytes;
  return l;
}

}  // namespace

std::vector<std::uint32_t> complete_bank_map(const std::vector<std::uint32_t>& l_columns, int f) {
  const int m = static_cast<int>(l_columns.size());
  // Rows of L as masks over the m chunk bits; eliminate to find the pivot bits (lowest first).
  std::vector<std::uint64_t> rows(static_cast<std::size_t>(f), 0);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < f; ++i)
      if ((l_columns[static_cast<std::size_t>(j)] >> i) & 1u) rows[static_cast<std::size_t>(i)] |= std::uint64_t{1} << j;
  std::vector<bool> pivot(static_cast<std::size_t>(m), false);
  int rank = 0;
  for (int j = 0; j < m && rank < f; ++j) {
    int p = rank;
    while (p < f && !((rows[static_cast<std::size_t>(p)] >> j) & 1u)) ++p;
    if (p == f) continue;
    std::swap(rows[static_cast<std::size_t>(p)], rows[static_cast<std::size_t>(rank)]);
    for (int i = 0; i < f; ++i)
      if (i != rank && ((rows[static_cast<std::size_t>(i)] >> j) & 1u)) rows[static_cast<std::size_t>(i)] ^= rows[static_cast<std::size_t>(rank)];
    pivot[static_cast<std::size_t>(j)] = true;
    ++rank;
  }
  if (rank < f) return {};
  std::vector<std::uint32_t> a(l_columns);
  int next = f;  // the row of A the next unit row takes
  for (int j = 0; j < m; ++j)
    if (!pivot[static_cast<std::size_t>(j)]) a[static_cast<std::size_t>(j)] |= 1u << next++;
  return a;
}

lds_layout layout_of_gf2(const xor_minimum& x, const tile_shape& tile, const std::vector<std::uint32_t>& columns) {
  const std::vector<std::uint32_t> a = complete_bank_map(columns, x.f);
  if (a.empty()) throw std::logic_error("layout_of_gf2: the bank map has rank below " + std::to_string(x.f));
  lds_layout l = base_of(tile);
  l.family = layout_family::gf2;
  l.keep_bits = chunk_elem_bits(x, tile);
  for (std::uint32_t c : a) l.gf2_columns.push_back(static_cast<index_t>(c));
  return l;
}

lds_layout layout_of_padded_xor(const xor_minimum& x, const tile_shape& tile, const padded_xor_optimum& p) {
  lds_layout l = base_of(tile);
  l.family = layout_family::padded_xor;
  l.keep_bits = chunk_elem_bits(x, tile);
  l.pad = p.pad_chunks << l.keep_bits;
  for (std::uint32_t k : p.f) l.row_keys.push_back(static_cast<index_t>(k));
  return l;
}

}  // namespace tilesim::synth
