// tilesim/sim/wave_access.hpp: one wave-level memory instruction, the unit every memory model prices.
//
// DEFINITION. When a tile program runs, each lane makes its own memory accesses. The lanes of one wave that
// make the same access (same program site, same time: sim/engine/grouping.hpp) form one wave-level instruction: a width (bytes per lane), a kind (load or store), an
// address space (LDS/shared or global) and one byte address per lane, `no_address` for a lane that takes no
// part (inactive, diverged, or masked). The pattern files of `tilesim bank` / `tilesim global` are exactly
// this record written one per line: `NAME WIDTH OP OFF_0 ... OFF_{n-1}` with 4294967295 for `no_address`.
//
// WORKED EXAMPLE. A 4-lane toy wave storing 4 bytes per lane to a 4x4 float tile's column 1 (rows 0-3):
//   wave_access{"col1", access_kind::store, memory_space::lds, 4, {4, 20, 36, 52}}
// On 32 banks of 4 bytes those addresses hit banks 1, 5, 9, 13: one pass, no conflict.
//
// INVARIANTS: address.size() is the arch's wave size; an active lane's `width` bytes start at its address.
// Models (sim/lds_banks.hpp, sim/global_coalescing.hpp) take these records and never look at the program.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilesim::sim {

using address_t = std::uint64_t;

// The address of a lane that takes no part in an instruction (pattern files write 4294967295).
inline constexpr address_t no_address = ~address_t{0};

enum class access_kind { load, store };
enum class memory_space { lds, global };

struct wave_access {
  std::string label;               // what the program called it, or the pattern's NAME
  access_kind kind = access_kind::load;
  memory_space space = memory_space::lds;
  int width = 4;                   // bytes per lane: 1, 2, 4, 8, 16
  std::vector<address_t> address;  // one per lane of the wave; no_address for lanes that take no part
  bool matrix_access = false;      // an ldmatrix (load) or stmatrix (store): lanes 8k .. 8k+7 give matrix k's rows,
                                   // each matrix its own phase

  // Lanes that take part: {4, no_address, 8}.active_lanes() == 2.
  int active_lanes() const {
    int n = 0;
    for (address_t a : address) n += a != no_address;
    return n;
  }
};

}  // namespace tilesim::sim
