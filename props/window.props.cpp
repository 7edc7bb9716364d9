// Laws of window/: tile windows over random valid encodings (encoding_generators.hpp) and random strided views
// whose last dim guarantees a vector of 1, 2, 4 or 8 elements (rows padded to that multiple).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "props/encoding_generators.hpp"
#include "spec/window/tile_window.hpp"

using namespace tilesim;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {
using enc = tile_distribution_encoding;

// A view of Π lengths ints around a window: its lengths, strides, vector guarantee and the window's origin.
template <int N>
struct view_case {
  multi_index<N> lengths, strides, origin;
  index_t vector;
  access_order visit;
};

template <int N>
std::string show(const view_case<N>& v) {
  return "view lengths " + show_index(v.lengths, N) + " strides " + show_index(v.strides, N) + " vector " +
         std::to_string(v.vector) + " origin " + show_index(v.origin, N) +
         (v.visit == access_order::snake ? " snake" : " linear");
}

// A view that holds the encoding's window at a random origin, rows padded to the vector; origin's last
// component a multiple of the vector (so vectors are aligned, as CK's users must ensure).
template <int N>
view_case<N> draw_view(const enc& e) {
  view_case<N> v{};
  v.vector = *gen::element<index_t>(1, 2, 4, 8);
  v.visit = *gen::element(access_order::linear, access_order::snake);
  for (int i = 0; i < N; ++i) {
    const index_t extra = i == N - 1 ? v.vector * *gen::inRange(0, 3) : *gen::inRange(0, 3);
    v.lengths[i] = e.x_length(i) + extra;
    v.origin[i] = i == N - 1 ? v.vector * *gen::inRange<index_t>(0, extra / v.vector + 1) : *gen::inRange<index_t>(0, extra + 1);
  }
  v.strides[N - 1] = 1;
  if constexpr (N >= 2) {
    v.strides[N - 2] = round_up(v.lengths[N - 1], v.vector) + v.vector * *gen::inRange(0, 2);
    for (int i = N - 3; i >= 0; --i) v.strides[i] = v.strides[i + 1] * v.lengths[i + 1];
  }
  return v;
}

template <int N>
auto make_view(const view_case<N>& v, std::vector<int>& memory) {
  const auto desc = make_naive_descriptor<N>(v.lengths, v.strides, v.vector, 1);
  memory.assign(static_cast<std::size_t>(desc.element_space_size), 0);
  return make_tensor_view(desc, memory.data(), desc.element_space_size);
}

template <int N>
multi_index<N> window_lengths(const enc& e) {
  multi_index<N> l{};
  for (int i = 0; i < N; ++i) l[i] = e.x_length(i);
  return l;
}

// 1 + the row-major number of window element x: the value every owner of x stores.
template <int N>
int value_of(const multi_index<N>& lengths, const multi_index<N>& x) {
  index_t flat = 0;
  for (int i = 0; i < N; ++i) flat = flat * lengths[i] + x[i];
  return static_cast<int>(1 + flat);
}

// Runs law<N>(e) with N = e.n_x.
template <template <int> class Law>
void with_dims(const enc& e) {
  switch (e.n_x) {
    case 1: Law<1>{}(e); break;
    case 2: Law<2>{}(e); break;
    default: Law<3>{}(e); break;
  }
}

template <int N>
struct store_then_load {
  void operator()(const enc& e) const {
    const view_case<N> v = draw_view<N>(e);
    RC_LOG() << show(v) << "\n";
    std::vector<int> memory;
    const auto view = make_view(v, memory);
    const auto lengths = window_lengths<N>(e);
    for (index_t t = 0; t < thread_count(e); ++t) {
      const auto w = make_tile_window(view, lengths, v.origin, e, thread_at(e, t), v.visit);
      auto regs = make_distributed_tensor<int, 4096>(e);
      for (index_t d = 0; d < regs.size(); ++d) regs[d] = value_of(lengths, w.x_of(e.y_of(d)));
      w.store(regs);
    }
    for (index_t t = 0; t < thread_count(e); ++t) {
      const auto w = make_tile_window(view, lengths, v.origin, e, thread_at(e, t), v.visit);
      auto regs = make_distributed_tensor<int, 4096>(e);
      w.load(regs);
      for (index_t d = 0; d < regs.size(); ++d)
        RC_ASSERT(regs[d] == value_of(lengths, w.x_of(e.y_of(d))));
    }
    index_t written = 0;
    for (int m : memory) written += m != 0;
    index_t tile = 1;
    for (int i = 0; i < N; ++i) tile *= lengths[i];
    RC_ASSERT(written == tile);  // exactly the window's elements, nothing outside it
  }
};

template <int N>
struct vectors_contiguous_and_aligned {
  void operator()(const enc& e) const {
    const view_case<N> v = draw_view<N>(e);
    RC_LOG() << show(v) << "\n";
    std::vector<int> memory;
    const auto view = make_view(v, memory);
    for (index_t t = 0; t < thread_count(e); ++t) {
      const auto w = make_tile_window(view, window_lengths<N>(e), v.origin, e, thread_at(e, t), v.visit);
      const index_t s = w.traits.scalars_per_vector;
      RC_ASSERT(s == 1 || v.vector % s == 0);
      w.for_each_access([&](const window_access<N>& a) {
        RC_ASSERT(a.offset % s == 0);
        for (index_t j = 0; j < s; ++j) {
          auto y = a.y;
          y[w.traits.vector_dim_y] += j;
          RC_ASSERT(view.desc.calculate_offset(v.origin + w.x_of(y)) == a.offset + j);
        }
      });
    }
  }
};

template <int N>
struct move_equals_rebuild {
  void operator()(const enc& e) const {
    const view_case<N> v = draw_view<N>(e);
    multi_index<N> step{};
    for (int i = 0; i < N; ++i) step[i] = *gen::inRange<index_t>(-v.origin[i], v.lengths[i] - e.x_length(i) - v.origin[i] + 1);
    RC_LOG() << show(v) << " step " << show_index(step, N) << "\n";
    std::vector<int> memory;
    const auto view = make_view(v, memory);
    for (index_t t = 0; t < thread_count(e); ++t) {
      auto moved = make_tile_window(view, window_lengths<N>(e), v.origin, e, thread_at(e, t), v.visit);
      moved.move(step);
      const auto fresh = make_tile_window(view, window_lengths<N>(e), v.origin + step, e, thread_at(e, t), v.visit);
      std::vector<index_t> a, b;
      moved.for_each_access([&](const window_access<N>& x) { a.push_back(x.offset); });
      fresh.for_each_access([&](const window_access<N>& x) { b.push_back(x.offset); });
      RC_ASSERT(a == b);
    }
  }
};

template <int N>
struct strict_mode_silent_inside {
  void operator()(const enc& e) const {
    const view_case<N> v = draw_view<N>(e);
    RC_LOG() << show(v) << "\n";
    std::vector<int> memory;
    const auto view = make_view(v, memory);
    index_t events = 0;
    auto count = [&](const oob_event<N>&) { ++events; };
    for (index_t t = 0; t < thread_count(e); ++t) {
      const auto w = make_tile_window(view, window_lengths<N>(e), v.origin, e, thread_at(e, t), v.visit);
      auto regs = make_distributed_tensor<int, 4096>(e);
      w.load(regs, count);
      w.store(regs, count);
    }
    RC_ASSERT(events == 0);
  }
};

}  // namespace

TEST_SUITE("window") {
  TEST_CASE("storing f(x) from every thread then loading gives every thread f(x) and writes exactly the window") {
    CHECK(rc::check("store then load through one window is the identity on every thread's data",
                    [] { with_dims<store_then_load>(*gen_encoding()); }));
  }
  TEST_CASE("every vector access covers consecutive, vector-aligned offsets of the view") {
    CHECK(rc::check("vector j-th element offset == first offset + j, first offset % scalars == 0",
                    [] { with_dims<vectors_contiguous_and_aligned>(*gen_encoding()); }));
  }
  TEST_CASE("moving a window by s visits the same offsets as making it at origin + s") {
    CHECK(rc::check("move(make(o), s) == make(o + s)", [] { with_dims<move_equals_rebuild>(*gen_encoding()); }));
  }
  TEST_CASE("strict mode reports nothing for in-range threads of a window inside an unpadded view") {
    CHECK(rc::check("no oob events inside", [] { with_dims<strict_mode_silent_inside>(*gen_encoding()); }));
  }
}
