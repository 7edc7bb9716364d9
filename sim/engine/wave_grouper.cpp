// tilesim/sim/engine/wave_grouper.cpp: rows of a wave's instruction table, filled lane access by lane access.
#include "sim/engine/wave_grouper.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "sim/engine/grouping.hpp"

namespace tilesim::sim {

wave_grouper::wave_grouper(int lanes, int wave_size, int split_bytes, bool empty_instructions_issue,
                           const std::vector<std::string>* labels)
    : lanes_(lanes), wave_size_(wave_size), split_(split_bytes), empty_issue_(empty_instructions_issue),
      labels_(labels), count_(static_cast<std::size_t>(std::max(lanes, 0)), 0) {
  if (wave_size < 1 || lanes < 1 || lanes > wave_size)
    throw std::invalid_argument("wave_grouper: need 1 <= lanes <= wave_size (lanes = " + std::to_string(lanes) +
                                ", wave_size = " + std::to_string(wave_size) + ")");
  if (split_bytes < 0 || (split_bytes & (split_bytes - 1)) != 0)
    throw std::invalid_argument("wave_grouper: split_bytes must be 0 or a power of two (split_bytes = " +
                                std::to_string(split_bytes) + ")");
}

void wave_grouper::add_rows(int lane, const lane_access& a, address_t address, bool with_alu) {
  const auto split = static_cast<std::uint32_t>(split_);
  const bool splits = split_ > 0 && a.width > split;
  const std::uint32_t pieces = splits ? (a.width + split - 1) / split : 1;
  std::uint64_t& count = count_[static_cast<std::size_t>(lane)];
  for (std::uint32_t p = 0; p < pieces; ++p) {
    const auto k = static_cast<std::size_t>(count + p);  // <= state_.size(): a lane's rows are 0, 1, 2, ...
    const signature s{a.label, splits ? std::min(split, a.width - p * split) : a.width, a.kind, a.space, a.atomic,
                      a.matrix_load};
    if (k == state_.size()) {
      state_.push_back({s, lane, 0, a.buffer, false, {},
                        std::vector<address_t>(static_cast<std::size_t>(wave_size_), no_address)});
    } else if (lane < state_[k].ref) {
      take_reference(k, lane, s);
    } else if (!(s == state_[k].sig)) {
      exceptions_.push_back({k, lane, s});
      ++state_[k].exceptions;
    }
    if (p == 0 && with_alu) merge_alu(state_[k], a.alu_before);
    merge(state_[k], a, address, lane, p);
  }
  count += pieces;
}

void wave_grouper::take_reference(std::size_t row, int lane, const signature& s) {
  row_state& r = state_[row];
  if (!(s == r.sig)) {
    // The lanes seen so far that agreed with the old reference now differ from the new one.
    std::vector<bool> listed(static_cast<std::size_t>(lanes_), false);
    for (const exception& e : exceptions_)
      if (e.row == row) listed[static_cast<std::size_t>(e.lane)] = true;
    for (int l = 0; l < lanes_; ++l)
      if (l != lane && count_[static_cast<std::size_t>(l)] > row && !listed[static_cast<std::size_t>(l)]) {
        exceptions_.push_back({row, l, r.sig});
        ++r.exceptions;
      }
    // Those that did what the new reference did agree now.
    const auto before = exceptions_.size();
    std::erase_if(exceptions_, [&](const exception& e) { return e.row == row && e.sig == s; });
    r.exceptions -= static_cast<int>(before - exceptions_.size());
    r.sig = s;
  }
  r.ref = lane;
}

std::string wave_grouper::describe(const signature& s) const {
  return access_description((*labels_)[static_cast<std::size_t>(s.label)], s.width, s.space, s.kind, s.atomic);
}

void wave_grouper::finish(int block, int wave, int interval, std::span<const alu_work> tails, wave_record& rec,
                          std::vector<ambiguity>& ambiguities, std::vector<divergence>& divergences) {
  alu_work tail;
  for (int l = 0; l < lanes_ && !tails.empty(); ++l)
    for (int op = 0; op < alu_op_count; ++op) tail[op] = std::max(tail[op], tails[static_cast<std::size_t>(l)][op]);
  alu_work carried;  // arithmetic of rows left out (no active lane), for the next one issued
  rec.instructions.reserve(rec.instructions.size() + state_.size());
  for (std::size_t k = 0; k < state_.size(); ++k) {
    row_state& r = state_[k];
    if (r.exceptions > 0) {
      std::vector<const signature*> of_lane(static_cast<std::size_t>(lanes_), &r.sig);
      for (const exception& e : exceptions_)
        if (e.row == k) of_lane[static_cast<std::size_t>(e.lane)] = &e.sig;
      std::map<std::string, std::vector<int>> by_signature;
      for (int l = r.ref; l < lanes_; ++l)
        if (count_[static_cast<std::size_t>(l)] > k) by_signature[describe(*of_lane[static_cast<std::size_t>(l)])].push_back(l);
      ambiguity amb{block, wave, interval, static_cast<int>(k), {}};
      for (auto& [what, ids] : by_signature) amb.lanes.push_back({what, std::move(ids)});
      ambiguities.push_back(std::move(amb));
    }
    if (!r.active && !empty_issue_) {  // not issued: its arithmetic goes with the next one
      for (int op = 0; op < alu_op_count; ++op) carried[op] += r.alu[op];
      continue;
    }
    wave_instruction& ins = rec.instructions.emplace_back();
    ins.access = {(*labels_)[static_cast<std::size_t>(r.sig.label)], r.sig.kind, r.sig.space, static_cast<int>(r.sig.width),
                  std::move(r.address)};
    ins.interval = interval;
    ins.position = static_cast<int>(k);
    ins.buffer = r.buffer;
    ins.atomic = r.sig.atomic;
    ins.matrix_load = r.sig.matrix_load;
    for (int op = 0; op < alu_op_count; ++op) ins.alu_before[op] = r.alu[op] + carried[op];
    carried = {};
  }
  for (int op = 0; op < alu_op_count; ++op) tail[op] += carried[op];
  rec.alu_tail.push_back(tail);
  // Lanes that issued different numbers of instructions in the interval diverged.
  if (auto d = divergence_of(block, wave, interval, count_)) divergences.push_back(std::move(*d));
  reset();
}

void wave_grouper::reset() {
  state_.clear();
  exceptions_.clear();
  std::fill(count_.begin(), count_.end(), 0);
}

}  // namespace tilesim::sim
