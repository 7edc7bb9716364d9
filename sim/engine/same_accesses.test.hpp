// tilesim/sim/engine/same_accesses.test.hpp: a helper for the unit tests only (never included by the library).
#pragma once

#include <doctest/doctest.h>

#include <cstddef>

#include "sim/engine/run_result.hpp"

namespace tilesim::sim::testing {

// Every wave instruction of two runs, lane by lane: same label, space, kind, width and addresses, in order
// (the compiled form of a program against its run-time form, or a hand-written kernel's trace against both).
inline void check_same_accesses(const run_result& a, const run_result& b) {
  REQUIRE(a.workgroups.size() == b.workgroups.size());
  for (std::size_t g = 0; g < a.workgroups.size(); ++g) {
    REQUIRE(a.workgroups[g].waves.size() == b.workgroups[g].waves.size());
    for (std::size_t w = 0; w < a.workgroups[g].waves.size(); ++w) {
      const auto& x = a.workgroups[g].waves[w].instructions;
      const auto& y = b.workgroups[g].waves[w].instructions;
      REQUIRE(x.size() == y.size());
      for (std::size_t i = 0; i < x.size(); ++i) {
        CAPTURE(g);
        CAPTURE(w);
        CAPTURE(i);
        CHECK(x[i].access.label == y[i].access.label);
        CHECK(x[i].access.space == y[i].access.space);
        CHECK(x[i].access.kind == y[i].access.kind);
        CHECK(x[i].access.width == y[i].access.width);
        CHECK(x[i].access.address == y[i].access.address);
      }
    }
  }
}

}  // namespace tilesim::sim::testing
