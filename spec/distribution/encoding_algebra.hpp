// tilesim/spec/distribution/encoding_algebra.hpp: embedding one encoding in another, and reducing X dims away.
//
// DEFINITION 1: embed_encoding(outer, inner), CK's detail::make_embed_tile_distribution_encoding. It tiles the
// inner encoding (a warp's tile, say) by the outer one (warps and iterations over a block). Both must have the
// same X count. The result has
//   R   = outer R ++ inner R;
//   H_i = outer H_i ++ inner H_i (so the outer components are the more significant digits of X i);
//   P   = outer's P dims, then inner's P dims (CK's container_concat of the two P tuples: P lists are
//         appended as whole dims, never merged with each other), inner components re-addressed;
//   Y   = outer Ys, then inner Ys, inner components re-addressed.
// Re-addressing moves each inner minor past the outer's components of the same major: an inner rh{0, k}
// becomes rh{0, k + |outer R|}, an inner rh{i+1, k} becomes rh{i+1, k + |outer H_i|}.
// P COUNTS. The result has outer.n_p + inner.n_p P dims. A valid encoding has 1 or 2 (P0 = lane, or P0 = warp
// and P1 = lane), so the only pair that embeds is an outer with 1 P dim (it becomes P0, the warp) and an inner
// with 1 P dim (it becomes P1, the lane): CK's block GEMMs embed a warp-GEMM encoding exactly like that. Any
// other pair would give 3 or 4 P dims, which CK's get_partition_index cannot serve; it is rejected
// (rule encoding_embed_p_count), as are different X counts (encoding_embed_mismatch).
// LAW (tested over random encodings): for every outer thread po, inner thread pi and Ys yo, yi,
//   x_of(E, (po, pi), (yo, yi))_i = x_of(outer, po, yo)_i * inner.x_length(i) + x_of(inner, pi, yi)_i
//   r_of(E, (po, pi)) = r_of(outer, po) ++ r_of(inner, pi),   d_of(E, (yo, yi)) = d_outer * |inner Y box| + d_inner.
//
// DEFINITION 2: reduce_encoding(in, xs), CK's detail::make_reduce_tile_distribution_encoding: the encoding of
// the tile that is left after reducing (summing, max-ing, ...) over the X dims xs. For each reduced X dim, in
// X order and then minor order, its H components named by a P become new R components (appended after in's
// R), and those named by a Y are dropped together with their Y (the thread folds them into one value). The
// kept X dims keep their H lists and their order; P dims keep their count, order and lengths (their
// components re-addressed); the kept Ys keep their order. Reducing every X dim is rejected
// (encoding_reduce_every_dim: an encoding has at least one X dim), an X dim outside [0, in.n_x) too
// (encoding_reduce_dim_out_of_range); naming a dim twice is the same as naming it once.
// LAW (tested over random encodings): for every thread p and every y of in,
//   x_of(out, p, kept(y)) = kept(x_of(in, p, y))     (the kept X dims do not move)
//   r_of(out, p) = r_of(in, p) ++ (the values p gives to the reduced dims' P-named H components),
// so threads that differed only in the reduced dims' P components now differ only in R: they are replicas.
//
// WORKED EXAMPLE. Embed the MFMA 32x32x8 accumulator (inner: H0 = <4,2,4>, H1 = <32>; P0 -> merge(H0[1], H1[0]);
// Y0 -> H0[0], Y1 -> H0[2]) in 2x2 warps that each do 2 M-iterations (outer: H0 = <2,2>, H1 = <2>;
// P0 -> merge(H0[1], H1[0]); Y0 -> H0[0]):
//   E: H0 = <2,2,4,2,4>, H1 = <2,32>; P0 (warp) -> merge(H0[1], H1[0]); P1 (lane) -> merge(H0[3], H1[1]);
//      Y0 -> H0[0], Y1 -> H0[2], Y2 -> H0[4]
//   x0 = 32*(2*y0 + warp/2) + 8*y1 + 4*(lane/32) + y2,  x1 = 32*(warp%2) + lane%32  (a 128x64 tile);
//   warp 3, lane 63, y = (1,3,3) holds (127, 63).
// Reduce the docs' 4x4 (H0 = <2,2>, H1 = <2,2>; P0 -> H0[0], P1 -> H1[0]; Y0 -> H0[1], Y1 -> H1[1]) over X1:
//   H1[0] (named by P1) becomes R0, H1[1] (named by Y1) is dropped:
//   R = <2>; H0 = <2,2>; P0 -> H0[0], P1 -> R0; Y0 -> H0[1]:  x0 = 2*warp + y0, and lanes 0 and 1 are replicas.
//
// INVARIANT: every result passes check() (each H component is still named once; a dropped Y took its
// component with it).
#pragma once

#include <initializer_list>

#include "spec/distribution/encoding.hpp"

namespace tilesim {

// CK's make_embed_tile_distribution_encoding: outer's components are the more significant digits of each X.
// embed_encoding(H0 = <2> with P0 -> H0[0], H0 = <4> with P0 -> H0[0]) is H0 = <2,4> with P0 -> H0[0],
// P1 -> H0[1]: x0 = 4*warp + lane.
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding embed_encoding(const tile_distribution_encoding& outer,
                                                                        const tile_distribution_encoding& inner) {
  using enc = tile_distribution_encoding;
  require(outer.check());
  require(inner.check());
  require(broken_unless(outer.n_x == inner.n_x, rule::encoding_embed_mismatch, "encoding embed",
                        {"outer X dims", outer.n_x}, {"inner X dims", inner.n_x}));
  require(broken_unless(outer.n_p + inner.n_p <= enc::max_p, rule::encoding_embed_p_count, "encoding embed",
                        {"outer P dims", outer.n_p}, {"inner P dims", inner.n_p}));
  require(broken_unless(outer.n_r + inner.n_r <= enc::max_components && outer.n_y + inner.n_y <= enc::max_y,
                        rule::encoding_too_large, "encoding", {"R", outer.n_r + inner.n_r},
                        {"Y", outer.n_y + inner.n_y}));
  for (int i = 0; i < outer.n_x; ++i)
    require(broken_unless(outer.n_h[i] + inner.n_h[i] <= enc::max_components, rule::encoding_too_large, "encoding",
                          {"X dim", i}, {"H components", outer.n_h[i] + inner.n_h[i]}));

  enc e{};
  // Where inner's component rh{major, minor} lands: minor shifted by outer's count for that major.
  auto shifted = [&](rh c) { return rh{c.major, c.minor + (c.major == 0 ? outer.n_r : outer.n_h[c.major - 1])}; };
  e.n_r = outer.n_r + inner.n_r;
  for (int k = 0; k < outer.n_r; ++k) e.r[k] = outer.r[k];
  for (int k = 0; k < inner.n_r; ++k) e.r[outer.n_r + k] = inner.r[k];
  e.n_x = outer.n_x;
  for (int i = 0; i < e.n_x; ++i) {
    e.n_h[i] = outer.n_h[i] + inner.n_h[i];
    for (int j = 0; j < outer.n_h[i]; ++j) e.h[i][j] = outer.h[i][j];
    for (int j = 0; j < inner.n_h[i]; ++j) e.h[i][outer.n_h[i] + j] = inner.h[i][j];
  }
  e.n_p = outer.n_p + inner.n_p;
  for (int p = 0; p < outer.n_p; ++p) {
    e.p_size[p] = outer.p_size[p];
    for (int k = 0; k < outer.p_size[p]; ++k) e.p[p][k] = outer.p[p][k];
  }
  for (int p = 0; p < inner.n_p; ++p) {
    e.p_size[outer.n_p + p] = inner.p_size[p];
    for (int k = 0; k < inner.p_size[p]; ++k) e.p[outer.n_p + p][k] = shifted(inner.p[p][k]);
  }
  e.n_y = outer.n_y + inner.n_y;
  for (int j = 0; j < outer.n_y; ++j) e.y[j] = outer.y[j];
  for (int j = 0; j < inner.n_y; ++j) e.y[outer.n_y + j] = shifted(inner.y[j]);
  require(e.check());
  return e;
}

// CK's make_reduce_tile_distribution_encoding over the `count` X dims at xs_to_reduce (see the top).
// Docs 4x4 reduced over X1: R = <2>, H0 = <2,2>, P0 -> H0[0], P1 -> R0, Y0 -> H0[1].
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding reduce_encoding(const tile_distribution_encoding& in,
                                                                         const int* xs_to_reduce, int count) {
  using enc = tile_distribution_encoding;
  require(in.check());
  bool reduced[enc::max_x] = {};
  int n_reduced = 0;
  for (int k = 0; k < count; ++k) {
    const int x = xs_to_reduce[k];
    require(broken_unless(x >= 0 && x < in.n_x, rule::encoding_reduce_dim_out_of_range, "encoding reduce",
                          {"reduced X dim", x}, {"X dims", in.n_x}));
    n_reduced += reduced[x] ? 0 : 1;
    reduced[x] = true;
  }
  require(broken_unless(n_reduced < in.n_x, rule::encoding_reduce_every_dim, "encoding reduce",
                        {"X dims", in.n_x}, {"reduced X dims", n_reduced}));

  bool named_by_y[1 + enc::max_x][enc::max_components] = {};
  for (int j = 0; j < in.n_y; ++j) named_by_y[in.y[j].major][in.y[j].minor] = true;

  enc out{};
  rh moved_to[1 + enc::max_x][enc::max_components] = {};  // in's rh -> out's rh (unused for dropped components)
  out.n_r = in.n_r;
  for (int k = 0; k < in.n_r; ++k) {
    out.r[k] = in.r[k];
    moved_to[0][k] = rh{0, k};
  }
  for (int i = 0; i < in.n_x; ++i) {
    if (reduced[i]) {
      for (int j = 0; j < in.n_h[i]; ++j) {
        if (named_by_y[i + 1][j]) continue;
        require(broken_unless(out.n_r < enc::max_components, rule::encoding_too_large, "encoding",
                              {"R", out.n_r + 1}));
        out.r[out.n_r] = in.h[i][j];
        moved_to[i + 1][j] = rh{0, out.n_r};
        ++out.n_r;
      }
    } else {
      out.n_h[out.n_x] = in.n_h[i];
      for (int j = 0; j < in.n_h[i]; ++j) {
        out.h[out.n_x][j] = in.h[i][j];
        moved_to[i + 1][j] = rh{out.n_x + 1, j};
      }
      ++out.n_x;
    }
  }
  out.n_p = in.n_p;
  for (int p = 0; p < in.n_p; ++p) {
    out.p_size[p] = in.p_size[p];
    for (int k = 0; k < in.p_size[p]; ++k) out.p[p][k] = moved_to[in.p[p][k].major][in.p[p][k].minor];
  }
  for (int j = 0; j < in.n_y; ++j) {
    if (reduced[in.y[j].major - 1]) continue;
    out.y[out.n_y++] = moved_to[in.y[j].major][in.y[j].minor];
  }
  require(out.check());
  return out;
}

// reduce_encoding(e, {1}): e with X dim 1 reduced away (see above).
TILESIM_HOST_DEVICE constexpr tile_distribution_encoding reduce_encoding(const tile_distribution_encoding& in,
                                                                         std::initializer_list<int> xs_to_reduce) {
  return reduce_encoding(in, xs_to_reduce.begin(), static_cast<int>(xs_to_reduce.size()));
}

}  // namespace tilesim
