// tilesim/cli/bank.cpp: `tilesim bank` / `tilesim global` (bank.hpp): arguments, the pricing loop, output.
#include "cli/bank.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/args.hpp"
#include "sim/arch/arch.hpp"
#include "sim/models/global_coalescing.hpp"
#include "sim/models/lds_banks.hpp"
#include "sim/models/lds_timing.hpp"
#include "sim/patterns/pattern_file.hpp"

namespace tilesim::cli {
namespace {

using namespace tilesim::sim;

struct bank_args {
  const arch_table* arch = nullptr;
  bool detail = false;
  std::string file = "-";
};

// --arch ARCH | --arch=ARCH, --detail, --help, at most one FILE or "-" (util/args.hpp does the options).
bank_args parse_bank_args(std::vector<std::string> args, const std::string& command) {
  bank_args a;
  const std::optional<std::string> arch = take_text_option(args, "arch", {command, arch_names()});
  a.detail = take_flag(args, "detail");
  reject_unknown_options(args, command, "--arch ARCH, --detail, --help");
  if (args.size() > 1)
    throw usage_error(command + " reads one FILE (or - for stdin), got '" + args[0] + "' and '" + args[1] + "'");
  if (!args.empty()) a.file = args[0];
  if (!arch) throw usage_error(command + " needs --arch ARCH (one of: " + arch_names() + ")");
  try {
    a.arch = &arch_named(*arch);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  return a;
}

// Appends the decimal digits of v: 32 -> "32".
void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// Appends v with three decimals: 1.7343 -> "1.734".
void append_fixed3(std::string& out, double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  out.append(buf, r.ptr);
}

template <class Line>
int price_file(const std::vector<std::string>& args, const std::string& command, memory_space space, Line&& line) {
  const bank_args a = parse_bank_args(args, command);
  std::ifstream file;
  std::istream* in = &std::cin;
  if (a.file != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(a.file, ec)) throw usage_error("cannot read '" + a.file + "': it is a directory");
    file.open(a.file, std::ios::binary);
    if (!file) throw usage_error("cannot open '" + a.file + "': " + std::strerror(errno));
    in = &file;
  }
  pattern_reader reader(*in, *a.arch, space);
  wave_access access;
  std::string out;
  out.reserve(std::size_t{1} << 17);
  // Error lines are gathered like the answers and written in blocks: one unbuffered write per malformed line
  // (three, as it was) made a bad line cost ~16 us, 13x a good one (issue 38).
  std::string errors;
  auto flush_errors = [&errors] {
    std::cerr.write(errors.data(), static_cast<std::streamsize>(errors.size()));
    errors.clear();
  };
  bool malformed = false;
  for (pattern_reader::result r; (r = reader.next(access)) != pattern_reader::result::end;) {
    if (r == pattern_reader::result::error) {
      errors += "tilesim: error: " + reader.error().text() + '\n';
      malformed = true;
      if (errors.size() >= (std::size_t{1} << 14)) flush_errors();
      continue;
    }
    line(out, *a.arch, access, a.detail);
    if (out.size() >= (std::size_t{1} << 16)) {
      std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
      flush_errors();
    }
  }
  std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
  flush_errors();
  // std::cin reads through stdio: a read error there (stdin closed, a directory) shows in ferror, not in badbit.
  const int read_errno = errno;
  if (reader.read_failed() || (in == &std::cin && std::ferror(stdin)))
    throw usage_error((a.file == "-" ? std::string("reading stdin") : "reading " + quoted(a.file, 256)) + " failed" +
                      (read_errno ? std::string(": ") + std::strerror(read_errno) : std::string()));
  return malformed ? 2 : 0;
}

const char* const format_help =
    "input: one pattern per line, NAME WIDTH OP OFF_0 ... OFF_{n-1}\n"
    "  NAME   any word without blanks; WIDTH bytes per lane: 1, 2, 4, 8 or 16; OP load or store\n"
    "  OFF_i  lane i's byte offset, unsigned 32-bit decimal, a multiple of WIDTH; 4294967295 = inactive lane\n"
    "  n      the wave size: 32 for sm90, 64 for gfx90a, gfx942, gfx950\n"
    "  '#' starts a comment; blank lines are skipped; FILE - (or none) reads stdin\n"
    "  (the format of data/calibration/h200-smem-known.patterns)\n";

const char* const error_help =
    "errors: a malformed line prints \"tilesim: error: line N: what is wrong\" on stderr; the other lines are\n"
    "  still answered and the exit code is 2 at the end. A missing or unknown --arch, an unknown option or an\n"
    "  unreadable file prints one error line and exits with 2 before any output. Exit code 0: every line\n"
    "  answered.\n";

}  // namespace

void print_bank_help(std::ostream& out) {
  out << "usage: tilesim bank --arch ARCH [--detail] [FILE|-]\n"
         "\n"
         "Prices each LDS (shared-memory) access of a pattern file, one output line per pattern:\n"
         "  NAME WAVEFRONTS CYCLES\n"
         "WAVEFRONTS  serialized bank passes of that one instruction: each phase (the lanes the hardware serves\n"
         "            together) costs the most distinct 4-byte words any one bank holds for it; lanes sharing a\n"
         "            word are one broadcast. On sm90 this is what Nsight Compute counts per instruction as\n"
         "            smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.\n"
         "CYCLES      predicted steady-state cycles per wave-level access when 32 waves of one block repeat it\n"
         "            back to back (sm90: fitted to H200 measurements; AMD: assumed, see sim/arch/).\n"
         "--detail    appends ideal=, excess= (wavefronts - ideal: what conflicts add), max_ways= (largest\n"
         "            N-way), passes=, bank_conflicts=, pipe_slots= (the hardware's view; see\n"
         "            sim/models/lds_banks.hpp)\n"
         "ARCH        "
      << sim::arch_names()
      << "\n"
         "\n"
      << format_help << "\n"
      << error_help
      << "\nThe sm90 model reproduces every line of data/calibration/h200-smem-known.truth.tsv (46 patterns\n"
         "measured on an H200) and 100 more measured patterns (data/calibration/README.md).\n";
}

void print_global_help(std::ostream& out) {
  out << "usage: tilesim global --arch ARCH [--detail] [FILE|-]\n"
         "\n"
         "Prices each global-memory access of a pattern file (offsets are bytes from a 256-byte-aligned base),\n"
         "one output line per pattern:\n"
         "  NAME SECTORS\n"
         "SECTORS   distinct 32-byte sectors the active lanes' bytes [addr, addr+WIDTH) touch; on sm90 what\n"
         "          Nsight Compute counts per instruction as l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}\n"
         "          (AMD: the same count, assumed)\n"
         "--detail  appends lines= (128-byte lines), ideal_sectors=, ideal_lines= (the fewest that could hold\n"
         "          the distinct bytes), bytes=\n"
         "ARCH      "
      << sim::arch_names()
      << "\n"
         "\n"
      << format_help << "\n"
      << error_help;
}

int run_bank(const std::vector<std::string>& args) {
  for (const std::string& s : args)
    if (s == "--help" || s == "-h") {
      print_bank_help(std::cout);
      return 0;
    }
  return price_file(args, "bank", memory_space::lds,
                    [](std::string& out, const arch_table& arch, const wave_access& a, bool detail) {
                      const lds_cost c = lds_instruction_cost(arch, a);
                      out += a.label;
                      out += ' ';
                      append_int(out, c.wavefronts);
                      out += ' ';
                      append_fixed3(out, steady_cycles(arch, a, c));
                      if (detail) {
                        for (const auto& [key, value] :
                             {std::pair{" ideal=", c.ideal}, {" excess=", c.excess}, {" max_ways=", c.max_ways},
                              {" passes=", c.passes}, {" bank_conflicts=", c.bank_conflicts},
                              {" pipe_slots=", c.pipe_slots}}) {
                          out += key;
                          append_int(out, value);
                        }
                      }
                      out += '\n';
                    });
}

int run_global(const std::vector<std::string>& args) {
  for (const std::string& s : args)
    if (s == "--help" || s == "-h") {
      print_global_help(std::cout);
      return 0;
    }
  return price_file(args, "global", memory_space::global,
                    [](std::string& out, const arch_table& arch, const wave_access& a, bool detail) {
                      const global_cost g = global_instruction_cost(arch, a);
                      out += a.label;
                      out += ' ';
                      append_int(out, g.sectors);
                      if (detail) {
                        for (const auto& [key, value] :
                             {std::pair<const char*, std::int64_t>{" lines=", g.lines},
                              {" ideal_sectors=", g.ideal_sectors},
                              {" ideal_lines=", g.ideal_lines},
                              {" bytes=", g.bytes}}) {
                          out += key;
                          append_int(out, value);
                        }
                      }
                      out += '\n';
                    });
}

}  // namespace tilesim::cli
