// tilesim/sim/report/text_columns.hpp: padding for the aligned text tables tilesim prints.
//
// pad_right("lds", 6) == "lds   " (a left-aligned column), pad_left("64", 5) == "   64" (a right-aligned one);
// a string already as wide or wider comes back unchanged. Used by `tilesim run` (cli/run.cpp) and the main
// job's summary table (examples/catalogue.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace tilesim::sim {

// s followed by spaces up to width w.
inline std::string pad_right(std::string s, std::size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}

// Spaces up to width w, then s.
inline std::string pad_left(std::string s, std::size_t w) {
  if (s.size() < w) s.insert(0, w - s.size(), ' ');
  return s;
}

}  // namespace tilesim::sim
