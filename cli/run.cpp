// tilesim/cli/run.cpp: see run.hpp.
#include "cli/run.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "util/args.hpp"
#include "cli/run_output.hpp"
#include "cli/run_stream.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/runs/copy_run.hpp"
#include "sim/runs/gemm_tile_run.hpp"
#include "sim/pricing/stream_report.hpp"

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
      {"m", "rows of C and A (a multiple of 64)", 64, 1, max_side},
      {"n", "columns of C, rows of B (a multiple of 64)", 64, 1, max_side},
      {"k", "the reduction length, A's and B's contiguous dim (a multiple of 32)", 64, 1, max_side},
      {"threads", "threads per workgroup", 256, 1, 1024},
      {"registers", "registers per thread of the compiled kernel, for the occupancy limit (0: unknown, no limit)", 0, 0,
       255},
  };
}

// Copies `input` through copy_tile<T> (the host side of programs::run_copy, streamed) and checks the output.
template <class T>
sim::simulation run_typed(const sim::arch_table& arch, const sim::launch& l, programs::copy_params p,
                          const sim::simulate_options& so, bool whole, result_check& check) {
  const std::vector<T> input = programs::copy_input<T>(programs::copy_elements(l, p));
  sim::global_memory mem;
  p.input = mem.add<T>("in", input);
  p.output = mem.add<T>("out", static_cast<index_t>(input.size()), static_cast<T>(-1));
  sim::simulation s = sim::simulate(arch, l, std::move(mem), [&p](sim::thread_context& ctx) { programs::copy_tile<T>(ctx, p); }, so);
  check = check_output<T>(s, p.output, input, whole);
  return s;
}

// programs::reference_gemm's products, its rows on `jobs` threads and each dot product in four running sums:
// gemm_input's operands are integers in [-2, 2], so every partial sum is an exact integer in any order and C is
// bit for bit reference_gemm's (its header says why).
// `need` (when given) marks the elements of C to compute; the others stay 0 (a sampled or sliced run checks only
// what its workgroups wrote, so its host reference costs what they wrote, not m*n*k).
std::vector<float> reference_gemm(const programs::gemm_params& p, const std::vector<float>& a, const std::vector<float>& b,
                                  int jobs, const std::vector<char>* need = nullptr) {
  std::vector<float> c(static_cast<std::size_t>(p.m * p.n));
  const index_t workers = std::clamp<index_t>(jobs > 0 ? jobs : sim::usable_cores(), 1, p.m);
  {
    std::vector<std::jthread> threads;
    for (index_t w = 0; w < workers; ++w)
      threads.emplace_back([&, w] {
        for (index_t i = w; i < p.m; i += workers)
          for (index_t j = 0; j < p.n; ++j) {
            if (need && !(*need)[static_cast<std::size_t>(i * p.n + j)]) continue;
            const float* x = a.data() + i * p.k;
            const float* y = b.data() + j * p.k;
            double s[4] = {0, 0, 0, 0};
            index_t kk = 0;
            for (; kk + 4 <= p.k; kk += 4)
              for (int u = 0; u < 4; ++u) s[u] += static_cast<double>(x[kk + u]) * y[kk + u];
            for (; kk < p.k; ++kk) s[0] += static_cast<double>(x[kk]) * y[kk];
            c[static_cast<std::size_t>(i * p.n + j)] = static_cast<float>((s[0] + s[1]) + (s[2] + s[3]));
          }
      });
  }
  return c;
}

// Runs f(); what the program or its driver rejects becomes a usage error naming `command` (exit code 2).
template <class F>
auto run_or_usage_error(const std::string& command, F&& f) {
  try {
    return f();
  } catch (const sim::run_error& e) {
    throw usage_error(command + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw usage_error(command + ": " + e.what());
  }
}

int run_gemm_command(std::vector<std::string> args, bool json, const std::optional<std::string>& svg) {
  const host_options h = take_host_options(args);
  const std::vector<option_spec> specs = gemm_options();
  const options o = parse_options(args, specs, "run gemm");
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
  const int registers = static_cast<int>(o.integer("registers"));
  const std::vector<float> a = programs::gemm_input(p.m * p.k, 1), b = programs::gemm_input(p.n * p.k, 2);
  sim::launch l{};
  const sim::simulation s = run_or_usage_error("run gemm", [&] {
    l = programs::gemm_launch(p, static_cast<int>(o.integer("threads")), arch.wave_size);
    sim::apply_guard_rules(arch, l);
    // For --sample: a block tile in the first or last block row (+1) or column (+2) is an edge tile.
    const index_t rows = p.m / p.m_per_block, cols = p.n / p.n_per_block;
    const sim::simulate_options so = simulate_options_for(h, l.grid, registers, [rows, cols](int b) {
      const index_t r = b / cols, c = b % cols;
      return (r == 0 || r == rows - 1 ? 1 : 0) + (c == 0 || c == cols - 1 ? 2 : 0);
    });
    sim::global_memory mem;  // programs::run_gemm's buffers
    p.a = mem.add<float>("a", a);
    p.b = mem.add<float>("b", b);
    p.c = mem.add<float>("c", p.m * p.n, std::numeric_limits<float>::quiet_NaN());
    return sim::simulate(arch, l, std::move(mem), [&p](sim::thread_context& ctx) { programs::gemm_tile(ctx, p); }, so);
  });
  // A whole unsampled run checks every element; otherwise only the ones its workgroups wrote need a reference.
  std::vector<char> need;
  if (h.workgroups || s.sample) {
    need.assign(static_cast<std::size_t>(p.m * p.n), 0);
    const sim::address_t base = s.memory.info(p.c).base, end = base + sizeof(float) * need.size();
    for (const auto& [lo, hi] : s.touches.written()) {  // the elements check_output compares, the same way
      if (hi <= base || lo >= end) continue;
      for (sim::address_t i = (std::max(lo, base) - base) / sizeof(float); i < (std::min(hi, end) - base + sizeof(float) - 1) / sizeof(float); ++i)
        need[static_cast<std::size_t>(i)] = 1;
    }
  }
  const result_check check =
      check_output<float>(s, p.c, reference_gemm(p, a, b, h.jobs, need.empty() ? nullptr : &need), !h.workgroups);
  std::ostringstream line;
  line << "program gemm: C (" << p.m << " x " << p.n << ") = A (" << p.m << " x " << p.k << ") * B^T (B " << p.n
       << " x " << p.k << "), fp32, 64 x 64 block tiles, K steps of 32, LDS " << layout << "; " << l.block
       << " threads x " << l.grid << " workgroup(s) on " << arch.name << " (" << arch.description << ")";
  const run_description d{command_line("gemm", specs, o), line.str(), "C == host reference",
                          "C DIFFERS FROM THE HOST REFERENCE"};
  return print_simulation(arch, l, registers, s, d, check, json, svg, h);
}

}  // namespace

std::string run_help() {
  std::string s =
      "usage: tilesim run copy|gemm [--option VALUE]... [--jobs N] [--workgroups A:B | --sample K] [--json] [--svg FILE]\n"
      "\n"
      "Runs a built-in tile program for every lane of every wave on the simulator, checks its result, and\n"
      "prices each program instruction on the arch's models (LDS banks: wavefronts = serialized passes,\n"
      "ideal, N-way; global: 32-byte sectors) and times each workgroup (issue, shared LDS and global pipes,\n"
      "latency, barriers). One line per instruction, then totals, predicted cycles per workgroup and findings.\n"
      "\n"
      "programs:\n"
      "  copy  global -> LDS -> global through tile windows: CK's warp-raked load, a store into the chosen LDS\n"
      "        layout, a barrier, a read back (down-rows: consecutive lanes go down a column strip, where the\n"
      "        layout decides the bank conflicts), a store to the output (kernel/copy/copy.hpp)\n"
      "  gemm  C = A * B^T in fp32, one workgroup per 64 x 64 block tile, K in steps of 32: A and B tiles\n"
      "        through warp-raked windows into LDS, barrier, per-warp fragment reads, FMAs, barrier; C through\n"
      "        a window (kernel/gemm_tile/gemm_tile.hpp); the result is checked against a host GEMM\n"
      "\n"
      "options of copy:\n";
  for (const option_spec& o : copy_options()) s += "  " + o.synopsis() + "\n      " + o.help + "\n";
  s += "options of gemm:\n";
  for (const option_spec& o : gemm_options()) s += "  " + o.synopsis() + "\n      " + o.help + "\n";
  s += "both:\n"
       "  --json       print the report as one JSON object instead of text\n"
       "  --svg FILE   draw the bank heat map (phases x banks) of the LDS instruction with the most excess\n"
       "               wavefronts; written only when everything succeeded\n";
  s += host_options_help();
  s += "\n"
       "Workgroups run on every core and are priced as each SM's set of them finishes; memory holds the\n"
       "workgroups in flight, not the grid. tilesim merge PARTIAL.json... joins --workgroups slices.\n"
       "Columns: per instruction the waves that issued it (inst), LDS wavefronts (actual, ideal), N-way (the most\n"
       "distinct 4-byte words one bank serves in one phase of one instance, the worst instance; 1 = conflict-free),\n"
       "wf/inst (wavefronts / inst: the sum over the instruction's phases; on sm90 what Nsight Compute's source\n"
       "view shows per SASS instruction as L1 Wavefronts Shared / Instructions Executed and as its \"L1 Conflicts\n"
       "Shared N-Way\": a conflict-free STS.128 is 1-way here and 4 there), global sectors (actual, ideal), and\n"
       "where its cycles went (means per instance: issue, LDS, global); each barrier's mean wait; a bottleneck\n"
       "verdict. Timing constants come from the arch tables (sim/arch): sm90's measured on an H200 (LDS) and an\n"
       "H100 (global memory), AMD's assumed; docs/accuracy.md says how close they come.\n"
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
  const host_options h = take_host_options(args);
  const std::vector<option_spec> specs = copy_options();
  const options o = parse_options(args, specs, "run copy");

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
  sim::apply_guard_rules(arch, l);  // wave size and guard rules
  const int registers = static_cast<int>(o.integer("registers"));
  const std::int64_t bytes = o.integer("elem-bytes");
  // For --sample: the first and the last workgroup are edges of the copied rows.
  const sim::simulate_options so =
      simulate_options_for(h, l.grid, registers, [last = l.grid - 1](int b) { return b == 0 ? 1 : b == last ? 2 : 0; });
  const bool whole = !h.workgroups;
  result_check check;
  const sim::simulation s = run_or_usage_error("run copy", [&] {
    switch (bytes) {
      case 1: return run_typed<std::uint8_t>(arch, l, p, so, whole, check);
      case 2: return run_typed<std::uint16_t>(arch, l, p, so, whole, check);
      case 4: return run_typed<std::uint32_t>(arch, l, p, so, whole, check);
      case 8: return run_typed<std::uint64_t>(arch, l, p, so, whole, check);
      default: throw usage_error("option --elem-bytes must be 1, 2, 4 or 8 (got " + std::to_string(bytes) + ")");
    }
  });
  std::ostringstream line;
  line << "program copy: " << p.rows << " x " << p.cols << " tile of " << bytes << "-byte elements per workgroup, "
       << "global -> LDS (" << layout << ") -> global, read back " << o.word("read") << "; " << l.block
       << " threads x " << l.grid << " workgroup(s) on " << arch.name << " (" << arch.description << ")";
  const run_description d{command_line("copy", specs, o), line.str(), "output == input", "OUTPUT DIFFERS FROM INPUT"};
  return print_simulation(arch, l, registers, s, d, check, json, svg, h);
}

}  // namespace tilesim::cli
