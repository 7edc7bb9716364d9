// tilesim/sim/engine/wave_grouper.cpp: a wave's rows filled lane access by lane access; the chase that orders them.
#include "sim/engine/wave_grouper.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "sim/engine/grouping.hpp"

namespace tilesim::sim {

wave_grouper::wave_grouper(int lanes, int wave_size, int split_bytes, bool empty_instructions_issue,
                           const std::vector<std::string>* labels)
    : lanes_(lanes), wave_size_(wave_size), split_(split_bytes), empty_issue_(empty_instructions_issue),
      labels_(labels) {
  if (wave_size < 1 || lanes < 1 || lanes > wave_size)
    throw std::invalid_argument("wave_grouper: need 1 <= lanes <= wave_size (lanes = " + std::to_string(lanes) +
                                ", wave_size = " + std::to_string(wave_size) + ")");
  if (split_bytes < 0 || (split_bytes & (split_bytes - 1)) != 0)
    throw std::invalid_argument("wave_grouper: split_bytes must be 0 or a power of two (split_bytes = " +
                                std::to_string(split_bytes) + ")");
  hint_.assign(static_cast<std::size_t>(lanes), -1);
  chains_.resize(static_cast<std::size_t>(lanes));
}

std::size_t wave_grouper::find_slot(const key& k) {
  for (std::size_t i = 0; i < used_; ++i)
    if (slots_[i].k == k) return i;
  if (used_ == slots_.size()) slots_.emplace_back();
  slot& s = slots_[used_];
  s.k = k;
  const auto split = static_cast<std::uint32_t>(split_);
  s.pieces = split_ > 0 && k.sig.width > split ? (k.sig.width + split - 1) / split : 1;
  s.occurrence.assign(static_cast<std::size_t>(lanes_), 0);
  s.rows.clear();
  return used_++;
}

void wave_grouper::make_row(slot& s, const lane_access& a, std::uint32_t p) {
  const auto split = static_cast<std::uint32_t>(split_);
  row_state& r = state_.emplace_back();
  r.width = s.pieces > 1 ? std::min(split, a.width - p * split) : a.width;
  r.slot = static_cast<std::uint32_t>(&s - slots_.data());
  r.occurrence = static_cast<std::uint32_t>(s.rows.size() / s.pieces);
  r.buffer = a.buffer;
  r.address.assign(static_cast<std::size_t>(wave_size_), no_address);
  s.rows.push_back(static_cast<std::uint32_t>(state_.size() - 1));
}

std::string wave_grouper::describe(std::size_t row) const {
  const row_state& r = state_[row];
  const signature& s = slots_[r.slot].k.sig;
  return access_description((*labels_)[static_cast<std::size_t>(s.label)], r.width, s.space, s.kind, s.atomic);
}

void wave_grouper::finish(int block, int wave, int interval, std::span<const alu_work> tails, wave_record& rec,
                          std::vector<ambiguity>& ambiguities, std::vector<divergence>& divergences) {
  alu_work tail;
  for (int l = 0; l < lanes_ && !tails.empty(); ++l)
    for (int op = 0; op < alu_op_count; ++op) tail[op] = std::max(tail[op], tails[static_cast<std::size_t>(l)][op]);
  alu_work carried;  // arithmetic of rows left out (no active lane), for the next one issued
  rec.instructions.reserve(rec.instructions.size() + state_.size());
  const std::size_t rows = state_.size();
  const auto lanes = static_cast<std::size_t>(lanes_);
  // Every lane made the same rows (a converged interval, the common case): they were made in that order, which is
  // the chase's; no member lists needed.
  bool converged = chains_[0].size() == rows;
  for (std::size_t l = 1; l < lanes && converged; ++l) converged = chains_[l] == chains_[0];
  if (converged) {
    for (std::size_t r = 0; r < rows; ++r) issue(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(r), interval, rec, carried);
    finish_tail(block, wave, interval, tail, carried, rec, divergences);
    return;
  }
  // Each row's lanes, in lane order (a lane is in a row at most once): counted, then placed.
  member_begin_.assign(rows + 1, 0);
  for (std::size_t l = 0; l < lanes; ++l)
    for (const std::uint32_t r : chains_[l]) ++member_begin_[r + 1];
  for (std::size_t r = 0; r < rows; ++r) member_begin_[r + 1] += member_begin_[r];
  members_.resize(member_begin_[rows]);
  pos_.assign(rows, 0);  // per row: members placed so far (then reused per lane below)
  for (std::size_t l = 0; l < lanes; ++l)
    for (const std::uint32_t r : chains_[l]) members_[member_begin_[r] + pos_[r]++] = static_cast<std::uint32_t>(l);
  // The chase (grouping.hpp's ORDER).
  emitted_.assign(rows, false);
  pos_.assign(lanes, 0);
  passed_stamp_.assign(rows, 0);
  constexpr std::uint32_t none = ~std::uint32_t{0};
  auto next = [&](std::size_t l) {  // lane l's first row not issued yet
    const std::vector<std::uint32_t>& c = chains_[l];
    std::uint32_t& p = pos_[l];
    while (p < c.size() && emitted_[c[p]]) ++p;
    return p < c.size() ? c[p] : none;
  };
  for (std::size_t i = 0; i < used_; ++i) slots_[i].first_issued = none;
  auto site_of = [&](std::uint32_t r) { const key& k = slots_[state_[r].slot].k; return access_site{k.file, k.line}; };
  auto continues = [&](std::uint32_t r) { return slots_[state_[r].slot].first_issued < state_[r].occurrence; };
  std::size_t low = 0;
  for (std::uint32_t position = 0; position < rows; ++position) {
    while (low < lanes && next(low) == none) ++low;
    std::uint32_t r = next(low);  // some row is left, so some lane has one; the first in the source, or looping
    for (std::size_t l = low; l < lanes; ++l) {
      const std::uint32_t n = next(l);
      if (n == none) continue;
      if (continues(n)) {
        r = n;
        break;
      }
      if (n != r && source_before(site_of(n), site_of(r))) r = n;
    }
    bool conflict = false;
    const std::uint32_t stamp = position + 1;
    for (;;) {
      passed_stamp_[r] = stamp;
      std::uint32_t earlier = none;
      for (std::uint32_t m = member_begin_[r]; m < member_begin_[r + 1]; ++m)
        if (const std::uint32_t e = next(members_[m]); e != r) {
          earlier = e;
          break;
        }
      if (earlier == none) break;
      r = earlier;
      if (passed_stamp_[r] == stamp) {
        conflict = true;
        break;
      }
    }
    if (conflict) {  // lanes grouped by what they still had to issue before this row
      std::map<std::string, std::vector<int>> by_what;
      const std::string here = describe(r);
      for (std::uint32_t m = member_begin_[r]; m < member_begin_[r + 1]; ++m) {
        const std::uint32_t e = next(members_[m]);
        by_what[e == r ? here : here + ", issued before their " + describe(e)].push_back(static_cast<int>(members_[m]));
      }
      ambiguity amb{block, wave, interval, static_cast<int>(position), {}};
      for (auto& [what, ids] : by_what) amb.lanes.push_back({what, std::move(ids)});
      ambiguities.push_back(std::move(amb));
    }
    emitted_[r] = true;
    std::uint32_t& first = slots_[state_[r].slot].first_issued;
    first = std::min(first, state_[r].occurrence);
    issue(r, position, interval, rec, carried);
  }
  finish_tail(block, wave, interval, tail, carried, rec, divergences);
}

void wave_grouper::issue(std::uint32_t r, std::uint32_t position, int interval, wave_record& rec, alu_work& carried) {
  row_state& row = state_[r];
  if (!row.active && !empty_issue_) {  // not issued: its arithmetic goes with the next one
    for (int op = 0; op < alu_op_count; ++op) carried[op] += row.alu[op];
    return;
  }
  const signature& sig = slots_[row.slot].k.sig;
  wave_instruction& ins = rec.instructions.emplace_back();
  ins.access = {(*labels_)[static_cast<std::size_t>(sig.label)], sig.kind, sig.space, static_cast<int>(row.width),
                std::move(row.address)};
  ins.interval = interval;
  ins.position = static_cast<int>(position);
  ins.buffer = row.buffer;
  ins.atomic = sig.atomic;
  ins.matrix_access = sig.matrix_access;
  ins.access.matrix_access = sig.matrix_access;  // priced as 8x8 matrix phases (sim/models/lds_banks.hpp)
  ins.guarded = sig.guarded;
  ins.async_copy = sig.async_copy;
  for (int op = 0; op < alu_op_count; ++op) ins.alu_before[op] = row.alu[op] + carried[op];
  carried = {};
}

void wave_grouper::finish_tail(int block, int wave, int interval, alu_work tail, const alu_work& carried,
                               wave_record& rec, std::vector<divergence>& divergences) {
  for (int op = 0; op < alu_op_count; ++op) tail[op] += carried[op];
  rec.alu_tail.push_back(tail);
  // Lanes that issued different numbers of instructions in the interval diverged.
  const auto lanes = static_cast<std::size_t>(lanes_);
  counts_.resize(lanes);
  for (std::size_t l = 0; l < lanes; ++l) counts_[l] = chains_[l].size();
  if (auto d = divergence_of(block, wave, interval, counts_)) divergences.push_back(std::move(*d));
  reset();
}

void wave_grouper::reset() {
  state_.clear();
  used_ = 0;
  std::fill(hint_.begin(), hint_.end(), -1);
  for (std::vector<std::uint32_t>& c : chains_) c.clear();
}

}  // namespace tilesim::sim
