// tilesim/spec/descriptor.hpp: a tensor descriptor, i.e. an adaptor whose bottom is one memory offset.
//
// DEFINITION. descriptor = adaptor with one bottom dim (the element offset) + the element space size (how
// many elements the buffer needs) + guaranteed vector (length, stride) per hidden dim. calculate_offset(top)
// is the bottom index; nothing is bounds-checked there, exactly as in CK.
//
// WORKED EXAMPLE. make_naive_descriptor({4, 4}, {4, 1}) is the 4x4 row-major matrix (one embed stage):
//   offset({2, 1}) == 9, element_space_size == 16. Tiled into 2x2 blocks (unmerge each dim into (2, 2) and
//   reorder), a 6x6 matrix becomes shape (3, 3, 2, 2) with strides (12, 2, 6, 1) (tested in descriptor.test).
//
// VALIDITY. Three predicates, from weakest to strictest:
//   is_valid(c)   CK's coordinate_has_valid_offset_assuming_top_index_is_valid: the AND of the pad predicates.
//                 This is what tile loads and stores use.
//   in_bounds(c)  also 0 <= top_i < length_i (CK's coordinate_has_valid_offset).
//   in_range(c)   also every hidden index inside its stage's upper space (reports merges fed out-of-range).
// may_be_invalid (static) says whether is_valid can be false at all: some stage is a pad. A tile store through
// such a descriptor checks its guard at run time (the simulator's timing prices that check: issue 33).
// And two that name where CK computes something tilesim does not, for a tile window's strict mode:
//   beyond_unchecked_pad_side(c)  a one-sided pad passes c on the side it does not check (valid in CK too)
//   ck_index_differs(c)           CK's truncating or magic-number arithmetic maps some stage elsewhere
//
// VECTORS. top_vectors() propagates the guarantees bottom to top through each transform's upper_vectors,
// a stated guarantee winning over a computed one (CK's get_top_dimension_safe_vector_length_strides).
// ck_top_vectors() does the same with CK's rules where tilesim keeps a sounder one (docs/programming-guide.md, "Where CK Tile
// misbehaves": pads cut to gcd(V, lp), merge cut to its last length, none through xor_t or cyclic shifts).
#pragma once

#include "spec/coordinate.hpp"
#include "spec/transforms/embed.hpp"
#include "spec/transforms/unmerge.hpp"

namespace tilesim {

template <int NTop, class... Ts>
struct descriptor {
  using adaptor_type = adaptor<1, NTop, Ts...>;
  static constexpr int n_top = NTop;
  static constexpr int n_hidden = adaptor_type::n_hidden;
  using coordinate_type = coordinate<n_hidden, 1>;
  // Some stage is a pad, so is_valid is computed at run time: make_naive_descriptor's false, a right pad's true.
  static constexpr bool may_be_invalid = !(Ts::always_valid && ...);

  adaptor_type graph;
  index_t element_space_size;
  vector_guarantees<n_hidden> guaranteed;  // stated guarantees per hidden dim; unknown = none

  TILESIM_HOST_DEVICE constexpr multi_index<NTop> lengths() const { return graph.lengths(); }
  TILESIM_HOST_DEVICE constexpr index_t element_size() const { return graph.element_size(); }

  // The element offset of a top index; 4x4 row-major: calculate_offset({2, 1}) == 9.
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr index_t calculate_offset(const multi_index<NTop>& top) const {
    return graph.bottom_index(top)[0];
  }

  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr coordinate_type make_coordinate(const multi_index<NTop>& top) const {
    return tilesim::make_coordinate(graph, top);
  }
  // Moves c by a top step; returns the offset step.
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr index_t move(coordinate_type& c, const multi_index<NTop>& s) const {
    return move_coordinate(graph, c, s)[0];
  }
  TILESIM_HOST_DEVICE constexpr multi_index<NTop> top_index(const coordinate_type& c) const {
    return top_index_of(graph, c);
  }

  // Pad validity only (CK's default for tile loads and stores).
  TILESIM_HOST_DEVICE constexpr bool is_valid(const coordinate_type& c) const {
    bool ok = true;
    graph.for_each_stage([&](const auto& s) {
      if constexpr (!std::remove_cvref_t<decltype(s.transform)>::always_valid)
        ok = ok && s.transform.is_valid_upper(gather(c.hidden, s.upper_ids));
    });
    return ok;
  }
  // Pad validity and 0 <= top < lengths.
  TILESIM_HOST_DEVICE constexpr bool in_bounds(const coordinate_type& c) const {
    const multi_index<NTop> top = top_index(c), len = lengths();
    for (int i = 0; i < NTop; ++i)
      if (top[i] < 0 || top[i] >= len[i]) return false;
    return is_valid(c);
  }
  // in_bounds, and every stage's upper index inside that stage's upper lengths.
  TILESIM_HOST_DEVICE constexpr bool in_range(const coordinate_type& c) const {
    bool ok = in_bounds(c);
    graph.for_each_stage([&](const auto& s) {
      const auto up = gather(c.hidden, s.upper_ids);
      const auto len = s.transform.upper_lengths();
      for (int k = 0; k < up.size(); ++k) ok = ok && up[k] >= 0 && up[k] < len[k];
    });
    return ok;
  }

  // Guaranteed vectors of the top dims; naive {4, 8} with GL = 8, GS = 1: top_vectors()[1] == {8, 1}.
  TILESIM_HOST_DEVICE constexpr vector_guarantees<NTop> top_vectors() const { return propagate_vectors<false>(); }
  // The guarantees CK computes: each transform's ck_upper_vectors where CK's rule differs from tilesim's (pad,
  // left_pad, merge, xor_t, cyclic shifts), else upper_vectors. Strict mode compares the two.
  TILESIM_HOST_DEVICE constexpr vector_guarantees<NTop> ck_top_vectors() const { return propagate_vectors<true>(); }

  // Strict mode: a one-sided pad (left_pad, right_pad) lets c through on the side it does not check, as CK's
  // does; the point is outside the padded dimension.
  TILESIM_HOST_DEVICE constexpr bool beyond_unchecked_pad_side(const coordinate_type& c) const {
    bool beyond = false;
    graph.for_each_stage([&](const auto& s) {
      if constexpr (requires { s.transform.beyond_unchecked_side(gather(c.hidden, s.upper_ids)); })
        beyond = beyond || s.transform.beyond_unchecked_side(gather(c.hidden, s.upper_ids));
    });
    return beyond;
  }
  // Strict mode: after a walk of moves whose last non-zero step per hidden dim is `last_step` (0: never
  // moved), some stage's CK move (modulo's, which counts the step twice) has left CK's coordinate elsewhere.
  TILESIM_HOST_DEVICE constexpr bool ck_moves_differ(const coordinate_type& c, const multi_index<n_hidden>& last_step) const {
    bool differs = false;
    graph.for_each_stage([&](const auto& s) {
      if constexpr (requires { s.transform.ck_move_differs(gather(c.hidden, s.upper_ids), gather(last_step, s.upper_ids)); })
        differs = differs || s.transform.ck_move_differs(gather(c.hidden, s.upper_ids), gather(last_step, s.upper_ids));
    });
    return differs;
  }
  // Strict mode: some stage's CK arithmetic (C++'s truncating / and %, magic division) maps c's hidden index
  // to another lower index than tilesim's exact floor arithmetic (merge, modulo, xor_t, cyclic shifts fed a
  // negative index).
  TILESIM_HOST_DEVICE constexpr bool ck_index_differs(const coordinate_type& c) const {
    bool differs = false;
    graph.for_each_stage([&](const auto& s) {
      if constexpr (requires { s.transform.ck_index_differs(gather(c.hidden, s.upper_ids)); })
        differs = differs || s.transform.ck_index_differs(gather(c.hidden, s.upper_ids));
    });
    return differs;
  }

  TILESIM_HOST_DEVICE constexpr violation check() const {
    if (violation v = graph.check()) return v;
    if (violation v = broken_unless(element_space_size >= 1, rule::length_not_positive, "descriptor",
                                    {"element space size", element_space_size}))
      return v;
    return broken_unless(element_space_size <= max_extent, rule::extent_too_large, "descriptor",
                         {"element space size", element_space_size});
  }

  // Bottom to top through every stage: a stated guarantee wins over a computed one (CK's
  // get_top_dimension_safe_vector_length_strides); Ck picks CK's rule where a transform states one.
  template <bool Ck>
  TILESIM_HOST_DEVICE constexpr vector_guarantees<NTop> propagate_vectors() const {
    vector_guarantees<n_hidden> g = guaranteed;
    graph.for_each_stage([&](const auto& s) {
      using T = std::remove_cvref_t<decltype(s.transform)>;
      vector_guarantees<T::n_lower> low{};
      for (int k = 0; k < T::n_lower; ++k) low[k] = g[s.lower_ids[k]];
      vector_guarantees<T::n_upper> up{};
      if constexpr (Ck && requires { s.transform.ck_upper_vectors(low); })
        up = s.transform.ck_upper_vectors(low);
      else
        up = s.transform.upper_vectors(low);
      for (int k = 0; k < T::n_upper; ++k)
        if (g[s.upper_ids[k]].length == unknown) g[s.upper_ids[k]] = up[k];
    });
    vector_guarantees<NTop> top{};
    for (int i = 0; i < NTop; ++i) top[i] = g[graph.top_ids[i]];
    return top;
  }

  // Host only: a readable dump, bottom stage first.
  std::string cpp() const {
    return "descriptor (element space " + std::to_string(element_space_size) + "):\n" + graph.cpp();
  }
};

// A descriptor over an adaptor with one bottom dim; no stated vector guarantees.
template <int NT, class... Ts>
TILESIM_HOST_DEVICE constexpr descriptor<NT, Ts...> make_descriptor(const adaptor<1, NT, Ts...>& graph,
                                                                   index_t element_space_size) {
  descriptor<NT, Ts...> d{graph, element_space_size, {}};
  require(d.check());
  return d;
}

// Strided tensor: offset = Σ top_i * stride_i; make_naive_descriptor({4, 4}, {4, 1}) is 4x4 row-major.
// The element space is CK's 1 + Σ (len_i - 1) * stride_i, also for negative strides (a flipped dim), so
// ({3, 4}, {4, -1}) spans offsets -3 .. 8 with space 6, and ({3, 4}, {-4, 1}) is refused: its space is -4.
// `vector_length`/`vector_stride` state a guarantee on the last dim (CK's GuaranteedLastDimensionVector*).
template <int N>
TILESIM_HOST_DEVICE constexpr auto make_naive_descriptor(const multi_index<N>& lengths, const multi_index<N>& strides,
                                                         index_t vector_length = unknown,
                                                         index_t vector_stride = unknown) {
  auto graph = transform_adaptor(identity_adaptor<1>(), step(make_embed(lengths, strides), {0}, iota<N>()));
  index_t space = 1;
  for (int i = 0; i < N; ++i) space += (lengths[i] - 1) * strides[i];
  descriptor<N, embed<N>> d{graph, space, {}};
  d.guaranteed[N] = {vector_length, vector_stride};
  require(d.check());
  return d;
}

// Packed row-major: make_naive_descriptor_packed({4, 4}) has strides (4, 1); the last dim has stride 1.
template <int N>
TILESIM_HOST_DEVICE constexpr auto make_naive_descriptor_packed(const multi_index<N>& lengths,
                                                                index_t vector_length = unknown) {
  auto graph = transform_adaptor(identity_adaptor<1>(), step(make_unmerge(lengths), {0}, iota<N>()));
  descriptor<N, unmerge<N>> d{graph, product(lengths), {}};
  d.guaranteed[N] = {vector_length, 1};
  require(d.check());
  return d;
}

// Row-major with the second-to-last stride rounded up to `alignment`: ({3, 5}, 4) has strides (8, 1).
template <int N>
TILESIM_HOST_DEVICE constexpr auto make_naive_descriptor_aligned(const multi_index<N>& lengths, index_t alignment) {
  require(broken_unless(alignment >= 1, rule::alignment_not_positive, "make_naive_descriptor_aligned",
                        {"alignment", alignment}));
  multi_index<N> strides{};
  strides[N - 1] = 1;
  if constexpr (N >= 2) {
    strides[N - 2] = round_up(lengths[N - 1], alignment);
    for (int i = N - 3; i >= 0; --i) strides[i] = strides[i + 1] * lengths[i + 1];
  }
  return make_naive_descriptor(lengths, strides);
}

// Adds stages on top of a descriptor (CK's transform_tensor_descriptor); stated guarantees are kept.
template <int NT, class... Ts, class... Us>
TILESIM_HOST_DEVICE constexpr auto transform_descriptor(const descriptor<NT, Ts...>& d, const transform_step<Us>&... steps) {
  auto graph = transform_adaptor(d.graph, steps...);
  using result = descriptor<decltype(graph)::n_top, Ts..., Us...>;
  result r{graph, d.element_space_size, {}};
  for (int i = 0; i < descriptor<NT, Ts...>::n_hidden; ++i) r.guaranteed[i] = d.guaranteed[i];
  require(r.check());
  return r;
}

}  // namespace tilesim
