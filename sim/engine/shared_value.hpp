// tilesim/sim/engine/shared_value.hpp: (engine-internal) a value every thread derives alike, made once per runner.
//
// DEFINITION. program.hpp's derive_once(ctx, x, f) is derive(x, f) for a program; on the simulator a run-time x
// goes to thread_context::shared_value, which looks up (f's type, x) in the runner's window_memo and returns the
// value kept there, or computes f(x) and keeps it. f must capture nothing (its result then depends on x alone)
// and x must compare by value (an operator==, or bytes that are its value: no padding); other builders are
// simply called. An f that throws keeps nothing, so every thread that asks throws the same error.
//
// EXAMPLE. 256 threads of the GEMM tile each ask for make_gemm_a_encoding(grid): the first computes and checks
// it; the other 255 read the kept one instead of building and checking three encodings.
//
// INVARIANTS: shared_value(memo, x, f) == f(x) for every x; an entry is reused only for an equal x and the same f;
// a kept value never changes or moves while the memo holds it.
#pragma once

#include <concepts>
#include <cstring>
#include <memory>
#include <type_traits>

#include "sim/engine/window_memo.hpp"

namespace tilesim::sim::detail {

// Whether x can key the memo: compared with == or, lacking one, by its bytes when they are its whole value.
template <class T>
concept shareable_key = std::is_trivially_copyable_v<T> &&
                        (std::equality_comparable<T> || std::has_unique_object_representations_v<T>);

// The kept value of one (builder, argument) pair.
template <class T, class F>
struct shared_value_entry : window_memo::entry {
  using value_type = std::remove_cvref_t<std::invoke_result_t<F, const T&>>;
  T key;
  value_type value;
  shared_value_entry(const T& k, value_type v) : key(k), value(std::move(v)) {}

  static const void* type_tag() {
    static const char tag = 0;
    return &tag;
  }
  // Whether this entry was made from an argument equal to x.
  bool holds(const T& x) const {
    if constexpr (std::equality_comparable<T>)
      return key == x;
    else
      return std::memcmp(&key, &x, sizeof(T)) == 0;
  }
};

// f(x), computed once per runner for each distinct x (see the essay): the kept value, which lives as long as the
// memo keeps its values (at least until the next workgroup starts; window_memo::enter).
template <class T, class F>
auto shared_value(window_memo& memo, const T& x, F f) -> const std::remove_cvref_t<std::invoke_result_t<F, const T&>>& {
  using entry_type = shared_value_entry<T, F>;
  for (const auto& e : memo.values)
    if (e->tag == entry_type::type_tag() && static_cast<const entry_type*>(e.get())->holds(x))
      return static_cast<const entry_type*>(e.get())->value;
  auto made = std::make_unique<entry_type>(x, f(x));
  made->tag = entry_type::type_tag();
  const entry_type& kept = *made;
  memo.values.push_back(std::move(made));
  return kept.value;
}

}  // namespace tilesim::sim::detail
