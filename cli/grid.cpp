// tilesim/cli/grid.cpp: the grid printer, the bijection check and the column-read conflict summary
// (definitions in grid.hpp).
//
// Grids are right-aligned text with one width for every cell, so they diff cleanly and golden tests can
// compare whole lines. Cells beyond --max-rows / --max-cols are cut with a note saying how to see them; the
// summaries always cover the whole tile.
#include "cli/grid.hpp"

#include <algorithm>
#include <functional>
#include <ostream>
#include <vector>

#include "spec/math.hpp"

namespace tilesim::cli {
namespace {

std::string num(index_t v) { return std::to_string(v); }

std::string right(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

// The group width actually used: the requested one, or 16 bytes' worth of elements, within [1, cols].
index_t effective_group(const layout_grid& g, const bank_model& m, index_t group) {
  if (group <= 0) group = std::max<index_t>(1, 16 / m.elem_bytes);
  return std::min(group, g.cols);
}

// Prints rows x cols of value(offset) with headers; cut to the limits with a note.
template <class Value>
void print_grid(std::ostream& out, const layout_grid& g, index_t max_rows, index_t max_cols, Value value) {
  const index_t rows = max_rows > 0 ? std::min(max_rows, g.rows) : g.rows;
  const index_t cols = max_cols > 0 ? std::min(max_cols, g.cols) : g.cols;
  std::size_t cell = num(cols - 1).size();
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) cell = std::max(cell, num(value(g.at(r, c))).size());
  const std::string label = g.row_name + "\\" + g.col_name;
  const std::size_t label_w = std::max(label.size(), num(rows - 1).size());

  std::string line = right(label, label_w) + " |";
  for (index_t c = 0; c < cols; ++c) line += " " + right(num(c), cell);
  out << line << '\n';
  out << std::string(label_w + 1, '-') << '+' << std::string(static_cast<std::size_t>(cols) * (cell + 1), '-') << '\n';
  for (index_t r = 0; r < rows; ++r) {
    line = right(num(r), label_w) + " |";
    for (index_t c = 0; c < cols; ++c) line += " " + right(num(value(g.at(r, c))), cell);
    out << line << '\n';
  }
  if (cols < g.cols)
    out << "(" << g.col_name << " = " << cols << ".." << g.cols - 1 << " not shown; --max-cols 0 shows all " << g.cols
        << ")\n";
  if (rows < g.rows)
    out << "(" << g.row_name << " = " << rows << ".." << g.rows - 1 << " not shown; --max-rows 0 shows all " << g.rows
        << ")\n";
}

// "8 8 8 8", or "1..4 over 40 groups" when the list would be long.
std::string list_or_range(const std::vector<index_t>& values) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (values.size() > 16)
    return num(*lo) + ".." + num(*hi) + " over " + num(static_cast<index_t>(values.size())) + " groups";
  std::string s;
  for (index_t v : values) s += (s.empty() ? "" : " ") + num(v);
  return s;
}

bool all_equal(const std::vector<index_t>& v) {
  return std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) == v.end();
}

}  // namespace

index_t bank_model::bank_of(index_t offset) const { return floor_mod(floor_div(offset * elem_bytes, 4), banks); }

std::string bijection_summary(const layout_grid& g) {
  std::vector<index_t> sorted = g.offsets;
  std::sort(sorted.begin(), sorted.end());
  const index_t outside =
      std::count_if(sorted.begin(), sorted.end(), [&](index_t o) { return o < 0 || o >= g.element_space; });
  const index_t distinct = std::unique(sorted.begin(), sorted.end()) - sorted.begin();
  const index_t cells = static_cast<index_t>(g.offsets.size());
  if (outside > 0) return "no: " + num(outside) + " offsets fall outside it";
  if (distinct < cells) return "no: " + num(cells - distinct) + " offsets are hit more than once";
  if (distinct < g.element_space)
    return "no: injective, " + num(distinct) + " of " + num(g.element_space) + " offsets used";
  return "yes";
}

std::string column_read_summary(const layout_grid& g, const bank_model& m, index_t group) {
  group = effective_group(g, m, group);
  std::vector<index_t> worst, ideal;
  std::vector<index_t> words, per_bank(static_cast<std::size_t>(m.banks));
  for (index_t c0 = 0; c0 < g.cols; c0 += group) {
    const index_t c1 = std::min(c0 + group, g.cols);
    words.clear();
    for (index_t r = 0; r < g.rows; ++r)
      for (index_t c = c0; c < c1; ++c) {
        const index_t byte = g.at(r, c) * m.elem_bytes;
        for (index_t w = floor_div(byte, 4); w <= floor_div(byte + m.elem_bytes - 1, 4); ++w) words.push_back(w);
      }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    index_t most = 0;
    for (index_t w : words) most = std::max(most, ++per_bank[static_cast<std::size_t>(floor_mod(w, m.banks))]);
    for (index_t w : words) per_bank[static_cast<std::size_t>(floor_mod(w, m.banks))] = 0;  // only touched banks
    worst.push_back(most);
    ideal.push_back((static_cast<index_t>(words.size()) + m.banks - 1) / m.banks);
  }
  index_t excess = 0;
  for (std::size_t i = 0; i < worst.size(); ++i) excess = std::max(excess, worst[i] - ideal[i]);
  const index_t groups = static_cast<index_t>(worst.size());
  const std::string cols_text = group == 1 ? "1 column" : num(group) + " columns";
  const std::string ragged = g.cols % group != 0 ? " (the last one narrower)" : "";
  const std::string verdict = excess == 0 ? "conflict-free" : "worst excess over ideal " + num(excess);
  std::string s = "column-read conflicts: ";
  if (all_equal(worst) && all_equal(ideal))
    s += "N = " + num(worst[0]) + " (ideal " + num(ideal[0]) + ")" +
         (groups == 1 ? " for the one group" : " in each of the " + num(groups) + " groups") + " of " + cols_text +
         ragged + ": " + verdict;
  else
    s += "N = " + list_or_range(worst) + " (ideal " + (all_equal(ideal) ? num(ideal[0]) : list_or_range(ideal)) +
         ") for the " + num(groups) + " groups of " + cols_text + ragged + ": " + verdict;
  s += "\n  (N = most distinct 4-byte words in one bank when " +
       (g.rows == 1 ? "the one row reads" : "all " + num(g.rows) + " rows read") + " the same " + cols_text + " (" +
       num(group * m.elem_bytes) + " B per row) at once; ideal = ceil(distinct words / " + num(m.banks) +
       " banks); no wave or phase model)";
  return s;
}

void print_layout(std::ostream& out, const layout_grid& g, const view_options& v) {
  out << "layout " << g.name << ": " << (g.about.empty() ? std::string() : g.about[0]) << '\n';
  for (std::size_t i = 1; i < g.about.size(); ++i) out << "  " << g.about[i] << '\n';
  out << "  top (" << g.row_name << ", " << g.col_name << ") in " << g.rows << " x " << g.cols << "; element space "
      << g.element_space << "; bijection onto [0, " << g.element_space << "): " << bijection_summary(g) << '\n';
  if (v.show_offsets) {
    out << "offsets:\n";
    print_grid(out, g, v.max_rows, v.max_cols, [](index_t o) { return o; });
  }
  if (v.show_banks) {
    const bank_model& m = v.banks;
    out << "banks: " << m.elem_bytes << " B elements, " << m.banks << " banks x 4 B; bank = (offset*" << m.elem_bytes
        << "/4) mod " << m.banks << (m.elem_bytes > 4 ? " (the bank of each element's first byte)" : "") << '\n';
    print_grid(out, g, v.max_rows, v.max_cols, [&](index_t o) { return m.bank_of(o); });
    out << column_read_summary(g, m, v.group) << '\n';
  }
}

}  // namespace tilesim::cli
