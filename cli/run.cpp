// tilesim/cli/run.cpp: see run.hpp.
#include "cli/run.hpp"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/args.hpp"
#include "cli/output_file.hpp"
#include "sim/programs/copy_run.hpp"
#include "sim/programs/gemm_tile_run.hpp"
#include "sim/report/program_report.hpp"
#include "sim/report/text_columns.hpp"

namespace tilesim::cli {

namespace {

constexpr std::int64_t max_side = 4096;

std::vector<option_spec> copy_options() {
  return {
      {"arch", "the machine: sm90 (wave 32), gfx90a, gfx942, gfx950 (wave 64)", 0, 0, 0,
       {"sm90", "gfx90a", "gfx942", "gfx950"}, "gfx942"},
      {"layout", "the LDS tile: row-major, padded, ck-xor (CK's XOR preshuffle), cute-swizzle", 0, 0, 0,
       {"row-major", "padded", "ck-xor", "cute-swizzle"}, "row-major"},
      {"read", "how the tile is read back from LDS: down-rows (consecutive lanes go down a column strip), same "
               "(the write pattern) or operand (a GEMM operand read: lane l at row l % R, 16-byte K vector l / R)",
       0, 0, 0, {"down-rows", "same", "operand"}, "down-rows"},
      {"lane-rows", "operand read: R, rows per lane group (32: MFMA 32x32x8 on wave 64; 16: ldmatrix.x4 on wave 32)",
       32, 1, 64},
      {"ck-order", "ck-xor: CK's unmerge order, 2025 (L, K0) or 2024 (K0, L)", 0, 0, 0, {"2025", "2024"}, "2025"},
      {"rows", "M: tile rows per workgroup", 64, 1, max_side},
      {"cols", "N: tile columns, contiguous in global memory", 32, 1, max_side},
      {"vector", "elements per access", 8, 1, 64},
      {"elem-bytes", "bytes per element: 1, 2 (fp16), 4 (fp32) or 8", 2, 1, 8},
      {"threads", "threads per workgroup", 256, 1, 1024},
      {"grid", "workgroups (each copies the next M rows)", 1, 1, 64},
      {"pad", "padded: elements added to each row, 0 = one vector", 0, 0, max_side},
      {"registers", "registers per thread of the compiled kernel, for the occupancy limit (0: unknown, no limit)", 0, 0,
       255},
  };
}

std::vector<option_spec> gemm_options() {
  return {
      {"arch", "the machine: sm90 (wave 32), gfx90a, gfx942, gfx950 (wave 64)", 0, 0, 0,
       {"sm90", "gfx90a", "gfx942", "gfx950"}, "gfx942"},
      {"layout", "the LDS tiles of A and B: row-major, padded, ck-xor (CK's XOR preshuffle)", 0, 0, 0,
       {"row-major", "padded", "ck-xor"}, "ck-xor"},
      {"m", "rows of C and A (a multiple of 64)", 64, 1, 1024},
      {"n", "columns of C, rows of B (a multiple of 64)", 64, 1, 1024},
      {"k", "the reduction length, A's and B's contiguous dim (a multiple of 32)", 64, 1, 1024},
      {"threads", "threads per workgroup", 256, 1, 1024},
      {"registers", "registers per thread of the compiled kernel, for the occupancy limit (0: unknown, no limit)", 0, 0,
       255},
  };
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

using sim::pad_left;
using sim::pad_right;

template <class T>
sim::run_result run_typed(const sim::launch& l, const programs::copy_params& p, bool& exact) {
  const std::vector<T> input = programs::copy_input<T>(programs::copy_elements(l, p));
  sim::run_result r = programs::run_copy<T>(l, p, input);
  exact = r.memory.template get<T>(p.output) == input;
  return r;
}

// The per-instruction table: what each instruction cost (LDS wavefronts, global sectors) and where its cycles
// went (means per instance: issue = arithmetic before it and its issue slot; LDS / global = waiting for data
// from earlier loads, its pipe's queue, service and latency), with each barrier's wait in program order.
void print_text(std::ostream& out, const sim::program_report& r) {
  out << pad_right("instruction", 16) << pad_right("space", 7) << pad_right("op", 6) << pad_left("B/lane", 6)
      << pad_left("inst", 6) << pad_left("wavefronts", 12) << pad_left("ideal", 7) << pad_left("N-way", 6)
      << pad_left("sectors", 9) << pad_left("ideal", 7) << pad_left("cycles", 9) << pad_left("issue", 8)
      << pad_left("LDS", 8) << pad_left("global", 8) << pad_left("barrier", 9) << "\n";
  std::size_t next_barrier = 0;
  auto barriers_until = [&](int interval) {
    for (; next_barrier < r.barriers.size() && r.barriers[next_barrier].interval < interval; ++next_barrier) {
      const sim::barrier_report& b = r.barriers[next_barrier];
      out << pad_right(b.label, 16) << pad_right("-", 7) << pad_right("-", 6) << pad_left("-", 6)
          << pad_left(std::to_string(b.instances), 6) << pad_left("-", 12) << pad_left("-", 7) << pad_left("-", 6)
          << pad_left("-", 9) << pad_left("-", 7) << pad_left(fixed(b.wait + b.issue_cycles, 1), 9)
          << pad_left(fixed(b.issue_cycles, 1), 8) << pad_left("-", 8) << pad_left("-", 8)
          << pad_left(fixed(b.wait, 1), 9) << "\n";
    }
  };
  for (const sim::instruction_report& i : r.instructions) {
    barriers_until(i.interval);
    const bool lds = i.space == sim::memory_space::lds;
    out << pad_right(i.label, 16) << pad_right(lds ? "lds" : "global", 7)
        << pad_right(i.kind == sim::access_kind::load ? "load" : "store", 6) << pad_left(std::to_string(i.width), 6)
        << pad_left(std::to_string(i.instances), 6) << pad_left(lds ? std::to_string(i.wavefronts) : "-", 12)
        << pad_left(lds ? std::to_string(i.ideal) : "-", 7) << pad_left(lds ? std::to_string(i.max_ways) : "-", 6)
        << pad_left(lds ? "-" : std::to_string(i.sectors), 9) << pad_left(lds ? "-" : std::to_string(i.ideal_sectors), 7)
        << pad_left(fixed(i.cycles, 1), 9) << pad_left(fixed(i.issue_cycles, 1), 8)
        << pad_left(fixed(i.lds_cycles, 1), 8) << pad_left(fixed(i.global_cycles, 1), 8) << pad_left("-", 9) << "\n";
  }
  barriers_until(1 << 30);
  out << "totals: LDS wavefronts " << r.wavefronts << " (ideal " << r.ideal << ", excess " << r.excess
      << "); global sectors " << r.sectors << " (ideal " << r.ideal_sectors << "); predicted cycles per workgroup "
      << fixed(r.cycles_per_workgroup, 0) << " (" << r.resident_workgroups << " per "
      << (r.arch == "sm90" ? "SM" : "CU") << ", limited by " << r.resident_limit << ")\n";
  out << "bottleneck: " << r.verdict << "\n";
  if (r.finding_count == 0) {
    out << "findings: none (no race, out-of-bounds access, misalignment or barrier mismatch)\n";
  } else {
    out << "findings: " << r.finding_count << "\n";
    for (const std::string& f : r.findings) out << "  " << f << "\n";
  }
}

// Runs f(); what the program or its driver rejects becomes a usage error naming `command` (exit code 2).
template <class F>
sim::run_result run_or_usage_error(const std::string& command, F&& f) {
  try {
    return f();
  } catch (const sim::run_error& e) {
    throw usage_error(command + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw usage_error(command + ": " + e.what());
  }
}

// Prices and times the run on `arch`, writes --svg (the heat map of the worst LDS instruction) before anything
// is printed, then prints the JSON, or `header` and the per-instruction table. Exit code 0, or 1 when !correct.
int report_run(const sim::arch_table& arch, const sim::run_result& r, int registers, bool correct,
               const std::string& header, bool json, const std::optional<std::string>& svg) {
  const sim::program_report report = sim::make_program_report(arch, r, registers);
  if (svg) {
    if (!report.has_worst_lds) throw usage_error("--svg: the run made no LDS instruction to draw");
    write_file_replacing(*svg, sim::bank_heat_map_svg(arch, report.worst_lds), "--svg");
  }
  if (json) {
    std::cout << sim::to_json(report);
  } else {
    std::cout << header;
    print_text(std::cout, report);
  }
  return correct ? 0 : 1;
}

int run_gemm_command(const std::vector<std::string>& args, bool json, const std::optional<std::string>& svg) {
  const options o = parse_options(args, gemm_options(), "run gemm");
  const sim::arch_table& arch = sim::arch_named(o.word("arch"));
  programs::gemm_params p{};
  p.m = o.integer("m");
  p.n = o.integer("n");
  p.k = o.integer("k");
  p.ck_banks = arch.banks;
  const std::string& layout = o.word("layout");
  p.layout = layout == "row-major" ? programs::gemm_lds_layout::row_major
             : layout == "padded"  ? programs::gemm_lds_layout::padded
                                   : programs::gemm_lds_layout::ck_xor;
  const std::vector<float> a = programs::gemm_input(p.m * p.k, 1), b = programs::gemm_input(p.n * p.k, 2);
  sim::launch l{};
  const sim::run_result r = run_or_usage_error("run gemm", [&] {
    l = programs::gemm_launch(p, static_cast<int>(o.integer("threads")), arch.wave_size);
    return programs::run_gemm(l, p, a, b);
  });
  const bool exact = r.memory.get<float>(p.c) == programs::reference_gemm(p, a, b);
  std::ostringstream header;
  header << "program gemm: C (" << p.m << " x " << p.n << ") = A (" << p.m << " x " << p.k << ") * B^T (B " << p.n
         << " x " << p.k << "), fp32, 64 x 64 block tiles, K steps of 32, LDS " << layout << "; " << l.block
         << " threads x " << l.grid << " workgroup(s) on " << arch.name << " (" << arch.description << ")\n"
         << "result: " << (exact ? "C == host reference" : "C DIFFERS FROM THE HOST REFERENCE") << " (" << p.m * p.n
         << " elements)\n";
  return report_run(arch, r, static_cast<int>(o.integer("registers")), exact, header.str(), json, svg);
}

}  // namespace

std::string run_help() {
  std::string s =
      "usage: tilesim run copy|gemm [--option VALUE]... [--json] [--svg FILE]\n"
      "\n"
      "Runs a built-in tile program for every lane of every wave on the simulator, checks its result, and\n"
      "prices each program instruction on the arch's models (LDS banks: wavefronts = serialized passes,\n"
      "ideal, N-way; global: 32-byte sectors) and times each workgroup (issue, shared LDS and global pipes,\n"
      "latency, barriers). One line per instruction, then totals, predicted cycles per workgroup and findings.\n"
      "\n"
      "programs:\n"
      "  copy  global -> LDS -> global through tile windows: CK's warp-raked load, a store into the chosen LDS\n"
      "        layout, a barrier, a read back (down-rows: consecutive lanes go down a column strip, where the\n"
      "        layout decides the bank conflicts), a store to the output (sim/programs/copy.hpp)\n"
      "  gemm  C = A * B^T in fp32, one workgroup per 64 x 64 block tile, K in steps of 32: A and B tiles\n"
      "        through warp-raked windows into LDS, barrier, per-warp fragment reads, FMAs, barrier; C through\n"
      "        a window (sim/programs/gemm_tile.hpp); the result is checked against a host GEMM\n"
      "\n"
      "options of copy:\n";
  for (const option_spec& o : copy_options()) s += "  --" + o.synopsis() + "\n      " + o.help + "\n";
  s += "options of gemm:\n";
  for (const option_spec& o : gemm_options()) s += "  --" + o.synopsis() + "\n      " + o.help + "\n";
  s += "both:\n"
       "  --json       print the report as one JSON object instead of text\n"
       "  --svg FILE   draw the bank heat map (phases x banks) of the LDS instruction with the most excess\n"
       "               wavefronts; written only when everything succeeded\n"
       "\n"
       "Columns: per instruction the waves that issued it, LDS wavefronts and global sectors (actual, ideal), and\n"
       "where its cycles went (means per instance: issue, LDS, global); each barrier's mean wait; a bottleneck\n"
       "verdict. Timing constants come from the arch tables (sim/arch): sm90's measured on an H200 (LDS) and an\n"
       "H100 (global memory), AMD's assumed; README.md's \"How accurate is it\" says how close they come.\n"
       "exit codes: 0 success (also with findings: they are printed); 1 the program's result is wrong,\n"
       "or an internal error; 2 bad command line or parameters the program rejects (one line on stderr).\n";
  return s;
}

int run_program_command(const std::vector<std::string>& all) {
  if (!all.empty() && (all[0] == "--help" || all[0] == "-h")) {
    std::cout << run_help();
    return 0;
  }
  if (all.empty()) throw usage_error("run: no program given (programs: copy, gemm; see tilesim run --help)");
  if (all[0] != "copy" && all[0] != "gemm")
    throw usage_error("run: unknown program '" + all[0] + "' (programs: copy, gemm)");
  std::vector<std::string> args(all.begin() + 1, all.end());
  const bool json = take_flag(args, "json");
  const std::optional<std::string> svg = take_text_option(args, "svg");
  if (all[0] == "gemm") return run_gemm_command(args, json, svg);
  const options o = parse_options(args, copy_options(), "run copy");

  const sim::arch_table& arch = sim::arch_named(o.word("arch"));
  programs::copy_params p{};
  p.rows = o.integer("rows");
  p.cols = o.integer("cols");
  p.vector = o.integer("vector");
  p.pad = o.integer("pad");
  p.ck_banks = arch.banks;
  const std::string& layout = o.word("layout");
  p.layout = layout == "padded"         ? programs::copy_lds_layout::padded
             : layout == "ck-xor"       ? programs::copy_lds_layout::ck_xor
             : layout == "cute-swizzle" ? programs::copy_lds_layout::cute_swizzle
                                        : programs::copy_lds_layout::row_major;
  const std::string& read = o.word("read");
  p.read = read == "same"      ? programs::copy_read_order::same_as_write
           : read == "operand" ? programs::copy_read_order::gemm_operand
                               : programs::copy_read_order::lanes_down_rows;
  p.lane_rows = o.integer("lane-rows");
  p.ck_order = o.word("ck-order") == "2024" ? ck_lds_order::k0_l_2024 : ck_lds_order::l_k0_2025;
  sim::launch l{};
  l.grid = static_cast<int>(o.integer("grid"));
  l.block = static_cast<int>(o.integer("threads"));
  l.wave_size = arch.wave_size;
  const std::int64_t bytes = o.integer("elem-bytes");
  bool exact = false;
  const sim::run_result r = run_or_usage_error("run copy", [&] {
    switch (bytes) {
      case 1: return run_typed<std::uint8_t>(l, p, exact);
      case 2: return run_typed<std::uint16_t>(l, p, exact);
      case 4: return run_typed<std::uint32_t>(l, p, exact);
      case 8: return run_typed<std::uint64_t>(l, p, exact);
      default: throw usage_error("option --elem-bytes must be 1, 2, 4 or 8 (got " + std::to_string(bytes) + ")");
    }
  });
  std::ostringstream header;
  header << "program copy: " << p.rows << " x " << p.cols << " tile of " << bytes << "-byte elements per workgroup, "
         << "global -> LDS (" << layout << ") -> global, read back " << o.word("read") << "; " << l.block
         << " threads x " << l.grid << " workgroup(s) on " << arch.name << " (" << arch.description << ")\n"
         << "result: " << (exact ? "output == input" : "OUTPUT DIFFERS FROM INPUT") << " ("
         << programs::copy_elements(l, p) << " elements)\n";
  return report_run(arch, r, static_cast<int>(o.integer("registers")), exact, header.str(), json, svg);
}

}  // namespace tilesim::cli
