// tilesim/gpu/props/props_internal.hpp: the steps of `tilesim-gpu props`, shared by props_command.cpp (helpers,
// props-pass) and props_main.cpp (the run). Not a public interface.
//
// DEFINITION. parse() reads the options (usage_error, exit 2, on a bad one); compile_all() compiles cases on
// `jobs` threads; run_case() runs one case's simulator and GPU sides; measure_batch() is one Nsight Compute
// run over props-pass; sanitize() one compute-sanitizer run; read_cases_file() reads a JSON case or array.
//
// WORKED EXAMPLE. options o = parse(args, false); auto m = compile_all(cases, o.rtc, o.jobs, true);
//
// INVARIANTS: run_case never runs the device fault on the simulator side (fault = 0 there).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpu/props/props_command.hpp"
#include "gpu/props/props_report.hpp"
#include "gpu/props/rtc_compiler.hpp"

namespace tilesim::gpu::props {

struct options {
  int cases = 200;
  std::uint64_t seed = 0;
  std::optional<std::string> report, case_file;
  rtc_options rtc;
  int jobs = 1, repeat = 3, shrink_budget = 150, shrink_seconds = 120, sanitize_cases = 8;
  bool counters = true;
  int fault = 0;
};

options parse(std::vector<std::string>& args, bool pass);
void progress(const char* phase, std::size_t done, std::size_t total);
double median(std::vector<double> v);
std::string utc_now();
std::vector<compiled_kernel> compile_all(const std::vector<props_case>& cases, const rtc_options& o, int jobs, bool show);
case_record run_case(int index, const props_case& device_case, const compiled_kernel& k, std::uint64_t seed, int repeat);
std::vector<counters> measure_batch(const std::vector<props_case>& cases, const options& o, const crosscheck_hooks& h);
std::string sanitize(const std::vector<props_case>& cases, const options& o, const std::string& tool);
std::vector<props_case> read_cases_file(const std::string& path);

}  // namespace tilesim::gpu::props
