// tilesim/gpu/rtc_props/props_main.cpp: the `tilesim-gpu props` run: generate, compile, run both sides, count,
// sanitize, shrink, report (props_command.hpp). The helpers are props_command.cpp's (props_internal.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "util/output_file.hpp"
#include "gpu/rtc_props/counters_pass.hpp"
#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/layout_pairs.hpp"
#include "gpu/rtc_props/props_command.hpp"
#include "gpu/rtc_props/props_generators.hpp"
#include "gpu/rtc_props/props_internal.hpp"
#include "gpu/rtc_props/props_json.hpp"
#include "gpu/rtc_props/props_report.hpp"
#include "gpu/rtc_props/shrink.hpp"

namespace tilesim::gpu::props {

using util::json_value;
using util::exact_u64;
using util::dump;

int run_props(std::vector<std::string> args, const std::string& command_line, const device_backend& backend) {
  const auto start = std::chrono::steady_clock::now();
  options o = parse(args, false);
  if (o.counters_deadline_seconds > 0) o.counters_deadline = start + std::chrono::seconds(o.counters_deadline_seconds);
  if (o.counters_only) return counters_only(o, backend);
  // 1. The cases: generated from the seed (with their shrink trees), or read back from --cases-file.
  std::vector<rc::Shrinkable<props_case>> trees;
  std::vector<props_case> cases;
  std::vector<int> draw_of, twin_of;  // --pairs: per position, the generator's index and the drawn case's position
  if (o.case_file) {
    cases = read_cases_file(*o.case_file);
  } else {
    for (int i = 0; i < o.cases; ++i) {
      trees.push_back(generate_case(o.seed, i, o.fault, 32, o.kinds));
      cases.push_back(trees.back().value());
      draw_of.push_back(o.pairs ? i : -1), twin_of.push_back(-1);
      if (!o.pairs) continue;
      if (const std::optional<props_case> twin = layout_twin(cases.back())) {  // a twin does not shrink: it is its drawn case's
        twin_of.push_back(static_cast<int>(cases.size()) - 1), draw_of.push_back(i);
        trees.push_back(rc::shrinkable::just(*twin));
        cases.push_back(*twin);
      }
    }
  }
  const auto pair_fields = [&](case_record& r) {
    if (r.index < static_cast<int>(draw_of.size())) r.draw = draw_of[static_cast<std::size_t>(r.index)], r.twin_of = twin_of[static_cast<std::size_t>(r.index)];
  };
  const device_description device = backend.describe();  // no GPU: device_error "no GPU ..." -> exit 77
  std::string kinds_list;
  for (props_kind k : o.kinds) kinds_list += (kinds_list.empty() ? "" : ",") + std::string(kind_name(k));
  json_value::array kinds_json;
  for (props_kind k : o.kinds) kinds_json.push_back(json_value(kind_name(k)));
  std::printf("tilesim-gpu props: %zu cases, seed %llu (replay: --seed %llu --kinds %s), device %s, compiler %s in %d processes\n",
              cases.size(), static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(o.seed),
              kinds_list.c_str(), device.name.c_str(), backend_version(o.rtc).c_str(), o.jobs);
  std::fflush(stdout);
  // 2. Every kernel compiled at run time, in parallel, cached by source.
  const auto c0 = std::chrono::steady_clock::now();
  std::vector<compiled_kernel> modules = compile_all(cases, o.rtc, o.jobs, true);
  const double compile_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
  // 3. Each case on the simulator and on the GPU (outputs, clock64 cycles). A failed launch leaves the CUDA
  // context unusable (errors are sticky), so the run stops there and reports what it has.
  std::vector<case_record> records;
  std::string context_lost, counters_error;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    try {
      records.push_back(run_case(static_cast<int>(i), cases[i], modules[i], o.seed, o.repeat, backend));
      pair_fields(records.back());
    } catch (const device_error& e) {
      case_record r;
      r.index = static_cast<int>(i);
      r.device_case = cases[i];
      r.kernel = kernel_name(cases[i]);
      r.error = std::string("GPU: ") + e.what();
      pair_fields(r);
      records.push_back(r);
      context_lost = r.error;
      std::fprintf(stderr, "\ncase %zu: %s; stopping (the CUDA context is lost after a failed launch)\n", i, e.what());
      break;
    }
    progress("run", i + 1, cases.size());
  }
  // An interim report (outputs and cycles): what survives if the run is stopped during the profiler pass; written
  // again after it (with the counters measured so far); the final report replaces it.
  const auto write_interim = [&](const char* when) {
    if (!o.report) return;
    json_value interim;
    interim.set("schema", "tilesim.gpu-props/1");
    interim.set("tool", "tilesim-gpu props");
    interim.set("command", command_line);
    interim.set("date", utc_now());
    interim.set("interim", when);
    json_value dev;
    dev.set("name", device.name);
    dev.set("driver", device.driver);
    interim.set("device", dev);
    interim.set("seed", exact_u64(o.seed));
    interim.set("kinds", kinds_json);
    json_value::array rows;
    for (const case_record& r : records) rows.push_back(to_json(r));
    interim.set("cases", rows);
    summarize_counters(interim, o.counters);
    cli::write_file_replacing(*o.report, dump(interim) + "\n", "--report");
  };
  write_interim("written after the GPU runs, before Nsight Compute and compute-sanitizer");
  // 4. Nsight Compute over the cases that compiled and ran, in batches of --counters-batch kernels (one ncu process
  // each), until --counters-deadline (counters_pass.hpp); what is left stays pending for --counters-only.
  int counters_runs = 0;
  double counters_seconds = 0;
  if (o.counters && context_lost.empty()) {
    std::vector<props_case> ran;
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < records.size(); ++i)
      if (records[i].gpu_ran) ran.push_back(cases[i]), at.push_back(i);
    std::fprintf(stderr, "counters: Nsight Compute over %zu kernels, %d per ncu run\n", ran.size(), o.counters_batch);
    const batched_counters b = count_in_batches(ran, o, backend);
    for (std::size_t k = 0; k < at.size(); ++k) records[at[k]].measured = b.measured[k];
    counters_error = b.stopped;
    counters_runs = b.batches;
    counters_seconds = b.seconds;
    write_interim("written after Nsight Compute, before compute-sanitizer and shrinking");
  }
  // 5. compute-sanitizer memcheck and racecheck over a sample (the first N cases).
  json_value sanitizer = json_value::object{};
  if (o.sanitize_cases > 0 && context_lost.empty()) {
    const std::vector<props_case> sample(cases.begin(), cases.begin() + std::min<std::ptrdiff_t>(o.sanitize_cases, static_cast<std::ptrdiff_t>(cases.size())));
    for (const char* tool : {"memcheck", "racecheck"}) {
      std::fprintf(stderr, "sanitizer: compute-sanitizer --tool %s over %zu cases\n", tool, sample.size());
      std::string found;
      try {
        found = backend.sanitize(sample, o, tool);
      } catch (const std::exception& e) {
        found = std::string("not run: ") + e.what();
      }
      sanitizer.set(tool, found.empty() ? json_value("clean") : json_value(found));
    }
    sanitizer.set("cases", static_cast<long long>(sample.size()));
  }
  // 6. Verdicts, cycles distribution.
  int results_bad = 0, counters_bad = 0, stack_bad = 0, stack_unknown = 0;
  std::vector<double> compile_seconds, ratio;
  std::vector<std::pair<double, int>> worst;
  for (const case_record& r : records) {
    results_bad += !r.results_equal();
    counters_bad += r.counters_equal() && !*r.counters_equal();
    stack_bad += r.compile.stack_bytes > 0;
    stack_unknown += r.compile.stack_bytes < 0;  // -1: the compiler's log gave no stack size
    if (!r.compile.cached && r.compile.seconds > 0) compile_seconds.push_back(r.compile.seconds);
    if (r.gpu_cycles_median > 0) {
      const double e = (r.sim_cycles - r.gpu_cycles_median) / r.gpu_cycles_median;
      ratio.push_back(std::fabs(e));
      worst.push_back({std::fabs(e), r.index});
    }
  }
  std::sort(worst.rbegin(), worst.rend());
  // 7. Shrink the first failing case: each candidate recompiled (cached) and rerun on the GPU.
  json_value::array failures;
  const bool shrinkable = !trees.empty() && o.shrink_budget > 0;
  for (const case_record& r : records) {
    const bool res_fail = !r.results_equal();
    const bool cnt_fail = r.counters_equal() && !*r.counters_equal();
    if (!res_fail && !cnt_fail) continue;
    json_value f;
    f.set("index", r.index);
    f.set("property", res_fail ? "results_equal" : "counters_equal");
    props_case minimal = r.device_case;
    if (shrinkable && failures.empty() && (context_lost.empty() || !res_fail)) {
      std::fprintf(stderr, "shrinking case %d (%s)\n", r.index, res_fail ? "results differ" : "counters differ");
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.shrink_seconds);
      // A candidate fails when the same property fails for it; one that cannot be compiled or run counts as
      // passing (it is another failure, not this one), and after the deadline every candidate passes (stop).
      const std::function<bool(const props_case&)> fails = [&](const props_case& c) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        try {
          const std::vector<compiled_kernel> m = compile_all({c}, o.rtc, 1, false);
          if (!m[0].ok) return false;
          case_record again = run_case(r.index, c, m[0], o.seed, 1, backend);
          if (res_fail) return again.error.empty() && !again.results_equal();
          options unlimited = o;  // the shrink has its own deadline
          unlimited.counters_deadline = std::chrono::steady_clock::time_point::max();
          again.measured = backend.count({c}, unlimited)[0];
          return again.error.empty() && !*again.counters_equal();
        } catch (const std::exception& e) {
          std::fprintf(stderr, "  candidate not run: %s\n", e.what());
          return false;
        }
      };
      const shrink_result<props_case> s = shrink<props_case>(trees[static_cast<std::size_t>(r.index)], fails, o.shrink_budget,
          [](const props_case& c, int step) {
            std::fprintf(stderr, "  step %d: %s, %lld threads, %lldx%lld tile\n", step, layout_name(c.layout),
                         static_cast<long long>(c.threads), static_cast<long long>(c.rows()), static_cast<long long>(c.cols()));
          });
      minimal = s.minimal;
      f.set("shrink_steps", s.steps);
      f.set("shrink_tried", s.tried);
    }
    f.set("minimal_case", to_json(minimal));
    f.set("cpp", "props_case c;\n" + case_cpp(minimal, 0));
    f.set("kernel_source", kernel_source(minimal, kernel_name(minimal)));
    const std::string replay_file = (o.report ? *o.report : std::string("/tmp/tilesim-props")) + ".case" + std::to_string(r.index) + ".json";
    cli::write_file_replacing(replay_file, dump(to_json(minimal)) + "\n", "--report");
    f.set("replay", "tilesim-gpu props --cases-file " + replay_file);
    std::printf("\nFAILED case %d (%s); minimal case (C++):\nprops_case c;\n%s\nkernel source:\n%s\nreplay: tilesim-gpu props --cases-file %s\n",
                r.index, res_fail ? "results differ" : "counters differ", case_cpp(minimal, 0).c_str(),
                kernel_source(minimal, kernel_name(minimal)).c_str(), replay_file.c_str());
    failures.push_back(f);
    if (failures.size() >= 10) break;
  }
  // 8. The report.
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  json_value report;
  report.set("schema", "tilesim.gpu-props/1");
  report.set("tool", "tilesim-gpu props");
  report.set("command", command_line);
  report.set("date", utc_now());
  json_value dev;
  dev.set("name", device.name);
  dev.set("driver", device.driver);
  dev.set("runtime_version", device.runtime_version);
  dev.set("multiprocessors", device.multiprocessors);
  dev.set("clock_khz", device.clock_khz);
  report.set("device", dev);
  report.set("seed", exact_u64(o.seed));
  report.set("kinds", kinds_json);  // with the seed: the cases regenerate (generate_case(seed, i, fault, 32, kinds))
  json_value comp;
  comp.set("backend", backend_version(o.rtc));
  comp.set("jobs", o.jobs);
  comp.set("pool", o.rtc.backend == rtc_backend::nvrtc && o.jobs > 1 ? "worker processes" : "threads");
  comp.set("batch_wall_seconds", compile_wall);
  comp.set("compiled", static_cast<long long>(compile_seconds.size()));
  comp.set("cache_hits", static_cast<long long>(cases.size() - compile_seconds.size()));
  comp.set("median_seconds_per_case", median(compile_seconds));
  comp.set("kernels_with_stack", stack_bad);
  report.set("compiler", comp);
  json_value::array rows;
  for (const case_record& r : records) rows.push_back(to_json(r));
  report.set("cases", rows);
  json_value summary;
  summary.set("cases", static_cast<long long>(records.size()));
  summary.set("results_equal", results_bad == 0);
  summary.set("cases_results_differ", results_bad);  // the counters fields: summarize_counters, below
  summary.set("median_abs_cycle_error", median(ratio));
  summary.set("max_abs_cycle_error", ratio.empty() ? 0.0 : *std::max_element(ratio.begin(), ratio.end()));
  json_value::array worst_cases;
  for (std::size_t k = 0; k < std::min<std::size_t>(5, worst.size()); ++k) {
    const case_record& r = records[static_cast<std::size_t>(worst[k].second)];
    json_value w;
    w.set("index", r.index);
    w.set("abs_cycle_error", worst[k].first);
    w.set("simulator_cycles", r.sim_cycles);
    w.set("gpu_cycles", r.gpu_cycles_median);
    worst_cases.push_back(w);
  }
  summary.set("worst_cycle_cases", worst_cases);
  // The cycle error by LDS layout family: where the timing model is off, by layout.
  std::map<std::string, std::vector<double>> by_layout;
  for (const case_record& r : records)
    if (r.gpu_cycles_median > 0)
      by_layout[layout_name(r.device_case.layout)].push_back(std::fabs((r.sim_cycles - r.gpu_cycles_median) / r.gpu_cycles_median));
  json_value& per_layout = summary.set("median_abs_cycle_error_by_layout", json_value::object{});
  for (const auto& [layout, e] : by_layout) per_layout.set(layout, median(e));
  // And by kind (copy, stencil): the held-out judgement per kind of program.
  std::map<std::string, std::vector<double>> by_kind;
  for (const case_record& r : records)
    if (r.gpu_cycles_median > 0)
      by_kind[kind_name(r.device_case.kind)].push_back(std::fabs((r.sim_cycles - r.gpu_cycles_median) / r.gpu_cycles_median));
  json_value& per_kind = summary.set("median_abs_cycle_error_by_kind", json_value::object{});
  for (const auto& [kind, e] : by_kind) per_kind.set(kind, median(e));
  // Layout pairs (--pairs): which layout is faster, predicted beside measured.
  std::vector<pair_cycles> pairs;
  for (const case_record& r : records) {
    if (r.twin_of < 0 || r.twin_of >= static_cast<int>(records.size())) continue;
    const case_record& d = records[static_cast<std::size_t>(r.twin_of)];
    pair_cycles p;
    p.drawn = d.index, p.twin = r.index;
    p.drawn_layout = layout_name(d.device_case.layout), p.twin_layout = layout_name(r.device_case.layout);
    p.predicted_drawn = d.sim_cycles, p.predicted_twin = r.sim_cycles;
    p.measured_drawn = d.gpu_cycles_median, p.measured_twin = r.gpu_cycles_median;
    pairs.push_back(p);
  }
  const pair_verdicts verdicts = judge_pairs(pairs);
  if (o.pairs) summary.set("layout_pairs", to_json(verdicts));
  summary.set("sanitizer", sanitizer);
  summary.set("stopped", context_lost.empty() ? json_value() : json_value(context_lost));
  summary.set("counters_error", counters_error.empty() ? json_value() : json_value(counters_error));
  summary.set("wall_seconds", total);
  report.set("summary", summary);
  summarize_counters(report, o.counters);
  if (o.counters) {
    json_value pass;
    pass.set("command", "tilesim-gpu props");
    pass.set("date", utc_now());
    pass.set("kernels", static_cast<long long>(records.size()));
    pass.set("ncu_runs", counters_runs);
    pass.set("seconds", counters_seconds);
    report.at("summary").set("counters_passes", json_value::array{pass});
  }
  report.set("failures", failures);
  const long long counters_pending = static_cast<long long>(report["summary"]["counters_pending"].number());
  std::printf("compile: %zu kernels in %.1f s wall (%s, %d processes; median %.2f s per case; %zu cache hits); %d with stack, %d unknown\n",
              cases.size(), compile_wall, backend_version(o.rtc).c_str(), o.jobs, median(compile_seconds),
              cases.size() - compile_seconds.size(), stack_bad, stack_unknown);
  std::printf("results: %s (%d of %zu differ); counters: %s (%d differ, %lld pending)\n", results_bad ? "DIFFER" : "all equal",
              results_bad, records.size(), !o.counters ? "not measured" : counters_bad ? "DIFFER"
                                                                          : counters_pending ? "incomplete" : "all equal",
              counters_bad, o.counters ? counters_pending : 0LL);
  if (o.counters && counters_pending)
    std::printf("counters: %lld cases pending (%s); finish with: tilesim-gpu props --counters-only --report %s\n",
                counters_pending, counters_error.c_str(), o.report ? o.report->c_str() : "FILE");
  std::printf("cycles per block, simulator vs GPU: median |error| %.1f %%, worst %.1f %%", 100 * median(ratio),
              ratio.empty() ? 0.0 : 100 * *std::max_element(ratio.begin(), ratio.end()));
  for (std::size_t k = 0; k < std::min<std::size_t>(3, worst.size()); ++k) std::printf("%s case %d", k ? "," : "; worst:", worst[k].second);
  std::printf("\n");
  for (const auto& [layout, e] : by_layout)
    std::printf("  %-13s median |cycle error| %5.1f %% over %zu cases\n", layout.c_str(), 100 * median(e), e.size());
  if (by_kind.size() > 1)
    for (const auto& [kind, e] : by_kind)
      std::printf("  kind %-8s median |cycle error| %5.1f %% over %zu cases\n", kind.c_str(), 100 * median(e), e.size());
  if (o.pairs)
    std::printf("layout pairs: %d (%zu drawn cases without a twin); the faster layout named in %d of the %d measured more than "
                "5 %% apart; speed-up |error| median %.1f %%, worst %.1f %%\n",
                verdicts.pairs, static_cast<std::size_t>(o.cases) - pairs.size(), verdicts.faster_named, verdicts.differing,
                100 * verdicts.median_abs_speedup_error, 100 * verdicts.worst_abs_speedup_error);
  if (sanitizer.get("memcheck"))
    std::printf("compute-sanitizer over %lld cases: memcheck %s, racecheck %s\n",
                static_cast<long long>(sanitizer["cases"].number()), sanitizer["memcheck"].string().c_str(),
                sanitizer["racecheck"].string().c_str());
  std::printf("wall time %.0f s\n", total);
  if (o.report) {
    cli::write_file_replacing(*o.report, dump(report) + "\n", "--report");
    std::printf("wrote %s\n", o.report->c_str());
  }
  const bool sanitizer_clean = !sanitizer.get("memcheck") ||
                               (sanitizer["memcheck"].string() == "clean" && sanitizer["racecheck"].string() == "clean");
  return context_lost.empty() && (!o.counters || counters_pending == 0) && records.size() == cases.size() && results_bad == 0 && counters_bad == 0 && stack_bad == 0 && sanitizer_clean ? 0 : 1;
}

}  // namespace tilesim::gpu::props
