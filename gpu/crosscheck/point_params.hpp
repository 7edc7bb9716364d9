// tilesim/gpu/crosscheck/point_params.hpp: a cross-check point's parameters, held without the cross-check knowing their type.
//
// DEFINITION. A point_params holds one value of any copyable type: the parameters of the point's program (a
// programs::copy_params for the copies, a programs::gemm_params for the fp32 GEMM, ...). Only the program's
// adapter (program_adapter.hpp) and code written for that program read it back, as<P>() naming the type it
// expects; gpu/crosscheck itself never looks inside. So a new program brings its own parameter type and no
// file of the cross-check changes.
//
// WORKED EXAMPLE.
//   point_params q = programs::copy_params{.rows = 64, .cols = 32};
//   q.as<programs::copy_params>().rows == 64
//   q.as<programs::copy_params>().cols = 16;                  // mutable through a non-const holder
//   q.as<programs::gemm_params>()                             // std::logic_error: "... hold a
//                                                             //   tilesim::programs::copy_params, read as a
//                                                             //   tilesim::programs::gemm_params"
//
// INVARIANTS: a copy holds an equal, independent value (value semantics: copying a point copies its
// parameters); as<P>() returns the held value exactly when it is a P, and otherwise throws std::logic_error
// naming both types (a point handed to another program's adapter is a bug, never a silent misread); an empty
// holder (a default point) is read as nothing: as<P>() throws saying it is empty.
#pragma once

#include <any>
#include <concepts>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace tilesim::gpu {

class point_params {
 public:
  point_params() = default;
  // Holds `params` (implicit: point.params = c.params).
  template <class P>
    requires(!std::same_as<std::remove_cvref_t<P>, point_params>)
  point_params(P&& params) : value_(std::forward<P>(params)) {}

  // The held parameters as a P; std::logic_error naming both types when they are something else.
  template <class P>
  const P& as() const {
    if (const P* p = std::any_cast<P>(&value_)) return *p;
    throw std::logic_error(mismatch(typeid(P)));
  }
  template <class P>
  P& as() {
    if (P* p = std::any_cast<P>(&value_)) return *p;
    throw std::logic_error(mismatch(typeid(P)));
  }

  // True when nothing is held (a default-constructed point).
  bool empty() const { return !value_.has_value(); }

 private:
  // "tilesim::programs::copy_params" for typeid(programs::copy_params) (the mangled name where demangling fails).
  static std::string type_name(const std::type_info& t) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(t.name(), nullptr, nullptr, &status), std::free);
    return status == 0 && name ? std::string(name.get()) : std::string(t.name());
  }
  std::string mismatch(const std::type_info& asked) const {
    if (empty()) return "a point's parameters are empty (no program set them), read as a " + type_name(asked);
    return "a point's parameters hold a " + type_name(value_.type()) + ", read as a " + type_name(asked) +
           " (the point was handed to another program's code)";
  }

  std::any value_;
};

}  // namespace tilesim::gpu
