// tilesim/cli/run_output.cpp: see run_output.hpp.
#include "cli/run_output.hpp"

#include <cstdio>
#include <iostream>

#include "util/args.hpp"
#include "util/output_file.hpp"
#include "sim/report/text_columns.hpp"

namespace tilesim::cli {

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

using sim::pad_left;
using sim::pad_right;

// Wavefronts per warp-level instance, at most two decimals, trailing zeros dropped: 128 / 8 -> "16", 9 / 4 -> "2.25".
std::string per_instance(long long wavefronts, int instances) {
  if (instances <= 0) return "-";
  std::string s = fixed(static_cast<double>(wavefronts) / instances, 2);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

// The per-instruction table: what each instruction cost (LDS wavefronts, global sectors) and where its cycles
// went (means per instance: issue = arithmetic before it and its issue slot; LDS / global = waiting for data
// from earlier loads, its pipe's queue, service and latency), with each barrier's wait in program order. N-way and
// wf/inst are defined by the legend line under the table (sim/models/lds_banks.hpp: max_ways, wavefronts).
void print_text(std::ostream& out, const sim::program_report& r) {
  out << pad_right("instruction", 16) << pad_right("space", 7) << pad_right("op", 6) << pad_left("B/lane", 6)
      << pad_left("inst", 6) << pad_left("wavefronts", 12) << pad_left("ideal", 7) << pad_left("N-way", 6)
      << pad_left("wf/inst", 8) << pad_left("sectors", 9) << pad_left("ideal", 7) << pad_left("cycles", 9) << pad_left("issue", 8)
      << pad_left("LDS", 8) << pad_left("global", 8) << pad_left("barrier", 9) << "\n";
  std::size_t next_barrier = 0;
  auto barriers_until = [&](int interval) {
    for (; next_barrier < r.barriers.size() && r.barriers[next_barrier].interval < interval; ++next_barrier) {
      const sim::barrier_report& b = r.barriers[next_barrier];
      out << pad_right(b.label, 16) << pad_right("-", 7) << pad_right("-", 6) << pad_left("-", 6)
          << pad_left(std::to_string(b.instances), 6) << pad_left("-", 12) << pad_left("-", 7) << pad_left("-", 6)
          << pad_left("-", 8) << pad_left("-", 9) << pad_left("-", 7) << pad_left(fixed(b.wait + b.issue_cycles, 1), 9)
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
        << pad_left(lds ? per_instance(i.wavefronts, i.instances) : "-", 8)
        << pad_left(lds ? "-" : std::to_string(i.sectors), 9) << pad_left(lds ? "-" : std::to_string(i.ideal_sectors), 7)
        << pad_left(fixed(i.cycles, 1), 9) << pad_left(fixed(i.issue_cycles, 1), 8)
        << pad_left(fixed(i.lds_cycles, 1), 8) << pad_left(fixed(i.global_cycles, 1), 8) << pad_left("-", 9) << "\n";
  }
  barriers_until(1 << 30);
  out << "N-way: the most distinct 4-byte words one bank serves in one phase (the worst instance; 1 = conflict-free)\n"
         "wf/inst: wavefronts / inst, summed over the instruction's phases (on sm90 what Nsight Compute's source view shows per "
         "SASS instruction as L1 Wavefronts Shared / Instructions Executed, and as its \"L1 Conflicts Shared N-Way\")\n";
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

}  // namespace

int print_run_report(const sim::arch_table& arch, const sim::program_report& report, bool correct,
                     const std::string& header, bool json, const std::optional<std::string>& svg) {
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

}  // namespace tilesim::cli
