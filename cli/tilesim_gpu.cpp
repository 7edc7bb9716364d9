// tilesim/cli/tilesim_gpu.cpp: the `tilesim-gpu` command: run the programs on a GPU and hold the
// simulator to what the GPU did.
//
//   tilesim-gpu crosscheck [--seed N] [--only TEXT] [--report FILE] [--no-counters] [--repeat R]
//                          [--sweep-iterations N] [--source-counters | --ncu-source FILE] [--sass FILE]
//       For every catalogue point (or those whose name contains TEXT): fresh random inputs from the seed
//       (printed; --seed replays them), outputs poisoned, the program run in the simulator (sm90) and on the
//       GPU; outputs checked (crosscheck.hpp); cycles: clock64() per block, the median block of the best of R
//       timed launches (default 3), against the simulator's cycles per workgroup. Unless --no-counters, it
//       then runs itself under Nsight Compute (`ncu`, found on PATH) to count each kernel's shared-memory
//       wavefronts and instructions and global sectors and instructions, and compares them with the
//       simulator's totals (exact); $NCU names another ncu. --report writes everything as JSON
//       (data/recordings/ keeps them). --sweep-iterations replaces the lds_sweep points' iteration count.
//       Per instruction (source_match.hpp): --source-counters runs ncu --section SourceCounters once per point
//       and matches its SASS instructions to the labels; --ncu-source FILE does it from a saved source page of
//       the one point --only selects (without a GPU: that table alone); --sass FILE (nvdisasm -g -gi of a
//       -lineinfo build) names each row's program lines.
//   tilesim-gpu counters-pass --seed N [--only TEXT]
//       What the Nsight Compute run executes: each point's untimed kernel once, nothing else; one line per
//       launch with its output check (exit 1 if one differs). compute-sanitizer runs it too.
//   tilesim-gpu device
//       The GPU, driver and runtime.
//   tilesim-gpu --help, tilesim-gpu COMMAND --help
//       The texts of help.hpp (options, exit codes), on stdout, exit 0, with or without a GPU.
// Exit codes: 0 everything agreed; 1 a result, counter or launch disagreed (the table says which);
// 2 a usage or input error (one line naming it); 77 no GPU (the test harness's "skipped").
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "util/args.hpp"
#include "util/output_file.hpp"
#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/crosscheck/help.hpp"
#include "gpu/crosscheck/ncu.hpp"
#include "gpu/crosscheck/program_adapter.hpp"
#include "gpu/crosscheck/sass_lines.hpp"
#include "gpu/crosscheck/source_counters.hpp"
#include "gpu/crosscheck/source_match.hpp"
#include "gpu/reference/reference_run.hpp"
#if defined(TILESIM_GPU_PROPS)
#include "gpu/rtc_props/props_command.hpp"  // `props`, `props-pass` (issue 18)
#endif

namespace tilesim::gpu {

using util::json_value;
using util::exact_u64;
using util::dump;
namespace {

using cli::usage_error;

std::uint64_t point_seed(std::uint64_t seed, std::size_t index) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (index + 1);  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The catalogue's points whose name contains `only`; sweep_iterations >= 0 replaces the count of every program
// with a run-time loop count (program_adapter::with_iterations: the LDS sweep).
std::vector<crosscheck_point> selected(const std::string& only, long long sweep_iterations = -1) {
  std::vector<crosscheck_point> v;
  for (crosscheck_point p : catalogue()) {
    if (const auto with_iterations = p.adapter().with_iterations; with_iterations && sweep_iterations >= 0)
      p = with_iterations(p, sweep_iterations);
    if (p.name.find(only) != std::string::npos) v.push_back(p);
  }
  if (v.empty()) throw usage_error("--only \"" + only + "\" matches no catalogue point");
  return v;
}

device_result run_on_device(const crosscheck_point& p, const point_inputs& in, std::size_t lds_bytes, bool timed) {
  return p.adapter().run_on_device(p, {p.grid, p.block, lds_bytes, timed}, in.buffers);
}

const char* kernel_of(const crosscheck_point& p) { return p.adapter().kernel; }

// LDS bytes per point without the simulator where the program's host descriptors say (the counters pass must
// launch nothing else); else the simulator's.
std::size_t lds_bytes_of(const crosscheck_point& p) {
  if (const auto host = p.adapter().lds_bytes) return host(p);
  point_inputs in = make_inputs(p, 0);  // cheap next to a run; keeps one source of truth: the simulator
  return simulate(p, in).lds_bytes;
}

// Runs the counters pass under ncu; one counters per point, in launch order.
std::vector<counters> measure_counters(std::uint64_t seed, const std::string& only, long long sweep_iterations,
                                       std::size_t points, const std::vector<crosscheck_point>& selection) {
  const std::vector<ncu_launch> launches =
      count_with_ncu("", "/proc/" + std::to_string(getpid()) + "/exe counters-pass --seed " + std::to_string(seed) +
                             (only.empty() ? "" : " --only '" + only + "'") +
                             (sweep_iterations >= 0 ? " --sweep-iterations " + std::to_string(sweep_iterations) : ""));
  if (launches.size() != points)
    throw std::runtime_error("ncu profiled " + std::to_string(launches.size()) + " kernels for " +
                             std::to_string(points) + " points");
  std::vector<counters> out(points);
  for (std::size_t i = 0; i < points; ++i) {
    if (launches[i].id != i || launches[i].kernel.find(kernel_of(selection[i])) == std::string::npos)
      throw std::runtime_error("ncu kernel " + std::to_string(launches[i].id) + " is \"" + launches[i].kernel +
                               "\", expected " + kernel_of(selection[i]));
    out[i] = launches[i].measured;
  }
  return out;
}


device_description require_device() { return describe_device(); }

int counters_pass(std::vector<std::string> args) {
  const auto seed = cli::take_text_option(args, "seed");
  const std::string only = cli::take_text_option(args, "only").value_or("");
  const auto sweep_text = cli::take_text_option(args, "sweep-iterations");
  if (!seed || !args.empty())
    throw usage_error("usage: tilesim-gpu counters-pass --seed N [--only TEXT] [--sweep-iterations N]");
  const std::uint64_t s = static_cast<std::uint64_t>(cli::parse_int(*seed, "option --seed"));
  require_device();
  const auto points = selected(only, sweep_text ? cli::parse_int(*sweep_text, "option --sweep-iterations") : -1);
  // One line per launch (what a compute-sanitizer log of this pass shows ran), with its output check.
  int wrong = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const point_inputs in = make_inputs(points[i], point_seed(s, i));
    const device_result r = run_on_device(points[i], in, lds_bytes_of(points[i]), false);
    const output_check c = check_output(points[i], in, r.buffers, nullptr);
    wrong += c.mismatches != 0;
    std::printf("counters-pass: %s (%s): output %s\n", points[i].name.c_str(), kernel_of(points[i]),
                c.mismatches ? c.first_mismatch.c_str() : "ok");
  }
  std::fflush(stdout);
  return wrong ? 1 : 0;
}

int crosscheck(std::vector<std::string> args, const std::string& command_line) {
  const auto seed_text = cli::take_text_option(args, "seed");
  const std::string only = cli::take_text_option(args, "only").value_or("");
  const auto report_path = cli::take_text_option(args, "report");
  const auto repeat_text = cli::take_text_option(args, "repeat");
  const bool no_counters = cli::take_flag(args, "no-counters");
  const auto sweep_text = cli::take_text_option(args, "sweep-iterations");
  const bool source_counters = cli::take_flag(args, "source-counters");
  const auto ncu_source = cli::take_text_option(args, "ncu-source");
  const auto sass_listing = cli::take_text_option(args, "sass");
  const long long sweep_iterations =
      sweep_text ? cli::parse_int(*sweep_text, "option --sweep-iterations") : -1;
  if (sweep_text && (sweep_iterations < 0 || sweep_iterations > (1 << 20)))
    throw usage_error("--sweep-iterations must be in 0..1048576 (got " + *sweep_text + ")");
  if (!args.empty()) throw usage_error("tilesim-gpu crosscheck: unknown argument \"" + args[0] + "\"");
  const std::uint64_t seed = seed_text ? static_cast<std::uint64_t>(cli::parse_int(*seed_text, "option --seed"))
                                       : std::random_device{}() % 1000000000u;
  const int repeat = repeat_text ? static_cast<int>(cli::parse_int(*repeat_text, "option --repeat")) : 3;
  if (repeat < 1 || repeat > 100) throw usage_error("--repeat must be in 1..100 (got " + std::to_string(repeat) + ")");
  const auto points = selected(only, sweep_iterations);
  if (source_counters && ncu_source) throw usage_error("--source-counters and --ncu-source exclude each other");
  if (source_counters && no_counters) throw usage_error("--source-counters needs the Nsight Compute pass (not --no-counters)");
  std::vector<sass_function> listing;
  if (sass_listing) {
    if (!ncu_source && !source_counters) throw usage_error("--sass names program lines of --ncu-source or --source-counters rows");
    try {
      listing = read_sass_lines(*sass_listing);
    } catch (const device_error& e) {
      throw usage_error(std::string("--sass: ") + e.what());
    }
  }
  // A page with the listing's program lines attached, when --sass gave one.
  auto with_lines = [&](std::vector<sass_row> rows) {
    if (sass_listing) attach_source_lines(rows, listing, *sass_listing);
    return rows;
  };
  std::vector<sass_row> saved_page;
  if (ncu_source) {
    if (points.size() != 1)
      throw usage_error("--ncu-source " + *ncu_source + " is one launch's page: --only must select one point (it selects " +
                        std::to_string(points.size()) + ")");
    try {
      saved_page = with_lines(read_source_counters(*ncu_source));
    } catch (const device_error& e) {
      throw usage_error(std::string("--ncu-source: ") + e.what());
    }
    device_description probe;
    try {
      probe = require_device();
    } catch (const device_error& e) {  // no GPU: the saved page against the simulator alone
      const point_inputs in = make_inputs(points[0], point_seed(seed, 0));
      const simulated s = simulate(points[0], in);
      const source_comparison c = compare_source_counters(sim::arch_named("sm90"), s.run, saved_page, *ncu_source);
      std::cout << "tilesim-gpu crosscheck: " << points[0].name << " on the simulator against " << *ncu_source << " ("
                << e.what() << ")\n"
                << source_table(c, "  ");
      return c.all_equal ? 0 : 1;
    }
  }
  const device_description device = require_device();
  std::cout << "tilesim-gpu crosscheck: " << points.size() << " points, seed " << seed << " (replay: --seed " << seed
            << "), device " << device.name << ", driver " << device.driver << "\n";

  json_value report;
  report.set("schema", "tilesim.crosscheck/1");  // docs/schema/crosscheck.schema.json
  report.set("tool", "tilesim-gpu crosscheck");
  report.set("command", command_line);
  report.set("date", utc_now());
  json_value dev;
  dev.set("name", device.name);
  dev.set("driver", device.driver);
  dev.set("runtime_version", device.runtime_version);
  dev.set("multiprocessors", device.multiprocessors);
  dev.set("clock_khz", device.clock_khz);
  report.set("device", std::move(dev));
  report.set("seed", exact_u64(seed));  // decimal text: exact (json.hpp)
  json_value& rows = report.set("points", json_value::array{});

  bool all_results_equal = true;
  std::vector<simulated> sims;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const crosscheck_point& p = points[i];
    const point_inputs in = make_inputs(p, point_seed(seed, i));
    simulated s = simulate(p, in);
    const output_check sim_check = check_output(p, in, s.buffers, &s);
    device_result warm = run_on_device(p, in, s.lds_bytes, false);
    output_check gpu_check = check_output(p, in, warm.buffers, &s);
    std::vector<double> best_blocks;
    double best = 1e300;
    for (int r = 0; r < repeat; ++r) {
      device_result t = run_on_device(p, in, s.lds_bytes, true);
      const output_check c = check_output(p, in, t.buffers, &s);
      if (c.mismatches > gpu_check.mismatches) gpu_check = c;
      std::vector<double> blocks(t.block_cycles.begin(), t.block_cycles.end());
      const double m = median(blocks);
      if (m < best) best = m, best_blocks = blocks;
    }
    // The price tag: the hand-written kernel of the same algorithm, same inputs and launch, timed alike.
    double reference_best = 0;
    output_check reference_check;
    const bool has_twin = has_reference(p);
    if (has_twin) {
      reference_best = 1e300;
      for (int r = 0; r < repeat; ++r) {
        const device_launch timed{p.grid, p.block, s.lds_bytes, true};
        device_result t = run_reference_on_device(p, timed, in.buffers);
        const output_check c = check_output(p, in, t.buffers, &s);
        if (r == 0 || c.mismatches > reference_check.mismatches) reference_check = c;
        reference_best = std::min(reference_best, median(std::vector<double>(t.block_cycles.begin(), t.block_cycles.end())));
      }
    }
    const bool equal = sim_check.mismatches == 0 && gpu_check.mismatches == 0 && reference_check.mismatches == 0;
    all_results_equal = all_results_equal && equal;
    json_value row = to_json(p);
    row.set("seed", exact_u64(in.seed));  // decimal text: exact (json.hpp)
    row.set("simulator_output", to_json(sim_check));
    row.set("gpu_output", to_json(gpu_check));
    json_value simv;
    simv.set("counters", to_json(s.predicted));
    simv.set("cycles_per_workgroup", s.cycles_per_workgroup);
    simv.set("lds_bytes", s.lds_bytes);
    row.set("simulator", std::move(simv));
    json_value hw;
    hw.set("cycles_per_block_median", best);
    hw.set("cycles_per_block_min", *std::min_element(best_blocks.begin(), best_blocks.end()));
    hw.set("cycles_per_block_max", *std::max_element(best_blocks.begin(), best_blocks.end()));
    hw.set("timed_launches", repeat);
    hw.set("registers", warm.registers);
    hw.set("local_bytes_per_thread", warm.local_bytes);
    row.set("hardware", std::move(hw));
    if (has_twin) {
      json_value ref;
      ref.set("cycles_per_block_median", reference_best);
      ref.set("output", to_json(reference_check));
      row.set("hand_written", std::move(ref));
      row.set("tilesim_over_hand_written", best / reference_best);
    }
    row.set("cycle_error", (s.cycles_per_workgroup - best) / best);
    if (const program_adapter& a = p.adapter(); a.iterations && a.iterations(p) > 0) {
      // The loop alone: the same point with 0 iterations is the baseline on both sides (set-up, staging,
      // the final store), as the calibration subtracts an empty loop. On the GPU the set-up is spec's
      // run-time index arithmetic, which the simulator does not price.
      const crosscheck_point base = a.with_iterations(p, 0);
      const point_inputs base_in = make_inputs(base, in.seed);
      const double sim0 = simulate(base, base_in).cycles_per_workgroup;
      double gpu0 = 1e300;
      for (int r = 0; r < repeat; ++r) {
        device_result t = run_on_device(base, base_in, s.lds_bytes, true);
        gpu0 = std::min(gpu0, median(std::vector<double>(t.block_cycles.begin(), t.block_cycles.end())));
      }
      json_value b;
      b.set("simulator_cycles_per_workgroup", sim0);
      b.set("gpu_cycles_per_block_median", gpu0);
      row.set("baseline_zero_iterations", std::move(b));
      const double loop_sim = s.cycles_per_workgroup - sim0, loop_gpu = best - gpu0;
      row.set("loop_cycle_error", (loop_sim - loop_gpu) / loop_gpu);
      std::printf("  %-32s loop alone (minus 0 iterations): sim %.0f gpu %.0f (%+.1f %%)\n", p.name.c_str(), loop_sim,
                  loop_gpu, 100 * (loop_sim - loop_gpu) / loop_gpu);
    }
    rows.push(std::move(row));
    std::printf("  %-32s results %-5s sim %s, gpu %s; cycles/block sim %.0f gpu %.0f (%+.1f %%)\n", p.name.c_str(),
                equal ? "equal" : "DIFFER", sim_check.mismatches ? sim_check.first_mismatch.c_str() : "ok",
                gpu_check.mismatches ? gpu_check.first_mismatch.c_str() : "ok", s.cycles_per_workgroup, best,
                100 * (s.cycles_per_workgroup - best) / best);
    if (has_twin)
      std::printf("  %-32s price: %d registers, %lld B local/thread; cycles/block tilesim %.0f, hand-written %.0f "
                  "(%.3fx)%s\n", p.name.c_str(), warm.registers, warm.local_bytes, best, reference_best,
                  best / reference_best, reference_check.mismatches ? " HAND-WRITTEN OUTPUT DIFFERS" : "");
    else
      std::printf("  %-32s price: %d registers, %lld B local/thread; no hand-written kernel\n", p.name.c_str(),
                  warm.registers, warm.local_bytes);
    std::fflush(stdout);
    sims.push_back(std::move(s));
  }

  bool all_counters_equal = true;
  if (!no_counters) {
    const std::vector<counters> measured = measure_counters(seed, only, sweep_iterations, points.size(), points);
    json_value::array updated;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const bool eq = measured[i] == sims[i].predicted;
      all_counters_equal = all_counters_equal && eq;
      std::printf("  %-32s counters %s\n", points[i].name.c_str(), eq ? "equal" : "DIFFER");
      if (!eq) {
        const json_value a = to_json(sims[i].predicted), b = to_json(measured[i]);
        for (std::size_t k = 0; k < a.members().size(); ++k)
          if (a.members()[k].second != b.members()[k].second)
            std::printf("    %-24s sim %lld, gpu %lld\n", a.members()[k].first.c_str(),
                        static_cast<long long>(a.members()[k].second.number()),
                        static_cast<long long>(b.members()[k].second.number()));
      }
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
      rows.at(i).at("hardware").set("counters", to_json(measured[i]));
      rows.at(i).set("counters_equal", measured[i] == sims[i].predicted);
    }
  }
  // Per instruction: Nsight's source counters (saved, or one SourceCounters run per point) matched to the labels.
  bool all_sources_equal = true;
  if (ncu_source || source_counters) {
    char dir[] = "/tmp/tilesim-source-XXXXXX";
    if (source_counters && !mkdtemp(dir)) throw device_error("cannot make a temporary directory for ncu's source counters");
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::string base = std::string(dir) + "/point-" + std::to_string(i);
      const std::vector<sass_row> page =
          ncu_source ? saved_page
                     : with_lines(measure_source_counters("--launch-skip " + std::to_string(i) + " --launch-count 1",
                                               "/proc/" + std::to_string(getpid()) + "/exe counters-pass --seed " +
                                                   std::to_string(seed) + (only.empty() ? "" : " --only '" + only + "'") +
                                                   (sweep_iterations >= 0 ? " --sweep-iterations " +
                                                                                std::to_string(sweep_iterations) : ""),
                                               "", base));
      const source_comparison c = compare_source_counters(sim::arch_named("sm90"), sims[i].run, page,
                                                          ncu_source ? *ncu_source : "live: " + base + ".ncu-rep");
      all_sources_equal = all_sources_equal && c.all_equal;
      std::printf("  %-32s per instruction %s\n%s", points[i].name.c_str(), c.all_equal ? "equal" : "DIFFER",
                  source_table(c, "    ").c_str());
      rows.at(i).set("source_counters", to_json(c));
    }
  }

  std::vector<double> errors;
  for (const json_value& r : rows.elements()) errors.push_back(std::fabs(r["cycle_error"].number()));
  json_value summary;
  summary.set("points", static_cast<long long>(points.size()));
  summary.set("results_equal", all_results_equal);
  summary.set("counters_measured", !no_counters);
  summary.set("counters_equal", no_counters ? json_value() : json_value(all_counters_equal));
  summary.set("median_abs_cycle_error", median(errors));
  std::map<std::string, std::vector<double>> by_program;
  for (const json_value& r : rows.elements())
    by_program[r["program"].string()].push_back(std::fabs(r["cycle_error"].number()));
  std::vector<double> loop_errors;
  for (const json_value& r : rows.elements())
    if (const json_value* e = r.get("loop_cycle_error")) loop_errors.push_back(std::fabs(e->number()));
  if (!loop_errors.empty()) {
    summary.set("median_abs_loop_cycle_error_lds_bound", median(loop_errors));
    std::printf("  lds_sweep loops (LDS-bound, baseline subtracted): median |cycle error| %.1f %%, worst %.1f %%\n",
                100 * median(loop_errors), 100 * *std::max_element(loop_errors.begin(), loop_errors.end()));
  }
  json_value& per = summary.set("median_abs_cycle_error_by_program", json_value::object{});
  for (const auto& [program, e] : by_program) {
    per.set(program, median(e));
    std::printf("  %-16s median |cycle error| %5.1f %% over %zu points\n", program.c_str(), 100 * median(e), e.size());
  }
  summary.set("max_abs_cycle_error", *std::max_element(errors.begin(), errors.end()));
  report.set("summary", std::move(summary));
  std::printf("results %s; counters %s; cycles: median |error| %.1f %%, worst %.1f %%\n",
              all_results_equal ? "all equal" : "DIFFER",
              no_counters ? "not measured" : all_counters_equal ? "all equal" : "DIFFER", 100 * median(errors),
              100 * *std::max_element(errors.begin(), errors.end()));
  if (report_path) {
    cli::write_file_replacing(*report_path, dump(report) + "\n", "--report");
    std::cout << "wrote " << *report_path << "\n";
  }
  return all_results_equal && all_counters_equal && all_sources_equal ? 0 : 1;
}

}  // namespace
}  // namespace tilesim::gpu

int main(int argc, char** argv) {
  using namespace tilesim::gpu;
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string command_line = "tilesim-gpu";
  for (const std::string& a : args) command_line += " " + a;
  try {
    if (args.empty()) throw tilesim::cli::usage_error("usage: tilesim-gpu crosscheck|counters-pass|device [options] (--help)");
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {  // help.hpp: before any GPU is looked for
      std::fputs(gpu_help(""), stdout);
      return 0;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    if (const char* help = gpu_help(cmd); help && wants_help(args)) {
      std::fputs(help, stdout);
      return 0;
    }
    if (cmd == "crosscheck") return crosscheck(args, command_line);
    if (cmd == "counters-pass") return counters_pass(args);
#if defined(TILESIM_GPU_PROPS)
    if (cmd == "props") return props::props_command(args, command_line);
    if (cmd == "props-pass") return props::props_pass_command(args);
#endif
    if (cmd == "device") {
      const device_description d = require_device();
      std::printf("%s, driver %s, runtime %d, %d multiprocessors, %d kHz, warp %d\n", d.name.c_str(), d.driver.c_str(),
                  d.runtime_version, d.multiprocessors, d.clock_khz, d.warp_size);
      return 0;
    }
    throw tilesim::cli::usage_error("unknown command \"" + cmd + "\" (crosscheck, counters-pass, device)");
  } catch (const tilesim::cli::usage_error& e) {
    std::fprintf(stderr, "tilesim-gpu: %s\n", e.what());
    return 2;
  } catch (const device_error& e) {
    std::fprintf(stderr, "tilesim-gpu: %s\n", e.what());
    return std::string(e.what()).rfind("no GPU", 0) == 0 ? 77 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilesim-gpu: %s\n", e.what());
    return 1;
  }
}
