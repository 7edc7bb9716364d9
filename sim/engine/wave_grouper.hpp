// tilesim/sim/engine/wave_grouper.hpp: a wave's instructions, made as its lanes record their accesses.
//
// DEFINITION. grouping.hpp defines a wave's instructions from each lane's list of accesses in one barrier interval:
// one instruction per (key, occurrence) some lane reached, the key being the access's site, label, kind, space,
// width and atomicity, issued in the chase's order. A wave_grouper makes the same instructions without the lists:
// each lane hands over its accesses one at a time (add(lane, access); add_run takes several of one kind in a row),
// lanes in any interleaving that keeps each lane's own order (the fibers of a wave take turns between shuffles).
// An access finds its key's slot (the lane's last slot or the one after it, the common case, else a search of the
// interval's few slots); the slot keeps each lane's occurrence count and the rows made for it, so the access goes
// straight into row rows[occurrence] (made when the lane is the first there): its address into the lane's slot,
// its arithmetic into the row's per-class maximum; the lane's chain notes the row. finish() closes the interval:
// the chase over the lanes' chains orders the rows, rows with no active lane are left out when empty instructions
// do not issue (their arithmetic carried on), ambiguities come from the chase's conflicts and a divergence from
// the lanes' row counts, all as group_interval makes them. A lane access costs a key compare, an index and a store.
//
// WORKED EXAMPLE (wave of 4, split 16, one site): lane 1 records a 4-byte store at 4 (slot 0, row 0 made), then
// lane 0 a 4-byte store at 0 (slot 0, occurrence 0: row 0), then lane 0 a 32-byte load at 64 (slot 1, rows 1 and
// 2: 16 bytes at 64 and 80); finish(): three instructions, {0, 4, -, -}, {64, -, -, -}, {80, -, -, -}, and a
// divergence: lane 0 "3 instructions", lane 1 "1 instruction", lanes 2-3 "0 instructions".
//
// INVARIANTS: after finish(), the instructions, alu tail, ambiguities and divergence appended equal those of
// group_interval over the same lanes' accesses in their order (wave_grouper.test.cpp checks it on random access
// sets and interleavings); a slot's rows[k] holds exactly the lanes whose occurrence count passed k; a lane's chain
// lists its rows in its own order.
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
  // with a's arithmetic before the first only. Inline: the common case (one piece, the key's slot found at the
  // lane's hint, the row made) is an index and a few stores; `a` is read field by field, never copied (a copy of
  // the access just built would stall on store forwarding).
  template <class AddressOf>
  [[gnu::always_inline]] void add_run(int lane, const lane_access& a, std::size_t count, AddressOf&& address_of) {
    const key k{a.site.file, a.site.line, {a.label, a.width, a.kind, a.space, a.atomic, a.matrix_access, a.guarded, a.async_copy}};
    slot& s = slots_[slot_of(lane, k)];
    std::vector<std::uint32_t>& chain = chains_[static_cast<std::size_t>(lane)];
    std::uint32_t& occurrence = s.occurrence[static_cast<std::size_t>(lane)];
    if (s.pieces == 1) {
      for (std::size_t i = 0; i < count; ++i) {
        if (occurrence == s.rows.size()) make_row(s, a, 0);
        const std::uint32_t row = s.rows[occurrence++];
        row_state& r = state_[row];
        if (i == 0) merge_alu(r, a.alu_before);
        merge(r, a, address_of(i), lane, 0);
        chain.push_back(row);
      }
      return;
    }
    for (std::size_t i = 0; i < count; ++i) {
      const address_t address = address_of(i);
      for (std::uint32_t p = 0; p < s.pieces; ++p) {
        const std::size_t index = std::size_t{occurrence} * s.pieces + p;
        if (index == s.rows.size()) make_row(s, a, p);
        const std::uint32_t row = s.rows[index];
        row_state& r = state_[row];
        if (i == 0 && p == 0) merge_alu(r, a.alu_before);
        merge(r, a, address, lane, p);
        chain.push_back(row);
      }
      ++occurrence;
    }
  }
  // Closes interval `interval` of wave `wave` of workgroup `block`: appends its instructions and alu tail to rec,
  // and its ambiguities and divergence; tails[l] is lane l's arithmetic after its last access (empty: none).
  void finish(int block, int wave, int interval, std::span<const alu_work> tails, wave_record& rec,
              std::vector<ambiguity>& ambiguities, std::vector<divergence>& divergences);
  // Forgets the open interval (a run abandoned in the middle of one).
  void reset();

 private:
  // What a lane did, as grouping compares it (the whole access's width).
  struct signature {
    std::int32_t label = 0;
    std::uint32_t width = 0;
    access_kind kind = access_kind::load;
    memory_space space = memory_space::lds;
    bool atomic = false, matrix_access = false, guarded = false, async_copy = false;
    // Every field equal; all compared, without a branch per field.
    bool operator==(const signature& o) const {
      return (label == o.label) & (width == o.width) & (kind == o.kind) & (space == o.space) & (atomic == o.atomic) &
             (matrix_access == o.matrix_access) & (guarded == o.guarded) & (async_copy == o.async_copy);
    }
  };
  // Lanes making accesses of one key execute one instruction per occurrence.
  struct key {
    const char* file = nullptr;
    std::int32_t line = 0;
    signature sig;
    bool operator==(const key& o) const { return (file == o.file) & (line == o.line) & (sig == o.sig); }
  };
  struct slot {
    key k;
    std::uint32_t pieces = 1;                 // instructions per access (split)
    std::vector<std::uint32_t> occurrence;    // per lane: accesses of this key so far
    std::vector<std::uint32_t> rows;          // row of (occurrence, piece), occurrence * pieces + piece
    std::uint32_t first_issued = ~std::uint32_t{0};  // finish(): the lowest occurrence issued so far
  };
  struct row_state {
    std::uint32_t width = 0;  // the piece's
    std::uint32_t slot = 0;   // its key's, in slots_
    std::uint32_t occurrence = 0;
    int buffer = 0;           // the lanes' buffer, -1 when they differ
    bool active = false;      // some lane shows an address
    alu_work alu;             // per class, the most any lane stated before its access (first pieces only)
    std::vector<address_t> address;  // per lane of the wave (no_address: none), moved into its instruction
  };

  // The slot of key k for lane `lane`: its last one, the one after, else found or made (the lane's hint set).
  [[gnu::always_inline]] std::size_t slot_of(int lane, const key& k) {
    int& hint = hint_[static_cast<std::size_t>(lane)];
    const auto next = static_cast<std::size_t>(hint + 1);
    if (next < used_ && slots_[next].k == k) return static_cast<std::size_t>(hint = static_cast<int>(next));
    if (hint >= 0 && slots_[static_cast<std::size_t>(hint)].k == k) return static_cast<std::size_t>(hint);
    return static_cast<std::size_t>(hint = static_cast<int>(find_slot(k)));
  }
  // The slot of key k, made when the interval has none.
  std::size_t find_slot(const key& k);
  // Makes slot s's next row, piece p of a's key.
  void make_row(slot& s, const lane_access& a, std::uint32_t p);
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
  // Issues row r at `position` into rec (or, with no active lane where empty instructions do not issue, carries its
  // arithmetic on).
  void issue(std::uint32_t r, std::uint32_t position, int interval, wave_record& rec, alu_work& carried);
  // Closes the interval after its rows: the alu tail, the divergence, and a reset.
  void finish_tail(int block, int wave, int interval, alu_work tail, const alu_work& carried, wave_record& rec,
                   std::vector<divergence>& divergences);
  // "label 'st', 4-byte lds store" of row r.
  std::string describe(std::size_t row) const;

  int lanes_, wave_size_, split_;
  bool empty_issue_;
  const std::vector<std::string>* labels_;
  std::vector<row_state> state_;                     // per row of the open interval, in the order made
  std::vector<slot> slots_;                          // [0, used_) are the open interval's; the rest kept for reuse
  std::size_t used_ = 0;
  std::vector<int> hint_;                            // per lane: the slot of its last access (-1: none)
  std::vector<std::vector<std::uint32_t>> chains_;   // per lane: its rows, in its order
  // finish()'s scratch, kept between intervals.
  std::vector<std::uint32_t> member_begin_, members_, pos_, passed_stamp_;
  std::vector<std::uint64_t> counts_;
  std::vector<bool> emitted_;
};

}  // namespace tilesim::sim
