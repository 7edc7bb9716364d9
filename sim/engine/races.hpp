// tilesim/sim/engine/races.hpp: finding bytes that two unsynchronized threads touch, one of them writing.
//
// DEFINITION. A touch is the byte range one lane access really moved (lane_access::touch_begin/end). Two
// touches race when they overlap, at least one writes, they are not both atomic adds, and nothing orders
// them:
//   within_workgroup   same workgroup, same barrier interval, different threads
//   across_workgroups  different workgroups (they never synchronize; global memory only)
// For each touch, the overlapping writes of unordered threads are visited in address order and each byte
// is attributed to the first one that covers it, so N threads storing to one word give N-1 races, not
// N^2/2. The races are then coalesced: same space, buffer, two (block, thread, interval, label, kind)
// sides -> one record per contiguous byte range.
//
// WORKED EXAMPLE. Interval 0: thread 0 stores bytes [0, 16) of LDS allocation 0 ("st"), thread 1 loads
// [8, 12) ("ld"), thread 2 loads [16, 20): one race, bytes [8, 12), thread 0 store 'st' / thread 1 load 'ld'.
//
// INVARIANTS: a race's first side has the lower (block, thread); reads never race with reads; accesses of
// one thread never race with each other; the result is sorted by (space, buffer, begin, sides). (One race has both
// sides in one thread: a cp.async in flight and that thread's own access of its bytes, sim/engine/async_copies.cpp.)
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/engine/diagnostics.hpp"
#include "sim/engine/lane_access.hpp"

namespace tilesim::sim {

struct touch {
  address_t begin = 0, end = 0;  // bytes in the access's space
  address_t base = 0;            // the buffer's first byte, so that begin - base is the offset in the buffer
  memory_space space = memory_space::lds;
  bool write = false, atomic = false;
  int block = 0, thread = 0, interval = 0, label = 0, buffer = 0;
};

enum class race_scope { within_workgroup, across_workgroups };

// How races name things: label numbers -> names, the wave size (for wave/lane), buffer -> name.
struct race_naming {
  const std::vector<std::string>* labels = nullptr;
  int wave_size = 64;
  std::function<std::string(memory_space, int)> buffer_name;
};

// The touches of a lane access list (touched ones only; global ones only without with_lds), for thread `thread`
// of workgroup `block`.
void append_touches(std::vector<touch>& out, const std::vector<lane_access>& accesses, int block, int thread,
                    const std::vector<address_t>& lds_bases, const std::vector<address_t>& global_bases,
                    bool with_lds = true);

// Every race among `touches` in `scope`, coalesced (see above).
std::vector<race> find_races(const std::vector<touch>& touches, race_scope scope, const race_naming& naming);

// Whether the touches of one barrier interval of one workgroup may race, 4-byte word by word, without the
// search: each word keeps the first thread that touched it and whether another did, a plain write, an atomic
// add or a read. Two threads race on a byte exactly when several touched it and one wrote it plainly, or one
// added atomically and one read (races.hpp's rule); a word answers for its four bytes together, so race() is
// true whenever find_races(within_workgroup) would report a race, and false alarms come only from threads
// touching different bytes of one word. The engine screens LDS intervals with it and searches only those it
// flags: a correct program's intervals cost a pass over their words.
class race_screen {
 public:
  // Bytes [0, bytes) of one space (LDS: the bytes allocated so far; cover() extends it).
  explicit race_screen(std::size_t bytes) : cells_((bytes + 3) / 4) {}
  // Extends the screen to bytes [0, bytes) (added words are unmarked); a larger screen is kept as it is.
  void cover(std::size_t bytes) {
    if (cells_.size() < (bytes + 3) / 4) cells_.resize((bytes + 3) / 4);
  }
  // Marks [begin, end) as touched by `thread`; bytes outside the screen are ignored.
  void mark(address_t begin, address_t end, int thread, bool write, bool atomic);
  // A possible race among the touches marked since the last clear().
  bool race() const { return race_; }
  // Forgets every mark (a new generation: nothing is visited).
  void clear() {
    ++generation_;
    race_ = false;
  }

 private:
  struct cell {
    std::uint32_t generation = 0;  // marks of older generations are forgotten
    std::uint16_t thread = 0;      // first thread
    std::uint8_t flags = 0;        // several threads, plain write, atomic add, read
  };
  std::vector<cell> cells_;
  std::uint32_t generation_ = 1;
  bool race_ = false;
};

}  // namespace tilesim::sim
