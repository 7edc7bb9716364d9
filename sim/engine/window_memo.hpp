// tilesim/sim/engine/window_memo.hpp: (engine-internal) the store of window setups the threads of a runner share.
//
// DEFINITION. Every thread of a workgroup runs the same program, so each makes the same tile windows: the same
// descriptor, window lengths and encoding, differing only in its buffer handle, its P index and its origin.
// A window_memo holds, per distinct window (an entry), what does not depend on the thread: the checked setup and
// the walks already taken (shared_window.hpp says what an entry holds and when one may be reused); and the
// values the program derives alike in every thread (derive_once: encodings, descriptors; shared_value.hpp). It belongs to
// one workgroup_runner (block_state) and is used by one OS thread at a time, so it needs no lock; entries are
// kept from one workgroup to the next (a reused entry is equal by value, not by origin) until they number more
// than max_entries, and the walks of an entry are dropped when they grow past a bound.
//
// EXAMPLE. The GEMM tile makes 7 windows per thread (A and B global, A and B LDS stores, A and B fragment
// reads, C): 7 entries for the whole grid; the A fragment's 256 threads start their walks at 16 distinct
// coordinates (8 lanes with equal rows, and warps with equal rows, share one), so 16 walks are taken, not 256.
//
// INVARIANTS: an entry is found only through shared_window.hpp's lookup, which compares the whole setup; an
// entry's tag names the window's C++ type (a static object per tile_window<View> instantiation).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace tilesim::sim::detail {

struct window_memo {
  // One distinct window's shared setup; shared_window.hpp's typed entries derive from it.
  struct entry {
    const void* tag = nullptr;  // the window type's tag: a typed entry is only cast back to its own type
    virtual ~entry() = default;
  };
  static constexpr std::size_t max_entries = 256;  // of each kind, kept from one workgroup to the next

  std::vector<std::unique_ptr<entry>> entries;  // windows (shared_window.hpp)
  std::vector<std::unique_ptr<entry>> values;   // derive_once values (shared_value.hpp)
  int block = -1;                               // the workgroup that last used the memo

  // Called before each use by workgroup `b`: when a new workgroup starts (no window of the previous one is
  // alive: its threads have finished) and the memo has grown past max_entries (windows or values that differ
  // per workgroup), everything is dropped, so a long grid neither grows the memo nor slows its lookups.
  void enter(int b) {
    if (b == block) return;
    block = b;
    if (entries.size() > max_entries || values.size() > max_entries) {
      entries.clear();
      values.clear();
    }
  }
};

}  // namespace tilesim::sim::detail
