// tilesim/gpu/user/user_crosscheck.hpp: a user's own tile program, cross-checked on a GPU in one call.
//
// DEFINITION. crosscheck(program, launch, buffers, options) does for any program what `tilesim-gpu crosscheck`
// does for the catalogue's: runs it on the simulator (options.arch's tables, wave size and guard rules:
// sim::apply_guard_rules; sim::run over thread_context) and, where there is a GPU, as its kernel
// (gpu_kernel.hpp) on the same inputs: once warm, then options.repeat timed launches (clock64() per block; the
// median block of the best launch); compares every output buffer GPU against simulator (bit for bit, or a float
// buffer within the absolute tolerance the user gave), the counters (Nsight Compute: the executable re-runs
// itself under ncu with TILESIM_CROSSCHECK_COUNTERS=<call>, and in that run the call launches its kernel once and
// exits; the twelve counters of crosscheck.hpp, exact) and the cycles (predicted per workgroup against measured
// per block). The LDS bytes are the simulator's: the program's own allocations (lds_bytes_of). It returns the
// same report as the command: text lines and a tilesim.crosscheck/1 JSON document with one point (program
// "user"). Per instruction, Nsight Compute's source counters (live: a run under --section SourceCounters; or a
// saved page, options.ncu_source) are matched to the program's labels and printed beside the simulator's
// (source_match.hpp).
// What the machine refuses is a report, never an exception: without a GPU the report is skipped ("no GPU:
// ..."), and holds the simulator's side all the same (counters, text, JSON with "gpu": {"status": "skipped",
// "reason": ...}); a kernel launch that fails is "failed" (not passed) with the runtime's message; an ncu that
// is missing or refused (ERR_NVGPUCTRPERM) leaves the counters (and source counters) "skipped" with ncu's words,
// the outputs and cycles still compared. Bad input (a launch the simulator rejects, an unknown arch, an
// unreadable saved page) still throws, naming the values.
//
// WORKED EXAMPLE (examples/user_program):
//   user_buffers b;
//   const int in = b.input<float>("in", random_tile(4 * 64 * 64));
//   const int out = b.output<float>("out", 4 * 64, -1.0f, 1e-3);        // poisoned; compared within 1e-3
//   user_report r = crosscheck(column_sums{in, out}, {.grid = 4, .block = 256}, b);  // wave size: sm90's 32
//   r.passed()   // outputs equal and counters equal (or skipped)
//
// INVARIANTS: the simulator and the GPU start from the same bytes; the report's counters are the simulator's
// prediction and Nsight's count of the same launch; r.simulator, r.report and r.json's simulator part are filled
// whatever the GPU did; nothing here includes a vendor header.
#pragma once

#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu/crosscheck/counters.hpp"
#include "gpu/crosscheck/source_match.hpp"
#include "gpu/runtime/device_error.hpp"
#include "gpu/user/gpu_kernel.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/arch_launch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/report/program_report.hpp"

namespace tilesim::gpu {

// The global buffers of one launch, typed as the program reads them (slot k = the k-th added).
class user_buffers {
 public:
  struct slot {
    std::string name;
    byte_buffer initial;            // what both sides start from
    bool output = false;            // compared after the run
    double tolerance = 0;           // outputs: 0 = bit for bit; else |gpu - simulator| <= tolerance per element
    std::size_t element_bytes = 1;
    bool floating = false;          // float or double elements (the tolerance applies)
    std::function<byte_buffer(const sim::global_memory&)> bytes_of;  // the simulator's bytes after the run
  };

  // An input buffer holding `values`: input<float>("a", a) == 0 for the first buffer.
  template <class T>
  int input(std::string name, const std::vector<T>& values) {
    return add<T>(std::move(name), values, false, 0);
  }
  // An output buffer of `count` elements, each `poison` before the run, compared after it.
  template <class T>
  int output(std::string name, index_t count, const T& poison, double tolerance = 0) {
    return add<T>(std::move(name), std::vector<T>(static_cast<std::size_t>(count), poison), true, tolerance);
  }

  const sim::global_memory& memory() const { return memory_; }
  const std::vector<slot>& slots() const { return slots_; }
  // Every slot's initial bytes, in slot order (what the kernel launch copies in).
  std::vector<byte_buffer> initial_bytes() const;

 private:
  template <class T>
  int add(std::string name, const std::vector<T>& values, bool output, double tolerance) {
    static_assert(std::is_trivially_copyable_v<T>, "buffer elements are copied as bytes");
    const int k = memory_.add<T>(name, values);
    slot s;
    s.name = std::move(name);
    s.initial.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(s.initial.data(), values.data(), s.initial.size());
    s.output = output;
    s.tolerance = tolerance;
    s.element_bytes = sizeof(T);
    s.floating = std::is_floating_point_v<T>;
    s.bytes_of = [k](const sim::global_memory& m) {
      const std::vector<T> v = m.get<T>(k);
      byte_buffer b(v.size() * sizeof(T));
      if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
      return b;
    };
    slots_.push_back(std::move(s));
    return k;
  }
  sim::global_memory memory_;
  std::vector<slot> slots_;
};

// The launch of a user's program: sim::launch's fields, but wave_size 0 (the default) means options.arch's
// (32 on sm90, 64 on gfx9): {.grid = 4, .block = 256} on sm90 runs 8 waves of 32 per workgroup. A wave size the
// user sets must be the arch's (the models price waves of the arch's lanes only).
struct user_launch {
  int grid = 1;                                        // workgroups (blocks)
  int block = 64;                                      // threads per workgroup
  int wave_size = 0;                                   // 0: the architecture's
  std::size_t stack_bytes = sim::launch{}.stack_bytes;  // the engine's knobs, sim::launch's defaults
  std::size_t max_lds_bytes = sim::launch{}.max_lds_bytes;
  int split_bytes = sim::launch{}.split_bytes;
  int max_reports = sim::launch{}.max_reports;
  bool measure_stack = sim::launch{}.measure_stack;
};

// The simulator's launch of `l` on `arch`: the arch's wave size and guard rules; a wave size other than 0 or the
// arch's, or a launch sim::launch::check() rejects, throws std::invalid_argument naming the value.
sim::launch simulated_launch(const user_launch& l, const sim::arch_table& arch);

struct crosscheck_options {
  std::string name = "user program";  // the point's name in the report
  std::string arch = "sm90";          // the simulator's tables (the GPU is an sm90 part: H100 / H200)
  int repeat = 10;                    // timed launches; the best one's median block counts
  bool counters = true;               // Nsight Compute (re-runs this executable under ncu: see the top)
  std::uint64_t seed = 0;             // the seed the inputs came from (recorded for a replay)
  // Per instruction (gpu/crosscheck/source_match.hpp): Nsight Compute's source counters matched to the labels.
  // Live, with the counters: a third run under `ncu --section SourceCounters` (source_counters = false skips it).
  // ncu_source: a saved source page (.csv) or report (.ncu-rep) of this program's kernel to compare instead;
  // it is compared even without a GPU (the simulator side runs everywhere).
  bool source_counters = true;
  std::string ncu_source;
  // sass_listing: `nvdisasm -g -gi` of the kernel built with -lineinfo: each label's row then names the program
  // lines its SASS instructions came from (gpu/crosscheck/sass_lines.hpp).
  std::string sass_listing;
  // twin: the same algorithm written by hand (gpu/reference/user_twins.hpp), launched on the same buffers and
  // launch after the program's kernel, timed alike; its outputs must equal the simulator's and its cycles are the
  // price tag's yardstick (tilesim kernel / twin). Empty: no twin ("no hand-written kernel").
  std::function<device_result(const device_launch&, std::vector<byte_buffer>)> twin;
};

struct user_report {
  bool skipped = false;               // no GPU (or this process is the counters pass of another call)
  std::string why_skipped;
  std::string gpu_error;              // the GPU was there but its launch failed (the runtime's message); not passed
  std::string why_counters_skipped;   // asked for, but ncu was missing or refused (its words); outputs still compared
  std::string why_source_skipped;     // the live source-counters run failed likewise
  sim::launch launch;                 // what the simulator ran (the arch's wave size where the user left it 0)
  bool results_equal = false;         // every output buffer, GPU against simulator
  bool counters_measured = false, counters_equal = false;
  counters simulator, gpu;            // predicted and Nsight's
  bool source_compared = false;       // per instruction: Nsight's source counters matched to the labels
  source_comparison source;
  double predicted_cycles = 0;        // the median workgroup's (sim::program_report)
  double measured_cycles = 0;         // the median block of the best timed launch
  int registers = 0;
  long long local_bytes = 0;
  std::size_t lds_bytes = 0;
  // The hand-written twin (options.twin), where the GPU ran it: its outputs against the simulator's, its cycles.
  bool twin_measured = false;
  std::string twin_error;             // its launch failed (the runtime's words); not passed
  long long twin_mismatches = 0;
  std::string twin_first_mismatch;
  double twin_cycles = 0;             // the median block of its best timed launch
  int twin_registers = 0;
  long long twin_local_bytes = 0;
  sim::program_report report;         // the simulator's whole report (per instruction, verdict)
  std::string text;                   // the lines `tilesim-gpu crosscheck` prints for a point
  util::json_value json;              // tilesim.crosscheck/1, one point

  // Outputs and counters agree, or there was nothing to check against.
  bool passed() const {
    return skipped || (gpu_error.empty() && results_equal && (!counters_measured || counters_equal) &&
                       twin_error.empty() && twin_mismatches == 0);
  }
  // The price tag: the tilesim kernel's cycles over the twin's (0 without a measured twin).
  double over_twin() const { return twin_measured && twin_cycles > 0 ? measured_cycles / twin_cycles : 0; }
};

namespace detail {

// This process's part in call `index` of crosscheck(): the whole check, the counters pass (launch once and
// exit), or nothing (the counters pass of another call).
enum class call_role { check, counters_pass, other_call };
struct user_call {
  int index = 0;
  call_role role = call_role::check;
};
user_call begin_user_call();
[[noreturn]] void finish_counters_pass(const std::string& name);

// What the GPU side gave: nothing (skipped: why), a failure (the device, what failed), or the launches.
struct gpu_outcome {
  std::string skipped = {}, failed = {};
  const device_description* device = nullptr;
  const device_result* warm = nullptr;
  std::vector<std::vector<long long>> timed = {};
  std::string twin_failed = {};                     // the twin's launch failed (its words)
  std::vector<device_result> twin_launches = {};    // the twin's warm launch, then its timed ones
};

// The twin's launches (o.twin): one warm, then o.repeat timed, into gpu.twin_launches; a device_error into
// gpu.twin_failed.
void run_twin(const crosscheck_options& o, const device_launch& untimed, const user_buffers& buffers, gpu_outcome& gpu);

// Everything after the launches: comparisons, counters (ncu), report text and JSON.
user_report finish_user_crosscheck(const crosscheck_options& o, const user_buffers& buffers, const sim::launch& launch,
                                   const sim::run_result& run, sim::program_report report, const user_call& call,
                                   const gpu_outcome& gpu);

}  // namespace detail

// The one call (see the top). Program needs TILESIM_DECLARE_GPU_KERNEL and, in a linked .cu, TILESIM_GPU_KERNEL.
template <class Program>
user_report crosscheck(const Program& program, const user_launch& launch, const user_buffers& buffers,
                       const crosscheck_options& o = {}) {
  const sim::arch_table& arch = sim::arch_named(o.arch);
  // The simulator runs it under o.arch's guard rules (sm90: a lane's invalid global load is masked, a wave
  // instruction with no active lane is not issued), as the GPU does, at the arch's wave size.
  if (launch.block > launch_bound_of<Program>)  // its kernel is compiled for at most that many threads
    throw std::invalid_argument("crosscheck: the launch's block (" + std::to_string(launch.block) +
                                " threads) exceeds the program's block_size (" +
                                std::to_string(launch_bound_of<Program>) + ")");
  const sim::launch on_arch = simulated_launch(launch, arch);
  const detail::user_call call = detail::begin_user_call();
  if (call.role == detail::call_role::other_call)
    return detail::finish_user_crosscheck(o, buffers, on_arch, {}, {}, call,
                                          {.skipped = "the counters pass of another crosscheck() call"});
  sim::run_result run = sim::run(on_arch, buffers.memory(), [&](sim::thread_context& ctx) { program(ctx); });
  sim::program_report report = sim::make_program_report(arch, run);
  const device_launch untimed{launch.grid, launch.block, lds_bytes_of(run), false};
  device_description device;
  try {
    device = gpu_kernel_of<Program>::device();
  } catch (const device_error& e) {
    return detail::finish_user_crosscheck(o, buffers, on_arch, run, std::move(report), call, {.skipped = e.what()});
  }
  if (call.role == detail::call_role::counters_pass) {
    (void)gpu_kernel_of<Program>::launch(program, untimed, buffers.initial_bytes());
    detail::finish_counters_pass(o.name);
  }
  detail::gpu_outcome gpu{.device = &device};
  device_result warm;
  try {
    warm = gpu_kernel_of<Program>::launch(program, untimed, buffers.initial_bytes());
    device_launch t = untimed;
    t.timed = true;
    for (int r = 0; r < o.repeat; ++r)
      gpu.timed.push_back(gpu_kernel_of<Program>::launch(program, t, buffers.initial_bytes()).block_cycles);
    gpu.warm = &warm;
  } catch (const device_error& e) {
    gpu.failed = e.what();
  }
  if (o.twin && gpu.warm) detail::run_twin(o, untimed, buffers, gpu);
  return detail::finish_user_crosscheck(o, buffers, on_arch, run, std::move(report), call, gpu);
}

}  // namespace tilesim::gpu
