// tilesim/gpu/rtc_props/layout_pairs.cpp: layout twins and the verdicts over pairs (layout_pairs.hpp).
#include "gpu/rtc_props/layout_pairs.hpp"

#include <algorithm>
#include <cmath>

#include "gpu/crosscheck/counters.hpp"
#include "gpu/rtc_props/props_generators.hpp"

namespace tilesim::gpu::props {

std::optional<props_case> layout_twin(const props_case& c) {
  props_case twin = c;
  const props_case plain{};  // the layout fields' row-major values
  twin.layout = props_layout::row_major;
  twin.pad = plain.pad;
  twin.ck_k_pack = plain.ck_k_pack, twin.ck_m_lds_layer = plain.ck_m_lds_layer, twin.ck_banks = plain.ck_banks;
  twin.ck_order = plain.ck_order;
  twin.swizzle_b = plain.swizzle_b, twin.swizzle_m = plain.swizzle_m, twin.swizzle_s = plain.swizzle_s;
  if (c.layout == props_layout::row_major) {
    // Padded by the widest vector either window moves along the columns (row starts stay aligned to it).
    const index_t widest = std::max(c.writer.h[1][c.writer.n_h[1] - 1], c.reader.h[1][c.reader.n_h[1] - 1]);
    twin.layout = props_layout::padded;
    twin.pad = std::min<index_t>(widest, 16 / c.element_bytes);
  }
  if (!check_props_case(twin).empty()) return std::nullopt;
  return twin;
}

pair_verdicts judge_pairs(const std::vector<pair_cycles>& pairs) {
  pair_verdicts v;
  std::vector<double> errors;
  for (const pair_cycles& p : pairs) {
    if (p.predicted_drawn <= 0 || p.predicted_twin <= 0 || p.measured_drawn <= 0 || p.measured_twin <= 0) continue;
    ++v.pairs;
    const double measured = p.measured_speedup(), predicted = p.predicted_speedup();
    errors.push_back(std::fabs(predicted / measured - 1));
    if (std::fabs(measured - 1) <= 0.05) continue;
    ++v.differing;
    if ((measured > 1) == (predicted > 1) && predicted != 1) ++v.faster_named;
    else v.misnamed.push_back(p.drawn);
  }
  v.median_abs_speedup_error = median(errors);
  v.worst_abs_speedup_error = errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end());
  return v;
}

util::json_value to_json(const pair_verdicts& v) {
  util::json_value out;
  out.set("pairs", v.pairs);
  out.set("differing_over_5_percent", v.differing);
  out.set("faster_named", v.faster_named);
  out.set("median_abs_speedup_error", v.median_abs_speedup_error);
  out.set("worst_abs_speedup_error", v.worst_abs_speedup_error);
  util::json_value::array misnamed;
  for (int i : v.misnamed) misnamed.push_back(util::json_value(i));
  out.set("misnamed_drawn_cases", misnamed);
  return out;
}

}  // namespace tilesim::gpu::props
