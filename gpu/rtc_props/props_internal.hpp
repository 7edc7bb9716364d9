// tilesim/gpu/rtc_props/props_internal.hpp: the steps of `tilesim-gpu props`, shared by props_command.cpp (helpers,
// props-pass) and props_main.cpp (the run). Not a public interface.
//
// DEFINITION. parse() reads the options (usage_error, exit 2, on a bad one); compile_all() compiles cases in
// `jobs` worker processes (compile_batch.hpp); run_case() runs one case's simulator and GPU sides; the Nsight
// Compute pass is counters_pass.hpp's; sanitize() one compute-sanitizer run; read_cases_file() reads a JSON
// case or array.
//
// WORKED EXAMPLE. options o = parse(args, false); auto m = compile_all(cases, o.rtc, o.jobs, true);
//
// INVARIANTS: run_case never runs the device fault on the simulator side (fault = 0 there).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpu/rtc_props/props_command.hpp"
#include "gpu/rtc_props/props_report.hpp"
#include "gpu/rtc_props/rtc_compiler.hpp"

namespace tilesim::gpu::props {

// The device side of a run: the real GPU (props_device.cpp: CUDA runtime, Nsight Compute, compute-sanitizer) or,
// for the harness's own CPU tests only, the simulator standing in for it (props_simulated.cpp). The kernel a
// real run launches is always the NVRTC-compiled one; the stand-in runs the device case (its fault included)
// on the simulator, so the harness's flow (verdicts, shrinking, report) is tested without a GPU.
struct options;
struct device_backend {
  std::function<device_description()> describe;
  // Runs case c's compiled kernel (cubin, name) over `buffers`.
  std::function<device_result(const props_case& c, const std::string& cubin, const std::string& name,
                              const device_launch& l, std::vector<byte_buffer> buffers)> run;
  // The counters of each case's kernel (one profiler pass over the batch).
  std::function<std::vector<counters>(const std::vector<props_case>& cases, const options& o)> count;
  // "" when `tool` finds nothing over `cases`, else its summary.
  std::function<std::string(const std::vector<props_case>& cases, const options& o, const std::string& tool)> sanitize;
};

// The whole `tilesim-gpu props` run on `device` (props_main.cpp).
int run_props(std::vector<std::string> args, const std::string& command_line, const device_backend& device);
// The simulator standing in for the GPU (test only; props_simulated.cpp).
device_backend simulated_backend();

struct options {
  int cases = 200;
  std::uint64_t seed = 0;
  std::optional<std::string> report, case_file;
  rtc_options rtc;
  int jobs = 1, repeat = 3, shrink_budget = 150, shrink_seconds = 120, sanitize_cases = 8;
  bool counters = true;
  bool counters_only = false;  // --counters-only: count the pending cases of --report FILE (counters_pass.hpp)
  int counters_batch = 50;     // kernels per ncu process
  int counters_deadline_seconds = 0;  // --counters-deadline S: the counters pass ends S s after the start (0: none)
  std::chrono::steady_clock::time_point counters_deadline = std::chrono::steady_clock::time_point::max();
  bool counting = false;  // props-pass under Nsight Compute: exit 0 even when an output differs (the run judges)
  int fault = 0;
  std::vector<props_kind> kinds = {props_kind::copy};  // --kinds: what the generated programs may be (props_case.hpp)
  bool pairs = false;  // --pairs: each drawn case runs beside its layout twin (layout_pairs.hpp)
};

options parse(std::vector<std::string>& args, bool pass);
void progress(const char* phase, std::size_t done, std::size_t total);
std::vector<compiled_kernel> compile_all(const std::vector<props_case>& cases, const rtc_options& o, int jobs, bool show);
case_record run_case(int index, const props_case& device_case, const compiled_kernel& k, std::uint64_t seed, int repeat,
                     const device_backend& device);
std::string write_cases_file(const std::vector<props_case>& cases);
std::string pass_args(const std::string& cases_file, const options& o);
std::string sanitize(const std::vector<props_case>& cases, const options& o, const std::string& tool);
std::vector<props_case> read_cases_file(const std::string& path);

}  // namespace tilesim::gpu::props
