// Laws of static_tile_window.hpp and fixed_descriptor.hpp: the compile-time window is the run-time window.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "spec/spec.hpp"

using namespace tilesim;

namespace {

using p_index = multi_index<tile_distribution_encoding::max_p>;

// A buffer of element_space_size floats, t[i] = i + 0.5 (every element distinct, none zero).
std::vector<float> numbered(index_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) + 0.5f;
  return v;
}

// One access record as text, for an exact comparison that prints well.
template <int N>
std::string text(const window_access<N>& a) {
  std::string s = "#" + std::to_string(a.index) + " y";
  for (int j = 0; j < tile_distribution_encoding::max_y; ++j) s += " " + std::to_string(a.y[j]);
  s += " top";
  for (int i = 0; i < N; ++i) s += " " + std::to_string(a.top[i]);
  return s + " offset " + std::to_string(a.offset) + (a.valid ? " valid" : " invalid");
}

// For every thread (warp < W, lane < L): the static window over fixed_descriptor<D> with constant<E> makes the
// run-time window's accesses, in order, loads the same registers, stores the same memory, and moves alike.
template <tile_distribution_encoding E, auto D>
void check_static_equals_runtime(index_t warps, index_t lanes, multi_index<2> origin, multi_index<2> step) {
  const multi_index<2> lengths{E.x_length(0), E.x_length(1)};
  std::vector<float> a = numbered(D.element_space_size), b = a;
  const auto runtime_view = make_tensor_view(D, a.data(), static_cast<index_t>(a.size()));
  const auto fixed_view = make_tensor_view(constant<D>{}, span_buffer<float>{b.data(), static_cast<index_t>(b.size())});
  for (index_t warp = 0; warp < warps; ++warp)
    for (index_t lane = 0; lane < lanes; ++lane) {
      CAPTURE(warp);
      CAPTURE(lane);
      const p_index thread = partition_index(E, warp, lane);
      auto r = make_tile_window(runtime_view, lengths, origin, E, thread);
      auto s = make_tile_window(fixed_view, lengths, origin, constant<E>{}, thread);
      static_assert(std::is_same_v<decltype(s), static_tile_window<std::remove_cvref_t<decltype(fixed_view)>, E>>);
      for (int moved = 0; moved < 2; ++moved) {
        std::vector<std::string> ra, sa;
        r.for_each_access([&](const window_access<2>& x) { ra.push_back(text(x)); });
        s.for_each_access([&](const window_access<2>& x) { sa.push_back(text(x)); });
        CHECK(ra == sa);
        auto rt = make_distributed_tensor<float, 64>(E);
        auto st = make_distributed_tensor<float, 64>(constant<E>{});
        r.load(rt);
        s.load(st);
        REQUIRE(rt.size() == st.size());
        for (index_t d = 0; d < st.size(); ++d) CHECK(rt[d] == st[d]);
        for (index_t d = 0; d < st.size(); ++d) rt[d] = st[d] = -static_cast<float>(d + 100 * lane + 10000 * warp);
        r.store(rt);
        s.store(st);
        r.move(step);
        s.move(step);
      }
    }
  CHECK(a == b);
}

constexpr tile_distribution_encoding docs_4x4 = make_docs_4x4_encoding();
constexpr tile_distribution_encoding raked = make_warp_raked_encoding(256, 32, 64, 32, 8);
constexpr tile_distribution_encoding raked_wave64 = make_warp_raked_encoding(256, 64, 64, 64, 4);
constexpr tile_distribution_encoding mfma_a = make_mfma_32x32x8_a_encoding();
constexpr tile_distribution_encoding replicated = make_replicated_copy_encoding();

// An 8 x 8 row-major tile whose columns are padded by 2 on the left: columns 0, 1 of the top are invalid.
constexpr auto left_padded_8x8() {
  const auto packed = make_naive_descriptor<2>({8, 8}, {8, 1}, 4, 1);
  return transform_descriptor(packed, step(make_pass_through(8), {0}, {0}), step(make_pad(8, 2, 0), {1}, {1}));
}

}  // namespace

TEST_CASE("static_tile_window: the docs' 4x4 over an 8x8 row-major view, origin (1, 3): thread (1, 1) reads 29, 30 then 37, 38") {
  std::vector<float> t = numbered(64);
  constexpr auto d = make_naive_descriptor<2>({8, 8}, {8, 1}, 4, 1);
  const auto view = make_tensor_view(constant<d>{}, span_buffer<float>{t.data(), 64});
  const auto w = make_tile_window(view, {4, 4}, {1, 3}, constant<docs_4x4>{}, partition_index(docs_4x4, 1, 1));
  static_assert(decltype(w)::scalars_per_vector == 2 && decltype(w)::num_access == 2);
  auto reg = make_distributed_tensor<float, 4>(constant<docs_4x4>{});
  w.load(reg);
  CHECK(reg[0] == 29.5f);
  CHECK(reg[1] == 30.5f);
  CHECK(reg[2] == 37.5f);
  CHECK(reg[3] == 38.5f);
}

TEST_CASE("static_tile_window: for every thread its accesses, registers, stores and moves are tile_window's (row-major, padded, CK XOR, CuTe swizzle, pad validity)") {
  SUBCASE("docs 4x4, 8x8 row-major") { check_static_equals_runtime<docs_4x4, make_naive_descriptor<2>({8, 8}, {8, 1}, 4, 1)>(2, 2, {1, 3}, {2, 1}); }
  SUBCASE("docs 4x4, left-padded columns (invalid vectors)") { check_static_equals_runtime<docs_4x4, left_padded_8x8()>(2, 2, {0, 0}, {1, 1}); }
  SUBCASE("warp-raked 64x32 v8, row-major") { check_static_equals_runtime<raked, make_row_major_descriptor(64, 32)>(8, 32, {0, 0}, {0, 0}); }
  SUBCASE("warp-raked 64x32 v8, padded") { check_static_equals_runtime<raked, make_row_major_descriptor(64, 32, 8)>(8, 32, {0, 0}, {0, 0}); }
  SUBCASE("warp-raked 64x32 v8, CK XOR (fp16)") {
    check_static_equals_runtime<raked, make_ck_lds_xor_descriptor(ck_lds_xor_params{64, 32, 8})>(8, 32, {0, 0}, {0, 0});
  }
  SUBCASE("warp-raked 64x32 v8, CuTe Swizzle<2,3,2>") { check_static_equals_runtime<raked, make_cute_swizzle_descriptor(2, 3, 2, 64, 32)>(8, 32, {0, 0}, {0, 0}); }
  SUBCASE("warp-raked wave 64, 64x64 v4, inside a 256 x 64 tensor, moved down") {
    check_static_equals_runtime<raked_wave64, make_row_major_descriptor(256, 64)>(4, 64, {64, 0}, {64, 0});
  }
  SUBCASE("MFMA 32x32x8 A operand over a 32 x 8 tile") { check_static_equals_runtime<mfma_a, make_row_major_descriptor(32, 8)>(1, 64, {0, 0}, {0, 0}); }
  SUBCASE("replicated copy (an R dimension)") { check_static_equals_runtime<replicated, make_row_major_descriptor(32, 64)>(4, 64, {0, 0}, {0, 0}); }
}

TEST_CASE("fixed_descriptor: every member answers what its descriptor does (CK XOR 128 x 32, KPack 8)") {
  constexpr auto d = make_ck_lds_xor_descriptor(ck_lds_xor_params{128, 32, 8});
  using f = fixed_descriptor<d>;
  static_assert(std::is_empty_v<f>);
  static_assert(f::element_space_size == d.element_space_size);
  CHECK(f::lengths() == d.lengths());
  CHECK(f::top_vectors()[1].length == d.top_vectors()[1].length);
  for (index_t r = 0; r < 128; ++r)
    for (index_t c = 0; c < 32; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(f::calculate_offset({r, c}) == d.calculate_offset({r, c}));
      auto a = f::make_coordinate({r, c});
      auto b = d.make_coordinate({r, c});
      CHECK(a.offset() == b.offset());
      CHECK(f::is_valid(a) == d.is_valid(b));
      CHECK(f::move(a, {0, 8}) == d.move(b, {0, 8}));
      CHECK(a.offset() == b.offset());
    }
}

TEST_CASE("static_distributed_tensor: exactly E's elements, its encoding in the type, at(y) == data[d_of(y)]") {
  auto t = make_distributed_tensor<float, docs_4x4>();
  static_assert(sizeof(t) == 4 * sizeof(float));
  static_assert(decltype(t)::size() == 4);
  t.fill(2.0f);
  t.at({1, 0}) = 7.0f;
  CHECK(t[2] == 7.0f);
  CHECK(t[0] == 2.0f);
  CHECK(t.d_of({1, 1}) == 3);
}
