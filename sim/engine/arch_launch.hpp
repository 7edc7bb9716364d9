// tilesim/sim/engine/arch_launch.hpp: the one place an architecture's facts reach a launch.
//
// DEFINITION. A launch (launch.hpp) is machine-neutral: grid, block, wave size and the engine's knobs. Two of
// its fields are facts of the machine the program is priced for: the wave size and the guard rules (how a lane's
// invalid access becomes an instruction: arch.hpp's guard_rules). apply_guard_rules(a, l) copies both from the
// arch table into l; every caller that runs a program "on" an architecture (tilesim run, the examples, the
// catalogue's and a user's cross-check, the GPU property harness) goes through it.
//
// WORKED EXAMPLE.
//   launch l{.grid = 4, .block = 256};
//   apply_guard_rules(arch_named("sm90"), l);   // l.wave_size == 32, invalid global loads masked,
//                                               // wave instructions with no active lane not issued
//   apply_guard_rules(arch_named("gfx942"), l); // l.wave_size == 64, CK's semantics: both issue
//
// launch_on(name, grid, block) is the launch of `grid` workgroups of `block` threads on the named architecture:
// launch_on("gfx942", 1, 256).wave_size == 64.
//
// INVARIANTS: apply_guard_rules changes only wave_size, invalid_global_loads_issue and empty_instructions_issue change; grid, block and
// the engine's knobs are the caller's.
#pragma once

#include <string_view>

#include "sim/arch/arch.hpp"
#include "sim/engine/launch.hpp"

namespace tilesim::sim {

// Copies a's wave size and guard rules into l: apply_guard_rules(arch_named("sm90"), l) masks l's invalid global
// loads and skips its empty wave instructions.
inline void apply_guard_rules(const arch_table& a, launch& l) {
  l.wave_size = a.wave_size;
  l.invalid_global_loads_issue = a.guards.invalid_global_loads_issue;
  l.empty_instructions_issue = a.guards.empty_instructions_issue;
}

// `grid` workgroups of `block` threads at the named arch's wave size and guard rules (arch_named throws
// std::invalid_argument naming an unknown arch): launch_on("sm90", 1, 256).wave_size == 32.
inline launch launch_on(std::string_view arch, int grid, int block) {
  launch l;
  l.grid = grid;
  l.block = block;
  apply_guard_rules(arch_named(arch), l);
  return l;
}

}  // namespace tilesim::sim
