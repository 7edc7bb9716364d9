// tilesim/props/chain.hpp: a descriptor built step by step together with the C++ that rebuilds it.
//
//   chain<D>{make_naive_descriptor_packed<2>({4, 8}, 4), "make_naive_descriptor_packed<2>({4, 8}, 4)", {"unmerge"}}
//     .then("pad", step(make_pad(4, 1, 0), {0}, {0}), step(make_pad(8, 0, 0), {1}, {1}))
//
// prints as
//
//   auto d0 = make_naive_descriptor_packed<2>({4, 8}, 4);
//   auto d = transform_descriptor(d0, step(make_pad(4, 1, 0), {0}, {0}), step(make_pad(8, 0, 0), {1}, {1}));
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "props/any_descriptor.hpp"

namespace tilesim::props {

template <class T>
std::string step_cpp(const transform_step<T>& s) {
  return "step(" + s.transform.cpp() + ", " + cpp_list(s.from) + ", " + cpp_list(s.to) + ")";
}

// `unknown` by name, other values as numbers.
inline std::string index_cpp(index_t x) { return x == unknown ? "unknown" : std::to_string(x); }

template <class D>
struct chain {
  D d;
  std::vector<std::string> exprs;  // exprs[k] builds d<k>; it refers to d<k-1> by that name
  std::vector<std::string> kinds;

  // d with one more transform_descriptor stage.
  template <class... Us>
  auto then(const char* kind, const transform_step<Us>&... steps) const {
    auto next = transform_descriptor(d, steps...);
    std::string e = "transform_descriptor(d" + std::to_string(exprs.size() - 1);
    ((e += ", " + step_cpp(steps)), ...);
    chain<decltype(next)> r{next, exprs, kinds};
    r.exprs.push_back(e + ")");
    r.kinds.push_back(kind);
    return r;
  }

  point lengths() const { return to_point(d.lengths()); }

  any_descriptor done() const {
    std::string cpp;
    for (std::size_t k = 0; k < exprs.size(); ++k)
      cpp += "auto " + (k + 1 == exprs.size() ? std::string("d") : "d" + std::to_string(k)) + " = " + exprs[k] + ";\n";
    return any_descriptor(d, cpp, kinds);
  }
};

template <class D>
chain<D> start_chain(const D& d, std::string expr, const char* kind) {
  return {d, {std::move(expr)}, {kind}};
}

}  // namespace tilesim::props
