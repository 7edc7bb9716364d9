// tilesim/sim/engine/type_key.cpp: demangling for type_name_of.
#include "sim/engine/type_key.hpp"

#include <cxxabi.h>

#include <cstdlib>

namespace tilesim::sim::detail {

std::string demangle(const char* mangled) {
  int status = 0;
  char* readable = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string name = status == 0 && readable ? readable : mangled;
  std::free(readable);
  return name;
}

}  // namespace tilesim::sim::detail
