// tilesim/sim/runs/copy_run.hpp: the host side of the copy program: buffers, launch, run.
//
// DEFINITION. run_copy<T>(launch, params, input) puts `input` in global slot 0 ("in") and an output of the
// same size filled with a poison value (T(-1)) in slot 1 ("out"), points params.input/output at them and runs
// copy_tile<T> on the simulator. The input must hold grid * rows * cols elements; copy_input<T>(n) is the
// default one, element i = i (wrapping in T).
//
// WORKED EXAMPLE.
//   const sim::launch l{.block = 256, .wave_size = 64};
//   const copy_params p{.layout = copy_lds_layout::ck_xor};
//   sim::run_result r = run_copy<std::uint16_t>(l, p, copy_input<std::uint16_t>(copy_elements(l, p)));
//   r.memory.get<std::uint16_t>(1) == r.memory.get<std::uint16_t>(0);   // the copy is exact
//   r.workgroups[0].waves[0].instructions[2].access;                   // wave 0's "lds load"
//
// INVARIANTS: the poison is never a value the default input holds at the same place unless the copy wrote
// it; errors name the values (sizes that do not match, shapes too large).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/engine/engine.hpp"
#include "kernel/copy/copy.hpp"

namespace tilesim::programs {

// Elements of each global buffer: grid * rows * cols; throws std::invalid_argument beyond 2^32 or below 0.
inline index_t copy_elements(const sim::launch& config, const copy_params& p) {
  const index_t limit = index_t{1} << 32;
  const bool sane = p.rows >= 0 && p.cols >= 0 && p.rows <= limit && p.cols <= limit && config.grid >= 0;
  if (!sane || (p.rows > 0 && p.cols > limit / p.rows) ||
      (p.rows * p.cols > 0 && config.grid > limit / (p.rows * p.cols)))
    throw std::invalid_argument("copy: grid * rows * cols must be in [0, 2^32] (grid = " + std::to_string(config.grid) +
                                ", rows = " + std::to_string(p.rows) + ", cols = " + std::to_string(p.cols) + ")");
  return config.grid * p.rows * p.cols;
}

// Element i = i, wrapped to T: copy_input<std::uint16_t>(70000)[65537] == 1.
template <class T>
std::vector<T> copy_input(index_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<T>(i);
  return v;
}

// Runs copy_tile<T> over `input` (grid * rows * cols elements); throws std::invalid_argument when the size
// differs, sim::run_error for what the program or the launch rejects.
template <class T>
sim::run_result run_copy(const sim::launch& config, copy_params p, const std::vector<T>& input) {
  const index_t n = copy_elements(config, p);
  if (static_cast<index_t>(input.size()) != n)
    throw std::invalid_argument("copy: the input holds " + std::to_string(input.size()) +
                                " elements, grid * rows * cols = " + std::to_string(n));
  sim::global_memory mem;
  p.input = mem.add<T>("in", input);
  p.output = mem.add<T>("out", n, static_cast<T>(-1));
  return sim::run(config, std::move(mem), [&p](sim::thread_context& ctx) { copy_tile<T>(ctx, p); });
}

}  // namespace tilesim::programs
