// tilesim/sim/engine/engine.hpp: run a tile program for every thread of a small grid, and record what it did.
//
// DEFINITION. run(config, memory, program) runs the workgroups 0 .. grid-1 one after another. In each, every
// thread t gets a thread_context and a fiber and calls program(ctx). The schedule is deterministic: thread 0
// runs until it reaches a barrier (or returns), then thread 1, ..., then, once all have arrived, the barrier
// opens and the same round starts again from thread 0. That order is one legal interleaving of the GPU's;
// a program whose result depends on it has a race, and the race report says where. At each barrier the lane
// accesses of the interval it closes are grouped into wave instructions (grouping.hpp) and searched for races
// (races.hpp), then dropped; after the grid, global accesses of different workgroups are searched for races
// too. run() keeps every workgroup's record (workgroup_runner.hpp runs them); for grids too large for that,
// simulate() (sim/pricing/stream_report.hpp) prices each workgroup as it finishes, on every core.
//
// FAILURES. A program that throws (spec_error, program_usage_error, anything) stops the run: the other
// threads are unwound and run() throws run_error{program_threw} naming the block and thread, with the
// exception in `cause`. A barrier that some threads never reach because they returned throws
// run_error{divergent_barrier} naming the waiting and the returned threads (never a hang).
//
// WORKED EXAMPLE.
//   global_memory mem;
//   const int out = mem.add<float>("out", 256);
//   run_result r = run({.grid = 1, .block = 256, .wave_size = 64}, std::move(mem),
//                      [&](thread_context& ctx) { rotate(ctx, rotate_params{out}); });
//   r.memory.get<float>(out)[5] == 6.0f;                        // the program's result
//   r.workgroups[0].waves[0].instructions[0].access.address[1] == 4;  // LDS store of lane 1: byte 4
//   r.clean();                                                   // no race, no stray access, no divergence
//
// INVARIANTS: run() is deterministic (same program, launch and memory -> same result); no program access
// ever touches host memory outside its buffer; memory is returned in the result, changed only by the program.
#pragma once

#include <memory>
#include <type_traits>

#include "sim/engine/global_memory.hpp"
#include "sim/engine/launch.hpp"
#include "sim/engine/run_result.hpp"
#include "sim/engine/thread_context.hpp"

namespace tilesim::sim {

namespace detail {
// A non-owning reference to a callable `void(thread_context&)`.
struct program_ref {
  void* object = nullptr;
  void (*call)(void* object, thread_context& ctx) = nullptr;
};
run_result run_program(const launch& config, global_memory memory, program_ref program);
}  // namespace detail

// Runs `program(ctx)` for every thread of `config`'s grid on `memory`; throws run_error (see above).
template <class Program>
run_result run(const launch& config, global_memory memory, Program&& program) {
  using P = std::remove_reference_t<Program>;
  static_assert(std::is_invocable_v<P&, thread_context&>, "run: the program must be callable as program(ctx)");
  detail::program_ref ref{const_cast<void*>(static_cast<const void*>(std::addressof(program))),
                          [](void* object, thread_context& ctx) { (*static_cast<P*>(object))(ctx); }};
  return detail::run_program(config, std::move(memory), ref);
}

}  // namespace tilesim::sim
