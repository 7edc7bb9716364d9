// tilesim/props/any_descriptor.hpp: any descriptor type behind one run-time interface.
//
// A random chain has one C++ type per choice of transforms, so the laws are written once against this
// interface: top indices are `point`s, results are plain vectors. Every any_descriptor keeps the C++ that
// rebuilds it, which RapidCheck prints for a shrunk counterexample (showValue below).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spec/spec.hpp"

namespace tilesim::props {

inline constexpr int max_top_dims = 4;

// A top index or top step with up to max_top_dims components; prints as a C++ brace list: {1, 2}.
struct point {
  int size = 0;
  std::array<index_t, max_top_dims> v{};

  index_t& operator[](int i) { return v[i]; }
  index_t operator[](int i) const { return v[i]; }
  friend bool operator==(const point& a, const point& b) {
    if (a.size != b.size) return false;
    for (int i = 0; i < a.size; ++i)
      if (a.v[i] != b.v[i]) return false;
    return true;
  }
  friend point operator+(point a, const point& b) {
    for (int i = 0; i < a.size; ++i) a.v[i] += b.v[i];
    return a;
  }
  std::string cpp() const {
    std::string s = "{";
    for (int i = 0; i < size; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "}";
  }
};
inline void showValue(const point& p, std::ostream& os) { os << p.cpp(); }

template <int N>
point to_point(const multi_index<N>& m) {
  static_assert(N <= max_top_dims, "to_point: too many top dims");
  point p{N, {}};
  for (int i = 0; i < N; ++i) p.v[i] = m[i];
  return p;
}
template <int N>
multi_index<N> to_multi_index(const point& p) {
  multi_index<N> m{};
  for (int i = 0; i < N; ++i) m[i] = p.v[i];
  return m;
}

// One pad stage seen from a coordinate: its upper value and its valid window [left, left + length).
struct pad_window {
  index_t upper, left, length;
  bool contains_upper() const { return upper >= left && upper < left + length; }
};

// What a walk of moves leaves behind: the hidden index and the offset step each move returned.
struct walk_result {
  std::vector<index_t> hidden;
  std::vector<index_t> offset_steps;
};

// Everything one evaluation of a top index yields.
struct evaluation {
  std::vector<index_t> hidden;
  bool valid;     // descriptor::is_valid
  bool in_range;  // descriptor::in_range
  std::vector<pad_window> pads;
};

class any_descriptor {
 public:
  template <int NT, class... Ts>
  any_descriptor(const descriptor<NT, Ts...>& d, std::string cpp, std::vector<std::string> kinds)
      : impl_(std::make_shared<model<descriptor<NT, Ts...>>>(d)),
        lengths_(to_point(d.lengths())),
        element_space_size_(d.element_space_size),
        invertible_(descriptor<NT, Ts...>::adaptor_type::invertible),
        cpp_(std::move(cpp)),
        kinds_(std::move(kinds)) {
    const auto g = d.top_vectors();
    top_vectors_.assign(g.v, g.v + NT);
  }

  int n_top() const { return lengths_.size; }
  point lengths() const { return lengths_; }
  index_t element_size() const {
    index_t n = 1;
    for (int i = 0; i < lengths_.size; ++i) n *= lengths_[i];
    return n;
  }
  index_t element_space_size() const { return element_space_size_; }
  bool invertible() const { return invertible_; }
  std::vector<vector_guarantee> top_vectors() const { return top_vectors_; }

  index_t offset(const point& top) const { return impl_->offset(top); }
  evaluation evaluate(const point& top) const { return impl_->evaluate(top); }
  std::vector<index_t> hidden(const point& top) const { return evaluate(top).hidden; }
  bool is_valid(const point& top) const { return evaluate(top).valid; }
  bool in_range(const point& top) const { return evaluate(top).in_range; }
  // Every pad stage's upper value and window, bottom first.
  std::vector<pad_window> pad_windows(const point& top) const { return evaluate(top).pads; }
  // make_coordinate(start), then move by each step in turn.
  walk_result walk(const point& start, const std::vector<point>& steps) const { return impl_->walk(start, steps); }
  // graph.top_index({offset}); nullopt when not .found. Only for invertible descriptors.
  std::optional<point> top_index(index_t offset) const { return impl_->top_index(offset); }

  // C++ statements that rebuild the descriptor as `d`.
  const std::string& cpp() const { return cpp_; }
  // The transform names in the chain, bottom first ("unmerge", "pad", ...).
  const std::vector<std::string>& kinds() const { return kinds_; }

 private:
  // Only what depends on the index is virtual: one instantiation per descriptor type is the build's cost.
  struct interface {
    virtual ~interface() = default;
    virtual index_t offset(const point&) const = 0;
    virtual evaluation evaluate(const point&) const = 0;
    virtual walk_result walk(const point&, const std::vector<point>&) const = 0;
    virtual std::optional<point> top_index(index_t) const = 0;
  };

  template <class D>
  struct model final : interface {
    static constexpr int N = D::n_top;
    D d;
    explicit model(const D& x) : d(x) {}

    static std::vector<index_t> to_vector(const auto& m) {
      std::vector<index_t> r(m.size());
      for (int i = 0; i < m.size(); ++i) r[i] = m[i];
      return r;
    }
    index_t offset(const point& top) const override { return d.calculate_offset(to_multi_index<N>(top)); }
    evaluation evaluate(const point& top) const override {
      const auto c = d.make_coordinate(to_multi_index<N>(top));
      evaluation e{to_vector(c.hidden), d.is_valid(c), d.in_range(c), {}};
      d.graph.for_each_stage([&](const auto& s) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(s.transform)>, pad>)
          e.pads.push_back({c.hidden[s.upper_ids[0]], s.transform.left, s.transform.length});
      });
      return e;
    }
    walk_result walk(const point& start, const std::vector<point>& steps) const override {
      auto c = d.make_coordinate(to_multi_index<N>(start));
      walk_result r;
      for (const point& s : steps) r.offset_steps.push_back(d.move(c, to_multi_index<N>(s)));
      r.hidden = to_vector(c.hidden);
      return r;
    }
    std::optional<point> top_index(index_t offset) const override {
      if constexpr (D::adaptor_type::invertible) {
        const auto r = d.graph.top_index(multi_index<1>{offset});
        if (!r.found) return std::nullopt;
        return to_point(r.index);
      } else {
        throw std::logic_error("top_index: the descriptor is not invertible");
      }
    }
  };

  std::shared_ptr<const interface> impl_;
  point lengths_;
  index_t element_space_size_;
  bool invertible_;
  std::vector<vector_guarantee> top_vectors_;
  std::string cpp_;
  std::vector<std::string> kinds_;
};

inline void showValue(const any_descriptor& d, std::ostream& os) { os << "\n" << d.cpp(); }

}  // namespace tilesim::props
