// tilesim/sim/pricing/stream_report.hpp: simulate and price a grid workgroup by workgroup, in bounded memory.
//
// DEFINITION. simulate(arch, config, memory, program, options) is run() followed by make_program_report(),
// without keeping the run: workgroups run on options.jobs worker threads (stream.hpp) in the order the report
// prices them (plan_sets: the workgroups that share an SM, set by set), and the worker that finishes the last
// workgroup of a set prices the set (price_set) and drops its records. The report parts merge exactly
// (report_part.hpp), so the result is the same report as make_program_report(arch, run(...)) bit for bit, on
// any number of threads. Memory holds the workgroups in flight, the sets not yet complete, and per workgroup
// its cycles and a few findings; races between workgroups come from the compact per-byte summary
// (grid_touches.hpp).
//
// THE ORDER, AND WHEN IT RUNS TWICE. The sets depend on the resident count, which depends on the most LDS any
// workgroup allocates: workgroup 0 runs first, alone, and its LDS fixes the plan; should a later workgroup
// allocate more and change the resident count, the grid runs again from the initial memory with the larger
// figure. When the summary shows a race between workgroups, the grid runs again on one thread, in the same
// order, keeping the global touches of the racing bytes only; they give the race records (threads, labels,
// intervals) run() would give, and a memory that does not depend on the number of threads.
//
// SAMPLES. options.sample = K prices about K workgroups, whole sets of every behaviour (sample_report.hpp), and
// the report is the grid's extrapolated from them; `sample` then says how many and how precise.
//
// SLICES (sharding). options.first / options.last select positions [first, last) of the run order (the sets
// in pricing order, each set's workgroups in block order); a set belongs to the slice holding its first
// workgroup, so slices never split a set. A slice prices its sets into `part`; partial_report.hpp writes it as a
// partial report and merges the partial reports of all slices into the report one process gives.
//
// WORKED EXAMPLE.
//   simulation s = simulate(arch_named("gfx942"), programs::gemm_launch(p, 256, 64), std::move(mem),
//                           [&p](thread_context& ctx) { programs::gemm_tile(ctx, p); }, {.jobs = 2});
//   s.report == make_program_report(arch, run(...));    s.memory.get<float>(p.c): the product
//
// INVARIANTS: the report, memory and findings do not depend on jobs; the whole grid's report equals
// make_program_report's on run()'s result for every program whose workgroups do not race (with a race, the
// findings name the same bytes; which racing write lands may differ: the order is the pricing order).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/engine/engine.hpp"
#include "sim/engine/grid_touches.hpp"
#include "sim/report/program_report.hpp"
#include "sim/pricing/report_part.hpp"
#include "sim/pricing/sample_report.hpp"

namespace tilesim::sim {

struct simulate_options {
  int jobs = 0;                  // worker threads; 0: one per usable core (usable_cores())
  int registers_per_thread = 0;  // for the occupancy limit (0: unknown)
  long long first = 0, last = -1;  // positions of the run order to price (-1: to the end)
  long long sample = 0;             // > 0: price about this many workgroups, every behaviour, and extrapolate
  std::function<int(int block)> behaviour = {};  // a workgroup's class for the sample (empty: all alike)
  std::function<void(long long done, long long total)> progress = {};  // on the calling thread
};

struct simulation {
  program_report report;   // the slice's own report (the grid's when the slice is the whole grid)
  report_part part;        // what it priced, before finishing: what a partial report holds
  residency res;           // the plan the sets came from
  std::size_t max_lds_bytes = 0;    // the most LDS a workgroup allocated
  global_memory memory;             // after the run
  grid_touch_map touches;           // global bytes its priced workgroups touched
  std::vector<race> grid_races;     // races between its workgroups (listed within the cap)
  std::vector<int> blocks;          // workgroups priced, in run order
  std::vector<long long> set_indices;  // sets priced (indices into plan_sets), ascending
  long long sets = 0, total_sets = 0;  // sets priced, sets in the grid
  int runs = 1;                     // passes over the grid (see THE ORDER above)
  std::optional<sample_summary> sample;  // set when the report was extrapolated from a sample
  bool clean() const {
    const diagnostic_counts& f = part.found;
    return f.races == 0 && f.bounds_errors == 0 && f.misaligned == 0 && f.barrier_mismatches == 0;
  }
};

namespace detail {
simulation simulate_program(const arch_table& arch, const launch& config, global_memory memory, program_ref program,
                            const simulate_options& options);
}

// Runs and prices `program` over `config`'s grid (or a slice of it); throws run_error as run() does, and
// std::invalid_argument for a slice outside the grid.
template <class Program>
simulation simulate(const arch_table& arch, const launch& config, global_memory memory, Program&& program,
                    const simulate_options& options = {}) {
  using P = std::remove_reference_t<Program>;
  static_assert(std::is_invocable_v<P&, thread_context&>, "simulate: the program must be callable as program(ctx)");
  detail::program_ref ref{const_cast<void*>(static_cast<const void*>(std::addressof(program))),
                          [](void* object, thread_context& ctx) { (*static_cast<P*>(object))(ctx); }};
  return detail::simulate_program(arch, config, std::move(memory), ref, options);
}

// The cores this process may run on (its CPU affinity: `taskset -c 0,1` gives 2), at least 1.
int usable_cores();

// The run order of a plan: its sets one after another.
std::vector<int> run_order(const std::vector<std::vector<int>>& sets);

}  // namespace tilesim::sim
