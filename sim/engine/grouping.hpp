// tilesim/sim/engine/grouping.hpp: from each lane's accesses to the wave's instructions.
//
// DEFINITION. Within one barrier interval, a wave's lanes execute an instruction together when they make the
// same access at the same point of their paths: its site (the program's call, lane_access.hpp), label, kind,
// space, width, atomicity and matrix_access, for the same time. A lane's accesses are numbered per such key: its
// occurrence is how many accesses with that key the lane made before in the interval. One wave-level instruction
// (a sim::wave_access) is made per (key, occurrence) that some lane reached; each lane shows the address of its
// access there, or no_address when it made none (its path went elsewhere) or its access was masked (an invalid LDS
// access or store; lane_access::active). This is SIMT reconvergence as the hardware issues it, by instruction and
// not by the ordinal of an access: a loop whose last step only some lanes take, a guarded tail, an early exit and
// the two sides of an if/else each make their own instructions, and the lanes meet again at the accesses they
// all make. A lane access wider than split_bytes (a power of two; 0 = never split) is ceil(width / split_bytes)
// consecutive pieces of split_bytes (the last one shorter), as a compiler emits them; each piece is an instruction.
// ORDER. The instructions come out in one order that every lane's own order respects, found by a chase: start at
// the next instruction of the lowest lane whose next one continues a loop (an earlier occurrence of its key was
// issued), else at the lanes' next instruction whose site comes first in the source (file name, then line; the
// lowest lane on a tie); while some lane of that instruction (the lowest) has an earlier one of its own left, go
// to that one; issue the first that has none. Lanes still looping go before lanes that left the loop, and an
// if's side before its else and both before the code after them, as a reconvergence stack issues them. When the chase comes back to an
// instruction it passed (lanes made the same keys in orders no single issue order explains, e.g. an if/else whose
// sides lanes take in different loop steps), that instruction is issued there and an ambiguity is reported: the
// grouping is a guess. An instruction in which no lane is active is made only when `empty_instructions_issue`
// (gfx9: the wave issues it, exec all off); without it (sm90: nvcc branches around a guarded access no lane of
// the warp takes) it is left out, its position skipped and its arithmetic carried to the next instruction issued
// in the interval (or the interval's alu_tail). A divergence is reported when lanes made different numbers of
// instructions in an interval (lanes grouped by count).
//
// WORKED EXAMPLE (wave of 4, interval 0, split 16; X, Y, Z are sites):
//   lanes 0-1: load 4 B @4l at X, twice (a loop of 2 steps); lanes 2-3: once (their last step is guarded off);
//   then every lane stores 4 B @64+4l at Z.
//   -> instruction 0: {X load, {0, 4, 8, 12}}; 1: {X load, {0, 4, -, -}} (second occurrence);
//      2: {Z store, {64, 68, 72, 76}}. Divergence: lanes 2-3 "2 instructions", lanes 0-1 "3 instructions".
//      (By ordinal, lanes 2-3's store would have joined lanes 0-1's second load.)
//   lanes 0-1 store at Y, lanes 2-3 store at Z (an if/else) -> two instructions, {Y, {a, b, -, -}} then {Z, ...}.
//   lane 0: load 32 B @0 at X -> two instructions of 16 B at 0 and 16.
//
//   empty_instructions_issue = false; lanes 0-3 each: store 4 B (invalid) at X, store 4 B @4l (valid) at Y
//   -> one instruction, position 1: {4 B store, {0, 4, 8, 12}}; position 0 had no active lane.
//
// LIMITS. The accesses alone do not say in which step of a loop a lane is: for structured programs (if/else on lane
// predicates, loops whose trip counts differ by lane, early exits) the instructions are a reconvergence stack's
// (props/reconvergence.props.cpp holds them to one); a guard that lanes pass in different steps of a loop
// (`for s: if (s >= lane) X`) or a loop nested in a loop whose inner trip counts differ by lane groups each lane's
// k-th X together, which the hardware does not; label such a loop's steps apart (ctx.label with the step in the
// name: the label is part of the key) to group them as it does.
//
// INVARIANTS: every instruction has wave_size addresses; instructions come out sorted by (interval, position);
// a lane shows an address in instructions in its own order of accesses (unless an ambiguity says otherwise); the
// number of instructions of a wave in an interval is the number of distinct (key, occurrence) its lanes reached
// (less the ones with no active lane, when those are not issued); when every lane makes the same keys in the same
// order, instruction k is every lane's k-th access; an instruction's alu_before (a wave's alu_tail) is, per class,
// the most any of its lanes stated (the wave issues what its busiest lane needs); a split access carries its
// arithmetic on its first piece.
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

// What a lane did at one instruction, as reports name it: access_description("st", 4, lds, store, false) ==
// "label 'st', 4-byte lds store".
std::string access_description(const std::string& label, std::uint32_t width, memory_space space, access_kind kind,
                               bool atomic);

// The divergence of wave `wave` in `interval` when its lanes issued different numbers of instructions (counts[l]
// for lane l), else none: {3, 1, 1} -> lanes grouped as "1 instruction" {1, 2} and "3 instructions" {0}.
std::optional<divergence> divergence_of(int block, int wave, int interval, std::span<const std::uint64_t> counts);

}  // namespace tilesim::sim
