// Strict mode where tilesim's default follows CK into a mistake, or keeps a deliberate difference from CK
// (tile_window.hpp: unchecked_pad_side, ck_index_differs, vector_differs): the CK-compatible access happens,
// and the reporter names each element with the kind.
#include <doctest/doctest.h>

#include <vector>

#include "spec/spec.hpp"

using namespace tilesim;

namespace {
std::vector<float> iota_floats(int n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  return v;
}

template <int N>
std::vector<oob_kind> kinds_of(const std::vector<oob_event<N>>& events) {
  std::vector<oob_kind> k;
  for (const auto& e : events) k.push_back(e.kind);
  return k;
}
}  // namespace

TEST_CASE("a window origin below a right-padded dim: CK loads the element (valid), strict names unchecked_pad_side") {
  // A 4 x 6 row-major tensor whose dim 1 is right-padded to 8 (CK's pad_tensor_view idiom); one element per
  // thread, x = (warp, lane). Origin (1, -2): thread (0, 0) is at top (1, -2). CK's right_pad checks only
  // u < 6, so the element is valid and read at offset 1*6 - 2 = 4, an element of row 0.
  std::vector<float> t = iota_floats(24);
  const auto d = transform_descriptor(make_naive_descriptor<2>({4, 6}, {6, 1}), step(make_pass_through(4), {0}, {0}),
                                      step(make_right_pad(6, 2), {1}, {1}));
  const auto view = make_tensor_view(d, t.data(), 24);
  const auto e = make_encoding({}, {{2}, {4, 1}}, {{{1, 0}}, {{2, 0}}}, {{2, 1}});
  const auto w = make_tile_window(view, {2, 4}, {1, -2}, e, partition_index(e, 0, 0));
  auto dst = make_distributed_tensor<float, 1>(e);
  std::vector<oob_event<2>> events;
  w.load(dst, [&](const oob_event<2>& ev) { events.push_back(ev); });
  CHECK(dst[0] == 4.0f);
  CHECK(kinds_of(events) == std::vector<oob_kind>{oob_kind::outside_tensor, oob_kind::unchecked_pad_side});
  CHECK(events[1].top == multi_index<2>{1, -2});
  CHECK(events[1].offset == 4);
  // Thread (0, 2) is at (1, 0): inside, nothing to report.
  events.clear();
  make_tile_window(view, {2, 4}, {1, -2}, e, partition_index(e, 0, 2)).load(dst, [&](const oob_event<2>& ev) {
    events.push_back(ev);
  });
  CHECK(events.empty());
  CHECK(dst[0] == 6.0f);
}

TEST_CASE("a merge fed a negative index: tilesim's floor division, CK's magic division differs; strict names it") {
  // A 4 x 4 packed tensor seen as 16 elements through merge(4, 4); a 4-element window at origin -2, lane l
  // at top l - 2. Lane 0: merge(-2) = (-1, 2) here (offset -2, outside the buffer: 0); CK's merge_v2
  // reinterprets -2 as 2^32 - 2 and its digits are garbage.
  std::vector<float> t = iota_floats(16);
  const auto d = transform_descriptor(make_naive_descriptor_packed<2>({4, 4}), step(make_merge({4, 4}), {0, 1}, {0}));
  const auto view = make_tensor_view(d, t.data(), 16);
  const auto e = make_encoding({}, {{4, 1}}, {{{1, 0}}}, {{1, 1}});
  auto dst = make_distributed_tensor<float, 1>(e);
  std::vector<oob_event<1>> events;
  make_tile_window(view, {4}, {-2}, e, partition_index(e, 0, 0)).load(dst, [&](const oob_event<1>& ev) {
    events.push_back(ev);
  });
  CHECK(dst[0] == 0.0f);
  CHECK(kinds_of(events) ==
        std::vector<oob_kind>{oob_kind::outside_tensor, oob_kind::outside_buffer, oob_kind::ck_index_differs});
  events.clear();
  make_tile_window(view, {4}, {-2}, e, partition_index(e, 0, 3)).load(dst, [&](const oob_event<1>& ev) {
    events.push_back(ev);
  });
  CHECK(events.empty());  // lane 3 is at top 1
  CHECK(dst[0] == 1.0f);
}

TEST_CASE("xor_t passes no vector here, CK passes its 8: strict names every element of the scalar accesses") {
  // A 4 x 8 packed tensor with an 8-vector on dim 1, columns swizzled by xor_t(4, 8); lane l holds row l.
  // tilesim: top_vectors()[1] is none, 8 scalar accesses. CK (xor_t passes both guarantees) would issue one
  // 8-wide access at (l, 0)'s offset, 8*l + l: row 1 would read offsets 9..16 (wrong elements).
  std::vector<float> t = iota_floats(32);
  const auto d = transform_descriptor(make_naive_descriptor_packed<2>({4, 8}, 8), step(make_xor(4, 8), {0, 1}, {0, 1}));
  CHECK(d.top_vectors()[1] == vector_guarantee{unknown, unknown});
  CHECK(d.ck_top_vectors()[1] == vector_guarantee{8, 1});
  const auto view = make_tensor_view(d, t.data(), 32);
  const auto e = make_encoding({}, {{4}, {8}}, {{{1, 0}}}, {{2, 0}});
  const auto w = make_tile_window(view, {4, 8}, {0, 0}, e, partition_index(e, 0, 1));
  CHECK(w.traits.scalars_per_vector == 1);
  auto dst = make_distributed_tensor<float, 8>(e);
  std::vector<oob_event<2>> events;
  w.load(dst, [&](const oob_event<2>& ev) { events.push_back(ev); });
  for (index_t c = 0; c < 8; ++c) CHECK(dst[c] == static_cast<float>(8 + (c ^ 1)));  // the right elements
  CHECK(kinds_of(events) == std::vector<oob_kind>(8, oob_kind::vector_differs));
}

TEST_CASE("a left pad of 2 over an 8-vector: tilesim issues 2-wide accesses, CK 8-wide; strict names them") {
  // 1 x 8 tensor, 8-vector, left-padded by 2 to 10 columns; one lane holds x1 = 0..7 of a window at (0, 2).
  std::vector<float> t = iota_floats(8);
  const auto d = transform_descriptor(make_naive_descriptor<2>({1, 8}, {8, 1}, 8, 1), step(make_pass_through(1), {0}, {0}),
                                      step(make_left_pad(8, 2), {1}, {1}));
  CHECK(d.top_vectors()[1] == vector_guarantee{2, 1});
  CHECK(d.ck_top_vectors()[1] == vector_guarantee{8, 1});
  const auto e = make_encoding({}, {{1}, {1, 8}}, {{{1, 0}, {2, 0}}}, {{2, 1}});
  const auto w = make_tile_window(make_tensor_view(d, t.data(), 8), {1, 8}, {0, 2}, e, partition_index(e, 0, 0));
  CHECK(w.traits.scalars_per_vector == 2);
  auto dst = make_distributed_tensor<float, 8>(e);
  index_t differs = 0;
  w.load(dst, [&](const oob_event<2>& ev) { differs += ev.kind == oob_kind::vector_differs; });
  CHECK(differs == 8);
  for (index_t c = 0; c < 8; ++c) CHECK(dst[c] == static_cast<float>(c));
}

TEST_CASE("a load walking through modulo: CK's move counts each step twice; strict names the accesses it skews") {
  // 4 elements seen 8 long through modulo(4, 8); one lane holds y = 0..7, scalar accesses, each a move by 1.
  // tilesim reads u mod 4; CK's modulo::update_lower_index gives (u + 1) % 4 after every move, so accesses
  // 1..7 read the next element in CK.
  std::vector<float> t = iota_floats(4);
  const auto d = transform_descriptor(make_naive_descriptor_packed<1>({4}), step(make_modulo(4, 8), {0}, {0}));
  const auto e = make_encoding({}, {{1, 8}}, {{{1, 0}}}, {{1, 1}});
  const auto w = make_tile_window(make_tensor_view(d, t.data(), 4), {8}, {0}, e, partition_index(e, 0, 0));
  auto dst = make_distributed_tensor<float, 8>(e);
  std::vector<oob_event<1>> events;
  w.load(dst, [&](const oob_event<1>& ev) { events.push_back(ev); });
  for (index_t i = 0; i < 8; ++i) CHECK(dst[i] == static_cast<float>(i % 4));
  REQUIRE(events.size() == 7);
  CHECK(kinds_of(events) == std::vector<oob_kind>(7, oob_kind::ck_index_differs));
  CHECK(events[0].y[0] == 1);
}

TEST_CASE("oob_kind_name names the CK kinds") {
  CHECK(std::string(oob_kind_name(oob_kind::unchecked_pad_side)) == "past the unchecked side of a one-sided pad");
  CHECK(std::string(oob_kind_name(oob_kind::ck_index_differs)) == "CK's integer arithmetic gives another index");
  CHECK(std::string(oob_kind_name(oob_kind::vector_differs)) == "CK's vector rules give another vector width");
}
