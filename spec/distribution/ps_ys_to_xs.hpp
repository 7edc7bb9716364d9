// tilesim/spec/distribution/ps_ys_to_xs.hpp: an encoding as a tensor adaptor, with CK's hidden-id order.
//
// DEFINITION. For an encoding E with NX X dims, NR R components, H lists H_i, NP P dims and NY Y dims, the
// adaptor maps top (P..., Y...) to bottom (X...). Hidden ids are allocated exactly as CK's
// make_adaptor_encoding_for_tile_distribution does:
//
//   ids 0 .. NX-1            X (bottom)
//   next NR                  R components      stage 0: replicate(R), no lower dims (present even when NR = 0)
//   next |H_0|, |H_1|, ...   H components      stage 1+i: unmerge(H_i), lower {i}
//   next NP, one each        P dims            stage 1+NX+p: merge(lengths of P p's components), lower = their ids
//   top = [P ids..., the RH id of each Y...]
//
// WORKED EXAMPLE (docs 4x4: H0 = <2,2>, H1 = <2,2>, P0 -> H0[0], P1 -> H1[0], Y -> H0[1], H1[1]):
//   X = {0, 1}; no R; H0 = {2, 3}; H1 = {4, 5}; P0 = 6 (merge of {2}), P1 = 7 (merge of {4}); top {6, 7, 3, 5}.
//   bottom_index({1, 1, 0, 1}) == {2, 3}, the same as encoding.x_of({1, 1}, {0, 1}).
// INVARIANT (tested): bottom_index({p..., y...}) == x_of(p, y) for every p and y of the launch.
#pragma once

#include <utility>

#include "spec/adaptor.hpp"
#include "spec/distribution/encoding.hpp"
#include "spec/transforms/merge.hpp"
#include "spec/transforms/replicate.hpp"
#include "spec/transforms/unmerge.hpp"

namespace tilesim {

namespace detail {

template <tile_distribution_encoding E, std::size_t... X, std::size_t... P>
constexpr auto ps_ys_to_xs(std::index_sequence<X...>, std::index_sequence<P...>) {
  constexpr int nx = E.n_x, nr = E.n_r, np = E.n_p, ny = E.n_y;
  using result = adaptor<nx, np + ny, replicate<nr>, unmerge<E.n_h[X]>..., merge<E.p_size[P]>...>;
  result a{};
  int rh_id[1 + tile_distribution_encoding::max_x][tile_distribution_encoding::max_components] = {};
  int next = nx;
  auto& rep = get<0>(a.stages);
  for (int k = 0; k < nr; ++k) {
    rep.transform.lengths[k] = E.r[k];
    rep.upper_ids[k] = rh_id[0][k] = next++;
  }
  (
      [&](auto& s, int i) {
        for (int j = 0; j < E.n_h[i]; ++j) {
          s.transform.lengths[j] = E.h[i][j];
          s.upper_ids[j] = rh_id[i + 1][j] = next++;
        }
        s.lower_ids[0] = i;
      }(get<1 + X>(a.stages), static_cast<int>(X)),
      ...);
  (
      [&](auto& s, int p) {
        for (int k = 0; k < E.p_size[p]; ++k) {
          const rh c = E.p[p][k];
          s.transform.lengths[k] = E.length_of(c);
          s.lower_ids[k] = rh_id[c.major][c.minor];
        }
        s.upper_ids[0] = next++;
        a.top_ids[p] = s.upper_ids[0];
      }(get<1 + nx + P>(a.stages), static_cast<int>(P)),
      ...);
  for (int j = 0; j < ny; ++j) a.top_ids[np + j] = rh_id[E.y[j].major][E.y[j].minor];
  return a;
}

}  // namespace detail

// The (P..., Y...) -> (X...) adaptor of a compile-time encoding; every stage and id as in CK.
template <tile_distribution_encoding E>
  requires(static_require<E>())
inline constexpr auto ps_ys_to_xs =
    detail::ps_ys_to_xs<E>(std::make_index_sequence<E.n_x>{}, std::make_index_sequence<E.n_p>{});

}  // namespace tilesim
