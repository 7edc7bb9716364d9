// tilesim/spec/adaptor.hpp: transforms wired into a graph of hidden dimensions.
//
// DEFINITION. A tensor adaptor maps a *top* index (what the user indexes) to a *bottom* index (what memory or
// the next adaptor sees) through a chain of transforms. Every dimension anywhere in the chain has a hidden
// id. Bottom dims are ids 0 .. n_bottom-1. Each stage is a transform plus the hidden ids of its lower dims
// (existing ids) and of its upper dims (fresh ids). Stages are stored bottom first and evaluated top first:
//
//   hidden[top_ids] = top;  for stage t = last .. first: hidden[t.lower] = T_t.lower_index(hidden[t.upper])
//
// WORKED EXAMPLE. A 4x4 row-major matrix read through an xor swizzle (the table in transforms/xor.hpp):
//
//   bottom: id 0 (offset)
//   stage 0: unmerge(4, 4)  lower {0}     upper {1, 2}     ids 1, 2 = (row, stored col)
//   stage 1: xor_t(4, 4)    lower {1, 2}  upper {3, 4}     ids 3, 4 = (row, logical col)
//   top: {3, 4}
//
//   top (2, 1): hidden[3, 4] = (2, 1); xor gives hidden[1, 2] = (2, 3); unmerge gives hidden[0] = 11.
//
// BUILDING. `transform_adaptor(old, step(T, {old top dims}, {new top positions}) ...)` adds one stage per
// step on top of `old`: the lower dims of each new transform are old *top* dims (by position), its upper
// dims become new top dims at the given positions. Every old top dim must be consumed exactly once and
// every new top position filled exactly once, or the call reports which dim broke the rule.
// `chain(a, b)` feeds a's top into b's bottom.
//
// INVARIANTS (props/): for invertible chains, top_index(bottom_index(i)) == i; moves agree with fresh
// evaluations (coordinate.hpp).
#pragma once

#include <string>
#include <utility>

#include "spec/transform.hpp"
#include "spec/tuple.hpp"

namespace tilesim {

// One wired transform: its lower and upper hidden ids.
template <coordinate_transform T>
struct stage {
  T transform;
  multi_index<T::n_lower> lower_ids;
  multi_index<T::n_upper> upper_ids;
};

// A transform with the *positions* it reads from the old top and writes into the new top.
template <coordinate_transform T>
struct transform_step {
  T transform;
  multi_index<T::n_lower> from;  // old top positions
  multi_index<T::n_upper> to;    // new top positions
};

// step(make_xor(4, 4), {1, 0}, {1, 0}): xor reads old top dims 1 and 0 and becomes new top dims 1 and 0.
template <coordinate_transform T>
TILESIM_HOST_DEVICE constexpr transform_step<T> step(const T& t, multi_index<T::n_lower> from,
                                                     multi_index<T::n_upper> to) {
  return {t, from, to};
}

template <int NBottom, int NTop, coordinate_transform... Ts>
struct adaptor {
  static constexpr int n_bottom = NBottom;
  static constexpr int n_top = NTop;
  static constexpr int n_stages = sizeof...(Ts);
  static constexpr int n_hidden = NBottom + (0 + ... + Ts::n_upper);
  static constexpr bool invertible = (true && ... && Ts::invertible);

  tuple<stage<Ts>...> stages;
  multi_index<NTop> top_ids;

  // The bottom index for a top index: {2, 1} -> {11} in the example above.
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr multi_index<NBottom> bottom_index(const multi_index<NTop>& top) const {
    return subrange<0, NBottom>(hidden_index(top));
  }

  // Every hidden value for a top index (what a coordinate stores).
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr multi_index<n_hidden> hidden_index(const multi_index<NTop>& top) const {
    multi_index<n_hidden> h{};
    scatter(h, top_ids, top);
    evaluate_down(h, std::make_index_sequence<n_stages>{});
    return h;
  }

  // The top index that maps to `bottom` (invertible adaptors only); .found is false when none does.
  TILESIM_HOST_DEVICE constexpr inverse_result<NTop> top_index(const multi_index<NBottom>& bottom) const
    requires invertible
  {
    multi_index<n_hidden> h{};
    for (int i = 0; i < NBottom; ++i) h[i] = bottom[i];
    bool found = true;
    evaluate_up(h, found, std::make_index_sequence<n_stages>{});
    return {gather(h, top_ids), found};
  }

  // Lengths of every hidden dim that is the upper dim of some stage (unknown for bottom dims).
  TILESIM_HOST_DEVICE constexpr multi_index<n_hidden> hidden_lengths() const {
    multi_index<n_hidden> len = multi_index<n_hidden>::filled(unknown);
    for_each_stage([&](const auto& s) { scatter(len, s.upper_ids, s.transform.upper_lengths()); });
    return len;
  }

  // The top lengths: {4, 4} in the example.
  TILESIM_HOST_DEVICE constexpr multi_index<NTop> lengths() const { return gather(hidden_lengths(), top_ids); }

  // Π of the top lengths: the number of top indices.
  TILESIM_HOST_DEVICE constexpr index_t element_size() const { return product(lengths()); }

  // Calls f(stage) for every stage, bottom first.
  template <class F>
  TILESIM_HOST_DEVICE constexpr void for_each_stage(F&& f) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (f(get<I>(stages)), ...); }(std::make_index_sequence<n_stages>{});
  }

  // The first broken rule of any transform, or none.
  TILESIM_HOST_DEVICE constexpr violation check() const {
    violation first{};
    for_each_stage([&](const auto& s) {
      if (!first) first = s.transform.check();
    });
    return first;
  }

  // Host only: the stages as factory calls, bottom first, for error reports and shrunk counterexamples.
  std::string cpp() const {
    std::string s;
    for_each_stage([&](const auto& st) {
      s += "  stage " + st.transform.cpp() + " lower " + cpp_list(st.lower_ids) + " upper " + cpp_list(st.upper_ids) + "\n";
    });
    return s + "  top " + cpp_list(top_ids) + "\n";
  }

 private:
  template <std::size_t... I>
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void evaluate_down(multi_index<n_hidden>& h,
                                                                  std::index_sequence<I...>) const {
    (lower_one<n_stages - 1 - I>(h), ...);  // the comma fold runs the stages last to first
  }
  template <std::size_t K>
  TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void lower_one(multi_index<n_hidden>& h) const {
    const auto& s = get<K>(stages);
    scatter(h, s.lower_ids, s.transform.lower_index(gather(h, s.upper_ids)));
  }
  template <std::size_t... I>
  TILESIM_HOST_DEVICE constexpr void evaluate_up(multi_index<n_hidden>& h, bool& found, std::index_sequence<I...>) const {
    (raise_one<I>(h, found), ...);
  }
  template <std::size_t K>
  TILESIM_HOST_DEVICE constexpr void raise_one(multi_index<n_hidden>& h, bool& found) const {
    const auto& s = get<K>(stages);
    auto r = s.transform.upper_index(gather(h, s.lower_ids));
    found = found && r.found;
    scatter(h, s.upper_ids, r.index);
  }
};

// The adaptor with no stages: top == bottom.
template <int N>
TILESIM_HOST_DEVICE constexpr adaptor<N, N> identity_adaptor() {
  adaptor<N, N> a{};
  for (int i = 0; i < N; ++i) a.top_ids[i] = i;
  return a;
}

namespace detail {

// Checks that steps consume each of n_old top positions once and fill each of n_new positions once.
template <class... Steps>
TILESIM_HOST_DEVICE constexpr violation check_wiring(int n_old, int n_new, const Steps&... steps) {
  int consumed[64] = {}, filled[64] = {};
  violation first{};
  auto visit = [&](const auto& st) {
    for (int k = 0; k < st.from.size(); ++k) {
      const index_t d = st.from[k];
      if (first) return;
      if (d < 0 || d >= n_old)
        first = broken_unless(false, rule::dim_out_of_range, "transform_adaptor", {"dim", d}, {"old top dims", n_old});
      else if (++consumed[d] > 1)
        first = broken_unless(false, rule::dim_consumed_twice, "transform_adaptor", {"dim", d});
    }
    for (int k = 0; k < st.to.size(); ++k) {
      const index_t d = st.to[k];
      if (first) return;
      if (d < 0 || d >= n_new)
        first = broken_unless(false, rule::new_dim_out_of_range, "transform_adaptor", {"position", d}, {"new top dims", n_new});
      else if (++filled[d] > 1)
        first = broken_unless(false, rule::new_dim_assigned_twice, "transform_adaptor", {"position", d});
    }
  };
  (visit(steps), ...);
  for (int d = 0; d < n_old && !first; ++d)
    if (consumed[d] == 0) first = broken_unless(false, rule::dim_not_consumed, "transform_adaptor", {"dim", d});
  return first;
}

}  // namespace detail

// Adds one stage per step on top of `old` (CK's transform_tensor_adaptor). Throws spec_error on bad wiring.
template <int NB, int NT, class... Ts, class... Us>
TILESIM_HOST_DEVICE constexpr auto transform_adaptor(const adaptor<NB, NT, Ts...>& old, const transform_step<Us>&... steps) {
  static_assert(NT <= 64, "transform_adaptor: at most 64 top dimensions");
  constexpr int new_top = (0 + ... + Us::n_upper);
  static_assert(new_top <= 64, "transform_adaptor: at most 64 new top dimensions");
  using result = adaptor<NB, new_top, Ts..., Us...>;
  require(detail::check_wiring(NT, new_top, steps...));
  result r{};
  tuple<stage<Us>...> fresh{};
  const tuple<transform_step<Us>...> wanted = make_tuple(steps...);
  int next_id = adaptor<NB, NT, Ts...>::n_hidden;  // fresh ids follow the order of the steps
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&](auto& s, const auto& st) {
          s.transform = st.transform;
          for (int k = 0; k < st.from.size(); ++k) s.lower_ids[k] = old.top_ids[st.from[k]];
          for (int k = 0; k < st.to.size(); ++k) {
            s.upper_ids[k] = next_id++;
            r.top_ids[st.to[k]] = s.upper_ids[k];
          }
        }(get<I>(fresh), get<I>(wanted)),
        ...);
  }(std::index_sequence_for<Us...>{});
  r.stages = concat(old.stages, fresh);
  return r;
}

// `b` applied on top of `a`: b's bottom dims are a's top dims (CK's chain_tensor_adaptors).
template <int NB, int NM, int NT, class... Ts, class... Us>
TILESIM_HOST_DEVICE constexpr adaptor<NB, NT, Ts..., Us...> chain(const adaptor<NB, NM, Ts...>& a,
                                                                  const adaptor<NM, NT, Us...>& b) {
  constexpr int shift = adaptor<NB, NM, Ts...>::n_hidden - NM;  // b's non-bottom ids move past a's ids
  auto rename = [&](index_t id) -> index_t { return id < NM ? a.top_ids[id] : id + shift; };
  adaptor<NB, NT, Ts..., Us...> r{};
  tuple<stage<Us>...> moved = b.stages;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&](auto& s) {
          for (int k = 0; k < s.lower_ids.size(); ++k) s.lower_ids[k] = rename(s.lower_ids[k]);
          for (int k = 0; k < s.upper_ids.size(); ++k) s.upper_ids[k] = rename(s.upper_ids[k]);
        }(get<I>(moved)),
        ...);
  }(std::index_sequence_for<Us...>{});
  r.stages = concat(a.stages, moved);
  for (int i = 0; i < NT; ++i) r.top_ids[i] = rename(b.top_ids[i]);
  return r;
}

}  // namespace tilesim
