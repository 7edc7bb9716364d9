// tilesim/gpu/rtc_props/shrink.hpp: shrink a failing generated value to a minimal one, one real run per step.
//
// DEFINITION. shrink(failing, fails, budget) walks RapidCheck's shrink tree of `failing` (the Shrinkable a
// generator returned): it tries the candidates of the current value in order, moves to the first for which
// fails(candidate) is true and starts over from its candidates, and stops when no candidate fails (a local
// minimum: every one-step simpler value passes) or after `budget` tries. fails() is the whole property on the
// real target: for tilesim-gpu props it compiles the candidate's kernel (cached by source), runs it on the GPU
// and the simulator and compares; on the CPU tests it runs a faulty simulator side.
//
// WORKED EXAMPLE. With fails(c) = "c.threads >= 64", a failing 256-thread case shrinks to one with 64 threads
// and every other pick at its simplest value.
//
// INVARIANTS: the result fails (it is `failing` or a candidate that failed); steps <= tried <= budget.
#pragma once

#include <rapidcheck.h>

#include <functional>

namespace tilesim::gpu::props {

template <class T>
struct shrink_result {
  T minimal;
  int steps = 0;  // accepted (failing) candidates
  int tried = 0;  // candidates run
};

// See the essay; `on_step(value, steps)` is told each accepted candidate (progress output).
template <class T>
shrink_result<T> shrink(const rc::Shrinkable<T>& failing, const std::function<bool(const T&)>& fails, int budget,
                        const std::function<void(const T&, int)>& on_step = {}) {
  shrink_result<T> r{failing.value()};
  rc::Shrinkable<T> current = failing;
  bool moved = true;
  while (moved && r.tried < budget) {
    moved = false;
    auto candidates = current.shrinks();
    while (auto next = candidates.next()) {
      if (r.tried >= budget) break;
      ++r.tried;
      if (fails(next->value())) {
        current = *next;
        r.minimal = current.value();
        ++r.steps;
        if (on_step) on_step(r.minimal, r.steps);
        moved = true;
        break;
      }
    }
  }
  return r;
}

}  // namespace tilesim::gpu::props
