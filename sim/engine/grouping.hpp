// tilesim/sim/engine/grouping.hpp: from each lane's accesses to the wave's instructions.
//
// DEFINITION. Within one barrier interval, the k-th access of every lane of a wave is one wave-level
// instruction (a sim::wave_access): its label, kind, space and width are those of the lowest lane that made
// a k-th access; each lane shows the address of its k-th access, or no_address when it made fewer than k+1
// accesses, or when its access was masked (an invalid LDS access or store; lane_access::active). A lane
// access wider than split_bytes (a power of two; 0 = never split) counts as ceil(width / split_bytes)
// consecutive accesses of split_bytes (the last one shorter), as a compiler emits them. An instruction in which
// no lane is active is made only when `empty_instructions_issue` (gfx9: the wave issues it, exec all off); without
// it (sm90: nvcc branches around a guarded access no lane of the warp takes) it is left out, its position skipped
// and its arithmetic carried to the wave's next instruction of the interval (or the interval's alu_tail).
// Two findings come with it: a divergence when lanes made different numbers of accesses in an interval
// (lanes grouped by count), and an ambiguity when lanes disagree at one position on label, width, kind,
// space or atomicity (lanes grouped by what they did): the instruction is still made, but it is a guess.
//
// WORKED EXAMPLE (wave of 4, interval 0, split 16):
//   lane 0: store 4 B @0, store 4 B @64      lanes 1-3: store 4 B @4l
//   -> instruction 0: {4 B store, {0, 4, 8, 12}}; instruction 1: {4 B store, {64, -, -, -}}
//      divergence: lanes 0: "2 instructions"; lanes 1-3: "1 instruction". No ambiguity (same label/width).
//   lane 0: load 32 B @0 -> two instructions of 16 B at 0 and 16.
//
//   empty_instructions_issue = false; lanes 0-3 each: store 4 B (invalid), store 4 B @4l (valid)
//   -> one instruction, position 1: {4 B store, {0, 4, 8, 12}}; position 0 had no active lane.
//
// INVARIANTS: every instruction has wave_size addresses; instructions come out sorted by (interval,
// position); the number of instructions of a wave in an interval is the largest count of any of its lanes
// (less the ones with no active lane, when those are not issued);
// an instruction's alu_before (a wave's alu_tail) is, per class, the most any of its lanes stated (the wave
// issues what its busiest lane needs); a split access carries its arithmetic on its first piece.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/diagnostics.hpp"
#include "sim/engine/lane_access.hpp"
#include "sim/engine/run_result.hpp"

namespace tilesim::sim {

struct grouping {
  std::vector<wave_record> waves;
  std::vector<ambiguity> ambiguities;
  std::vector<divergence> divergences;
};

// The instructions of workgroup `block` from each thread's accesses (threads[t] for thread t, in order).
// `labels` turns label numbers into names; `alu_tails[t][i]`, when given, is thread t's arithmetic after its
// last access of interval i. Throws std::invalid_argument for wave_size < 1 or a bad split.
grouping group_accesses(const std::vector<const std::vector<lane_access>*>& threads, int block, int wave_size,
                        int intervals, int split_bytes, const std::vector<std::string>& labels,
                        const std::vector<std::vector<alu_work>>& alu_tails = {}, bool empty_instructions_issue = true);

// One interval of the above (the definition the engine's wave_grouper.hpp is held to): appends interval `interval`'s
// instructions and alu_tail entry to g.waves (made on the first call, one per wave) and its divergences and
// ambiguities to g, from each thread's accesses of that interval (threads[t]) and its arithmetic after them
// (tails[t]; empty: none). Calling it for intervals 0, 1, ... and then stable-sorting g.divergences and
// g.ambiguities by wave gives group_accesses' result.
void group_interval(const std::vector<std::span<const lane_access>>& threads, int block, int wave_size, int interval,
                    int split_bytes, const std::vector<std::string>& labels, const std::vector<alu_work>& tails,
                    grouping& g, bool empty_instructions_issue = true);

// What a lane did at one position, as reports name it: access_description("st", 4, lds, store, false) ==
// "label 'st', 4-byte lds store".
std::string access_description(const std::string& label, std::uint32_t width, memory_space space, access_kind kind,
                               bool atomic);

// The divergence of wave `wave` in `interval` when its lanes issued different numbers of instructions (counts[l]
// for lane l), else none: {3, 1, 1} -> lanes grouped as "1 instruction" {1, 2} and "3 instructions" {0}.
std::optional<divergence> divergence_of(int block, int wave, int interval, std::span<const std::uint64_t> counts);

}  // namespace tilesim::sim
