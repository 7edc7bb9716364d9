// tilesim/gpu/rtc_props/layout_pairs.hpp: the verdict a user wants of two layouts (issue 33, item 4).
//
// DEFINITION. A layout pair is one generated program run twice, identical but for where its tile sits in LDS: the
// drawn case c and its twin layout_twin(c). The twin of a padded, CK XOR, CuTe swizzle or Morton case is the same
// case row-major (no pad, no swizzle): "what does my layout buy over the plain one?". The twin of a row-major case
// is the same case padded by one of its widest vectors (the usual first fix for a conflicted tile). Kind, tile,
// both distributions, grid, tensor and buffering stay; a twin that breaks a rule (the padded tile or its two
// buffers no longer fit in LDS) is not drawn, and the case has no pair.
// The speed-up of a pair is twin cycles / drawn cycles (> 1: the drawn layout is faster), predicted by the
// simulator and measured on the GPU; its error is predicted / measured - 1. The simulator names the faster side
// when both speed-ups lie on the same side of 1; that verdict is judged over the pairs whose measured speed-up
// differs from 1 by more than 5 % (closer is within the GPU's own noise between launches).
//
// WORKED EXAMPLE. props-h200-pairs-seed20261203-repeat10.json, drawn case 136: an fp16 copy of a 24x64 tile, 4 warps,
// 3 blocks, through CuTe's Swizzle<2,3,3>: 2043 cycles per block measured, 2303 predicted. Its twin (case 137), the
// same copy row-major, reads 4x the LDS wavefronts (2304 against 576): 2427 measured, 2861 predicted. Speed-up
// measured 1.19, predicted 1.24: error +4.6 %, and the faster side (the swizzle) named. A pair measured 1.03x apart
// counts toward the speed-up error only.
//
// INVARIANTS: layout_twin(c), when it exists, passes check_props_case and differs from c in layout fields only
// (layout, pad, ck_*, swizzle_*); judge_pairs counts a pair as differing iff |measured - 1| > 0.05, and
// faster_named <= differing <= pairs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpu/rtc_props/props_case.hpp"
#include "util/json.hpp"

namespace tilesim::gpu::props {

// The drawn case's twin (see above), or nullopt when the twin would break a rule of props_case.
std::optional<props_case> layout_twin(const props_case& c);

// One pair's cycles per block: the drawn case (index `drawn` in its run) and its twin (index `twin`).
struct pair_cycles {
  int drawn = 0, twin = 0;
  std::string drawn_layout, twin_layout;  // "cute_swizzle", "row_major"
  double predicted_drawn = 0, predicted_twin = 0, measured_drawn = 0, measured_twin = 0;

  double predicted_speedup() const { return predicted_twin / predicted_drawn; }  // 2.0: the drawn layout twice as fast
  double measured_speedup() const { return measured_twin / measured_drawn; }
};

struct pair_verdicts {
  int pairs = 0;
  int differing = 0;     // pairs whose measured speed-up is more than 5 % from 1
  int faster_named = 0;  // of those, the pairs whose predicted speed-up lies on the same side of 1
  double median_abs_speedup_error = 0, worst_abs_speedup_error = 0;  // over every pair: |predicted / measured - 1|
  std::vector<int> misnamed;  // drawn indices of the differing pairs whose faster side the simulator misnames
};

// The verdicts over `pairs` (pairs with a cycle count <= 0 on either side are skipped).
pair_verdicts judge_pairs(const std::vector<pair_cycles>& pairs);

// The verdicts as the report's summary.layout_pairs: {"pairs": 140, "differing": 61, "faster_named": 59, ...}.
util::json_value to_json(const pair_verdicts& v);

}  // namespace tilesim::gpu::props
