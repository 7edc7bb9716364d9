// tilesim/sim/engine/access_recorder.hpp: one simulated thread's log of memory accesses, with bounds checks.
//
// DEFINITION. Every recording_buffer access calls record(buffer, kind, offset, n, valid, atomic) on its
// thread's recorder before any data moves. The recorder makes a lane_access (address, width, label,
// barrier interval; see lane_access.hpp for `valid`, `active` and `touched`; whether an invalid global load is active
// is the launch's invalid_global_loads_issue), hands it to its wave's grouper (wave_grouper.hpp: the access goes
// straight into its wave instruction) and its touch to the interval's touch lists (interval_touches.hpp), keeps
// no list of its own, and returns the elements of the vector
// that may move: those inside the buffer, and none when the vector is invalid. Elements outside the buffer
// are reported (thread, lane, buffer, byte offset) and never reach host memory: reads give T{}, writes are
// dropped. A valid access whose address is not a multiple of its natural alignment (the largest power of
// two dividing its width, at most 16) is reported as misaligned (the GPU faults or splits it). record_common logs
// a run of common accesses (a tile window's) in one call, exactly as that many calls of record would.
//
// WORKED EXAMPLE. A 64-float LDS allocation at LDS byte 256; thread 5 stores 4 floats at element 62:
//   record({lds, 0, 256, 64, 4}, store, 62, 4, true, false) == {0, 2}   (elements 62, 63 move)
//   its wave's grouper: {address 504, width 16}; LDS touch [504, 512); bounds error: 2 elements outside [0, 64).
//
// INVARIANTS: exactly one lane_access per call with n >= 1 (n <= 0 records and moves nothing); the returned
// range lies in [0, n) and maps into [0, count) of the buffer.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "sim/engine/interval_touches.hpp"
#include "sim/engine/lane_access.hpp"
#include "sim/engine/wave_grouper.hpp"
#include "spec/config.hpp"

namespace tilesim::sim {

namespace detail {
struct block_state;
}

// Where a recording buffer's elements live, as the recorder needs to know it.
struct buffer_ref {
  memory_space space = memory_space::global;
  int id = 0;               // global slot or LDS allocation index
  address_t base = 0;       // first byte's address in its space
  index_t count = 0;        // elements
  index_t element_bytes = 1;
};

// Elements [begin, end) of one vector access that move data.
struct element_range {
  index_t begin = 0;
  index_t end = 0;
  bool holds(index_t j) const { return j >= begin && j < end; }
};

class access_recorder {
 public:
  // Logs one vector access of n elements at element `offset`; returns which of them move. Inline for the common
  // access (valid, inside its buffer, naturally aligned, in a running workgroup); record_any takes every other.
  // `site` is the program's call that made it (lane_access.hpp).
  [[gnu::always_inline]] element_range record(const buffer_ref& b, access_kind kind, index_t offset, index_t n, bool valid,
                                              bool atomic, access_site site = {}) {
    if (!valid || !common(b, n).holds(b, offset)) return record_any(b, kind, offset, n, valid, atomic, site);
    const address_t address = address_of(b, offset);
    grouper_->add(lane_, common_access(b, kind, address, n, atomic, site));
    const auto width = static_cast<address_t>(n * b.element_bytes);
    if (!in_flight_.empty()) [[unlikely]]
      check_in_flight(b, kind, address, address + width);
    add_touch(*touches_, b, kind == access_kind::store, atomic, address, address + width);
    return {0, n};
  }
  // Logs offsets.size() vector accesses of n elements, access i at element base + offsets[i] and valid when valid
  // is empty or valid[i] != 0, as that many calls of record (not atomic) would, when every one is a common access
  // (all its elements move); returns false, having logged nothing, when one is not (the caller then records them
  // one by one). One call for a tile window's accesses: the checks and the lane_access are set up once.
  bool record_common(const buffer_ref& b, access_kind kind, index_t base, std::span<const index_t> offsets, index_t n,
                     std::span<const unsigned char> valid, access_site site = {});
  // record's general case: any access, with its bounds and alignment checks and reports.
  element_range record_any(const buffer_ref& b, access_kind kind, index_t offset, index_t n, bool valid, bool atomic,
                           access_site site = {});

  int block() const { return block_; }
  int thread() const { return thread_; }
  int wave() const { return wave_; }
  int lane() const { return lane_; }
  int interval() const { return interval_; }
  // Arithmetic stated after the last access of `interval` (before its barrier or the program's end), for the
  // interval the thread last closed at a barrier or its open one (the runner asks for no other).
  alu_work alu_tail(int interval) const;

  // Marks the accesses recorded until guarded(false) as a tile store whose pad guard runs at run time (timing only).
  void guarded(bool on) { guarded_ = on; }

  // Adds n instructions of class op to what the next access (or the interval's tail) carries.
  void note_alu(int op, index_t n);

  // cp.async (kernel/model/async_copy.hpp; async_copies.cpp). issue_async: `elements` elements of `lds` from element
  // `offset` on will receive `bytes` (read from global at issue, as recorded there) when a wait covers the copy; until
  // then its bytes are in flight: this thread touching them, or another thread of the workgroup before the wait and a
  // barrier, is a race. commit_async closes the open group; wait_async(n) lands every copy of the committed groups but
  // the n newest (cp.async.wait_group n), each recorded as an LDS store at the copy's site and label.
  void issue_async(const buffer_ref& lds, unsigned char* lds_data, index_t offset, index_t elements, const void* bytes,
                   access_site site);
  void commit_async() { ++async_groups_; }
  void wait_async(long long newest_pending);

 protected:
  detail::block_state* state_ = nullptr;
  wave_grouper* grouper_ = nullptr;     // this thread's wave's
  detail::interval_touches* touches_ = nullptr;  // its workgroup's open interval's (block_state::touches)
  alu_work pending_alu_;                // stated since the last access
  alu_work closed_alu_;                 // pending_alu_ at the barrier that closed interval closed_interval_
  int closed_interval_ = -1;            // the last interval this thread closed (-1: none in this workgroup)
  static constexpr index_t tracked_range = index_t{1} << 48;  // element offsets and byte addresses followed
  static constexpr index_t max_elements = index_t{1} << 24;   // elements in one vector access followed
  // The natural alignment of a width >= 1: its lowest set bit, at most 16. 12 -> 4, 32 -> 16.
  static index_t natural_alignment(index_t width) { return std::min<index_t>(width & -width, 16); }
  // The element offsets at which a valid access of n elements of one buffer is common: inside the buffer and the
  // followed ranges, naturally aligned, in a running workgroup. Set up once for any number of offsets.
  struct common_offsets {
    index_t last = -1;                 // the last such offset (-1: none)
    address_t misalignment_bits = 0;   // address bits that must be zero
    bool holds(const buffer_ref& b, index_t offset) const {
      return offset >= 0 && offset <= last && (address_of(b, offset) & misalignment_bits) == 0;
    }
  };
  common_offsets common(const buffer_ref& b, index_t n) const {
    if (n <= 0 || n > max_elements || touches_ == nullptr || n * b.element_bytes > index_t{0xffffffff}) return {};
    const index_t alignment = natural_alignment(n * b.element_bytes);
    return {std::min(b.count - n, tracked_range - 1), static_cast<address_t>(alignment - 1)};
  }
  static address_t address_of(const buffer_ref& b, index_t offset) {
    return b.base + static_cast<address_t>(offset * b.element_bytes);
  }
  // The lane_access of a common access of n elements at `address`; it carries the arithmetic stated since the last.
  lane_access common_access(const buffer_ref& b, access_kind kind, address_t address, index_t n, bool atomic,
                            access_site site) {
    lane_access a;
    a.site = site;
    a.address = address;
    a.buffer = b.id;
    a.label = label_;
    a.interval = interval_;
    a.width = static_cast<std::uint32_t>(n * b.element_bytes);
    a.kind = kind;
    a.space = b.space;
    a.valid = a.active = true;
    a.atomic = atomic;
    a.matrix_access = matrix_access_;
    a.guarded = guarded_;
    a.async_copy = async_copy_;
    a.alu_before = pending_alu_;
    pending_alu_ = {};
    return a;
  }
  // Appends bytes [begin, end) of buffer b to the interval's LDS or global touches.
  [[gnu::always_inline]] void add_touch(detail::interval_touches& t, const buffer_ref& b, bool write, bool atomic,
                                        address_t begin, address_t end) {
    if (b.space == memory_space::lds) {
      t.lds.push_back({static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end), label_, b.id,
                       static_cast<std::uint32_t>(b.base), thread_, write, atomic});
      t.lds_writes = t.lds_writes || write;
    } else {
      t.global.push_back({begin, end, b.base, b.space, write, atomic, block_, thread_, interval_, label_, b.id});
    }
  }
  // Reports an access with elements outside its buffer (outside > 0) or misaligned (misalignment: its alignment).
  void report_stray(const buffer_ref& b, access_kind kind, bool atomic, index_t offset, index_t n, index_t outside,
                    index_t byte_offset, index_t width, address_t where, index_t misalignment);
  // Called when the thread passes a barrier: the pending arithmetic is the finished interval's tail.
  void close_alu_interval();
  // A cp.async issued and not landed: where it writes, what, and where it came from (issue_async).
  struct in_flight_copy {
    buffer_ref lds;
    unsigned char* data = nullptr;  // the destination's first element
    index_t offset = 0, elements = 0;
    address_t begin = 0, end = 0;   // its LDS bytes
    unsigned char bytes[16] = {};
    int label = 0, interval = 0;
    long long group = 0;            // commit groups closed before it was issued: its group's number
    access_site site;
  };
  std::vector<in_flight_copy> in_flight_;
  long long async_groups_ = 0;      // commit groups closed so far
  // This thread's access of bytes [begin, end) of b overlaps a copy it has in flight: a race, listed.
  void check_in_flight(const buffer_ref& b, access_kind kind, address_t begin, address_t end);
  // After a barrier: the copies still in flight may land in the new interval too (their bytes are touched in it).
  void touch_in_flight();
  // Lands copies [0, count) of in_flight_ (the oldest), recorded at their sites and labels.
  void land_in_flight(std::size_t count);
  int block_ = 0, thread_ = 0, wave_ = 0, lane_ = 0;
  int label_ = 0;
  int interval_ = 0;
  bool matrix_access_ = false;  // the access being recorded is an ldmatrix or stmatrix row
  bool guarded_ = false;      // the accesses being recorded are a tile store through a padded descriptor
  bool async_copy_ = false;   // the access being recorded is a cp.async's global read or LDS landing
};

}  // namespace tilesim::sim
