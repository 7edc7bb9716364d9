// ps_ys_to_xs agrees with the encoding's own evaluation and allocates hidden ids in CK's order.
#include <doctest/doctest.h>

#include "spec/spec.hpp"

using namespace tilesim;

namespace {
constexpr tile_distribution_encoding docs_4x4 = make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});
constexpr tile_distribution_encoding r_copy =
    make_encoding({2}, {{2, 2, 8}, {8, 8}}, {{{0, 0}, {1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}});
constexpr tile_distribution_encoding mfma_c = make_encoding({}, {{4, 2, 4}, {32}}, {{{1, 1}, {2, 0}}}, {{1, 0}, {1, 2}});

// bottom_index({p..., y...}) == x_of(p, y) for every p of the P box and every y.
template <tile_distribution_encoding E>
void check_agrees() {
  constexpr auto a = ps_ys_to_xs<E>;
  constexpr int np = E.n_p, ny = E.n_y;
  const index_t p0 = E.p_length(0), p1 = np == 2 ? E.p_length(1) : 1;
  for (index_t i = 0; i < p0; ++i)
    for (index_t l = 0; l < p1; ++l)
      for (index_t d = 0; d < E.elements_per_thread(); ++d) {
        const auto y = E.y_of(d);
        multi_index<np + ny> top{};
        top[0] = i;
        if constexpr (np == 2) top[1] = l;
        for (int j = 0; j < ny; ++j) top[np + j] = y[j];
        const auto x = a.bottom_index(top);
        const auto expected = E.x_of(np == 2 ? multi_index<2>{i, l} : multi_index<2>{i, 0}, y);
        for (int k = 0; k < E.n_x; ++k) CHECK(x[k] == expected[k]);
      }
}
}  // namespace

TEST_CASE("docs 4x4: hidden ids X {0,1}, H0 {2,3}, H1 {4,5}, P {6,7}; top {6, 7, 3, 5}") {
  constexpr auto a = ps_ys_to_xs<docs_4x4>;
  static_assert(decltype(a)::n_hidden == 8);
  CHECK(a.top_ids == multi_index<4>{6, 7, 3, 5});
  CHECK(get<1>(a.stages).upper_ids == multi_index<2>{2, 3});
  CHECK(get<2>(a.stages).upper_ids == multi_index<2>{4, 5});
  CHECK(get<3>(a.stages).lower_ids == multi_index<1>{2});
  static_assert(a.bottom_index({1, 1, 0, 1}) == multi_index<2>{2, 3});
  check_agrees<docs_4x4>();
}

TEST_CASE("R copy encoding: the replicate stage owns id 2 and P0 merges (R0, H0[0])") {
  constexpr auto a = ps_ys_to_xs<r_copy>;
  CHECK(get<0>(a.stages).upper_ids == multi_index<1>{2});
  CHECK(get<3>(a.stages).lower_ids == multi_index<2>{2, 3});  // R0 = id 2, H0[0] = id 3
  check_agrees<r_copy>();
}

TEST_CASE("MFMA accumulator: one P dim (the lane) and the adaptor agrees with x_of on all 64 lanes") {
  check_agrees<mfma_c>();
}
