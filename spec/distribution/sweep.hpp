// tilesim/spec/distribution/sweep.hpp: CK's distributed spans and sweep_tile: a thread's Y indices, X by X.
//
// DEFINITION (CK's distributed_spans_lengthss_, ys_to_span_major/minor_ and sweep_tile). The span of X dim i
// is the list of the H components of X i that a Y names, in minor order (not in Y order). Y dim j therefore
// sits at span (i = y[j].major - 1, m = the rank of y[j].minor among those components). A span index of X i is
// one value per span minor; the span's lengths are the lengths of those H components.
// sweep(e, f) calls f(y) once for every Y index of the thread, nesting the spans as CK's sweep_tile nests
// sweep_tile_span: X0's span outermost, then X1's, ...; inside a span, row-major over its minors (the smaller
// minor, i.e. the more significant H component, outer). An X dim that no Y names has an empty span (one step).
//
// WORKED EXAMPLE (MFMA 32x32x8 accumulator, ck-tile-semantics.md §3.6): H0 = <4,2,4>, H1 = <32>;
// P0 -> merge(H0[1], H1[0]); Y0 -> H0[0], Y1 -> H0[2]. Span of X0 = <4, 4> = (Y0, Y1); span of X1 = <>.
//   sweep visits y = (0,0) (0,1) (0,2) (0,3) (1,0) ... (3,3), i.e. d = 0, 1, ..., 15.
// Declare the Ys the other way round (Y0 -> H0[2], Y1 -> H0[0]) and the span is still (H0[0], H0[2]), now
// (Y1, Y0): sweep visits y = (0,0) (1,0) (2,0) (3,0) (0,1) ..., i.e. d = 0, 4, 8, 12, 1, 5, ...
// Y order never changes the nesting: with Y0 in X1 and Y1 in X0, Y1 (X0's span) is the outer loop.
//
// INVARIANTS (for a valid encoding, sweep.test.cpp and props/distribution.props.cpp): sweep visits every y
// of the Y box exactly once, so every d = d_of(y) once; the visits are in lexicographic order of
// (span index of X0, span index of X1, ...); when the Ys are declared in (major, minor) order that is d order.
// sweep(e, f) is the same sequence as sweep_span(e, 0, ...) nested around sweep_span(e, 1, ...) and so on.
#pragma once

#include "spec/distribution/encoding.hpp"

namespace tilesim {

// The distributed spans of an encoding (CK's distributed_spans_lengthss_ with ys_to_span_major/minor_).
struct distributed_spans {
  static constexpr int max_x = tile_distribution_encoding::max_x;
  static constexpr int max_minor = tile_distribution_encoding::max_components;

  int n_x = 0;
  int n_minor[max_x] = {};               // span minors of X i: the Y-named H components of X i
  index_t lengths[max_x][max_minor] = {};  // their lengths, in minor order
  int y_dim[max_x][max_minor] = {};        // the Y dim at each span minor

  // Steps in the span of X i: Π of its lengths (1 for an empty span). MFMA C: length(0) == 16, length(1) == 1.
  TILESIM_HOST_DEVICE constexpr index_t length(int i) const {
    index_t n = 1;
    for (int m = 0; m < n_minor[i]; ++m) n *= lengths[i][m];
    return n;
  }
};

// The spans of e: MFMA C (Y0 -> H0[0], Y1 -> H0[2]) gives n_minor = {2, 0}, lengths[0] = {4, 4}, y_dim[0] = {0, 1}.
TILESIM_HOST_DEVICE constexpr distributed_spans distributed_spans_of(const tile_distribution_encoding& e) {
  distributed_spans s{};
  s.n_x = e.n_x;
  for (int i = 0; i < e.n_x; ++i)
    for (int minor = 0; minor < e.n_h[i]; ++minor)
      for (int j = 0; j < e.n_y; ++j)
        if (e.y[j].major == i + 1 && e.y[j].minor == minor) {
          s.lengths[i][s.n_minor[i]] = e.h[i][minor];
          s.y_dim[i][s.n_minor[i]] = j;
          ++s.n_minor[i];
        }
  return s;
}

// Where Y dim j sits among the spans (CK's ys_to_span_major/minor_): {X dim, span minor}.
// Y order reversed against H order: Y0 -> H0[2], Y1 -> H0[0] gives span_of_y(e, 0) == {0, 1}.
TILESIM_HOST_DEVICE constexpr rh span_of_y(const tile_distribution_encoding& e, int j) {
  const int x = e.y[j].major - 1;
  int rank = 0;
  for (int k = 0; k < e.n_y; ++k)
    if (e.y[k].major == e.y[j].major && e.y[k].minor < e.y[j].minor) ++rank;
  return {x, rank};
}

namespace detail {
// Calls f(y) for every y over the given span minors (row-major, first listed outermost); the other Ys stay 0.
template <class F>
TILESIM_HOST_DEVICE constexpr void sweep_minors(const int* y_dim, const index_t* lengths, int n, F& f) {
  index_t total = 1;
  for (int k = 0; k < n; ++k) total *= lengths[k];
  for (index_t i = 0; i < total; ++i) {
    multi_index<tile_distribution_encoding::max_y> y{};
    index_t rest = i;
    for (int k = n - 1; k >= 0; --k) {
      y[y_dim[k]] = rest % lengths[k];
      rest /= lengths[k];
    }
    f(y);
  }
}
}  // namespace detail

// CK's sweep_tile_span for X dim x_dim: f(y) for each index of that span, row-major over its minors, with
// every Y outside X x_dim at 0. Docs 4x4: sweep_span(e, 1, f) calls f({0, 0}), f({0, 1}).
template <class F>
TILESIM_HOST_DEVICE constexpr void sweep_span(const tile_distribution_encoding& e, int x_dim, F&& f) {
  const distributed_spans s = distributed_spans_of(e);
  detail::sweep_minors(s.y_dim[x_dim], s.lengths[x_dim], s.n_minor[x_dim], f);
}

// CK's sweep_tile: f(y) for every Y index of the thread, X0's span outermost, each span row-major.
// Docs 4x4 (Y0 in X0, Y1 in X1): f({0,0}), f({0,1}), f({1,0}), f({1,1}); use d_of(y) for the register.
template <class F>
TILESIM_HOST_DEVICE constexpr void sweep(const tile_distribution_encoding& e, F&& f) {
  const distributed_spans s = distributed_spans_of(e);
  int y_dim[tile_distribution_encoding::max_y] = {};
  index_t lengths[tile_distribution_encoding::max_y] = {};
  int n = 0;
  for (int i = 0; i < s.n_x; ++i)
    for (int m = 0; m < s.n_minor[i]; ++m) {
      y_dim[n] = s.y_dim[i][m];
      lengths[n] = s.lengths[i][m];
      ++n;
    }
  detail::sweep_minors(y_dim, lengths, n, f);
}

}  // namespace tilesim
