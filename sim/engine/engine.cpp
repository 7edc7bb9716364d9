// tilesim/sim/engine/engine.cpp: run(): the grid's workgroups in order on one runner, every record kept.
#include "sim/engine/engine.hpp"

#include <algorithm>
#include <string>

#include "sim/engine/races.hpp"
#include "sim/engine/workgroup_runner.hpp"

namespace tilesim::sim {

namespace detail {

run_result run_program(const launch& config, global_memory memory, program_ref program) {
  if (const std::string bad = config.check(); !bad.empty())
    throw run_error(run_error::reason::bad_launch, -1, {}, "tilesim: launch: " + bad);
  if (!program.call) throw run_error(run_error::reason::bad_launch, -1, {}, "tilesim: launch: no program");
  run_result result;
  result.config = config;
  result.memory = std::move(memory);
  result.workgroups.reserve(static_cast<std::size_t>(config.grid));
  const auto cap = static_cast<std::size_t>(config.max_reports);
  diagnostic_counts listed;  // run-wide, in block order
  // Keeps the first entries of `from` while the run has listed fewer than max_reports of that kind.
  auto take = [&](auto& into, auto& from, std::size_t diagnostic_counts::*kind) {
    for (auto& f : from) {
      if (listed.*kind >= cap) break;
      into.push_back(std::move(f));
      ++(listed.*kind);
    }
  };
  std::vector<touch> grid_touches;
  workgroup_runner runner(config, result.memory, program, {.keep_labels = true, .global_touches = config.grid > 1});
  for (int b = 0; b < config.grid; ++b) {
    finished_workgroup f = runner.run(b);
    workgroup_record& rec = result.workgroups.emplace_back(std::move(f.record));
    auto keep = [&](auto& list, std::size_t diagnostic_counts::*kind) {
      std::remove_reference_t<decltype(list)> kept;
      take(kept, list, kind);
      list = std::move(kept);
      result.found.*kind += f.found.*kind;
    };
    keep(rec.races, &diagnostic_counts::races);
    keep(rec.bounds_errors, &diagnostic_counts::bounds_errors);
    keep(rec.misaligned, &diagnostic_counts::misaligned);
    keep(rec.ambiguities, &diagnostic_counts::ambiguities);
    keep(rec.divergences, &diagnostic_counts::divergences);
    keep(rec.barrier_mismatches, &diagnostic_counts::barrier_mismatches);
    grid_touches.insert(grid_touches.end(), f.global_touches.begin(), f.global_touches.end());
  }
  if (config.grid > 1 && !grid_touches.empty())  // races between workgroups, once all have run
    for (race& r : find_races(std::move(grid_touches), race_scope::across_workgroups, runner.naming())) {
      ++result.found.races;
      if (listed.races < cap) {
        ++listed.races;
        result.grid_races.push_back(std::move(r));
      }
    }
  return result;
}

}  // namespace detail

}  // namespace tilesim::sim
