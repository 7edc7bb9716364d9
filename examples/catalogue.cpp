// tilesim/examples/catalogue.cpp: see catalogue.hpp.
#include "examples/catalogue.hpp"

#include <algorithm>
#include <cstdio>

#include "examples/conv/conv_variants.hpp"
#include "examples/cute_swizzle/cute_swizzle_variants.hpp"
#include "examples/fp16_transpose/fp16_transpose_variants.hpp"
#include "examples/gemm/gemm_variants.hpp"
#include "examples/gemm/mma_gemm_variants.hpp"
#include "examples/lds_index_swap/lds_index_swap_variants.hpp"
#include "examples/morton/morton_variants.hpp"
#include "examples/row_sums/row_sums_variants.hpp"
#include "examples/stencil/stencil_variants.hpp"
#include "examples/synthesized/synthesized_variants.hpp"
#include "gpu/crosscheck/crosscheck.hpp"  // the cross-check points registered_examples() names
#include "sim/report/text_columns.hpp"

namespace tilesim::examples {

const std::vector<example_entry>& registered_examples() {
  static const std::vector<example_entry> all = {
      {lds_index_swap_variants, lds_index_swap_crosscheck_points},
      {cute_swizzle_variants, cute_swizzle_crosscheck_points},
      {morton_variants, morton_crosscheck_points},
      {gemm_variants, gemm_crosscheck_points},
      {mma_gemm_variants, mma_gemm_crosscheck_points},
      {conv_variants, conv_crosscheck_points},
      {synthesized_variants, synthesized_crosscheck_points},
      {stencil_variants, nullptr},         // stencil-crosscheck (gpu/user)
      {row_sums_variants, nullptr},        // row-sums-crosscheck
      {fp16_transpose_variants, nullptr},  // fp16-transpose-crosscheck
  };
  return all;
}

std::vector<variant> all_variants() {
  std::vector<variant> all;
  for (const example_entry& e : registered_examples()) {
    const std::vector<variant> v = e.variants();
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

summary_row summarize(const variant& v, const outcome& o) {
  summary_row r;
  r.example = v.example;
  r.variant = v.name;
  r.arch = v.arch;
  r.report = sim::make_program_report(sim::arch_named(v.arch), o.run);
  r.wavefronts = r.report.wavefronts;
  r.ideal_wavefronts = r.report.ideal;
  r.sectors = r.report.sectors;
  r.ideal_sectors = r.report.ideal_sectors;
  r.cycles = r.report.cycles_per_workgroup;
  r.passed = o.passed && o.run.clean();
  r.check = o.run.clean() ? o.check : o.check + "; findings: " + std::to_string(r.report.finding_count);
  return r;
}

namespace {

using sim::pad_left;
using sim::pad_right;

// "512 / 1024", or "-" when the run has none of that traffic.
std::string ratio(long long ideal, long long actual) {
  return actual == 0 && ideal == 0 ? "-" : std::to_string(ideal) + " / " + std::to_string(actual);
}

}  // namespace

std::string summary_table(const std::vector<summary_row>& rows) {
  std::vector<std::vector<std::string>> cells = {
      {"example", "variant", "arch", "LDS wavefronts ideal / actual", "sectors ideal / actual", "cycles", "check"}};
  for (const summary_row& r : rows) {
    char cycles[32];
    std::snprintf(cycles, sizeof cycles, "%.0f", r.cycles);
    cells.push_back({r.example, r.variant, r.arch, ratio(r.ideal_wavefronts, r.wavefronts),
                     ratio(r.ideal_sectors, r.sectors), cycles, (r.passed ? "pass: " : "FAIL: ") + r.check});
  }
  std::vector<std::size_t> width(cells[0].size(), 0);
  for (const auto& row : cells)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  for (const auto& row : cells) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool numeric = c >= 3 && c <= 5;
      line += c == 0 ? "" : "  ";
      line += c + 1 == row.size() ? row[c] : numeric ? pad_left(row[c], width[c]) : pad_right(row[c], width[c]);
    }
    out += line + "\n";
  }
  return out;
}

std::string heat_map_file_name(const summary_row& row) {
  std::string name = row.example + "_" + row.variant + "_" + row.arch;
  std::string out;
  for (char ch : name) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                      ch == '_' || ch == '.';
    const char c = keep ? ch : '-';
    if (c == '-' && !out.empty() && out.back() == '-') continue;
    out += c;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out + ".svg";
}

}  // namespace tilesim::examples
