// tilesim/gpu/crosscheck/sass_lines.hpp: which line of the program each SASS instruction came from.
//
// DEFINITION. A kernel built with -lineinfo and disassembled with `nvdisasm -g -gi KERNEL.cubin` lists every SASS
// instruction (`/*0ed0*/  LDS R6, [R4] ;`, offset from its function's start) after the chain of source positions
// that issued it, innermost first: `//## File "A", line N inlined at "B", line M`, one line per inlined call.
// read_sass_lines keeps, per function (`.text.NAME`) and instruction: the offset, the text (whitespace collapsed,
// the trailing ";" dropped) and the PROGRAM LINE: the innermost position whose file is not tilesim's own machinery
// (no path component spec/, sim/engine/ or gpu/: descriptors, windows, the context, vector access and the kernel
// wrapper), printed as "file.hpp:N". attach_source_lines gives each row of a source page (source_counters.hpp)
// its program line: it picks the function whose instructions have the same text at the same offsets (offset = a
// row's address minus the page's lowest address) for every memory instruction of the page.
//
// WORKED EXAMPLE. data/recordings/h100-user-program.sass (the column-sums kernel, -lineinfo): at 0x0ed0 "LDS R6,
// [R4]" after the chain vector_access.hpp:52, device_context.hpp:137, ..., program.hpp:103, column_sums.hpp:88,
// column_sums.hpp:64, ...: its program line is column_sums.hpp:88, `sum += load_element(...)`, the column read.
//
// INVARIANTS: -lineinfo does not change the code nvcc generates, so the SASS of a -lineinfo build lines up with
// the profiled binary's; when no function matches every memory instruction of the page (another build), the
// attach is refused with an error naming the first instruction that differs, never guessed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/crosscheck/source_counters.hpp"

namespace tilesim::gpu {

struct sass_instruction {
  std::uint64_t offset = 0;
  std::string text;          // "LDS R6, [R4]"
  std::string program_line;  // "column_sums.hpp:88"; "" without line info
};

struct sass_function {
  std::string name;  // the mangled name of its .text section
  std::vector<sass_instruction> instructions;
};

// The functions of an `nvdisasm -g -gi` listing (see the top); a file with none is an error naming it.
std::vector<sass_function> read_sass_lines(const std::string& path);

// A SASS text as read_sass_lines keeps it: "@P1   BAR.SYNC 0x0 ;" -> "@P1 BAR.SYNC 0x0".
std::string normalized_sass(const std::string& text);

// Sets each row's program_line from the function that matches the page (see the top); `origin` names the listing.
void attach_source_lines(std::vector<sass_row>& rows, const std::vector<sass_function>& functions,
                         const std::string& origin);

}  // namespace tilesim::gpu
