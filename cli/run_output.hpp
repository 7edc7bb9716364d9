// tilesim/cli/run_output.hpp: how `tilesim run` and `tilesim merge` print a priced run.
//
// DEFINITION. print_run_report writes the report the way `tilesim run` always has: with --json the report's
// JSON object (sim::to_json), else the header lines (program, result) and the per-instruction table, the
// totals, the verdict and every finding; --svg FILE first draws the bank heat map of the LDS instruction with
// the most excess wavefronts. `tilesim merge` prints a merged report through the same function, so the two
// outputs of one run are equal byte for byte.
//
// EXAMPLE. print_run_report(arch, report, true, "program copy: ...\nresult: output == input (2048 elements)\n",
//                           false, std::nullopt) prints the `tilesim run copy` text of docs/commands.md and returns 0.
//
// INVARIANTS: nothing is printed when --svg cannot be written (usage_error, exit 2); the exit code is 0 when
// the result was right, 1 when not.
#pragma once

#include <optional>
#include <string>

#include "sim/arch/arch.hpp"
#include "sim/report/program_report.hpp"

namespace tilesim::cli {

// Writes --svg (when given), then the JSON or `header` and the table; returns 0 when `correct`, else 1.
int print_run_report(const sim::arch_table& arch, const sim::program_report& report, bool correct,
                     const std::string& header, bool json, const std::optional<std::string>& svg);

}  // namespace tilesim::cli
