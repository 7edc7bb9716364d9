// tilesim/sim/patterns/pattern_file.hpp: reading the pattern files of `tilesim bank` and `tilesim global`.
//
//   std::ifstream in("data/calibration/h200-smem-known.patterns");
//   pattern_reader reader(in, arch_named("sm90"), memory_space::lds);
//   wave_access access;
//   for (;;) {
//     const auto r = reader.next(access);               // storage of `access` is reused line after line
//     if (r == pattern_reader::result::end) break;
//     if (r == pattern_reader::result::error) std::cerr << reader.error().text() << '\n';  // "line 7: ..."
//     else use(access);                                 // access.label is the NAME
//   }
//
// FORMAT (exactly that of ../shared/hardware/h200-smem-known.patterns), one pattern per line:
//     NAME WIDTH OP OFF_0 ... OFF_{n-1}
//   NAME   any run of non-blank bytes (echoed in the output)
//   WIDTH  bytes per lane: 1, 2, 4, 8 or 16 (decimal)
//   OP     load | store
//   OFF_i  lane i's byte offset, unsigned 32-bit decimal (digits only, leading zeros allowed);
//          4294967295 marks an inactive lane (-> no_address); n is the arch's wave size (32 or 64)
// Fields are separated by spaces or tabs (a trailing '\r' is blank too). `#` starts a comment that runs to
// the end of the line; blank and comment-only lines are skipped. The last line needs no newline.
//
// ERRORS. A malformed line yields result::error with its 1-based line number and what is wrong, and the
// reader goes on with the next line. The messages, in the order they are checked along the line:
//   "line 3: width 12 is not one of 1, 2, 4, 8, 16"        "line 3: width 'x' is not one of 1, 2, 4, 8, 16"
//   "line 4: operation 'lod' is neither load nor store"
//   "line 5: expected NAME WIDTH OP and 32 offsets, found only 2 fields"
//   "line 6: lane 3: offset '12x' is not an unsigned decimal integer"
//   "line 6: lane 3: offset 4294967296 is out of range (at most 4294967295, which marks an inactive lane)"
//   "line 6: lane 3: offset 6 is not a multiple of the width 4"   (hardware requires natural alignment:
//                                                                    sm90 faults on a misaligned access)
//   "line 7: expected 32 offsets for sm90, found 31"       "line 8: control byte 0x01 in the line"
//   "line 9: longer than 65536 bytes"                      (the rest of that line is skipped unread)
//
// INVARIANTS: memory use is bounded (one 1 MiB buffer, lines over 64 KiB are skipped, never stored), so a
// file is never held whole; no input crashes or hangs the reader (it is fuzzed, fuzz_pattern_file.cpp);
// a pattern that is returned satisfies wave_access's invariants for the arch (wave size, width, aligned).
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/wave_access.hpp"

namespace tilesim::sim {

// The inactive-lane offset of the pattern format.
inline constexpr std::uint64_t inactive_offset = 4294967295u;

// Longest line the reader accepts.
inline constexpr std::size_t max_pattern_line_bytes = 65536;

struct pattern_error {
  std::int64_t line = 0;
  std::string message;  // "width 12 is not one of 1, 2, 4, 8, 16"
  // "line 3: width 12 is not one of 1, 2, 4, 8, 16"
  std::string text() const { return "line " + std::to_string(line) + ": " + message; }
};

enum class line_kind { pattern, blank, error };

// Parses one line (without its newline) into `out` (label, kind, width, addresses; `space` as given).
// Returns blank for blank/comment-only lines and error with `error` set to the message (no "line N: ").
// `out` may be partly overwritten when the line is malformed.
line_kind parse_pattern_line(std::string_view line, const arch_table& arch, memory_space space, wave_access& out,
                             std::string& error);

// Streams patterns out of an input stream, a bounded buffer at a time.
class pattern_reader {
 public:
  enum class result { pattern, error, end };

  // `max_line_bytes` (at least 1): longer lines are errors; the buffer holds 16 such lines (1 MiB by default).
  pattern_reader(std::istream& in, const arch_table& arch, memory_space space,
                 std::size_t max_line_bytes = max_pattern_line_bytes);

  // The next pattern (into `access`) or malformed line (see error()); end when the input is exhausted.
  result next(wave_access& access);

  // The malformed line last returned as result::error.
  const pattern_error& error() const { return error_; }
  // 1-based number of the line last returned (pattern or error).
  std::int64_t line_number() const { return line_; }
  // True when the stream failed (an I/O error rather than its end); the input read so far was answered.
  bool read_failed() const { return read_failed_; }

 private:
  bool next_line(std::string_view& line, bool& overlong);

  std::istream& in_;
  const arch_table& arch_;
  memory_space space_;
  std::size_t max_line_;
  std::size_t capacity_;
  std::unique_ptr<char[]> buffer_;  // not zeroed: only [begin_, end_) is ever read
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false, read_failed_ = false, discarding_ = false;
  std::int64_t line_ = 0;
  pattern_error error_;
  std::string message_;
};

}  // namespace tilesim::sim
