// tilesim/sim/engine/diagnostics.hpp: what the engine finds wrong with a program, one record per finding.
//
// DEFINITION. Findings that leave the run usable are records in the result:
//   race               a byte written by one thread and read or written by another in the same barrier
//                      interval (or by threads of two workgroups, which never synchronize): both threads,
//                      the buffer, the byte range and both labels. Two atomic adds do not race.
//   bounds_error       a valid access with elements outside its buffer: thread, lane, buffer, byte offset
//   misaligned_access  a valid access whose address is not a multiple of its natural alignment
//   ambiguity          lanes of a wave that made the same accesses in orders no one issue order explains
//                      (grouping.hpp's ORDER), so the instruction's place is a guess: which lanes did what
//   divergence         lanes of a wave that made different numbers of instructions in an interval (each
//                      instruction shows no_address for the lanes whose path did not reach it)
//   barrier_mismatch   threads that met at one barrier from different source lines
// Findings that stop the run (a program threw, a barrier some threads never reach) are a run_error.
//
// WORKED EXAMPLE. Threads 0 and 1 both store 4 bytes at LDS byte 0 with no barrier between:
//   describe(race) == "race on lds allocation 0 bytes [0, 4): block 0 thread 0 (wave 0, lane 0) store 'a'
//                      and block 0 thread 1 (wave 0, lane 1) store 'b', in interval 0"
//
// INVARIANTS: byte ranges are [begin, end) from the buffer's first byte; a race's `first` is the side with
// the lower (block, thread); contiguous bytes racing between the same two accesses' threads and labels are
// one record (coalesced), so a racy loop over a tile is a line per thread pair, not per byte.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/wave_access.hpp"
#include "spec/config.hpp"

namespace tilesim::sim {

// One simulated thread: "block 0 thread 65 (wave 1, lane 1)".
struct thread_ref {
  int block = 0;
  int thread = 0;
  int wave = 0;
  int lane = 0;
  friend bool operator==(const thread_ref&, const thread_ref&) = default;
};

// A set of ids (lanes or threads) that share one description: {"2 instructions", {0, 1, ..., 15}}.
struct id_group {
  std::string what;
  std::vector<int> ids;
};

struct race_side {
  thread_ref who;
  int interval = 0;
  std::string label;
  access_kind kind = access_kind::load;
  bool atomic = false;
};

struct race {
  memory_space space = memory_space::lds;
  int buffer = 0;           // global slot or LDS allocation
  std::string buffer_name;  // "lds allocation 0" or the global buffer's name
  index_t begin = 0;        // bytes from the buffer's start
  index_t end = 0;
  race_side first, second;
  bool same_wave() const { return first.who.block == second.who.block && first.who.wave == second.who.wave; }
};

struct bounds_error {
  thread_ref who;
  int interval = 0;
  std::string label;
  access_kind kind = access_kind::load;
  bool atomic = false;
  memory_space space = memory_space::lds;
  int buffer = 0;
  std::string buffer_name;
  index_t element_offset = 0;  // the vector's first element
  index_t elements = 0;        // elements in the vector
  index_t outside = 0;         // of which outside [0, buffer_elements)
  index_t buffer_elements = 0;
  index_t byte_offset = 0;     // the vector's first byte, from the buffer's start (may be negative)
  index_t width = 0;           // bytes
  address_t address = no_address;  // the first byte's address in its space (no_address when negative)
};

struct misaligned_access {
  thread_ref who;
  int interval = 0;
  std::string label;
  access_kind kind = access_kind::load;
  memory_space space = memory_space::lds;
  int buffer = 0;
  std::string buffer_name;
  address_t address = 0;
  index_t width = 0;
  index_t alignment = 0;  // what the address should be a multiple of
};

struct ambiguity {
  int block = 0, wave = 0, interval = 0, position = 0;
  std::vector<id_group> lanes;  // lanes grouped by what they did at that position
};

struct divergence {
  int block = 0, wave = 0, interval = 0;
  std::vector<id_group> lanes;  // lanes grouped by how many instructions they made in the interval
};

struct barrier_mismatch {
  int block = 0;
  int barrier = 0;                // the barrier that ends interval `barrier`
  std::vector<id_group> threads;  // threads grouped by the source line they waited at
};

// Diagnostics found in a run, listed or not (each list stops at launch::max_reports).
struct diagnostic_counts {
  std::size_t races = 0, bounds_errors = 0, misaligned = 0, ambiguities = 0, divergences = 0, barrier_mismatches = 0;
};

// What stops a run: a program's exception (the original is in `cause`), or a divergent barrier.
class run_error : public std::runtime_error {
 public:
  enum class reason { bad_launch, program_threw, divergent_barrier, divergent_shuffle };
  run_error(reason why, int block, std::vector<int> threads, const std::string& message,
            std::exception_ptr cause = nullptr)
      : std::runtime_error(message), why(why), block(block), threads(std::move(threads)), cause(std::move(cause)) {}
  reason why;
  int block;                 // the workgroup (-1 for bad_launch)
  std::vector<int> threads;  // the thread that threw; or the threads waiting at the divergent barrier / shuffle
  std::exception_ptr cause;  // the program's own exception (program_threw)
};

// Ids as ranges: id_ranges({0, 1, 2, 3, 7, 9, 10}) == "0-3, 7, 9-10".
std::string id_ranges(const std::vector<int>& ids);
// "lds"/"global", "load"/"store".
const char* space_name(memory_space s);
const char* kind_name(access_kind k);
// "block 0 thread 65 (wave 1, lane 1)".
std::string describe(const thread_ref& t);
// One line each, naming every value (see the example above).
std::string describe(const race& r);
std::string describe(const bounds_error& e);
std::string describe(const misaligned_access& m);
std::string describe(const ambiguity& a);
std::string describe(const divergence& d);
std::string describe(const barrier_mismatch& b);

}  // namespace tilesim::sim
