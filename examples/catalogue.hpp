// tilesim/examples/catalogue.hpp: every reference program's variants, run, priced and summed up in one table.
//
// DEFINITION. registered_examples() is the one list of example folders (their variants and, for the cross-check,
// their sm90 cases as points: examples/adapters/adapters.cpp reads it). all_variants() lists the variants of
// every example folder in that fixed order (lds-index-swap,
// cute-swizzle, morton, gemm, conv, synthesized, stencil, row-sums, fp16-transpose: the last three written from the
// README alone, issue 32). summarize(v, outcome) prices the outcome's run on v.arch
// (sim::make_program_report) and keeps what the main job's table shows:
//   example | variant | arch | LDS wavefronts ideal / actual | global sectors ideal / actual | cycles | check
// wavefronts and sectors are summed over every instruction of every wave and workgroup of the run; cycles
// are the predicted cycles of the median workgroup (sim/timing, sim/report).
//
// WORKED EXAMPLE. gemm "ck-xor, 32x32x8" on gfx942 summarizes as
//   gemm  ck-xor, 32x32x8  gfx942  4608 / 4608  2560 / 2560  6836  C == Eigen (max |err| 0)
// (the LDS reads and writes of four workgroups over eight K steps, all conflict-free).
//
// INVARIANTS: ideal <= actual in both columns; a row's numbers depend only on the variant (runs are
// deterministic), so examples/catalogue.test.cpp pins every row's wavefronts.
#pragma once

#include <string>
#include <vector>

#include "examples/example.hpp"
#include "sim/report/program_report.hpp"

namespace tilesim::examples {

// One example folder as the catalogue knows it: its variants (rows of the main job's table) and, where
// gpu/crosscheck's catalogue runs its sm90 cases on a GPU, those cases as cross-check points (nullptr where it
// does not: a program with its own NAME-crosscheck, e.g. examples/stencil).
struct example_entry {
  std::vector<variant> (*variants)();
  std::vector<gpu::crosscheck_point> (*crosscheck_points)();
};

// THE list of examples, in table order: all_variants() and the cross-check's example points both read it.
const std::vector<example_entry>& registered_examples();

// Every variant of every example, in table order.
std::vector<variant> all_variants();

struct summary_row {
  std::string example, variant, arch;
  long long wavefronts = 0, ideal_wavefronts = 0;  // LDS
  long long sectors = 0, ideal_sectors = 0;        // global
  double cycles = 0;                               // predicted, per workgroup (the median)
  bool passed = false;
  std::string check;
  sim::program_report report;  // the full pricing (the heat map's instruction is report.worst_lds)
};

// Prices `o` on v.arch; a run with findings (races, bounds errors) fails whatever its check said.
summary_row summarize(const variant& v, const outcome& o);

// The rows as an aligned text table with a header line.
std::string summary_table(const std::vector<summary_row>& rows);

// "cute-swizzle_Swizzle-3-3-3-8x64_sm90.svg": a file name for the row's heat map (letters, digits, - _ .).
std::string heat_map_file_name(const summary_row& row);

}  // namespace tilesim::examples
