// tilesim/sim/engine/launch.hpp: the shape of a simulated launch and the engine's knobs.
//
// DEFINITION. A launch runs `grid` workgroups of `block` threads each, one workgroup after another; thread
// t of a workgroup is lane t % wave_size of wave t / wave_size (1-D ids, as threadIdx.x / blockIdx.x).
// The rest are engine settings: the fiber stack per thread, the LDS a workgroup may allocate, how wide
// one lane's access may be before it counts as several instructions, and how many diagnostics of each kind
// are listed before the rest are only counted.
//
// WORKED EXAMPLE. launch{.grid = 2, .block = 256, .wave_size = 64}: 2 workgroups of 4 waves; thread 130 is
// wave 2, lane 2. With split_bytes = 16 a lane's 32-byte vector load is two instructions (bytes 0-15,
// 16-31), as a GPU compiles it (ds_read_b128 / LDG.128 are the widest).
//
// INVARIANTS (check() names the first broken one): grid, block >= 1; 1 <= wave_size <= 1024; grid * block
// <= 2^24 threads; stack_bytes >= 16 KiB; split_bytes is 0 (never split) or a power of two; max_reports >= 0.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace tilesim::sim {

// ASan's redzones make frames several times larger; fibers get 4x the stack under it.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr std::size_t default_stack_bytes = 256 * 1024;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr std::size_t default_stack_bytes = 256 * 1024;
#else
inline constexpr std::size_t default_stack_bytes = 64 * 1024;
#endif
#else
inline constexpr std::size_t default_stack_bytes = 64 * 1024;
#endif

struct launch {
  int grid = 1;                                   // workgroups (blockIdx.x = 0 .. grid-1)
  int block = 64;                                 // threads per workgroup
  int wave_size = 64;                             // lanes per wave: 64 on gfx9, 32 on sm90 (arch table)
  std::size_t stack_bytes = default_stack_bytes;  // per simulated thread (fiber)
  std::size_t max_lds_bytes = 256 * 1024;         // LDS one workgroup may allocate (arch limits are lower)
  int split_bytes = 16;                           // a lane access wider than this is several instructions
  int max_reports = 1000;                         // listed per diagnostic kind per run; the rest are counted
  bool measure_stack = false;                     // paint stacks and report the deepest use (slower)
  // Guarded accesses (the arch table's guard_rules; sim/engine/arch_launch.hpp sets both from a table). Defaults:
  // CK's semantics on gfx9, an invalid global load still shows its address and an empty instruction is issued.
  bool invalid_global_loads_issue = true;         // false (sm90): a lane's invalid global load is masked
  bool empty_instructions_issue = true;           // false (sm90): a wave instruction with no active lane is skipped

  // An empty string when valid, else the first broken rule with its value: "block must be >= 1 (block = 0)".
  std::string check() const {
    auto bad = [](const std::string& rule, long long value, const char* name) {
      return rule + " (" + name + " = " + std::to_string(value) + ")";
    };
    if (grid < 1) return bad("grid must be >= 1", grid, "grid");
    if (block < 1) return bad("block must be >= 1", block, "block");
    if (wave_size < 1 || wave_size > 1024) return bad("wave_size must be in [1, 1024]", wave_size, "wave_size");
    if (static_cast<long long>(grid) * block > (1LL << 24))
      return bad("grid * block must be <= 2^24 threads", static_cast<long long>(grid) * block, "grid * block");
    if (stack_bytes < 16 * 1024)
      return bad("stack_bytes must be >= 16384", static_cast<long long>(stack_bytes), "stack_bytes");
    if (split_bytes < 0 || (split_bytes & (split_bytes - 1)) != 0)
      return bad("split_bytes must be 0 or a power of two", split_bytes, "split_bytes");
    if (max_reports < 0) return bad("max_reports must be >= 0", max_reports, "max_reports");
    return {};
  }
  int waves_per_block() const { return (block + wave_size - 1) / wave_size; }
};

}  // namespace tilesim::sim
