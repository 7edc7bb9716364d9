// tilesim/sim/models/lds_banks.hpp: what one wave-level LDS instruction costs in bank passes.
//
//   const arch_table& sm90 = arch_named("sm90");
//   wave_access col{"col", access_kind::load, memory_space::lds, 16, {0, 128, 256, ..., 3968}};  // 32 lanes
//   lds_cost c = lds_instruction_cost(sm90, col);  // c.wavefronts == 32, c.ideal == 4, c.excess == 28, c.max_ways == 8
//   lds_detail d = lds_instruction_detail(sm90, col);  // per phase: lanes, and per bank the distinct words
//
// DEFINITION. The arch table (sim/arch) splits the wave's lanes into phases for the instruction's kind and
// width. Each active lane touches the 4-byte words [addr/4, (addr+width-1)/4]; a word lives in bank
// (word mod banks). A phase costs the largest number of DISTINCT words any one bank must serve (lanes that
// share a word are served by one broadcast, loads and stores alike); a phase with no active lane costs 0.
//
//   wavefronts  the sum over phases: the serialized passes, as Nsight Compute counts them per instruction in
//               smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ld,st} (the H200 truth)
//   ideal       the phases that carry at least one active lane (each needs one pass at best)
//   excess      wavefronts - ideal: what bank conflicts add (>= 0)
//   max_ways    the largest phase cost (N of "N-way"; 1 = conflict-free; 0 = no active lane)
//
// REPEATED ADDRESSES ON sm90 (lds_merge::sm90_pairs, 8- and 16-byte loads; measured on an H200, see
// data/calibration/README.md). Phases are taken in adjacent pairs (2k, 2k+1), a "group" (16 lanes for
// LDS.128, the whole warp for LDS.64). The PAIR CONDITION holds for a set of lanes when every active lane
// whose partner lane^1 is active has the partner's address, or the same with lane^2 for every lane.
//   counted view (wavefronts, ideal, excess, max_ways): a group that meets the pair condition and whose
//     lanes are conflict-free (cost 1 over the whole group) counts 1 wavefront; any other group counts its
//     two phases separately. E.g. LDS.128 broadcast = 2, lanes 0-15 broadcast + lanes 16-31 linear = 3.
//   hardware view (passes, bank_conflicts, pipe_slots): if the WHOLE warp meets the pair condition, every
//     group is one phase ("packed") and costs its largest distinct-words-per-bank, conflicts or not; else
//     the plain phases. E.g. LDS.128 with even lanes at 0 and odd lanes at 128: counted 8, passes 4 (and
//     32 warps take 4.0 cycles per access). Stores never merge.
// The hardware view is what the l1tex__data_pipe_lsu_wavefronts / l1tex__data_bank_conflicts counters and
// the measured time follow; the counted view is what Nsight's per-instruction (smsp__sass_*) metric shows.
// On every other arch, and for every other sm90 instruction, the two views are equal. An ldmatrix (an access
// with matrix_access) never merges: each 8x8 matrix is its own phase (lanes 8k .. 8k+7 give its rows), so an
// ldmatrix.x4 whose 32 lanes name one row costs 4 wavefronts, .x2 2, where an LDS.128 at the same addresses
// costs 2 (measured on an H200: data/calibration/h200-ldmatrix-phases.tsv, replayed by lds_banks.test.cpp).
// An stmatrix (a store with matrix_access) is priced the same way, per 8x8 matrix phase, which for a store is
// what STS.128 at its row addresses costs (stores never merge): assumed, mirroring ldmatrix's measurement, until
// gpu/calibrate/stmatrix_phase_probe.cu is recorded (arch_table::matrix_phases says which).
//
//   passes          bank passes (hardware view)
//   bank_conflicts  passes - phases with active lanes (hardware view; = l1tex__data_bank_conflicts on sm90)
//   pipe_slots      clocks the LDS pipe is occupied: on sm90 max(passes, phases) (measured: an LDS.128 with
//                   lanes 0-7 active occupies 4, with lanes 0-3 at stride 128 also 4); on AMD passes + one
//                   clock per phase with no active lane (assumed): the arch's lds_empty_phases
//
// INVARIANTS: 0 <= ideal <= wavefronts; excess = wavefronts - ideal; ideal <= passes <= pipe_slots for
// every arch; max_ways >= 1 whenever a lane is active; a wave with no active lane costs 0 wavefronts and
// 0 passes. Inputs that break the record's own invariants (address count != wave size,
// width not 1/2/4/8/16, an address whose last byte overflows 64 bits) throw std::invalid_argument.
// lds_instruction_cost allocates nothing; lds_instruction_detail allocates its result.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/wave_access.hpp"

namespace tilesim::sim {

struct lds_cost {
  int active = 0;  // lanes that take part (the timing model's port term needs them)
  // Counted view (the H200 truth's wavefronts; `tilesim bank` prints `wavefronts`).
  int wavefronts = 0;
  int ideal = 0;
  int excess = 0;
  int max_ways = 0;
  // Hardware view (drives the timing model, lds_timing.hpp).
  int passes = 0;
  int bank_conflicts = 0;
  int pipe_slots = 0;
  bool packed = false;  // sm90 paired load served in double-width phases
};

// One served phase of the counted view: the lanes it serves and what each bank holds.
struct lds_phase_detail {
  std::vector<int> lanes;                         // active lanes served in this phase, in table order
  std::vector<std::vector<std::uint64_t>> words;  // per bank (size = rule banks): distinct word indices, ascending
  int ways = 0;                                   // max over banks of words[b].size(); 0 if no lane is active
  bool merged = false;                            // two table phases counted as one (sm90 paired loads)
};

struct lds_detail {
  lds_cost cost;
  int banks = 0;
  std::vector<lds_phase_detail> phases;  // counted view, in issue order; a phase with no active lane has no lanes
};

// The cost of one LDS instruction; no allocation. A 32-lane sm90 4-byte load of one word: {1, 1, 0, 1, ...}.
lds_cost lds_instruction_cost(const arch_table& arch, const wave_access& access);

// The same cost with, per counted phase, its lanes and the distinct words of each bank (for heat maps).
lds_detail lds_instruction_detail(const arch_table& arch, const wave_access& access);

}  // namespace tilesim::sim
