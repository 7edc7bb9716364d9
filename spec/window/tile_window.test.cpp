// Laws and worked examples of tile_window.hpp (ck-tile-semantics.md §3.3-3.6, §4.4, §4.5).
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "spec/error_of.test.hpp"
#include "spec/spec.hpp"

using namespace tilesim;
using tilesim::testing::error_of;

namespace {
using p_index = multi_index<tile_distribution_encoding::max_p>;
using y_index = multi_index<tile_distribution_encoding::max_y>;

// The docs' 4x4: x0 = 2*warp + y0, x1 = 2*lane + y1.
const tile_distribution_encoding docs_4x4 = make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});

std::vector<float> iota_floats(int n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  return v;
}

// The accesses of a window as (offset, valid) pairs, in curve order.
template <class W>
std::vector<std::pair<index_t, bool>> accesses_of(const W& w) {
  std::vector<std::pair<index_t, bool>> r;
  w.for_each_access([&](const auto& a) { r.emplace_back(a.offset, a.valid); });
  return r;
}

// The 8x8 row-major view of the worked example: a guaranteed vector {4, 1} on dim 1.
auto docs_view(std::vector<float>& t) { return make_tensor_view(make_naive_descriptor<2>({8, 8}, {8, 1}, 4, 1), t.data(), 64); }
}  // namespace

TEST_CASE("worked example: docs 4x4 at origin (1,3) of an 8x8 view, thread (1,1) reads offsets 29,30 then 37,38") {
  auto t = iota_floats(64);
  const auto w = make_tile_window(docs_view(t), {4, 4}, {1, 3}, docs_4x4, partition_index(docs_4x4, 1, 1));
  CHECK(w.traits.scalars_per_vector == 2);
  CHECK(accesses_of(w) == std::vector<std::pair<index_t, bool>>{{29, true}, {37, true}});
  auto dst = make_distributed_tensor<float, 4>(docs_4x4);
  w.load(dst);
  CHECK(dst[0] == 29.0f);
  CHECK(dst[1] == 30.0f);
  CHECK(dst[2] == 37.0f);
  CHECK(dst[3] == 38.0f);
}

TEST_CASE("load: element y of thread p is view.at(origin + x_of(p, y)) for every p and y of the docs 4x4") {
  auto t = iota_floats(64);
  const auto view = docs_view(t);
  for (index_t warp = 0; warp < 2; ++warp)
    for (index_t lane = 0; lane < 2; ++lane) {
      const p_index p = partition_index(docs_4x4, warp, lane);
      const auto w = make_tile_window(view, {4, 4}, {1, 3}, docs_4x4, p);
      auto dst = make_distributed_tensor<float, 4>(docs_4x4);
      w.load(dst);
      for (index_t d = 0; d < 4; ++d) {
        const auto x = docs_4x4.x_of(p, docs_4x4.y_of(d));
        CHECK(dst[d] == view.at({1 + x[0], 3 + x[1]}));
      }
    }
}

TEST_CASE("an extra lane is not masked: lane 5 reads past the 8-wide row (wrapping, as CK) and strict mode names it") {
  auto t = iota_floats(64);
  const auto w = make_tile_window(docs_view(t), {4, 4}, {1, 3}, docs_4x4, partition_index(docs_4x4, 0, 5));
  auto dst = make_distributed_tensor<float, 4>(docs_4x4);
  std::vector<oob_event<2>> events;
  w.load(dst, [&](const oob_event<2>& e) { events.push_back(e); });
  CHECK(dst[0] == 21.0f);  // top (1, 13) is offset 1*8 + 13 = 21, i.e. (2, 5): another row's element
  REQUIRE(events.size() == 8);  // 4 elements, each outside the window and outside the tensor
  const oob_event<2>& e = events[0];
  CHECK(e.kind == oob_kind::outside_window);
  CHECK(e.op == memory_op::load);
  CHECK(e.thread == p_index{0, 5});
  CHECK(e.y == y_index{0, 0});
  CHECK(e.x == multi_index<2>{0, 10});
  CHECK(e.top == multi_index<2>{1, 13});
  CHECK(e.offset == 21);
  CHECK(events[1].kind == oob_kind::outside_tensor);
}

TEST_CASE("a vector straddling a right pad is all-or-nothing: valid first element loads the next row (CK), strict names it") {
  // 2x6 row-major (guarantee {4, 1}) padded to 2x8; lane l holds x0 = l / 2, x1 = 4 * (l % 2) + y, 4 scalars.
  std::vector<float> t = iota_floats(12);
  const auto base = make_naive_descriptor<2>({2, 6}, {6, 1}, 4, 1);
  const auto padded = transform_descriptor(base, step(make_pass_through(2), {0}, {0}), step(make_right_pad(6, 2), {1}, {1}));
  const auto view = make_tensor_view(padded, t.data(), 12);
  const auto e = make_encoding({}, {{2}, {2, 4}}, {{{1, 0}, {2, 0}}}, {{2, 1}});
  auto dst = make_distributed_tensor<float, 4>(e);
  std::vector<oob_event<2>> events;

  const auto lane1 = make_tile_window(view, {2, 8}, {0, 0}, e, partition_index(e, 0, 1));
  CHECK(lane1.traits.scalars_per_vector == 4);
  lane1.load(dst, [&](const oob_event<2>& ev) { events.push_back(ev); });
  CHECK(dst[2] == 6.0f);  // (0, 6) is padding, but the vector's first element (0, 4) is valid: row 1's t[6]
  CHECK(dst[3] == 7.0f);
  REQUIRE(events.size() == 2);
  CHECK(events[0].kind == oob_kind::validity_differs);
  CHECK(events[0].top == multi_index<2>{0, 6});
  CHECK(events[1].top == multi_index<2>{0, 7});

  events.clear();
  const auto lane3 = make_tile_window(view, {2, 8}, {0, 0}, e, partition_index(e, 0, 3));
  lane3.load(dst, [&](const oob_event<2>& ev) { events.push_back(ev); });
  CHECK(dst[1] == 11.0f);
  CHECK(dst[2] == 0.0f);  // offset 12 is outside the 12-element buffer: 0, and host memory is never touched
  REQUIRE(events.size() == 4);
  CHECK(events[0].kind == oob_kind::outside_buffer);
  CHECK(events[0].offset == 12);
  CHECK(events[1].kind == oob_kind::validity_differs);
}

TEST_CASE("a vector whose first element is padding is skipped whole: loads zeros, stores nothing") {
  // 1x4 padded on the left by 4 to 1x8: lane 0 holds x1 = 0..3 (all padding), lane 1 holds 4..7 (real).
  std::vector<float> t = {1, 2, 3, 4};
  const auto base = make_naive_descriptor<2>({1, 4}, {4, 1}, 4, 1);
  const auto padded = transform_descriptor(base, step(make_pass_through(1), {0}, {0}), step(make_left_pad(4, 4), {1}, {1}));
  const auto view = make_tensor_view(padded, t.data(), 4);
  const auto e = make_encoding({}, {{1}, {2, 4}}, {{{1, 0}, {2, 0}}}, {{2, 1}});
  auto dst = make_distributed_tensor<float, 4>(e);
  dst.fill(-1.0f);
  make_tile_window(view, {1, 8}, {0, 0}, e, partition_index(e, 0, 0)).load(dst);
  CHECK(dst[0] == 0.0f);
  CHECK(dst[3] == 0.0f);
  dst.fill(9.0f);
  make_tile_window(view, {1, 8}, {0, 0}, e, partition_index(e, 0, 0)).store(dst);
  CHECK(t == std::vector<float>{1, 2, 3, 4});
  make_tile_window(view, {1, 8}, {0, 0}, e, partition_index(e, 0, 1)).store(dst);
  CHECK(t == std::vector<float>{9, 9, 9, 9});
}

TEST_CASE("warp-raked 64x32 fp16-style: store by all 256 threads writes every element once; load gives it back (§3.4)") {
  const auto e = make_encoding({1}, {{4, 1, 16}, {4, 8}}, {{{1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}});
  std::vector<int> mem(64 * 32, 0), hits(64 * 32, 0);
  const auto desc = make_naive_descriptor<2>({64, 32}, {32, 1}, 8, 1);
  const auto view = make_tensor_view(desc, mem.data(), 64 * 32);
  const auto counter = make_tensor_view(desc, hits.data(), 64 * 32);
  for (index_t thread = 0; thread < 256; ++thread) {
    const p_index p = partition_index(e, thread / 64, thread % 64);
    auto src = make_distributed_tensor<int, 8>(e);
    for (index_t d = 0; d < 8; ++d) src[d] = static_cast<int>(1000 * thread + d);
    const auto w = make_tile_window(view, {64, 32}, {0, 0}, e, p);
    CHECK(w.traits.num_access == 1);  // one 16-byte access per thread
    w.store(src);
    auto ones = make_distributed_tensor<int, 8>(e);
    ones.fill(1);
    make_tile_window(counter, {64, 32}, {0, 0}, e, p).update(ones);
  }
  CHECK(std::count(hits.begin(), hits.end(), 1) == 64 * 32);
  for (index_t thread = 0; thread < 256; ++thread) {
    auto dst = make_distributed_tensor<int, 8>(e);
    make_tile_window(view, {64, 32}, {0, 0}, e, partition_index(e, thread / 64, thread % 64)).load(dst);
    for (index_t d = 0; d < 8; ++d) CHECK(dst[d] == 1000 * thread + d);
  }
  CHECK(mem[32 * 16] == 1000 * 64);  // warp 1 lane 0 starts at row 16 (§3.4 table)
  CHECK(mem[32 * 63 + 24] == 1000 * 255);  // (3, 63): row 63, cols 24-31
}

TEST_CASE("R copy: warps {0,2} and {1,3} load identical data (§3.5)") {
  const auto e = make_encoding({2}, {{2, 2, 8}, {8, 8}}, {{{0, 0}, {1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}});
  auto t = iota_floats(32 * 64);
  const auto view = make_tensor_view(make_naive_descriptor<2>({32, 64}, {64, 1}, 8, 1), t.data(), 32 * 64);
  for (index_t lane = 0; lane < 64; ++lane)
    for (index_t warp = 0; warp < 2; ++warp) {
      auto a = make_distributed_tensor<float, 16>(e), b = make_distributed_tensor<float, 16>(e);
      make_tile_window(view, {32, 64}, {0, 0}, e, partition_index(e, warp, lane)).load(a);
      make_tile_window(view, {32, 64}, {0, 0}, e, partition_index(e, warp + 2, lane)).load(b);
      for (index_t d = 0; d < 16; ++d) CHECK(a[d] == b[d]);
    }
}

TEST_CASE("MFMA 32x32x8 A: lane 32's first element is A(0, 4), one 4-wide access per lane (§3.6)") {
  const auto e = make_encoding({}, {{32}, {2, 4}}, {{{2, 0}, {1, 0}}}, {{2, 1}});
  std::vector<float> a(32 * 8);
  for (int m = 0; m < 32; ++m)
    for (int k = 0; k < 8; ++k) a[static_cast<std::size_t>(8 * m + k)] = static_cast<float>(100 * m + k);
  const auto view = make_tensor_view(make_naive_descriptor<2>({32, 8}, {8, 1}, 8, 1), a.data(), 256);
  const auto w = make_tile_window(view, {32, 8}, {0, 0}, e, partition_index(e, 0, 32));
  CHECK(w.traits.num_access == 1);
  auto dst = make_distributed_tensor<float, 4>(e);
  w.load(dst);
  CHECK(dst[0] == 4.0f);
  CHECK(dst[3] == 7.0f);
}

TEST_CASE("moving a window by s visits the same offsets as making it at origin + s") {
  auto t = iota_floats(64);
  const auto view = docs_view(t);
  for (auto visit : {access_order::linear, access_order::snake}) {
    auto moved = make_tile_window(view, {4, 4}, {0, 0}, docs_4x4, partition_index(docs_4x4, 1, 0), visit);
    moved.move({2, 1});
    moved.move({1, 2});
    const auto fresh = make_tile_window(view, {4, 4}, {3, 3}, docs_4x4, partition_index(docs_4x4, 1, 0), visit);
    CHECK(moved.origin() == fresh.origin());
    CHECK(accesses_of(moved) == accesses_of(fresh));
  }
}

TEST_CASE("update adds into memory (CK's DstInMemOp add)") {
  std::vector<float> t(64, 1.0f);
  const auto w = make_tile_window(docs_view(t), {4, 4}, {0, 0}, docs_4x4, partition_index(docs_4x4, 0, 0));
  auto src = make_distributed_tensor<float, 4>(docs_4x4);
  src.fill(2.5f);
  w.update(src);
  w.update(src);
  CHECK(t[0] == 6.0f);
  CHECK(t[9] == 6.0f);
  CHECK(t[2] == 1.0f);
}

TEST_CASE("a window whose lengths are not the encoding's X lengths is rejected, naming the dim") {
  auto t = iota_floats(64);
  auto [r, m] = error_of([&] { (void)make_tile_window(docs_view(t), {4, 8}, {0, 0}, docs_4x4, p_index{0, 0}); });
  CHECK(r == rule::window_shape_mismatch);
  CHECK(m == "tilesim: tile_window: the view, the window lengths and the encoding's X must agree (dim = 1, window length = 8, encoding X length = 4)");
}

TEST_CASE("a view with another dim count than the encoding's X is rejected") {
  std::vector<float> t(64);
  const auto view = make_tensor_view(make_naive_descriptor_packed<3>({4, 4, 4}), t.data(), 64);
  auto [r, m] = error_of([&] { (void)make_tile_window(view, {4, 4, 4}, {0, 0, 0}, docs_4x4, p_index{0, 0}); });
  CHECK(r == rule::window_shape_mismatch);
  CHECK(m == "tilesim: tile_window: the view, the window lengths and the encoding's X must agree (view dims = 3, encoding X dims = 2)");
}

TEST_CASE("loading into a tensor with too little capacity is rejected, naming both sizes") {
  auto t = iota_floats(64);
  const auto w = make_tile_window(docs_view(t), {4, 4}, {0, 0}, docs_4x4, p_index{0, 0});
  distributed_tensor<float, 2> small{docs_4x4, {}};
  auto [r, m] = error_of([&] { w.load(small); });
  CHECK(r == rule::distributed_tensor_too_small);
  CHECK(m == "tilesim: tile_window: distributed_tensor: the encoding needs more elements than the capacity (elements per thread = 4, capacity = 2)");
}

TEST_CASE("a vector of more than 64 elements is rejected, naming its length") {
  std::vector<float> t(256);
  const auto view = make_tensor_view(make_naive_descriptor<1>({256}, {1}, 128, 1), t.data(), 256);
  const auto e = make_encoding({}, {{2, 128}}, {{{1, 0}}}, {{1, 1}});
  auto [r, m] = error_of([&] { (void)make_tile_window(view, {256}, {0}, e, partition_index(e, 0, 0)); });
  CHECK(r == rule::window_vector_too_long);
  CHECK(m == "tilesim: tile_window: one vector access may move at most 64 elements (scalars per vector = 128, limit = 64)");
}

TEST_CASE("the window's x_of equals the encoding's x_of for every thread and y (warp-raked, R copy, MFMA C)") {
  const tile_distribution_encoding encodings[] = {
      make_encoding({1}, {{4, 1, 16}, {4, 8}}, {{{1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}}),
      make_encoding({2}, {{2, 2, 8}, {8, 8}}, {{{0, 0}, {1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}}),
      make_encoding({}, {{4, 2, 4}, {32}}, {{{1, 1}, {2, 0}}}, {{1, 0}, {1, 2}}),
  };
  std::vector<float> t(64 * 64);
  for (const auto& e : encodings) {
    const auto view = make_tensor_view(make_naive_descriptor_packed<2>({e.x_length(0), e.x_length(1)}), t.data(),
                                       e.x_length(0) * e.x_length(1));
    const index_t warps = e.n_p == 2 ? e.p_length(0) : 1, lanes = e.p_length(e.n_p - 1);
    for (index_t warp = 0; warp < warps; ++warp)
      for (index_t lane = 0; lane < lanes + 2; ++lane) {  // two extra lanes beyond P as well
        const p_index p = partition_index(e, warp, lane);
        const auto w = make_tile_window(view, {e.x_length(0), e.x_length(1)}, {0, 0}, e, p);
        for (index_t d = 0; d < e.elements_per_thread(); ++d) {
          const auto y = e.y_of(d);
          const auto x = e.x_of(p, y);
          CHECK(w.x_of(y) == multi_index<2>{x[0], x[1]});
        }
      }
  }
}
