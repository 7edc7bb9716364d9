// tilesim/spec/error_of.test.hpp: a helper for the unit tests only (never included by the library).
#pragma once

#include <string>
#include <utility>

#include "spec/rules.hpp"

namespace tilesim::testing {

// The rule and message of the spec_error that f throws; {rule::none, ""} when it throws none.
template <class F>
std::pair<rule, std::string> error_of(F&& f) {
  try {
    f();
  } catch (const spec_error& e) {
    return {e.broken, e.what()};
  }
  return {rule::none, ""};
}

}  // namespace tilesim::testing
