// tilesim/gpu/crosscheck/source_counters.hpp: Nsight Compute's per-SASS-instruction counters, read from its source page.
//
// DEFINITION. Nsight Compute's SourceCounters section counts, for every SASS instruction of a profiled launch,
// how often warps executed it and what it cost in the memory pipes. Recorded with
//   ncu --section SourceCounters --kernel-name K --launch-count 1 -o REP COMMAND
//   ncu -i REP.ncu-rep --page source --csv --print-source sass > REP.csv
// the CSV has one row per SASS instruction. read_source_counters keeps per row (columns found by header name):
//   address     "Address" (hex or decimal)
//   sass        "Source": the instruction's text, e.g. "LDS.128 R4, [R2+0x10]" (a predicate "@P0 " is allowed)
//   executed    "Instructions Executed": warp-level executions, predicated off or not
//   predicated_off  "Predicated-On Thread Instructions Executed" is 0 while executed is not: every execution had
//               every lane predicated off (a loop's guarded prologue, say), so it touched no memory; the
//               simulator has no instance of it (a wave instruction needs an active lane)
//   wavefronts  "L1 Wavefronts Shared" (and "... Ideal"): shared-memory wavefronts, summed over executions
//   sectors     "L2 Theoretical Sectors Global" (and "... Excessive"): 32-byte global sectors, summed
// and the memory class its opcode names (classify_sass):
//   LDS / STS [.U8 .S8 .U16 .S16 .64 .128]   lds load / store of 1, 2, 4 (no suffix), 8, 16 bytes per lane
//   LDSM.16.M88.N                            lds load of ldmatrix rows, 16 bytes (the simulator's matrix_access load)
//   LDG / STG [.E ...]                       global load / store, width from the same suffixes
//   LDGSTS[.E.BYPASS].128                    a cp.async, global to LDS (the simulator's async_copy)
//   ATOMS / ATOMG / ATOM / RED               atomics (op atomic)
// Any other instruction (arithmetic, branches, BAR) has no class (space none).
//
// WORKED EXAMPLE. In data/recordings/h100-user-program-source-0.csv (column sums, row-major, 4 blocks x 8 warps) the
// row "0x7f6ead7ad0d0","      LDS R6, [R4]",...,Instructions Executed 128,...,L1 Wavefronts Shared 512 reads as
// {0x7f6ead7ad0d0, "LDS R6, [R4]", class lds load 4 B, executed 128, wavefronts 512}: 4 wavefronts per
// instruction, one of the 4 LDS of the "column read" loop (4-way); "@P2 LDS R8, [R4]" with executed 32 and 0
// predicated-on threads is predicated_off. Nsight's own "L1 Conflicts Shared N-Way" column is 4 on that row and
// also 4 on a conflict-free STS.128 (128 wavefronts, 32 executions): it is wavefronts per instruction, what
// `tilesim run` prints as wf/inst, not tilesim's N-way.
//
// INVARIANTS: a missing Address, Source or Instructions Executed column is an error naming it and the columns
// present; a missing cost column ("L1 Wavefronts Shared", "L2 Theoretical Sectors Global", their Ideal /
// Excessive) reads 0 on every row: Nsight leaves them out for a kernel with no shared-memory (or no global)
// accesses, such as a row reduction in registers, which then has nothing of that kind to count; numbers with
// thousands separators and empty cells (0) read exactly; a CSV that holds several launches' pages (several
// header lines) is refused: export one launch. No vendor header: ncu runs as a program (ncu_program(), ncu.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilesim::gpu {

enum class sass_space { none, lds, global };
enum class sass_op { load, store, atomic };

// What memory instruction a SASS opcode is: space, operation, bytes per lane, ldmatrix or not.
struct sass_class {
  sass_space space = sass_space::none;
  sass_op op = sass_op::load;
  int width = 0;
  bool matrix = false;
  bool async_copy = false;  // LDGSTS: a cp.async (global -> LDS), "global cp.async 16 B"
  bool operator==(const sass_class&) const = default;
  // "lds load 16 B", "global store 4 B", "lds ldmatrix 16 B"; "-" for none.
  std::string text() const;
};

struct sass_row {
  std::uint64_t address = 0;
  std::string sass;
  sass_class cls;
  long long executed = 0;
  bool predicated_off = false;
  long long threads_on = -1;  // "Predicated-On Thread Instructions Executed" (-1: not on the page)
  long long wavefronts = 0, wavefronts_ideal = 0;
  long long sectors = 0, sectors_excessive = 0;
  std::string program_line;  // "column_sums.hpp:88" once a SASS listing with line info is attached (sass_lines.hpp)
};

// The class of one SASS instruction's text: classify_sass("@!P0 LDS.128 R4, [R2]") == {lds, load, 16, false}.
sass_class classify_sass(const std::string& sass);

// The rows of an `ncu --page source --csv --print-source sass` text; `origin` names it in errors.
std::vector<sass_row> parse_source_csv(const std::string& text, const std::string& origin);

// A saved source page: PATH.csv as above, or a report PATH.ncu-rep exported through `ncu -i` (needs ncu).
std::vector<sass_row> read_source_counters(const std::string& path);

// Live: runs COMMAND under ncu's SourceCounters section for the one launch `filter` selects ("--kernel-name
// regex:user_kernel --launch-count 1"), keeps BASE.ncu-rep and BASE.csv, and returns the rows.
std::vector<sass_row> measure_source_counters(const std::string& filter, const std::string& command,
                                              const std::string& env_prefix, const std::string& base);

}  // namespace tilesim::gpu
