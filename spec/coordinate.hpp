// tilesim/spec/coordinate.hpp: a remembered evaluation that can be moved cheaply.
//
// DEFINITION. A coordinate stores every hidden value of one evaluation of an adaptor (or descriptor). Moving
// it by a top step s runs only the stages whose upper dims change, each through its incremental
// update_lower_index, and returns how the bottom index changed. Tile windows walk a tile this way.
//
// WORKED EXAMPLE. 4x4 row-major (one stage unmerge(4, 4)): make_coordinate(d, {1, 2}).offset() == 6;
// move_coordinate(d, c, {0, 1}) returns bottom step {1} and leaves c.offset() == 7; a step {1, 0} returns
// {4}. A step {0, 0} runs nothing.
//
// INVARIANT (props/): move(make(i), s) == make(i + s) on every hidden component, for every transform,
// including modulo and merge (which CK gets wrong or only gets right in range).
#pragma once

#include <utility>

#include "spec/adaptor.hpp"

namespace tilesim {

template <int NHidden, int NBottom>
struct coordinate {
  multi_index<NHidden> hidden;

  // The bottom index (for a descriptor, {offset}).
  TILESIM_HOST_DEVICE constexpr multi_index<NBottom> bottom() const { return subrange<0, NBottom>(hidden); }
  // The memory offset: bottom dim 0.
  TILESIM_HOST_DEVICE constexpr index_t offset() const { return hidden[0]; }
  TILESIM_HOST_DEVICE friend constexpr bool operator==(const coordinate&, const coordinate&) = default;
};

// make_coordinate(a, top): the full evaluation of `top`, every hidden value kept.
template <int NB, int NT, class... Ts>
TILESIM_HOST_DEVICE TILESIM_INLINE constexpr auto make_coordinate(const adaptor<NB, NT, Ts...>& a,
                                                                  const multi_index<NT>& top) {
  return coordinate<adaptor<NB, NT, Ts...>::n_hidden, NB>{a.hidden_index(top)};
}

// The top index a coordinate stands for.
template <int NB, int NT, class... Ts, int NH>
TILESIM_HOST_DEVICE constexpr multi_index<NT> top_index_of(const adaptor<NB, NT, Ts...>& a, const coordinate<NH, NB>& c) {
  return gather(c.hidden, a.top_ids);
}

// Moves `c` by the top step `s`, updating only the stages whose upper dims changed; returns the bottom step.
template <int NB, int NT, class... Ts, int NH>
TILESIM_HOST_DEVICE TILESIM_INLINE constexpr multi_index<NB> move_coordinate(const adaptor<NB, NT, Ts...>& a,
                                                                             coordinate<NH, NB>& c,
                                                                             const multi_index<NT>& s) {
  static_assert(NH == adaptor<NB, NT, Ts...>::n_hidden, "move_coordinate: the coordinate belongs to another adaptor");
  // diff[id] is the step of hidden dim id where changed[id], else 0: it is read through changed only, so it
  // starts as any defined values (a copy; zero-filling it costs a rep stos per move on x86).
  multi_index<NH> diff = c.hidden;
  bool changed[NH] = {};
  auto step_of = [&](int id) TILESIM_INLINE { return changed[id] ? diff[id] : index_t{0}; };
  for (int i = 0; i < NT; ++i) {
    const index_t id = a.top_ids[i];
    diff[id] = s[i];
    changed[id] = s[i] != 0;
    c.hidden[id] += s[i];
  }
  [&]<std::size_t... I>(std::index_sequence<I...>) TILESIM_INLINE {
    (
        [&](const auto& st) TILESIM_INLINE {
          bool runs = false;
          for (int k = 0; k < st.upper_ids.size(); ++k) runs = runs || changed[st.upper_ids[k]];
          if (!runs) return;
          auto up_step = gather(diff, st.upper_ids);
          for (int k = 0; k < st.upper_ids.size(); ++k) up_step[k] = step_of(st.upper_ids[k]);
          auto low = gather(c.hidden, st.lower_ids);
          auto low_step = st.transform.update_lower_index(up_step, gather(c.hidden, st.upper_ids), low);
          scatter(c.hidden, st.lower_ids, low);
          scatter(diff, st.lower_ids, low_step);
          for (int k = 0; k < st.lower_ids.size(); ++k) changed[st.lower_ids[k]] = true;
        }(get<sizeof...(Ts) - 1 - I>(a.stages)),
        ...);
  }(std::index_sequence_for<Ts...>{});
  multi_index<NB> bottom{};
  for (int k = 0; k < NB; ++k) bottom[k] = step_of(k);
  return bottom;
}

}  // namespace tilesim
