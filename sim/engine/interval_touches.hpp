// tilesim/sim/engine/interval_touches.hpp: (engine-internal) the bytes a workgroup's lane accesses moved in one
// barrier interval, kept as they are recorded, for the race checks.
//
// DEFINITION. Races need the touches of an interval (races.hpp); the wave instructions do not keep them. The
// recorder appends each touched access here as it records it: an LDS touch as a compact lds_touch (LDS offsets fit
// 32 bits; most of a tile program's accesses are LDS reads, which are only looked at when the interval may race),
// a global touch as a full touch. lds_writes says whether any LDS touch wrote: without one, no LDS bytes of the
// interval can race (reads never race with reads), and the race screen is skipped. The lists are in recording
// order (fibers take turns, so a thread's accesses may be interleaved with others' between shuffles); thread_major
// puts a list in the order the race search reads it, thread by thread, each thread's in program order. A tile
// window's LDS reads, recorded in one call, are kept smaller still, as a run (lds_read_run: one header, 4 bytes a
// read), and become lds_touches in their place only when the interval writes LDS (expand_lds_reads).
//
// WORKED EXAMPLE. Thread 3 stores 16 bytes at LDS byte 256 of allocation 1 (label 2) and loads 16 bytes of
// global buffer 0 at address 4096: lds = {{256, 272, 2, 1, 3, write}}, lds_writes = true, global = {{4096, 4112,
// base of buffer 0, global, read, thread 3, ...}}.
//
// INVARIANTS: every entry has begin < end; lds_writes is true exactly when some lds entry writes (plain or atomic);
// runs hold reads only, their `at` never decreases; clear() empties the lists and lds_writes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/engine/races.hpp"

namespace tilesim::sim::detail {

// One LDS touch of the open interval.
struct lds_touch {
  std::uint32_t begin = 0, end = 0;  // LDS bytes [begin, end)
  std::int32_t label = 0;
  std::int32_t buffer = 0;           // LDS allocation
  std::uint32_t base = 0;            // the allocation's first byte
  std::int32_t thread = 0;
  bool write = false, atomic = false;
};

// A run of LDS reads one thread recorded in one call (a tile window's load), kept compact: `count` reads of
// `width` bytes, the k-th from byte read_begins[first + k]; in recording order they come just before lds[at].
struct lds_read_run {
  std::size_t at = 0, first = 0, count = 0;
  std::uint32_t width = 0;
  std::int32_t label = 0;
  std::int32_t buffer = 0;
  std::uint32_t base = 0;
  std::int32_t thread = 0;
};

struct interval_touches {
  std::vector<lds_touch> lds;
  std::vector<lds_read_run> lds_read_runs;     // reads kept as runs (4 bytes a read): only an interval that writes
  std::vector<std::uint32_t> lds_read_begins;  // LDS looks at its LDS touches (expand_lds_reads)
  std::vector<touch> global;
  bool lds_writes = false;

  // Puts the runs' reads into lds, each where it was recorded: lds then holds every LDS touch in recording order.
  void expand_lds_reads() {
    if (lds_read_runs.empty()) return;
    std::vector<lds_touch> all;
    all.reserve(lds.size() + lds_read_begins.size());
    std::size_t next = 0;
    for (const lds_read_run& r : lds_read_runs) {
      all.insert(all.end(), lds.begin() + static_cast<std::ptrdiff_t>(next),
                 lds.begin() + static_cast<std::ptrdiff_t>(r.at));
      next = r.at;
      for (std::size_t k = r.first; k < r.first + r.count; ++k) {
        const std::uint32_t begin = lds_read_begins[k];
        all.push_back({begin, begin + r.width, r.label, r.buffer, r.base, r.thread, false, false});
      }
    }
    all.insert(all.end(), lds.begin() + static_cast<std::ptrdiff_t>(next), lds.end());
    lds.swap(all);
    lds_read_runs.clear();
    lds_read_begins.clear();
  }

  void clear() {
    lds.clear();
    lds_read_runs.clear();
    lds_read_begins.clear();
    global.clear();
    lds_writes = false;
  }
};

// Sorts touches thread by thread, keeping each thread's order (a no-op when they already are).
template <class T>
void thread_major(std::vector<T>& v) {
  auto by_thread = [](const T& a, const T& b) { return a.thread < b.thread; };
  if (!std::is_sorted(v.begin(), v.end(), by_thread)) std::stable_sort(v.begin(), v.end(), by_thread);
}

}  // namespace tilesim::sim::detail
