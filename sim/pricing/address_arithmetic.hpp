// tilesim/sim/pricing/address_arithmetic.hpp: which LDS accesses cost integer instructions to form their address.
//
// DEFINITION. A compiled kernel forms most LDS addresses for free: when an access's address is an earlier
// access's address plus a constant that is the same for every lane, the compiler keeps the earlier address in a
// register and folds the constant into the instruction's immediate offset (or one uniform add). An access whose
// address differs from every recent one by a lane-dependent amount needs its own integer instructions: a swizzle
// that XORs loop bits into thread bits costs a LOP3 and a LEA per access on sm90. The timing model charges
// arch.issue.address_ops integer instructions (sim/arch) for each such access, on the wave's scheduler.
//   "Recent" is the wave's last 8 LDS accesses (the base registers a kernel keeps), and the constant must be the
//   same in every wave of the workgroup: the compiler sees one thread's code, not which lanes share a row. The
//   first LDS access of a wave costs nothing here (its address is the prologue's, global_timing::prologue_cycles).
//
// WORKED EXAMPLE. Four lanes read a 4x4 tile of 4-byte words, lane l in row l, one column k per access:
//   row-major, address 16 l + 4 k:          k = 0 {0, 16, 32, 48}, k = 1 {4, 20, 36, 52}: step +4 for every lane:
//                                           uniform, no arithmetic.
//   XOR swizzle, address 16 l + 4 (k ^ l):  k = 0 {0, 20, 40, 60}, k = 1 {4, 16, 44, 56}: steps +4, -4, +4, -4:
//                                           not uniform; k = 1 costs address_ops (and k = 2, 3 likewise).
//
// INVARIANTS: uniform_step needs at least one lane active in both accesses; lanes inactive in either are ignored;
// the verdicts do not depend on the order of the waves.
// Measured (sim/arch/sm90.cpp, address_evidence): on an H100 the CK-XOR fp32 GEMM executes 175 more warp
// instructions per warp than the padded one (LOP3 and LEA); the rule charges 30 accesses per warp there, 2 each,
// which with their wait prices the GEMM's cycles within 3 % (the instruction count is not matched).
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "sim/wave_access.hpp"

namespace tilesim::sim {

// The step every lane active in both accesses sees, if it is one: {0, 16} -> {4, 20} gives 4, {0, 20} -> {4, 16}
// gives nothing; no common lane: nothing.
inline std::optional<address_t> uniform_step(const wave_access& from, const wave_access& to) {
  const std::size_t n = std::min(from.address.size(), to.address.size());
  std::optional<address_t> step;
  for (std::size_t l = 0; l < n; ++l) {
    const address_t a = from.address[l], b = to.address[l];
    if (a == no_address || b == no_address) continue;
    if (!step) step = b - a;
    else if (b - a != *step) return std::nullopt;
  }
  return step;
}

// Which LDS accesses need their own address arithmetic, for the waves of one workgroup: lds[w] lists wave w's LDS
// accesses in program order; result[w][p] says whether lds[w][p] needs it. An access is free when, for some
// back-distance d <= window, every wave sees the same uniform step from its access p - d: the step is then a
// constant of the program, not of the thread (a step uniform in one wave alone may differ in the next, as an
// XOR swizzle's does, and the compiler cannot know). The first access of a wave is free. Waves whose LDS access
// counts differ are judged each on its own.
inline std::vector<std::vector<bool>> needs_address_arithmetic(const std::vector<std::vector<const wave_access*>>& lds,
                                                                std::size_t window = 8) {
  // The verdicts for the waves `group` (all with the same count n): one vector, the same for each.
  auto judge = [&](const std::vector<std::size_t>& group, std::size_t n) {
    std::vector<bool> needs(n, false);
    for (std::size_t p = 1; p < n; ++p) {
      bool free = false;
      for (std::size_t d = 1; d <= std::min(window, p) && !free; ++d) {
        std::optional<address_t> step;
        free = true;
        for (std::size_t w : group) {
          const std::optional<address_t> s = uniform_step(*lds[w][p - d], *lds[w][p]);
          free = s && (!step || *s == *step);
          if (!free) break;
          step = s;
        }
      }
      needs[p] = !free;
    }
    return needs;
  };
  std::vector<std::vector<bool>> out(lds.size());
  bool aligned = !lds.empty();
  for (const auto& w : lds) aligned = aligned && w.size() == lds.front().size();
  if (aligned) {
    std::vector<std::size_t> all(lds.size());
    for (std::size_t w = 0; w < lds.size(); ++w) all[w] = w;
    const std::vector<bool> needs = judge(all, lds.front().size());
    for (auto& o : out) o = needs;
  } else {
    for (std::size_t w = 0; w < lds.size(); ++w) out[w] = judge({w}, lds[w].size());
  }
  return out;
}

}  // namespace tilesim::sim
