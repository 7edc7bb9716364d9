// tilesim/sim/engine/access_recorder.cpp: logging one vector access, with its bounds and alignment checks.
#include "sim/engine/access_recorder.hpp"

#include <algorithm>
#include <limits>

#include "sim/engine/internal/block_state.hpp"
#include "sim/engine/wave_grouper.hpp"

namespace tilesim::sim {

element_range access_recorder::record_any(const buffer_ref& b, access_kind kind, index_t offset, index_t n, bool valid,
                                          bool atomic, access_site site) {
  if (n <= 0) return {};
  const index_t eb = b.element_bytes;
  const bool followed = offset > -tracked_range && offset < tracked_range && n <= max_elements;
  lane_access a;
  a.buffer = b.id;
  a.label = label_;
  a.site = site;
  a.interval = interval_;
  a.kind = kind;
  a.space = b.space;
  a.atomic = atomic;
  a.matrix_access = matrix_access_;
  a.guarded = guarded_;
  a.async_copy = async_copy_;
  a.width = static_cast<std::uint32_t>(std::min<index_t>(followed ? n * eb : max_elements,
                                                          std::numeric_limits<std::uint32_t>::max()));
  const index_t byte_offset = followed ? offset * eb : 0;
  const index_t address = static_cast<index_t>(b.base) + byte_offset;
  if (followed && address >= 0) a.address = static_cast<address_t>(address);
  // CK issues an invalid global load and zeroes the result (gfx9); nvcc branches around it (sm90: the launch's
  // invalid_global_loads_issue, from the arch table's guard_rules). Invalid LDS accesses and stores are skipped.
  a.valid = valid;
  a.active = valid || (kind == access_kind::load && b.space == memory_space::global && !atomic &&
                       state_->config->invalid_global_loads_issue);
  a.alu_before = pending_alu_;
  pending_alu_ = {};

  if (grouper_) grouper_->add(lane_, a);
  if (!in_flight_.empty() && valid && followed && address >= 0) [[unlikely]]
    check_in_flight(b, kind, static_cast<address_t>(address), static_cast<address_t>(address + n * eb));

  element_range r{};
  if (valid) {
    if (followed) {
      r.begin = std::clamp<index_t>(-offset, 0, n);
      r.end = std::clamp<index_t>(b.count - offset, 0, n);
      if (r.end < r.begin) r = {};
    }
    if (r.end > r.begin) {
      a.touch_begin = b.base + static_cast<address_t>((offset + r.begin) * eb);
      a.touch_end = b.base + static_cast<address_t>((offset + r.end) * eb);
      add_touch(state_->touches, b, kind == access_kind::store, atomic, a.touch_begin, a.touch_end);
    }
    const index_t outside = n - (r.end - r.begin);
    const address_t where = a.address;
    const index_t alignment = natural_alignment(static_cast<index_t>(a.width));  // a power of two
    const bool misaligned = where != no_address && (where & static_cast<address_t>(alignment - 1)) != 0;
    if (outside > 0 || misaligned) [[unlikely]]
      report_stray(b, kind, atomic, offset, n, outside, byte_offset, static_cast<index_t>(a.width), where,
                   misaligned ? alignment : 0);
  }
  return r;
}

bool access_recorder::record_common(const buffer_ref& b, access_kind kind, index_t base,
                                    std::span<const index_t> offsets, index_t n, std::span<const unsigned char> valid,
                                    access_site site) {
  const common_offsets ok = common(b, n);
  for (std::size_t i = 0; i < offsets.size(); ++i)
    if ((!valid.empty() && valid[i] == 0) || !ok.holds(b, base + offsets[i])) return false;
  if (offsets.empty()) return true;
  const auto width = static_cast<address_t>(n * b.element_bytes);
  grouper_->add_run(lane_, common_access(b, kind, address_of(b, base + offsets[0]), n, false, site), offsets.size(),
                    [&](std::size_t i) { return address_of(b, base + offsets[i]); });
  if (!in_flight_.empty()) [[unlikely]]
    for (const index_t offset : offsets) {
      const address_t address = address_of(b, base + offset);
      check_in_flight(b, kind, address, address + width);
    }
  detail::interval_touches& t = *touches_;
  if (kind == access_kind::load && b.space == memory_space::lds) {  // a run of reads, kept compact
    const std::size_t first = t.lds_read_begins.size();
    t.lds_read_runs.push_back({t.lds.size(), first, offsets.size(), static_cast<std::uint32_t>(width), label_, b.id,
                               static_cast<std::uint32_t>(b.base), thread_});
    t.lds_read_begins.resize(first + offsets.size());
    std::uint32_t* begins = t.lds_read_begins.data() + first;
    for (std::size_t i = 0; i < offsets.size(); ++i)
      begins[i] = static_cast<std::uint32_t>(address_of(b, base + offsets[i]));
    return true;
  }
  for (const index_t offset : offsets) {
    const address_t address = address_of(b, base + offset);
    add_touch(t, b, kind == access_kind::store, false, address, address + width);
  }
  return true;
}

void access_recorder::report_stray(const buffer_ref& b, access_kind kind, bool atomic, index_t offset, index_t n,
                                   index_t outside, index_t byte_offset, index_t width, address_t where,
                                   index_t misalignment) {
  workgroup_record& w = *state_->record;
  const thread_ref who{block_, thread_, wave_, lane_};
  if (outside > 0 && state_->room(&diagnostic_counts::bounds_errors))
    w.bounds_errors.push_back({who, interval_, state_->labels.names[static_cast<std::size_t>(label_)], kind, atomic,
                               b.space, b.id, state_->buffer_name(b.space, b.id), offset, n, outside, b.count,
                               byte_offset, width, where});
  if (misalignment > 0 && state_->room(&diagnostic_counts::misaligned))
    w.misaligned.push_back({who, interval_, state_->labels.names[static_cast<std::size_t>(label_)], kind, b.space,
                            b.id, state_->buffer_name(b.space, b.id), where, width, misalignment});
}

void access_recorder::note_alu(int op, index_t n) {
  if (n <= 0) return;
  std::uint32_t& c = pending_alu_[op];
  c = static_cast<std::uint32_t>(std::min<index_t>(index_t{c} + n, std::numeric_limits<std::uint32_t>::max()));
}

void access_recorder::close_alu_interval() {
  closed_alu_ = pending_alu_;
  closed_interval_ = interval_;
  pending_alu_ = {};
}

alu_work access_recorder::alu_tail(int interval) const {
  // The interval closed last (the thread waits at or passed its barrier) has its tail kept; the open one is pending.
  if (interval == closed_interval_) return closed_alu_;
  return interval == interval_ ? pending_alu_ : alu_work{};
}

}  // namespace tilesim::sim
