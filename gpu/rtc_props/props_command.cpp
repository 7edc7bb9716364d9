// tilesim/gpu/rtc_props/props_command.cpp: the steps of `tilesim-gpu props` (props_internal.hpp): options, progress,
// compiling, one case on both sides, the sanitizer pass over props-pass, case files (the profiler pass:
// counters_pass.cpp).
#include "gpu/rtc_props/props_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "util/args.hpp"
#include "util/output_file.hpp"
#include "gpu/crosscheck/ncu.hpp"
#include "gpu/rtc_props/compile_batch.hpp"
#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_generators.hpp"
#include "gpu/rtc_props/props_json.hpp"
#include "gpu/rtc_props/props_report.hpp"
#include "gpu/rtc_props/props_sim.hpp"
#include "gpu/rtc_props/props_internal.hpp"
#include "gpu/rtc_props/sanitizer_verdict.hpp"
#include "gpu/rtc_props/shrink.hpp"

namespace tilesim::gpu::props {

using util::json_value;
using util::json_error;
using util::parse_json;
using util::dump;

using cli::usage_error;

// One progress line on stderr, redrawn in place: "compile [#####.....] 250/500".
void progress(const char* phase, std::size_t done, std::size_t total) {
  const int width = 30, filled = total ? static_cast<int>(width * done / total) : width;
  static int last = -1;
  static const char* last_phase = nullptr;
  if (filled == last && phase == last_phase && done != total) return;  // redraw only when the bar moves
  last = filled;
  last_phase = phase;
  std::fprintf(stderr, "\r%-8s [%s%s] %zu/%zu", phase, std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), '.').c_str(), done, total);
  if (done == total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

namespace {
// Case `index`'s input seed: splitmix64 of the run's seed, as crosscheck's point_seed.
std::uint64_t input_seed(std::uint64_t seed, std::size_t index) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (index + 1);  // splitmix64, as crosscheck's point_seed
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

// Compiles every case in `jobs` worker processes (`tilesim-gpu props-pass --compile-worker`), with a progress bar.
std::vector<compiled_kernel> compile_all(const std::vector<props_case>& cases, const rtc_options& o, int jobs, bool show) {
  return compile_batch(cases, o, jobs, show ? std::function<void(std::size_t, std::size_t)>([](std::size_t d, std::size_t n) {
    progress("compile", d, n);
  }) : nullptr, {"props-pass"});
}

// The simulator side and the GPU side of one case (not the counters): a filled case_record.
case_record run_case(int index, const props_case& device_case, const compiled_kernel& k, std::uint64_t seed, int repeat,
                     const device_backend& device) {
  case_record r;
  r.index = index;
  r.device_case = device_case;
  r.kernel = kernel_name(device_case);
  r.input_seed = input_seed(seed, static_cast<std::size_t>(index));
  r.compile = k;
  r.compile.cubin.clear();
  r.compile.log.clear();
  props_case sim_case = device_case;
  sim_case.fault = 0;  // the fault is on the device side only
  const case_inputs in = make_case_inputs(sim_case, r.input_seed);
  try {
    const case_simulation s = simulate_case(sim_case, in);
    r.simulated = s.predicted;
    r.sim_cycles = s.cycles_per_workgroup;
    r.lds_bytes = s.lds_bytes;
    r.sim_clean = s.clean;
    r.stores_ok = s.stores_per_element_ok;
    const case_check sc = check_case_output(sim_case, in, s.buffers[1]);
    r.sim_output_ok = sc.mismatches == 0;
    r.sim_note = s.findings + (s.stores_note.empty() ? "" : (s.findings.empty() ? "" : "; ") + s.stores_note) +
                 (sc.mismatches ? " output " + sc.first_mismatch : "");
  } catch (const std::exception& e) {
    r.error = std::string("simulator: ") + e.what();
    return r;
  }
  if (!k.ok) {
    r.error = "compile failed: " + k.log.substr(0, 2000);
    return r;
  }
  const device_launch untimed{static_cast<int>(device_case.grid), static_cast<int>(device_case.threads), r.lds_bytes, false};
  const device_result g = device.run(device_case, k.cubin, r.kernel, untimed, in.buffers);
  r.gpu_ran = true;
  r.registers = g.registers;
  r.local_bytes = g.local_bytes;
  const case_check gc = check_case_output(sim_case, in, g.buffers[1]);
  r.gpu_output_ok = gc.mismatches == 0;
  r.gpu_mismatch = gc.first_mismatch;
  double best = 1e300;
  for (int t = 0; t < repeat; ++t) {
    device_launch timed = untimed;
    timed.timed = true;
    const device_result tr = device.run(device_case, k.cubin, r.kernel, timed, in.buffers);
    std::vector<double> blocks(tr.block_cycles.begin(), tr.block_cycles.end());
    const double m = median(blocks);
    if (m < best) {
      best = m;
      r.gpu_cycles_median = m;
      r.gpu_cycles_min = *std::min_element(blocks.begin(), blocks.end());
      r.gpu_cycles_max = *std::max_element(blocks.begin(), blocks.end());
    }
  }
  return r;
}

// The cases as a JSON array in a fresh temporary folder; returns the file's path.
std::string write_cases_file(const std::vector<props_case>& cases) {
  char dir[] = "/tmp/tilesim-props-XXXXXX";
  if (!mkdtemp(dir)) throw std::runtime_error("cannot make a temporary directory");
  json_value::array a;
  for (const props_case& c : cases) a.push_back(to_json(c));
  const std::string path = std::string(dir) + "/cases.json";
  std::ofstream(path) << dump(json_value(a)) << "\n";
  return path;
}

// props-pass's arguments for `cases_file`, with this run's cache, root and compiler.
std::string pass_args(const std::string& cases_file, const options& o) {
  return " props-pass --cases-file " + cases_file + " --cache " + o.rtc.cache + " --root " + o.rtc.root +
         " --compiler " + (o.rtc.backend == rtc_backend::nvcc ? "nvcc" : "nvrtc");
}

// compute-sanitizer `tool` over props-pass for `cases`: "" when clean, else its summary lines.
std::string sanitize(const std::vector<props_case>& cases, const options& o, const std::string& tool) {
  std::string program = "compute-sanitizer";
  if (std::system("command -v compute-sanitizer > /dev/null 2>&1") != 0) program = o.rtc.cuda + "/bin/compute-sanitizer";
  const std::string file = write_cases_file(cases);
  const std::string log = file.substr(0, file.rfind('/')) + "/" + tool + ".log";
  const std::string command = program + " --tool " + tool + " --error-exitcode 3 /proc/" + std::to_string(getpid()) +
                              "/exe" + pass_args(file, o) + " > " + log + " 2>&1";
  const int status = std::system(command.c_str());
  std::stringstream s;
  s << std::ifstream(log).rdbuf();
  // props-pass's own exit 1 (an output differs) is the run's verdict, not the tool's: only the tool's 3 counts here.
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return sanitizer_findings(tool, code == 1 ? 0 : code, s.str());
}

// The case(s) of a JSON file: an array of cases, one case, or a report row {"case": ...}; usage_error if bad.
std::vector<props_case> read_cases_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw usage_error("cannot read --cases-file " + path);
  std::stringstream s;
  s << f.rdbuf();
  std::vector<props_case> cases;
  try {  // a bad file is bad input (exit 2), named
    const json_value v = parse_json(s.str());
    if (v.is_array()) {
      for (const json_value& c : v.elements()) cases.push_back(case_from_json(c));
    } else {
      cases.push_back(case_from_json(v.get("case") ? v["case"] : v));
    }
  } catch (const json_error& e) {
    throw usage_error("--cases-file " + path + ": " + e.what());
  }
  if (cases.empty()) throw usage_error("--cases-file " + path + " holds no case");
  return cases;
}

// The options of props (pass: of props-pass); usage_error (exit 2) for a bad or unknown one.
options parse(std::vector<std::string>& args, bool pass) {
  options o;
  o.jobs = default_compile_jobs();
  const auto cases = pass ? std::nullopt : cli::take_text_option(args, "cases");
  const auto seed = pass ? std::nullopt : cli::take_text_option(args, "seed");
  o.report = pass ? std::nullopt : cli::take_text_option(args, "report");
  o.case_file = cli::take_text_option(args, "cases-file");
  const auto cache = cli::take_text_option(args, "cache");
  const auto root = cli::take_text_option(args, "root");
  const auto compiler = cli::take_text_option(args, "compiler");
  const auto jobs = pass ? std::nullopt : cli::take_text_option(args, "compile-jobs");
  const auto old_jobs = pass ? std::nullopt : cli::take_text_option(args, "jobs");  // the earlier spelling
  if (jobs && old_jobs) throw usage_error("--compile-jobs and --jobs are one option: give it once");
  const auto batch = pass ? std::nullopt : cli::take_text_option(args, "counters-batch");
  const auto deadline = pass ? std::nullopt : cli::take_text_option(args, "counters-deadline");
  const auto repeat = pass ? std::nullopt : cli::take_text_option(args, "repeat");
  const auto budget = pass ? std::nullopt : cli::take_text_option(args, "shrink-budget");
  const auto shrink_seconds = pass ? std::nullopt : cli::take_text_option(args, "shrink-seconds");
  const auto sanitize_n = pass ? std::nullopt : cli::take_text_option(args, "sanitize-cases");
  const auto fault = pass ? std::nullopt : cli::take_text_option(args, "fault");
  const auto kinds = pass ? std::nullopt : cli::take_text_option(args, "kinds");
  o.counters = pass ? false : !cli::take_flag(args, "no-counters");
  o.counters_only = !pass && cli::take_flag(args, "counters-only");
  o.pairs = !pass && cli::take_flag(args, "pairs");
  o.counting = pass && cli::take_flag(args, "counting");
  if (!args.empty()) throw usage_error(std::string("tilesim-gpu ") + (pass ? "props-pass" : "props") + ": unknown argument \"" + args[0] + "\"");
  auto ranged = [](const std::optional<std::string>& t, const char* name, long long lo, long long hi, long long def) {
    if (!t) return def;
    const long long v = cli::parse_int(*t, std::string("option --") + name);
    if (v < lo || v > hi)
      throw usage_error(std::string("--") + name + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + " (got " + *t + ")");
    return v;
  };
  o.cases = static_cast<int>(ranged(cases, "cases", 1, 100000, 200));
  o.seed = seed ? static_cast<std::uint64_t>(cli::parse_int(*seed, "option --seed")) : std::random_device{}() % 1000000000u;
  o.jobs = static_cast<int>(jobs ? ranged(jobs, "compile-jobs", 1, 1024, o.jobs) : ranged(old_jobs, "jobs", 1, 1024, o.jobs));
  o.counters_batch = static_cast<int>(ranged(batch, "counters-batch", 1, 100000, 50));
  o.counters_deadline_seconds = static_cast<int>(ranged(deadline, "counters-deadline", 1, 86400, 0));
  if (o.counters_only && !o.counters) throw usage_error("--counters-only and --no-counters contradict each other");
  if (o.counters_only && !o.report) throw usage_error("--counters-only needs --report FILE (the report of an earlier run)");
  if (o.counters_only && (cases || seed || o.case_file || fault || kinds))
    throw usage_error("--counters-only takes its cases from --report FILE: no --cases, --seed, --cases-file, --fault or --kinds");
  if (kinds && o.case_file) throw usage_error("--kinds draws cases from --seed; --cases-file names them: give one");
  if (o.pairs && (o.case_file || o.counters_only))
    throw usage_error("--pairs twins the cases drawn from --seed: not with --cases-file or --counters-only");
  if (kinds) {
    try {
      o.kinds = parse_kinds(*kinds);
    } catch (const std::invalid_argument& e) {
      throw usage_error(std::string("--kinds: ") + e.what());
    }
  }
  o.repeat = static_cast<int>(ranged(repeat, "repeat", 1, 100, 3));
  o.shrink_budget = static_cast<int>(ranged(budget, "shrink-budget", 0, 100000, 150));
  o.shrink_seconds = static_cast<int>(ranged(shrink_seconds, "shrink-seconds", 0, 86400, 120));
  o.sanitize_cases = static_cast<int>(ranged(sanitize_n, "sanitize-cases", 0, 100000, 8));
  if (fault && *fault != "swizzle-bit") throw usage_error("--fault takes swizzle-bit (got \"" + *fault + "\")");
  o.fault = fault ? 1 : 0;
  if (compiler && *compiler != "nvrtc" && *compiler != "nvcc")
    throw usage_error("--compiler must be nvrtc or nvcc (got \"" + *compiler + "\")");
  o.rtc.backend = compiler && *compiler == "nvcc" ? rtc_backend::nvcc : rtc_backend::nvrtc;
  o.rtc.cache = cache.value_or("/tmp/tilesim-props-cache");
  o.rtc.root = find_root(root.value_or("."));
  if (pass && !o.case_file) throw usage_error("usage: tilesim-gpu props-pass --cases-file FILE [--cache DIR] [--root DIR] [--compiler nvrtc|nvcc] [--counting]");
  return o;
}

}  // namespace tilesim::gpu::props
