// tilesim/sim/engine/type_key.hpp: a run-time identity and a readable name for an element type.
//
// DEFINITION. type_key_of<T>() is the address of a variable that exists once per T in the program, so two
// keys are equal exactly when the types are; type_name_of<T>() is the demangled name ("float",
// "unsigned short"). The engine uses them to refuse `ctx.global<int>(slot)` on a buffer the host made of
// floats, naming both types, instead of reinterpreting bytes.
//
// EXAMPLE: type_key_of<float>() == type_key_of<float>(), != type_key_of<int>(); type_name_of<float>() == "float".
//
// INVARIANT: keys compare by identity only; a key is never dereferenced.
#pragma once

#include <string>
#include <typeinfo>

namespace tilesim::sim {

using type_key = const void*;

namespace detail {
template <class T>
inline constexpr char type_key_anchor = 0;
std::string demangle(const char* mangled);
}  // namespace detail

template <class T>
type_key type_key_of() {
  return &detail::type_key_anchor<T>;
}

template <class T>
std::string type_name_of() {
  return detail::demangle(typeid(T).name());
}

}  // namespace tilesim::sim
