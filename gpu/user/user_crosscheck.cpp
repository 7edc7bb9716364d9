// tilesim/gpu/user/user_crosscheck.cpp: comparisons, counters and the report of crosscheck() (see the header).
#include "gpu/user/user_crosscheck.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "gpu/crosscheck/ncu.hpp"
#include "gpu/crosscheck/sass_lines.hpp"
#include "gpu/crosscheck/source_counters.hpp"

namespace tilesim::gpu {

using util::json_value;
using util::exact_u64;

std::vector<byte_buffer> user_buffers::initial_bytes() const {
  std::vector<byte_buffer> out;
  for (const slot& s : slots_) out.push_back(s.initial);
  return out;
}

namespace detail {
namespace {

// A source page with the program lines of o.sass_listing attached, when one was given.
std::vector<sass_row> with_lines(std::vector<sass_row> rows, const crosscheck_options& o) {
  if (!o.sass_listing.empty()) attach_source_lines(rows, read_sass_lines(o.sass_listing), o.sass_listing);
  return rows;
}

constexpr const char* counters_env = "TILESIM_CROSSCHECK_COUNTERS";

// This executable's command line, each argument single-quoted for the shell: '/proc/self/exe' 'a b'.
std::string own_command_line(bool quoted) {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::string out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= raw.size(); ++i) {
    if (i < raw.size() && raw[i] != '\0') continue;
    if (i == start && i == raw.size()) break;
    std::string arg = raw.substr(start, i - start);
    if (start == 0 && quoted) arg = "/proc/" + std::to_string(getpid()) + "/exe";  // the very binary running
    if (quoted) {
      std::string q = "'";
      for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
      arg = q + "'";
    }
    out += (out.empty() ? "" : " ") + arg;
    start = i + 1;
  }
  return out;
}

// "1.5" or "0x3f80": an element of `s` at element index i, for a mismatch message.
std::string element_text(const user_buffers::slot& s, const byte_buffer& b, std::size_t i) {
  char buf[64];
  const unsigned char* p = b.data() + i * s.element_bytes;
  if (s.floating && s.element_bytes == 4) {
    float v;
    std::memcpy(&v, p, 4);
    std::snprintf(buf, sizeof buf, "%.9g", v);
  } else if (s.floating && s.element_bytes == 8) {
    double v;
    std::memcpy(&v, p, 8);
    std::snprintf(buf, sizeof buf, "%.17g", v);
  } else {
    std::string hex = "0x";
    for (std::size_t k = s.element_bytes; k-- > 0;) {
      std::snprintf(buf, sizeof buf, "%02x", p[k]);
      hex += buf;
    }
    return hex;
  }
  return buf;
}

// Mismatching elements of output slot s (GPU against simulator) and the first one named.
std::pair<long long, std::string> compare_slot(const user_buffers::slot& s, const byte_buffer& sim, const byte_buffer& gpu) {
  if (sim.size() != gpu.size())
    return {1, s.name + ": the GPU returned " + std::to_string(gpu.size()) + " bytes, the simulator " + std::to_string(sim.size())};
  long long bad = 0;
  std::string first;
  const std::size_t n = sim.size() / s.element_bytes;
  for (std::size_t i = 0; i < n; ++i) {
    bool same = std::memcmp(sim.data() + i * s.element_bytes, gpu.data() + i * s.element_bytes, s.element_bytes) == 0;
    if (!same && s.floating && s.tolerance > 0) {
      double a = 0, b = 0;
      if (s.element_bytes == 4) {
        float x, y;
        std::memcpy(&x, sim.data() + i * 4, 4);
        std::memcpy(&y, gpu.data() + i * 4, 4);
        a = x, b = y;
      } else {
        std::memcpy(&a, sim.data() + i * 8, 8);
        std::memcpy(&b, gpu.data() + i * 8, 8);
      }
      same = std::fabs(a - b) <= s.tolerance;
    }
    if (same) continue;
    if (bad++ == 0)
      first = s.name + "[" + std::to_string(i) + "]: simulator " + element_text(s, sim, i) + ", GPU " + element_text(s, gpu, i);
  }
  return {bad, first};
}

// ncu's words on one line, at most 400 characters: "==ERROR== ERR_NVGPUCTRPERM - The user ...".
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.size() > 400 ? out.substr(0, 397) + "..." : out;
}

// Why the counters were not measured, from what ncu (or the search for it) threw: ncu's own "==ERROR==" lines
// where it wrote any (the profiled program's output before them says less); a refused profiler says so first.
std::string counters_skip_reason(const std::string& what) {
  std::istringstream in(what);
  std::string line, errors;
  while (std::getline(in, line))
    if (line.find("==ERROR==") != std::string::npos) errors += line.substr(line.find("==ERROR==")) + "\n";
  const std::string words = errors.empty() ? one_line(what) : "ncu failed: " + one_line(errors);
  if (what.find("ERR_NVGPUCTRPERM") != std::string::npos)
    return "Nsight Compute may not read this GPU's performance counters (ERR_NVGPUCTRPERM: profiling is restricted "
           "to admin users on this machine): " + words;
  return words;
}

// The simulator's twelve counters, one line each: "    global_sectors_ld        sim 64".
std::string simulator_counter_lines(const counters& c) {
  std::string out;
  char line[160];
  const json_value j = to_json(c);
  for (const auto& [name, value] : j.members()) {
    std::snprintf(line, sizeof line, "    %-24s sim %lld\n", name.c_str(), static_cast<long long>(value.number()));
    out += line;
  }
  return out;
}

// What the comparison of the outputs found: elements compared, mismatches, the first one named.
struct output_check {
  long long compared = 0, mismatches = 0;
  std::string first;
};

// Every output slot, GPU (warm) against the simulator's run.
output_check compare_outputs(const user_buffers& buffers, const sim::run_result& run, const device_result& warm) {
  output_check c;
  for (std::size_t k = 0; k < buffers.slots().size(); ++k) {
    const user_buffers::slot& s = buffers.slots()[k];
    if (!s.output) continue;
    const byte_buffer sim_bytes = s.bytes_of(run.memory);
    const auto [bad, what] = compare_slot(s, sim_bytes, warm.buffers.at(k));
    c.compared += static_cast<long long>(sim_bytes.size() / s.element_bytes);
    c.mismatches += bad;
    if (bad && c.first.empty()) c.first = what;
  }
  return c;
}

// Nsight Compute's totals, and per instruction its source counters, for call `index`; what ncu refuses is
// kept as the report's reasons, not thrown.
void measure_with_ncu(const crosscheck_options& o, const sim::run_result& run, const user_call& call, user_report& r) {
  const std::string env = std::string(counters_env) + "=" + std::to_string(call.index) + " ";
  try {
    const std::vector<ncu_launch> launches =
        count_with_ncu("--kernel-name regex:user_kernel --launch-count 1", own_command_line(true), env);
    if (launches.size() != 1)
      throw device_error("ncu counted " + std::to_string(launches.size()) + " user_kernel launches in the counters pass of " +
                         o.name + " (expected 1)");
    r.gpu = launches[0].measured;
    r.counters_measured = true;
    r.counters_equal = r.gpu == r.simulator;
  } catch (const std::exception& e) {
    r.why_counters_skipped = counters_skip_reason(e.what());
    return;  // the source counters need the same profiler
  }
  if (!o.source_counters || !o.ncu_source.empty()) return;
  try {  // per instruction: one more run, under SourceCounters
    char dir[] = "/tmp/tilesim-source-XXXXXX";
    if (!mkdtemp(dir)) throw device_error("cannot make a temporary directory for ncu's source counters");
    const std::string base = std::string(dir) + "/source";
    r.source = compare_source_counters(
        sim::arch_named(o.arch), run,
        with_lines(measure_source_counters("--kernel-name regex:user_kernel --launch-count 1", own_command_line(true),
                                           env, base),
                   o),
        "live: " + base + ".ncu-rep");
    r.source_compared = true;
  } catch (const std::exception& e) {
    r.why_source_skipped = counters_skip_reason(e.what());
  }
}

// The lines `tilesim-gpu crosscheck` prints for a point; without the GPU's numbers, the simulator's counters.
std::string report_text(const crosscheck_options& o, const user_report& r, const output_check& out, double error) {
  char line[1024];
  const char* name = o.name.c_str();
  std::string text;
  if (r.skipped || !r.gpu_error.empty()) {
    std::snprintf(line, sizeof line, "  %-32s %s: %s (simulator: %.0f cycles/workgroup)\n", name,
                  r.skipped ? "skipped" : "GPU FAILED", r.skipped ? r.why_skipped.c_str() : r.gpu_error.c_str(),
                  r.predicted_cycles);
    text = line;
    std::snprintf(line, sizeof line, "  %-32s simulator, %s, %d x %d threads, waves of %d: %s; counters:\n", name,
                  o.arch.c_str(), r.launch.grid, r.launch.block, r.launch.wave_size,
                  r.report.verdict.empty() ? "not run" : r.report.verdict.c_str());
    text += line;
    text += simulator_counter_lines(r.simulator);
  } else {
    std::snprintf(line, sizeof line, "  %-32s results %-5s %s; cycles/block sim %.0f gpu %.0f (%+.1f %%)\n", name,
                  r.results_equal ? "equal" : "DIFFER", r.results_equal ? "gpu ok" : out.first.c_str(), r.predicted_cycles,
                  r.measured_cycles, 100 * error);
    text = line;
    if (r.twin_measured)
      std::snprintf(line, sizeof line, "  %-32s price: %d registers, %lld B local/thread, %zu B LDS; cycles/block tilesim "
                    "%.0f, hand-written %.0f (%.3fx; twin: %d registers, %lld B local/thread)%s\n", name, r.registers,
                    r.local_bytes, r.lds_bytes, r.measured_cycles, r.twin_cycles, r.over_twin(), r.twin_registers,
                    r.twin_local_bytes, r.twin_mismatches ? " HAND-WRITTEN OUTPUT DIFFERS" : "");
    else if (!r.twin_error.empty())
      std::snprintf(line, sizeof line, "  %-32s price: %d registers, %lld B local/thread, %zu B LDS; hand-written kernel "
                    "FAILED: %s\n", name, r.registers, r.local_bytes, r.lds_bytes, r.twin_error.c_str());
    else
      std::snprintf(line, sizeof line, "  %-32s price: %d registers, %lld B local/thread, %zu B LDS; no hand-written kernel\n",
                    name, r.registers, r.local_bytes, r.lds_bytes);
    text += line;
    if (r.twin_mismatches) text += "  " + std::string(name) + "  hand-written: " + r.twin_first_mismatch + "\n";
  }
  if (r.counters_measured) {
    std::snprintf(line, sizeof line, "  %-32s counters %s\n", name, r.counters_equal ? "equal" : "DIFFER");
    text += line;
    const json_value a = to_json(r.simulator), b = to_json(r.gpu);
    for (std::size_t k = 0; k < a.members().size(); ++k)
      if (a.members()[k].second != b.members()[k].second) {
        std::snprintf(line, sizeof line, "    %-24s sim %lld, gpu %lld\n", a.members()[k].first.c_str(),
                      static_cast<long long>(a.members()[k].second.number()),
                      static_cast<long long>(b.members()[k].second.number()));
        text += line;
      }
  }
  if (!r.why_counters_skipped.empty()) {
    std::snprintf(line, sizeof line, "  %-32s counters skipped: %s\n", name, r.why_counters_skipped.c_str());
    text += line;
    text += simulator_counter_lines(r.simulator);
  }
  if (!r.why_source_skipped.empty()) {
    std::snprintf(line, sizeof line, "  %-32s source counters skipped: %s\n", name, r.why_source_skipped.c_str());
    text += line;
  }
  if (r.source_compared) text += source_table(r.source, "  ");
  return text;
}

// {"status": S, "reason": why or null}.
json_value status_json(const char* status, const std::string& why) {
  json_value j;
  j.set("status", status);
  j.set("reason", why.empty() ? json_value() : json_value(why));
  return j;
}

// tilesim.crosscheck/1 with one point, program "user"; the GPU's part only where it ran (see the top).
json_value report_json(const crosscheck_options& o, const user_report& r, const output_check& out,
                       const gpu_outcome& gpu, double error) {
  const bool ran = !r.skipped && r.gpu_error.empty();
  json_value doc;
  doc.set("schema", "tilesim.crosscheck/1");
  doc.set("tool", "tilesim::gpu::crosscheck");
  doc.set("command", own_command_line(false));
  doc.set("date", utc_now());
  json_value dev;
  if (gpu.device) {
    dev.set("name", gpu.device->name);
    dev.set("driver", gpu.device->driver);
    dev.set("runtime_version", gpu.device->runtime_version);
    dev.set("multiprocessors", gpu.device->multiprocessors);
    dev.set("clock_khz", gpu.device->clock_khz);
  }
  doc.set("device", std::move(dev));  // null without a GPU
  doc.set("seed", exact_u64(o.seed));
  json_value point;
  point.set("name", o.name);
  point.set("program", "user");
  json_value params;
  params.set("arch", o.arch);
  point.set("params", std::move(params));
  json_value l;
  l.set("grid", r.launch.grid);
  l.set("block", r.launch.block);
  l.set("wave_size", r.launch.wave_size);
  point.set("launch", std::move(l));
  point.set("seed", exact_u64(o.seed));
  json_value gpu_part = status_json(r.skipped ? "skipped" : ran ? "measured" : "failed",
                                    r.skipped ? r.why_skipped : r.gpu_error);
  if (ran)
    gpu_part.set("counters", status_json(r.counters_measured ? "measured" : o.counters ? "skipped" : "off",
                                         r.why_counters_skipped));
  point.set("gpu", std::move(gpu_part));
  auto output = [&](const char* method) {
    json_value c;
    c.set("method", method);
    c.set("compared", out.compared);
    c.set("mismatches", out.mismatches);
    c.set("max_error_over_bound", 0);
    c.set("first_mismatch", out.first.empty() ? json_value() : json_value(out.first));
    return c;
  };
  json_value sim_check = output("the simulator's own run (the reference of the comparison)");
  sim_check.at("mismatches") = 0;
  sim_check.at("first_mismatch") = json_value();
  point.set("simulator_output", std::move(sim_check));
  if (ran) point.set("gpu_output", output("GPU against simulator: bit for bit, float buffers within their stated tolerance"));
  json_value simv;
  simv.set("counters", to_json(r.simulator));
  simv.set("cycles_per_workgroup", r.predicted_cycles);
  simv.set("lds_bytes", static_cast<long long>(r.lds_bytes));
  point.set("simulator", std::move(simv));
  if (ran) {
    json_value hw;
    hw.set("cycles_per_block_median", r.measured_cycles);
    std::vector<long long> best = gpu.timed.empty() ? std::vector<long long>{0} : gpu.timed[0];
    for (const std::vector<long long>& t : gpu.timed)
      if (median(std::vector<double>(t.begin(), t.end())) == r.measured_cycles) best = t;
    if (best.empty()) best = {0};
    hw.set("cycles_per_block_min", static_cast<double>(*std::min_element(best.begin(), best.end())));
    hw.set("cycles_per_block_max", static_cast<double>(*std::max_element(best.begin(), best.end())));
    hw.set("timed_launches", static_cast<long long>(gpu.timed.size()));
    hw.set("registers", r.registers);
    hw.set("local_bytes_per_thread", r.local_bytes);
    if (r.counters_measured) hw.set("counters", to_json(r.gpu));
    point.set("hardware", std::move(hw));
    if (r.twin_measured) {
      json_value twin;
      twin.set("cycles_per_block_median", r.twin_cycles);
      json_value c;
      c.set("method", "the twin's outputs against the simulator's: bit for bit, float buffers within their stated tolerance");
      c.set("compared", out.compared);
      c.set("mismatches", r.twin_mismatches);
      c.set("max_error_over_bound", 0);
      c.set("first_mismatch", r.twin_first_mismatch.empty() ? json_value() : json_value(r.twin_first_mismatch));
      twin.set("output", std::move(c));
      twin.set("registers", r.twin_registers);
      twin.set("local_bytes_per_thread", r.twin_local_bytes);
      point.set("hand_written", std::move(twin));
      point.set("tilesim_over_hand_written", r.over_twin());
    }
    point.set("cycle_error", error);
  }
  if (r.counters_measured) point.set("counters_equal", r.counters_equal);
  if (r.source_compared) point.set("source_counters", to_json(r.source));
  json_value& points = doc.set("points", json_value::array{});
  points.push(std::move(point));
  json_value summary;
  summary.set("points", 1);
  summary.set("results_equal", r.skipped ? json_value() : json_value(r.results_equal));  // null: nothing compared
  summary.set("counters_measured", r.counters_measured);
  summary.set("counters_equal", r.counters_measured ? json_value(r.counters_equal) : json_value());
  const json_value abs_error = ran ? json_value(std::fabs(error)) : json_value();  // null: no GPU cycles
  summary.set("median_abs_cycle_error", abs_error);
  json_value per = json_value::object{};
  if (ran) per.set("user", abs_error);
  summary.set("median_abs_cycle_error_by_program", std::move(per));
  summary.set("max_abs_cycle_error", abs_error);
  doc.set("summary", std::move(summary));
  return doc;
}

}  // namespace
}  // namespace detail

sim::launch simulated_launch(const user_launch& l, const sim::arch_table& arch) {
  // The models price a wave instruction of exactly the arch's lanes: another wave size cannot be priced there.
  if (l.wave_size != 0 && l.wave_size != arch.wave_size)
    throw std::invalid_argument("crosscheck: wave_size must be 0 (the arch's) or " + std::string(arch.name) +
                                "'s own " + std::to_string(arch.wave_size) + " (wave_size = " +
                                std::to_string(l.wave_size) + "); for waves of another size choose that arch (options.arch)");
  sim::launch s;
  s.grid = l.grid;
  s.block = l.block;
  s.stack_bytes = l.stack_bytes;
  s.max_lds_bytes = l.max_lds_bytes;
  s.split_bytes = l.split_bytes;
  s.max_reports = l.max_reports;
  s.measure_stack = l.measure_stack;
  sim::apply_guard_rules(arch, s);  // the arch's wave size and guard rules
  if (const std::string bad = s.check(); !bad.empty()) throw std::invalid_argument("crosscheck: " + bad);
  return s;
}

namespace detail {

user_call begin_user_call() {
  static int calls = 0;
  user_call c;
  c.index = calls++;
  if (const char* env = std::getenv(counters_env); env && *env)
    c.role = std::atoi(env) == c.index ? call_role::counters_pass : call_role::other_call;
  return c;
}

void run_twin(const crosscheck_options& o, const device_launch& untimed, const user_buffers& buffers, gpu_outcome& gpu) {
  try {
    gpu.twin_launches.push_back(o.twin(untimed, buffers.initial_bytes()));
    device_launch t = untimed;
    t.timed = true;
    for (int k = 0; k < o.repeat; ++k) gpu.twin_launches.push_back(o.twin(t, buffers.initial_bytes()));
  } catch (const device_error& e) {
    gpu.twin_failed = e.what();
    gpu.twin_launches.clear();
  }
}

void finish_counters_pass(const std::string& name) {
  std::printf("counters-pass: %s\n", name.c_str());
  std::fflush(stdout);
  std::_Exit(0);  // the rest of the program is not what Nsight Compute was asked to count
}

user_report finish_user_crosscheck(const crosscheck_options& o, const user_buffers& buffers, const sim::launch& launch,
                                   const sim::run_result& run, sim::program_report report, const user_call& call,
                                   const gpu_outcome& gpu) {
  user_report r;
  r.launch = launch;
  r.simulator = predicted_counters(report);
  r.predicted_cycles = report.cycles_per_workgroup;
  r.lds_bytes = lds_bytes_of(run);
  r.report = std::move(report);
  // A saved source page compares without a GPU (not in the counters pass of another call: nothing was run).
  if (!o.ncu_source.empty() && !run.workgroups.empty()) {
    r.source = compare_source_counters(sim::arch_named(o.arch), run, with_lines(read_source_counters(o.ncu_source), o),
                                       o.ncu_source);
    r.source_compared = true;
  }
  r.skipped = !gpu.skipped.empty();
  r.why_skipped = gpu.skipped;
  r.gpu_error = r.skipped ? "" : gpu.warm ? "" : gpu.failed.empty() ? "the kernel was not launched" : gpu.failed;
  output_check out;
  double error = 0;
  if (!r.skipped && r.gpu_error.empty()) {
    out = compare_outputs(buffers, run, *gpu.warm);
    r.results_equal = out.mismatches == 0;
    std::vector<double> medians;
    for (const std::vector<long long>& t : gpu.timed) medians.push_back(median(std::vector<double>(t.begin(), t.end())));
    r.measured_cycles = medians.empty() ? 0 : *std::min_element(medians.begin(), medians.end());
    r.registers = gpu.warm->registers;
    r.local_bytes = gpu.warm->local_bytes;
    if (!gpu.twin_failed.empty()) r.twin_error = gpu.twin_failed;
    if (!gpu.twin_launches.empty()) {
      const output_check twin_out = compare_outputs(buffers, run, gpu.twin_launches[0]);
      r.twin_mismatches = twin_out.mismatches;
      r.twin_first_mismatch = twin_out.first;
      r.twin_registers = gpu.twin_launches[0].registers;
      r.twin_local_bytes = gpu.twin_launches[0].local_bytes;
      std::vector<double> twin_medians;
      for (std::size_t k = 1; k < gpu.twin_launches.size(); ++k) {
        const std::vector<long long>& t = gpu.twin_launches[k].block_cycles;
        twin_medians.push_back(median(std::vector<double>(t.begin(), t.end())));
      }
      r.twin_measured = !twin_medians.empty();
      if (r.twin_measured) r.twin_cycles = *std::min_element(twin_medians.begin(), twin_medians.end());
    }
    // Counters: this executable again, under Nsight Compute, as the counters pass of this call.
    if (o.counters) measure_with_ncu(o, run, call, r);
    error = r.measured_cycles > 0 ? (r.predicted_cycles - r.measured_cycles) / r.measured_cycles : 0;
  }
  r.text = report_text(o, r, out, error);
  r.json = report_json(o, r, out, gpu, error);
  return r;
}

}  // namespace detail
}  // namespace tilesim::gpu
