// tilesim/sim/engine/wave_grouper.hpp: a wave's instructions, made as its lanes record their accesses.
//
// DEFINITION. grouping.hpp defines a wave's instructions from each lane's list of accesses in one barrier interval:
// the k-th access (piece, when split) of every lane is instruction k. A wave_grouper makes the same instructions
// without the lists: each lane hands over its accesses one at a time (add(lane, access); add_run takes several of
// one kind in a row), lanes in any interleaving that keeps each lane's own order (the fibers of a wave take turns
// between shuffles), and the access goes straight into row count[lane] of the interval's table: its address into
// that row's lane slot, its arithmetic into the row's per-class maximum. A row is a wave_instruction in the making;
// its reference is the lowest lane seen in it (label, kind, space, width, atomicity and matrix_load are that
// lane's), and lanes that did something else there are kept as exceptions (lane, signature), so a row agrees exactly
// when it has none. finish() closes the interval: rows with no active lane are left out when empty instructions do
// not issue (their arithmetic carried on), ambiguities come from the rows with exceptions and a divergence from the
// lanes' row counts, all as group_interval makes them. There is no sort and no second pass over lane accesses: a
// lane access costs a compare with its row's reference and a store of its address.
//
// WORKED EXAMPLE (wave of 4, split 16): lane 1 records a 4-byte store at 4 (row 0 made, reference lane 1), then
// lane 0 a 4-byte store at 0 (row 0's reference becomes lane 0, same signature), then lane 0 a 32-byte load at 64
// (rows 1 and 2: 16 bytes at 64 and 80); finish(): three instructions, {0, 4, -, -}, {64, -, -, -}, {80, -, -, -},
// and a divergence: lane 0 "3 instructions", lane 1 "1 instruction", lanes 2-3 "0 instructions".
//
// INVARIANTS: after finish(), the instructions, alu tail, ambiguities and divergence appended equal those of
// group_interval over the same lanes' accesses in their order (wave_grouper.test.cpp checks it on random access
// sets and interleavings); a row's exceptions never hold a lane whose signature equals the row's; count[l] is the
// number of rows lane l reached, so lane l is in row k exactly when count[l] > k.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/diagnostics.hpp"
#include "sim/engine/lane_access.hpp"
#include "sim/engine/run_result.hpp"

namespace tilesim::sim {

class wave_grouper {
 public:
  // The grouper of a wave of `lanes` lanes (a partial last wave has fewer than wave_size); split_bytes as in
  // grouping.hpp; labels names the label numbers (the table may grow while the grouper lives).
  wave_grouper(int lanes, int wave_size, int split_bytes, bool empty_instructions_issue,
               const std::vector<std::string>* labels);

  // Lane `lane`'s next access of the interval (its touch and validity are not looked at).
  [[gnu::always_inline]] void add(int lane, const lane_access& a) {
    add_run(lane, a, 1, [&](std::size_t) { return a.address; });
  }
  // Lane `lane`'s next `count` accesses, as count calls of add would take them: access k is `a` at address_of(k),
  // with a's arithmetic before the first only. Inline: the common case (one piece, a row already made, the
  // reference's signature) is a compare and a few stores; `a` is read field by field, never copied (a copy of
  // the access just built would stall on store forwarding).
  template <class AddressOf>
  [[gnu::always_inline]] void add_run(int lane, const lane_access& a, std::size_t count, AddressOf&& address_of) {
    const signature s{a.label, a.width, a.kind, a.space, a.atomic, a.matrix_load};
    const bool one_piece = split_ == 0 || a.width <= static_cast<std::uint32_t>(split_);
    std::uint64_t& reached = count_[static_cast<std::size_t>(lane)];
    std::uint64_t rows = reached;  // a local: the address stores below cannot alias it
    for (std::size_t k = 0; k < count; ++k) {
      const address_t address = address_of(k);
      const auto row = static_cast<std::size_t>(rows);
      if (one_piece && row < state_.size() && lane >= state_[row].ref && state_[row].sig == s) {
        if (k == 0) merge_alu(state_[row], a.alu_before);
        merge(state_[row], a, address, lane, 0);
        ++rows;
      } else {
        reached = rows;
        add_rows(lane, a, address, k == 0);
        rows = reached;
      }
    }
    reached = rows;
  }
  // Closes interval `interval` of wave `wave` of workgroup `block`: appends its instructions and alu tail to rec,
  // and its ambiguities and divergence; tails[l] is lane l's arithmetic after its last access (empty: none).
  void finish(int block, int wave, int interval, std::span<const alu_work> tails, wave_record& rec,
              std::vector<ambiguity>& ambiguities, std::vector<divergence>& divergences);
  // Forgets the open interval (a run abandoned in the middle of one).
  void reset();

 private:
  // What a lane did at one row, as agreement compares it.
  struct signature {
    std::int32_t label = 0;
    std::uint32_t width = 0;
    access_kind kind = access_kind::load;
    memory_space space = memory_space::lds;
    bool atomic = false, matrix_load = false;
    // Every field equal; all compared, without a branch per field (the hot path's one test).
    bool operator==(const signature& o) const {
      return (label == o.label) & (width == o.width) & (kind == o.kind) & (space == o.space) & (atomic == o.atomic) &
             (matrix_load == o.matrix_load);
    }
  };
  struct row_state {
    signature sig;           // the reference lane's
    int ref = 0;             // the lowest lane seen in the row
    int exceptions = 0;      // lanes of the row whose signature differs from sig
    int buffer = 0;          // the lanes' buffer, -1 when they differ
    bool active = false;     // some lane shows an address
    alu_work alu;            // per class, the most any lane stated before its access (first pieces only)
    std::vector<address_t> address;  // per lane of the wave (no_address: none), moved into its instruction
  };
  struct exception {
    std::size_t row = 0;
    int lane = 0;
    signature sig;
  };

  // The general add of access a at `address`: piece by piece, rows made, references taken and exceptions noted as
  // needed; a's arithmetic goes with the first piece when with_alu.
  void add_rows(int lane, const lane_access& a, address_t address, bool with_alu);
  // The arithmetic stated before an access into row r (with its first piece).
  static void merge_alu(row_state& r, const alu_work& before) {
    for (int op = 0; op < alu_op_count; ++op) r.alu[op] = std::max(r.alu[op], before[op]);
  }
  // Piece p of lane `lane`'s access a, at `address`, into row r: buffer, activity, address.
  void merge(row_state& r, const lane_access& a, address_t address, int lane, std::uint32_t p) const {
    if (r.buffer != a.buffer) r.buffer = -1;
    if (a.active) {
      r.active = true;
      if (address != no_address)
        r.address[static_cast<std::size_t>(lane)] = address + static_cast<address_t>(p) * static_cast<address_t>(split_);
    }
  }
  // Makes row `row` lane `lane`'s (a lower lane than its reference arrived).
  void take_reference(std::size_t row, int lane, const signature& s);
  // "label 'st', 4-byte lds store".
  std::string describe(const signature& s) const;

  int lanes_, wave_size_, split_;
  bool empty_issue_;
  const std::vector<std::string>* labels_;
  std::vector<row_state> state_;        // per row of the open interval
  std::vector<exception> exceptions_;   // every row's, in the order found
  std::vector<std::uint64_t> count_;    // per lane: rows reached
};

}  // namespace tilesim::sim
