// tilesim/gpu/rtc_props/layout_pairs.test.cpp: layout twins and pair verdicts (layout_pairs.hpp), no GPU needed.
#include <doctest/doctest.h>

#include "gpu/rtc_props/layout_pairs.hpp"
#include "gpu/rtc_props/props_generators.hpp"
#include "gpu/rtc_props/props_json.hpp"

namespace tilesim::gpu::props {

TEST_SUITE("props-gpu") {

// Law: a twin is the same program in another LDS layout: it passes every rule, only the layout fields differ, it
// is row-major exactly when the drawn case is not (padded by the widest vector when it is); every non-row-major case
// has one (a row-major tile is never larger in LDS than the same tile in another family).
TEST_CASE("a layout twin is the same program in another layout") {
  const std::vector<props_kind> all = {props_kind::copy, props_kind::stencil, props_kind::reduce, props_kind::loop};
  int twins = 0, row_major_drawn = 0, row_major_twinned = 0;
  for (int i = 0; i < 300; ++i) {
    const props_case c = generate_case(4242, i, 0, 32, all).value();
    const std::optional<props_case> t = layout_twin(c);
    CAPTURE(util::dump(to_json(c)));
    row_major_drawn += c.layout == props_layout::row_major;
    if (c.layout != props_layout::row_major) REQUIRE(t.has_value());
    if (!t) continue;
    ++twins;
    CHECK(check_props_case(*t) == "");
    CHECK((t->layout == props_layout::row_major) == (c.layout != props_layout::row_major));
    if (c.layout == props_layout::row_major) {
      ++row_major_twinned;
      CHECK(t->layout == props_layout::padded);
      CHECK(t->pad >= 1);
    } else {
      CHECK(t->pad == 0);
    }
    props_case same = *t;  // the layout fields put back: the rest is the drawn case
    same.layout = c.layout, same.pad = c.pad, same.ck_k_pack = c.ck_k_pack, same.ck_m_lds_layer = c.ck_m_lds_layer;
    same.ck_banks = c.ck_banks, same.ck_order = c.ck_order;
    same.swizzle_b = c.swizzle_b, same.swizzle_m = c.swizzle_m, same.swizzle_s = c.swizzle_s;
    CHECK(same == c);
  }
  CHECK(row_major_drawn > 0);
  CHECK(row_major_twinned > 0);  // row-major cases get padded twins (most fit)
  CHECK(twins >= 300 - row_major_drawn);
}

// Law: a pair differs when its measured speed-up is more than 5 % from 1; the faster side is named when the
// predicted speed-up lies on the same side of 1; the speed-up error is predicted / measured - 1 over every pair.
TEST_CASE("pair verdicts count the differing pairs and the faster side named") {
  // {drawn, twin, layouts, predicted drawn, predicted twin, measured drawn, measured twin}
  const std::vector<pair_cycles> pairs = {
      {0, 1, "cute_swizzle", "row_major", 1000, 2000, 1000, 2500},  // 2.0 predicted, 2.5 measured: named, -20 %
      {2, 3, "padded", "row_major", 1000, 900, 1000, 1200},         // 0.9 against 1.2: misnamed, -25 %
      {4, 5, "row_major", "padded", 1000, 1030, 1000, 1040},        // 1.04 measured: not differing, -1 %
      {6, 7, "morton", "row_major", 1000, 1000, 1000, 800},         // 1.0 predicted against 0.8: misnamed, +25 %
      {8, 9, "ck_xor", "row_major", 0, 1000, 1000, 1000},           // no prediction: skipped
  };
  const pair_verdicts v = judge_pairs(pairs);
  CHECK(v.pairs == 4);
  CHECK(v.differing == 3);
  CHECK(v.faster_named == 1);
  CHECK(v.misnamed == std::vector<int>{2, 6});
  CHECK(v.median_abs_speedup_error == doctest::Approx((0.20 + 0.25) / 2));
  CHECK(v.worst_abs_speedup_error == doctest::Approx(0.25));
  const util::json_value j = to_json(v);
  CHECK(j["faster_named"].number() == 1);
  CHECK(j["misnamed_drawn_cases"].elements().size() == 2);
}

}  // TEST_SUITE

}  // namespace tilesim::gpu::props
