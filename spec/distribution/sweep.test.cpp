// Laws and worked examples of sweep.hpp (ck-tile-semantics.md §3.1 distributed spans, §4.6 sweep_tile).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "spec/spec.hpp"

using namespace tilesim;

namespace {
using enc = tile_distribution_encoding;

// The registers d = d_of(y) in the order sweep visits them.
std::vector<index_t> sweep_order(const enc& e) {
  std::vector<index_t> ds;
  sweep(e, [&](const multi_index<enc::max_y>& y) { ds.push_back(e.d_of(y)); });
  return ds;
}

// The Y indices in the order sweep visits them, as "y0y1 y0y1 ...".
std::string sweep_ys(const enc& e) {
  std::string s;
  sweep(e, [&](const multi_index<enc::max_y>& y) {
    if (!s.empty()) s += " ";
    for (int j = 0; j < e.n_y; ++j) s += std::to_string(y[j]);
  });
  return s;
}

// How many elements sweep visits, at compile time.
constexpr index_t visits(const enc& e) {
  index_t n = 0;
  sweep(e, [&](const multi_index<enc::max_y>&) { ++n; });
  return n;
}

const enc docs_4x4 = make_encoding({}, {{2, 2}, {2, 2}}, {{{1, 0}}, {{2, 0}}}, {{1, 1}, {2, 1}});
const enc mfma_c = make_encoding({}, {{4, 2, 4}, {32}}, {{{1, 1}, {2, 0}}}, {{1, 0}, {1, 2}});
}  // namespace

TEST_CASE("docs 4x4: the spans are X0 = <2> (Y0) and X1 = <2> (Y1); sweep visits d = 0, 1, 2, 3") {
  const distributed_spans s = distributed_spans_of(docs_4x4);
  CHECK(s.n_x == 2);
  CHECK(s.n_minor[0] == 1);
  CHECK(s.lengths[0][0] == 2);
  CHECK(s.y_dim[0][0] == 0);
  CHECK(s.n_minor[1] == 1);
  CHECK(s.y_dim[1][0] == 1);
  CHECK(sweep_ys(docs_4x4) == "00 01 10 11");
  CHECK(sweep_order(docs_4x4) == std::vector<index_t>{0, 1, 2, 3});
}

TEST_CASE("MFMA 32x32x8 C: X0's span is <4, 4> = (Y0, Y1), X1's is empty; sweep visits d = 0 .. 15 in order") {
  const distributed_spans s = distributed_spans_of(mfma_c);
  CHECK(s.n_minor[0] == 2);
  CHECK(s.lengths[0][0] == 4);
  CHECK(s.lengths[0][1] == 4);
  CHECK(s.n_minor[1] == 0);
  CHECK(s.length(0) == 16);
  CHECK(s.length(1) == 1);
  CHECK(sweep_ys(mfma_c) == "00 01 02 03 10 11 12 13 20 21 22 23 30 31 32 33");
  std::vector<index_t> in_order(16);
  for (index_t d = 0; d < 16; ++d) in_order[d] = d;
  CHECK(sweep_order(mfma_c) == in_order);
  static_assert(visits(make_encoding({}, {{4, 2, 4}, {32}}, {{{1, 1}, {2, 0}}}, {{1, 0}, {1, 2}})) == 16);
}

TEST_CASE("MFMA C with the Ys declared the other way: the span stays in H order, so Y1 is the outer loop") {
  // Y0 -> H0[2], Y1 -> H0[0]: span of X0 = (H0[0], H0[2]) = (Y1, Y0); d = 4*y0 + y1.
  const enc e = make_encoding({}, {{4, 2, 4}, {32}}, {{{1, 1}, {2, 0}}}, {{1, 2}, {1, 0}});
  CHECK(span_of_y(e, 0).major == 0);
  CHECK(span_of_y(e, 0).minor == 1);
  CHECK(span_of_y(e, 1).minor == 0);
  CHECK(sweep_order(e) == std::vector<index_t>{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15});
}

TEST_CASE("Y order against X order: Y0 in X1, Y1 in X0 -> X0's span (Y1) is the outer loop") {
  // H0 = <2,2>, H1 = <2,3>; P0 -> H0[0], P1 -> H1[0]; Y0 -> H1[1] (len 3), Y1 -> H0[1] (len 2); d = 2*y0 + y1.
  const enc e = make_encoding({}, {{2, 2}, {2, 3}}, {{{1, 0}}, {{2, 0}}}, {{2, 1}, {1, 1}});
  CHECK(sweep_ys(e) == "00 10 20 01 11 21");
  CHECK(sweep_order(e) == std::vector<index_t>{0, 2, 4, 1, 3, 5});
}

TEST_CASE("sweep visits each register d exactly once (the worked encodings of ck-tile-semantics.md §3)") {
  const enc encodings[] = {
      docs_4x4,
      mfma_c,
      make_encoding({1}, {{4, 1, 16}, {4, 8}}, {{{1, 0}}, {{1, 2}, {2, 0}}}, {{1, 1}, {2, 1}}),             // warp-raked
      make_encoding({2}, {{2, 2, 8}, {8, 8}}, {{{0, 0}, {1, 0}}, {{1, 2}, {2, 0}}}, {{2, 1}, {1, 1}}),     // R copy, Ys swapped
      make_encoding({}, {{32}, {2, 4}}, {{{2, 0}, {1, 0}}}, {{2, 1}}),                                   // MFMA A
      make_encoding({}, {{2, 3, 2}, {3, 2}, {2}}, {{{1, 1}}, {{2, 0}}}, {{3, 0}, {1, 2}, {2, 1}, {1, 0}}),  // 3 X, mixed
  };
  for (const enc& e : encodings) {
    CAPTURE(e.cpp());
    std::vector<int> seen(static_cast<std::size_t>(e.elements_per_thread()), 0);
    sweep(e, [&](const multi_index<enc::max_y>& y) { ++seen[static_cast<std::size_t>(e.d_of(y))]; });
    CHECK(seen == std::vector<int>(seen.size(), 1));
  }
}

TEST_CASE("sweep is sweep_span nested X0 outermost, as CK's sweep_tile nests sweep_tile_span") {
  const enc e = make_encoding({}, {{2, 3, 2}, {3, 2}, {2}}, {{{1, 1}}, {{2, 0}}}, {{3, 0}, {1, 2}, {2, 1}, {1, 0}});
  std::vector<index_t> nested;
  sweep_span(e, 0, [&](const multi_index<enc::max_y>& y0) {
    sweep_span(e, 1, [&](const multi_index<enc::max_y>& y1) {
      sweep_span(e, 2, [&](const multi_index<enc::max_y>& y2) { nested.push_back(e.d_of(y0 + y1 + y2)); });
    });
  });
  CHECK(nested == sweep_order(e));
  // Span of X0 = (H0[0] = Y3, H0[2] = Y1), X1 = (H1[1] = Y2), X2 = (H2[0] = Y0): Y3, Y1, Y2, Y0 from outer to inner.
  CHECK(sweep_ys(e).substr(0, 24) == "0000 1000 0010 1010 0100");
}
