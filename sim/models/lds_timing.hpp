// tilesim/sim/models/lds_timing.hpp: how many cycles LDS instructions take when many waves repeat them.
//
//   const arch_table& sm90 = arch_named("sm90");
//   wave_access a{"row", access_kind::load, memory_space::lds, 4, {0, 4, 8, ..., 124}};   // 32 lanes
//   steady_cycles(sm90, a) == 1.734       // the measured floor: one wavefront, 32 warps back to back
//   lds_pipe_cycles(sm90, lds_instruction_cost(sm90, a)) == 1.0   // what the LDS pipe itself is busy
//
// DEFINITION. The functional model (lds_banks.hpp) says how many pipe slots an instruction occupies. The
// timing model turns that into time, with constants from the arch table (sim/arch), never from here:
//   steady_cycles = max(floor[kind], slope[kind] * pipe_slots + intercept[kind] + packed_extra,
//                       port_cycles / ports)
// = the cycles per wave-level access when 32 waves of one block repeat the access back to back (the
// definition of the H200 truth's `cycles_per_warp_access` and of `tilesim bank`'s CYCLES). On sm90 the
// constants are fitted to h200-smem-known.truth.tsv (sm90.cpp states the fit); floor is that harness's
// loop issue rate, so a kernel with a tighter loop runs closer to lds_pipe_cycles. On AMD the port term
// is R 2.2's datapath: per port, an instruction needs (active lanes / addresses per clock) to send its
// addresses and (active lanes * width / port bytes per clock) to move its data, one after the other for
// stores, overlapped for loads; two ports work at once. All AMD timing is assumed, not measured.
//
// WORKED EXAMPLE (gfx942, 64 lanes, conflict-free): ds_read_b32: 2 slots, ports (4 cycles) / 2 = 2 -> 2;
// ds_write_b32: 2 slots, ports (4 + 4) / 2 = 4 -> 4; ds_write_b128: 8 slots, ports (4 + 16) / 2 = 10 -> 10.
//
// INVARIANTS: the result is finite and >= 0, >= floor[kind], and non-decreasing in pipe_slots for a fixed
// kind, width and number of active lanes. A wave with no active lane costs 0 (it never reaches the LDS).
#pragma once

#include "sim/arch/arch.hpp"
#include "sim/models/lds_banks.hpp"
#include "sim/wave_access.hpp"

namespace tilesim::sim {

// Steady-state cycles per access of `access` repeated by 32 waves: 1.734 for a conflict-free sm90 load.
double steady_cycles(const arch_table& arch, const wave_access& access);

// The same when the cost is already known (saves pricing the access twice).
double steady_cycles(const arch_table& arch, const wave_access& access, const lds_cost& cost);

// Cycles the LDS pipe is busy with one instruction: pipe_slots / wavefronts_per_clock (4 for an LDS.128).
double lds_pipe_cycles(const arch_table& arch, const lds_cost& cost);

}  // namespace tilesim::sim
