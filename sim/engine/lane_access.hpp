// tilesim/sim/engine/lane_access.hpp: what one thread's single vector access leaves in the record.
//
// DEFINITION. Each load/store/add a program makes through a simulated buffer becomes one lane_access, in the
// thread's program order: where it pointed (the first byte's address: LDS bytes from the LDS base, global
// bytes in the simulated global space), how wide it was (n * sizeof(T) bytes), which buffer, label and
// barrier interval, and three facts about it:
//   valid   the program's guard: false for an access the program marks invalid (a vector past a tensor's pad);
//   active  the lane takes part in the wave instruction (it shows an address): every valid access, and, where
//           the launch says invalid global loads issue (launch::invalid_global_loads_issue: gfx9, CK issues the
//           load, then zeroes the vector), an invalid *global load* too; any other invalid access (an LDS access,
//           a store, an sm90 global load: nvcc branches around it) is masked (no_address) in its instruction;
//   touched the bytes that really moved: the valid access's part inside its buffer, [touch_begin, touch_end).
// Races are looked for among touched bytes only; instructions are made from the active addresses.
//
// WORKED EXAMPLE. Thread 5 storing 4 floats at element 62 of a 64-float LDS allocation at LDS byte 256:
// address 256 + 248 = 504, width 16, active, touched [504, 512) (elements 62-63; 64-65 were dropped, and a
// bounds error says so).
//
// INVARIANTS: touch_begin <= touch_end, both inside the buffer; address == no_address only when the byte
// address is negative or beyond the 2^48 range the engine tracks; interval never decreases along a thread.
#pragma once

#include <cstdint>

#include "kernel/model/alu_op.hpp"
#include "sim/wave_access.hpp"

namespace tilesim::sim {

// Arithmetic instructions a thread issued besides memory accesses, per class (alu_op.hpp): what it stated with
// alu() and the collectives it took part in.
struct alu_work {
  std::uint32_t fma = 0, integer = 0, shuffle = 0, matrix = 0;
  std::uint32_t& operator[](int op) { return op == 0 ? fma : op == 1 ? integer : op == 2 ? shuffle : matrix; }
  std::uint32_t operator[](int op) const { return op == 0 ? fma : op == 1 ? integer : op == 2 ? shuffle : matrix; }
  bool empty() const { return fma == 0 && integer == 0 && shuffle == 0 && matrix == 0; }
  bool operator==(const alu_work&) const = default;
};

// Where in the program an access was made: the source line of the call (recording_buffer's load/store/add, a
// tile window's load/store/update, ldmatrix) that made it. Lanes at the same site and label execute the same
// instruction (grouping.hpp); {nullptr, 0} is one unnamed site. Compared by the file pointer (a literal).
struct access_site {
  const char* file = nullptr;
  std::int32_t line = 0;
  bool operator==(const access_site&) const = default;
};

// Whether site a comes before site b in the source: file names (not pointers) first, then lines; {nullptr, 0}
// before any named site.
inline bool source_before(const access_site& a, const access_site& b) {
  if (a.file != b.file) {
    if (!a.file || !b.file) return !a.file;
    if (const int c = __builtin_strcmp(a.file, b.file); c != 0) return c < 0;
  }
  return a.line < b.line;
}

struct lane_access {
  address_t address = no_address;  // the first byte the lane addressed
  address_t touch_begin = 0;       // bytes that moved: [touch_begin, touch_end) (empty: none)
  address_t touch_end = 0;
  std::int32_t buffer = 0;         // global slot, or LDS allocation index
  std::int32_t label = 0;          // index into the run's label table (0 = "")
  std::int32_t interval = 0;       // barriers this thread had passed
  std::uint32_t width = 0;         // bytes: elements * sizeof(T)
  access_kind kind = access_kind::load;
  memory_space space = memory_space::lds;
  bool valid = false;              // the program's guard held (the access was not marked invalid)
  bool active = false;             // shows an address in its wave instruction
  bool atomic = false;             // an add (read-modify-write, atomic on the GPU)
  bool matrix_access = false;      // an ldmatrix row (Nsight Compute counts these as op_ldsm, not op_ld) or stmatrix row
  bool guarded = false;            // a tile store through a descriptor with a pad: its guard is checked at run time
  bool async_copy = false;         // a cp.async: its global read, or its LDS write landing (one LDGSTS on sm90)
  alu_work alu_before;             // arithmetic the thread stated since its previous access of the interval
  access_site site;                // the call that made it

  bool touched() const { return touch_end > touch_begin; }
};

}  // namespace tilesim::sim
