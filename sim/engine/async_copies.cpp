// tilesim/sim/engine/async_copies.cpp: cp.async on the simulator: copies in flight, their landing, and their races.
//
// A copy reads global memory when it is issued (recorded there, as the global load it is) and writes LDS when a
// cp.async.wait_group covers its group (recorded then, as an LDS store at the copy's site and label, so its banks
// are priced). Between the two its bytes are in flight, and two rules find the programs that rely on luck:
//   - the issuing thread touching them (it did not wait): check_in_flight, a race between the copy and the access;
//   - another thread touching them before the issuer's wait and a barrier: the copy's bytes count as written by the
//     issuer in every interval from its issue to its landing (touch_in_flight after each barrier), so the engine's
//     race search (races.hpp) sees a write and a touch of two threads in one interval.
// A copy never waited for lands when its thread's program ends.
#include <algorithm>
#include <cstring>

#include "sim/engine/access_recorder.hpp"
#include "sim/engine/internal/block_state.hpp"

namespace tilesim::sim {

void access_recorder::issue_async(const buffer_ref& lds, unsigned char* lds_data, index_t offset, index_t elements,
                                  const void* bytes, access_site site) {
  in_flight_copy c;
  c.lds = lds;
  c.data = lds_data + offset * lds.element_bytes;
  c.offset = offset;
  c.elements = elements;
  const index_t width = elements * lds.element_bytes;  // 4, 8 or 16 (async_copy's static_assert)
  std::memcpy(c.bytes, bytes, static_cast<std::size_t>(std::min<index_t>(width, 16)));
  // The bytes it may write: those inside the allocation (landing reports the rest as out of bounds).
  const index_t first = std::clamp<index_t>(offset, 0, lds.count), last = std::clamp<index_t>(offset + elements, 0, lds.count);
  c.begin = lds.base + static_cast<address_t>(first * lds.element_bytes);
  c.end = lds.base + static_cast<address_t>(last * lds.element_bytes);
  c.label = label_;
  c.interval = interval_;
  c.group = async_groups_;
  c.site = site;
  if (c.end > c.begin && touches_) add_touch(*touches_, lds, true, false, c.begin, c.end);
  in_flight_.push_back(c);
}

void access_recorder::wait_async(long long newest_pending) {
  // Copies are kept in issue order, so the groups' copies are a prefix: those of groups < groups - n.
  const long long landed_below = async_groups_ - std::max<long long>(newest_pending, 0);
  std::size_t count = 0;
  while (count < in_flight_.size() && in_flight_[count].group < landed_below) ++count;
  land_in_flight(count);
}

void access_recorder::land_in_flight(std::size_t count) {
  std::vector<in_flight_copy> landing(in_flight_.begin(), in_flight_.begin() + static_cast<std::ptrdiff_t>(count));
  in_flight_.erase(in_flight_.begin(), in_flight_.begin() + static_cast<std::ptrdiff_t>(count));
  const int label = label_;
  for (const in_flight_copy& c : landing) {
    label_ = c.label;
    async_copy_ = true;
    const element_range r = record(c.lds, access_kind::store, c.offset, c.elements, true, false, c.site);
    async_copy_ = false;
    const auto eb = static_cast<std::size_t>(c.lds.element_bytes);
    for (index_t j = r.begin; j < r.end; ++j)
      std::memcpy(c.data + static_cast<std::size_t>(j) * eb, c.bytes + static_cast<std::size_t>(j) * eb, eb);
  }
  label_ = label;
}

void access_recorder::touch_in_flight() {
  if (!touches_) return;
  const int label = label_;
  for (const in_flight_copy& c : in_flight_)
    if (c.end > c.begin) {
      label_ = c.label;
      add_touch(*touches_, c.lds, true, false, c.begin, c.end);
    }
  label_ = label;
}

void access_recorder::check_in_flight(const buffer_ref& b, access_kind kind, address_t begin, address_t end) {
  if (b.space != memory_space::lds) return;
  for (const in_flight_copy& c : in_flight_) {
    const address_t lo = std::max(begin, c.begin), hi = std::min(end, c.end);
    if (lo >= hi) continue;
    // Kept for the workgroup's listing (which counts them) up to the listing's cap; past it only counted.
    if (state_->async_races.size() >= static_cast<std::size_t>(state_->config->max_reports)) {
      ++state_->found->races;
      continue;
    }
    const thread_ref who{block_, thread_, wave_, lane_};
    const auto& names = state_->labels.names;
    race r;
    r.space = memory_space::lds;
    r.buffer = c.lds.id;
    r.buffer_name = state_->buffer_name(memory_space::lds, c.lds.id);
    r.begin = static_cast<index_t>(lo - c.lds.base);
    r.end = static_cast<index_t>(hi - c.lds.base);
    r.first = {who, c.interval, names[static_cast<std::size_t>(c.label)], access_kind::store, false};
    r.second = {who, interval_, names[static_cast<std::size_t>(label_)], kind, false};
    state_->async_races.push_back(std::move(r));
  }
}

}  // namespace tilesim::sim
