// tilesim/gpu/crosscheck/recorded_accuracy.test.hpp: a recording's accuracy, re-simulated once per test process.
//
// accuracy_for("data/recordings/h100-zero-overhead.json") reads the recording and returns accuracy_of it
// (accuracy.hpp: every point re-simulated with today's model); the tests that hold the model to a recording
// (accuracy.test.cpp, copy_probes.test.cpp) share the one result instead of each re-simulating the file.
// Tests run from the repository root; a missing file fails the test naming it.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "gpu/crosscheck/accuracy.hpp"
#include "util/json.hpp"

namespace tilesim::gpu {

// The accuracy of the recording at `path`, computed the first time it is asked for.
inline const accuracy& accuracy_for(const std::string& path) {
  static std::map<std::string, accuracy> cache;
  auto it = cache.find(path);
  if (it != cache.end()) return it->second;
  std::ifstream f(path);
  REQUIRE_MESSAGE(f.good(), path << " is missing (the test runs in the repository root)");
  std::stringstream s;
  s << f.rdbuf();
  return cache.emplace(path, accuracy_of(util::parse_json(s.str(), util::json_duplicates::keep))).first->second;
}

}  // namespace tilesim::gpu
