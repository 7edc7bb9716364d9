// tilesim/kernel/model/shuffle.hpp: warp shuffles, the program model's first warp-collective operation.
//
// DEFINITION. A shuffle is executed by all lanes of a wave together: each lane offers a value and receives the
// value of one source lane, chosen by the kind and an operand, as CUDA's __shfl_*_sync (PTX shfl.sync, full
// mask, width = the wave) and HIP's __shfl_* define it:
//   index  source = operand mod W                 (every lane may name a different operand)
//   xor    source = lane ^ operand                 (own value when that is not a lane of the wave)
//   up     source = lane - operand                 (own value when < 0)
//   down   source = lane + operand                 (own value when >= W)
// Programs call shuffle_index / shuffle_xor / shuffle_up / shuffle_down (program.hpp); on the simulator the
// engine parks each lane until every lane of its wave has arrived, then exchanges (sim/engine/engine.cpp),
// and reports, naming the lanes, a wave whose lanes do not all arrive or arrive at different shuffles; on a
// GPU it is one SHFL (NVIDIA) or ds_bpermute (AMD) instruction.
//
// WORKED EXAMPLE (W = 4, values v = {10, 11, 12, 13}):
//   xor 1:   {11, 10, 13, 12}      xor 2: {12, 13, 10, 11}
//   up 1:    {10, 10, 11, 12}      down 1: {11, 12, 13, 13}
//   index 3: {13, 13, 13, 13}      index with operand = 3 - lane: {13, 12, 11, 10}
//
// INVARIANTS: shuffle_source(k, lane, operand, W) is a lane of the wave for every input; a shuffle moves values
// only (no memory access is recorded); a value is 4 or 8 bytes.
#pragma once

#include "spec/config.hpp"

namespace tilesim {

enum class shuffle_kind : int { index = 0, xor_lanes = 1, up = 2, down = 3 };

// The lane whose value `lane` receives: shuffle_source(shuffle_kind::up, 0, 1, 32) == 0 (its own).
TILESIM_HOST_DEVICE constexpr int shuffle_source(shuffle_kind kind, int lane, index_t operand, int wave_size) {
  const index_t w = wave_size;
  index_t source = lane;
  switch (kind) {
    case shuffle_kind::index: source = ((operand % w) + w) % w; break;
    case shuffle_kind::xor_lanes: source = lane ^ operand; break;
    case shuffle_kind::up: source = lane - operand; break;
    case shuffle_kind::down: source = lane + operand; break;
  }
  return source >= 0 && source < w ? static_cast<int>(source) : lane;
}

// "xor": how reports name a kind.
TILESIM_HOST_DEVICE constexpr const char* shuffle_name(shuffle_kind kind) {
  return kind == shuffle_kind::index ? "index" : kind == shuffle_kind::xor_lanes ? "xor" : kind == shuffle_kind::up ? "up" : "down";
}

}  // namespace tilesim
