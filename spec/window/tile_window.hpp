// tilesim/spec/window/tile_window.hpp: one thread's view of a distributed tile of a tensor.
//
// DEFINITION (CK's tile_window_with_static_distribution). A window is a view, window lengths, an origin (a
// top index of the view) and an encoding whose X lengths are the window lengths. Thread p (its partition
// index: {warp, lane} with 2 P dims, {lane} with 1) holds the elements at top = origin + x_of(p, y). Loads and
// stores run load_store_traits' accesses in curve order: access i covers scalars_per_vector elements along the
// vector Y dim, read or written as one contiguous vector at the offset of its first element. The bottom
// coordinate is walked as in CK: made once for access 0, then moved by x_of(p, y_{i+1}) - x_of(p, y_i).
//
// OUT OF BOUNDS. The default is CK's: validity comes only from pad transforms (descriptor::is_valid), checked
// once per vector at its first element; an invalid vector loads zeros and is not stored. Window and tensor
// bounds are not checked, so a row-major column past the end wraps into the next row. Only the buffer range
// protects memory (reads outside it give 0, writes are dropped, as AMD buffer instructions do; on LDS the GPU
// would alias other data instead). Strict mode (load/store/update with a reporter) does the same accesses and
// reports every element that is outside the window, outside the tensor's lengths, outside the buffer, or whose
// pad validity differs from its vector's first element (a silently wrong value), with thread, y and coordinate.
// It also names every element where the default follows CK into a mistake or tilesim keeps a deliberate
// difference from CK: accessed past the unchecked side of a one-sided pad (unchecked_pad_side), at a
// coordinate where CK's integer arithmetic differs (ck_index_differs: a negative index into merge, modulo,
// xor_t or a cyclic shift), or in a window CK would vectorize otherwise (vector_differs).
//
// WORKED EXAMPLE (the docs' 4x4, origin (1, 3), over a 8x8 row-major view with a {4, 1} guarantee on dim 1):
//   traits: vector along Y1, 2 scalars, 2 accesses. Thread (warp 1, lane 1): x_of = (2+y0, 2+y1), so
//   access 0 reads top (3,5),(3,6) = offsets 29, 30; access 1 reads (4,5),(4,6) = offsets 37, 38.
//
// INVARIANTS (props/window.props.cpp): moving a window by s equals making it at origin + s; storing then
// loading through one window returns every thread's data; every vector covers consecutive offsets.
#pragma once

#include "spec/distribution/distributed_tensor.hpp"
#include "spec/window/load_store_traits.hpp"
#include "spec/window/tensor_view.hpp"

namespace tilesim {

// The P index of a hardware thread: {warp, lane} for 2 P dims, {lane} for 1 (CK's get_partition_index).
TILESIM_HOST_DEVICE constexpr multi_index<tile_distribution_encoding::max_p> partition_index(
    const tile_distribution_encoding& e, index_t warp, index_t lane) {
  multi_index<tile_distribution_encoding::max_p> p{};
  if (e.n_p == 2) {
    p[0] = warp;
    p[1] = lane;
  } else {
    p[0] = lane;
  }
  return p;
}

// What strict mode found wrong with one element of an access.
enum class oob_kind {
  outside_window,    // x is not inside the window lengths (e.g. an extra, unmasked lane)
  outside_tensor,    // the top index is not inside the view's lengths (CK does not check; offsets wrap)
  outside_buffer,    // the element's offset is not inside the buffer: the GPU returns 0 / drops (global) or aliases (LDS)
  validity_differs,  // its pad validity differs from its vector's first element: it is loaded or stored anyway, or skipped
  // Where the default follows CK although CK is wrong, or tilesim keeps a deliberate difference (docs/programming-guide.md,
  // "Where CK Tile misbehaves"):
  unchecked_pad_side,  // accessed through a one-sided pad on the side CK does not check: outside the padded dim
  ck_index_differs,    // CK's truncating or magic-number arithmetic (merge, modulo, xor, cyclic shift fed a
                       // negative index) computes another offset for it than tilesim's exact arithmetic
  vector_differs,      // CK's vector rules (descriptor::ck_top_vectors) vectorize this window otherwise: CK
                       // issues other instructions for it (wider ones through xor, merge, pads: wrong data)
};

enum class memory_op { load, store, update };

// Host-readable names: oob_kind_name(oob_kind::outside_buffer) == "outside the buffer".
TILESIM_HOST_DEVICE constexpr const char* oob_kind_name(oob_kind k) {
  switch (k) {
    case oob_kind::outside_window: return "outside the window";
    case oob_kind::outside_tensor: return "outside the tensor";
    case oob_kind::outside_buffer: return "outside the buffer";
    case oob_kind::validity_differs: return "pad validity differs from its vector's first element";
    case oob_kind::unchecked_pad_side: return "past the unchecked side of a one-sided pad";
    case oob_kind::ck_index_differs: return "CK's integer arithmetic gives another index";
    case oob_kind::vector_differs: return "CK's vector rules give another vector width";
  }
  return "?";
}

// One reported element. `x` is window-relative, `top` the view's index, `offset` where the vector put it.
template <int N>
struct oob_event {
  oob_kind kind;
  memory_op op;
  address_space space;
  multi_index<tile_distribution_encoding::max_p> thread;
  multi_index<tile_distribution_encoding::max_y> y;
  multi_index<N> x;
  multi_index<N> top;
  index_t offset;
};

// One vector access of a thread: its number in curve order, its first element's y, top index and offset, and
// the pad validity that decides whether it happens.
template <int N>
struct window_access {
  index_t index;
  multi_index<tile_distribution_encoding::max_y> y;
  multi_index<N> top;
  index_t offset;
  bool valid;
};

// Ignores strict-mode events: the CK default.
struct no_oob_check {
  template <class Event>
  TILESIM_HOST_DEVICE constexpr void operator()(const Event&) const {}
};

template <class View>
struct tile_window {
  static constexpr int n_dim = View::n_dim;
  static constexpr int max_y = tile_distribution_encoding::max_y;
  static constexpr int max_p = tile_distribution_encoding::max_p;
  static constexpr index_t max_vector = 64;  // elements in one vector access (checked by make_tile_window)
  using value_type = typename View::value_type;
  using coordinate_type = typename View::descriptor_type::coordinate_type;

  View view;
  multi_index<n_dim> lengths;
  tile_distribution_encoding encoding;
  load_store_traits traits;
  multi_index<max_p> thread;  // this thread's P index
  multi_index<n_dim> origin_;
  coordinate_type first_;     // the view coordinate of access 0's first element
  // x_of(thread, y) is affine in y: x_base_ + Σ_j y_j * y_stride_[j] along X dim y_dim_[j] (made once per window).
  multi_index<n_dim> x_base_;
  index_t y_stride_[max_y];
  int y_dim_[max_y];
  index_t vector_d_stride_;  // register distance between consecutive elements of one vector: d_of(e_{vector dim})
  index_t y_d_stride_[max_y];  // d_of(y) = Σ_j y_j * y_d_stride_[j] (row-major over the Y lengths)

  TILESIM_HOST_DEVICE constexpr const multi_index<n_dim>& origin() const { return origin_; }

  // Window-relative x of this thread's element y: encoding.x_of(thread, y), from the affine form (summed per X
  // dim in a register: adding into x[y_dim_[j]] stalls on store forwarding when x is read back as a whole).
  TILESIM_HOST_DEVICE constexpr multi_index<n_dim> x_of(const multi_index<max_y>& y) const {
    multi_index<n_dim> x{};
    for (int i = 0; i < n_dim; ++i) {
      index_t sum = x_base_[i];
      for (int j = 0; j < encoding.n_y; ++j) sum += y_dim_[j] == i ? y[j] * y_stride_[j] : 0;
      x[i] = sum;
    }
    return x;
  }
  // The register index of element y: encoding.d_of(y), from the strides made once per window.
  TILESIM_HOST_DEVICE constexpr index_t d_of(const multi_index<max_y>& y) const {
    index_t d = 0;
    for (int j = 0; j < encoding.n_y; ++j) d += y[j] * y_d_stride_[j];
    return d;
  }

  // Fills the affine form of x_of for this thread (each Y is one H component: its stride is the product of
  // the H lengths after it in its X dim).
  TILESIM_HOST_DEVICE constexpr void prepare_x_of() {
    const auto base = encoding.x_of(thread, multi_index<max_y>{});
    for (int i = 0; i < n_dim; ++i) x_base_[i] = base[i];
    for (int j = 0; j < encoding.n_y; ++j) {
      const rh c = encoding.y[j];
      y_dim_[j] = c.major - 1;
      y_stride_[j] = 1;
      for (int k = c.minor + 1; k < encoding.n_h[c.major - 1]; ++k) y_stride_[j] *= encoding.h[c.major - 1][k];
    }
    multi_index<max_y> unit{};
    unit[traits.vector_dim_y] = 1;
    vector_d_stride_ = encoding.n_y > 0 ? encoding.d_of(unit) : 0;
    index_t after = 1;  // Π of the Y lengths after j
    for (int j = encoding.n_y - 1; j >= 0; --j) {
      y_d_stride_[j] = after;
      after *= encoding.y_length(j);
    }
  }

  // Recomputes everything for a new origin (CK's set_window_origin).
  TILESIM_HOST_DEVICE constexpr void set_origin(const multi_index<n_dim>& origin) {
    origin_ = origin;
    first_ = view.desc.make_coordinate(origin_ + x_of(traits.first_y(0)));
  }
  // Moves the window by `step`: only the view coordinate moves (CK's move_tile_window).
  TILESIM_HOST_DEVICE constexpr void move(const multi_index<n_dim>& step) {
    origin_ += step;
    view.desc.move(first_, step);
  }

  // Calls f(window_access) for each access in curve order, walking one coordinate as CK does (and the curve
  // digit by digit: y of access i + 1 is traits.first_y(i + 1) without its divisions).
  template <class F>
  TILESIM_HOST_DEVICE constexpr void for_each_access(F&& f) const {
    coordinate_type c = first_;
    const multi_index<max_y> grid = traits.curve.grid();
    multi_index<max_y> digit{};
    multi_index<max_y> y = traits.first_y(0);
    multi_index<n_dim> x = x_of(y);
    for (index_t i = 0; i < traits.num_access; ++i) {
      f(window_access<n_dim>{i, y, origin_ + x, c.offset(), view.desc.is_valid(c)});
      if (i + 1 == traits.num_access) break;
      traits.curve.next_digits(grid, digit);
      const multi_index<max_y> next_y = traits.curve.y_of_digits(grid, digit);
      const multi_index<n_dim> next_x = x_of(next_y);
      view.desc.move(c, next_x - x);
      y = next_y;
      x = next_x;
    }
  }

  // Loads this thread's elements into dst (which takes the window's encoding). CK semantics.
  template <class T, index_t C>
  TILESIM_HOST_DEVICE constexpr void load(distributed_tensor<T, C>& dst) const {
    load(dst, no_oob_check{});
  }
  // Loads, reporting every stray element to report(oob_event) (strict mode).
  template <class T, index_t C, class Report>
  TILESIM_HOST_DEVICE constexpr void load(distributed_tensor<T, C>& dst, Report&& report) const {
    refuse_in_device_code<T>();
    require_room(dst);
    dst.encoding = encoding;
    strict_walk<Report> walk{};
    for_each_access([&](const window_access<n_dim>& a) {
      value_type vec[max_vector];
      view.buffer.load(a.offset, traits.scalars_per_vector, vec, a.valid);
      const index_t d = d_of(a.y);
      for (index_t j = 0; j < traits.scalars_per_vector; ++j) dst[d + j * vector_d_stride_] = static_cast<T>(vec[j]);
      check_vector(a, memory_op::load, walk, report);
    });
  }

  // Stores this thread's elements from src (read in the window encoding's register order d); invalid vectors
  // are skipped. CK semantics.
  template <class T, index_t C>
  TILESIM_HOST_DEVICE constexpr void store(const distributed_tensor<T, C>& src) const {
    store(src, no_oob_check{});
  }
  template <class T, index_t C, class Report>
  TILESIM_HOST_DEVICE constexpr void store(const distributed_tensor<T, C>& src, Report&& report) const {
    write(src, memory_op::store, report);
  }
  // Adds src into memory (CK's update with DstInMemOp add).
  template <class T, index_t C>
  TILESIM_HOST_DEVICE constexpr void update(const distributed_tensor<T, C>& src) const {
    update(src, no_oob_check{});
  }
  template <class T, index_t C, class Report>
  TILESIM_HOST_DEVICE constexpr void update(const distributed_tensor<T, C>& src, Report&& report) const {
    write(src, memory_op::update, report);
  }

 private:
  // This window's structure is run-time data (its encoding, trip counts, register subscripts are members), which a
  // GPU keeps in local memory and calls through (docs/design/zero-overhead-device-code.md, R1-R3: kilobytes of
  // stack): in device code its accesses are refused at compile time, naming the form that compiles to plain code.
  template <class T>
  TILESIM_HOST_DEVICE static constexpr void refuse_in_device_code() {
#if TILESIM_DEVICE_PASS
    static_assert(sizeof(T) == 0,
                  "tile_window: a window made from a run-time tile_distribution_encoding is refused in device code "
                  "(its loops and registers would live in local memory); make it from a compile-time encoding, "
                  "make_tile_window(view, lengths, origin, constant<E>{}, thread), which gives a static_tile_window, "
                  "over a view of constant<descriptor>{} (docs/programming-guide.md: run-time forms on a GPU)");
#endif
  }

  // Strict mode's memory of one load's or store's walk: the previous access's coordinate and, per hidden dim,
  // the last non-zero step a move gave it (what CK's modulo moves get wrong). Empty without a reporter.
  struct walk_record {
    coordinate_type previous{};
    multi_index<View::descriptor_type::n_hidden> last_step{};
  };
  struct no_walk_record {};
  template <class Report>
  using strict_walk =
      std::conditional_t<std::is_same_v<std::remove_cvref_t<Report>, no_oob_check>, no_walk_record, walk_record>;

  TILESIM_HOST_DEVICE constexpr multi_index<max_y> element_y(multi_index<max_y> y, index_t j) const {
    y[traits.vector_dim_y] += j;
    return y;
  }

  template <class T, index_t C>
  TILESIM_HOST_DEVICE constexpr void require_room(const distributed_tensor<T, C>&) const {
    require(broken_unless(encoding.elements_per_thread() <= C, rule::distributed_tensor_too_small, "tile_window",
                          {"elements per thread", encoding.elements_per_thread()}, {"capacity", C}));
  }

  template <class T, index_t C, class Report>
  TILESIM_HOST_DEVICE constexpr void write(const distributed_tensor<T, C>& src, memory_op op, Report& report) const {
    refuse_in_device_code<T>();
    require_room(src);
    strict_walk<Report> walk{};
    for_each_access([&](const window_access<n_dim>& a) {
      value_type vec[max_vector];
      const index_t d = d_of(a.y);
      for (index_t j = 0; j < traits.scalars_per_vector; ++j) vec[j] = static_cast<value_type>(src[d + j * vector_d_stride_]);
      check_vector(a, op, walk, report);
      if (op == memory_op::store)
        view.buffer.store(a.offset, traits.scalars_per_vector, vec, a.valid);
      else
        view.buffer.add(a.offset, traits.scalars_per_vector, vec, a.valid);
    });
  }

  // Strict mode: what holds for every element of one access.
  struct element_flags {
    bool vector_differs;        // CK's vector rules choose another vector Y or width for this window
    bool moved_elsewhere_in_ck;  // CK's moves on the way here (modulo's doubled step) left its offset elsewhere
  };

  // Strict mode: the checks of every element of access a (nothing at all for no_oob_check).
  template <class Walk, class Report>
  TILESIM_HOST_DEVICE constexpr void check_vector(const window_access<n_dim>& a, memory_op op, Walk& walk,
                                                  Report& report) const {
    if constexpr (!std::is_same_v<std::remove_cvref_t<Report>, no_oob_check>) {
      // The walk so far: access a's coordinate is the previous one moved (move == make), so the hidden
      // difference is the step CK's move gave each hidden dim.
      const coordinate_type c = view.desc.make_coordinate(a.top);
      if (a.index > 0)
        for (int k = 0; k < walk.last_step.size(); ++k)
          if (c.hidden[k] != walk.previous.hidden[k]) walk.last_step[k] = c.hidden[k] - walk.previous.hidden[k];
      walk.previous = c;
      const element_flags f{!(choose_vector(encoding, view.desc.ck_top_vectors()) ==
                              vector_choice{traits.vector_dim_y, traits.scalars_per_vector}),
                            a.valid && view.desc.ck_moves_differ(c, walk.last_step)};
      for (index_t j = 0; j < traits.scalars_per_vector; ++j) check_element(a, j, element_y(a.y, j), op, f, report);
    }
  }

  // Strict mode: the checks of element j of access a.
  template <class Report>
  TILESIM_HOST_DEVICE constexpr void check_element(const window_access<n_dim>& a, index_t j, const multi_index<max_y>& y,
                                                   memory_op op, element_flags f, Report& report) const {
    if constexpr (!std::is_same_v<std::remove_cvref_t<Report>, no_oob_check>) {
      const multi_index<n_dim> x = x_of(y), top = origin_ + x, view_lengths = view.desc.lengths();
      const index_t offset = a.offset + j;
      auto emit = [&](oob_kind k) { report(oob_event<n_dim>{k, op, view.space, thread, y, x, top, offset}); };
      bool in_window = true, in_tensor = true;
      for (int i = 0; i < n_dim; ++i) {
        in_window = in_window && x[i] >= 0 && x[i] < lengths[i];
        in_tensor = in_tensor && top[i] >= 0 && top[i] < view_lengths[i];
      }
      if (!in_window) emit(oob_kind::outside_window);
      if (!in_tensor) emit(oob_kind::outside_tensor);
      if (a.valid && (offset < 0 || offset >= view.buffer.size())) emit(oob_kind::outside_buffer);
      const coordinate_type c = view.desc.make_coordinate(top);
      if (view.desc.is_valid(c) != a.valid) emit(oob_kind::validity_differs);
      if (a.valid && view.desc.beyond_unchecked_pad_side(c)) emit(oob_kind::unchecked_pad_side);
      if (a.valid && (f.moved_elsewhere_in_ck || view.desc.ck_index_differs(c))) emit(oob_kind::ck_index_differs);
      if (f.vector_differs) emit(oob_kind::vector_differs);
    }
  }
};

// A window of `lengths` at `origin` of `view`, laid out by `e`, for the thread with P index `thread`
// (partition_index(e, warp, lane)). Throws when the view's dims, the lengths and e's X lengths disagree.
template <class View>
TILESIM_HOST_DEVICE constexpr tile_window<View> make_tile_window(
    const View& view, const multi_index<View::n_dim>& lengths, const multi_index<View::n_dim>& origin,
    const tile_distribution_encoding& e, const multi_index<tile_distribution_encoding::max_p>& thread,
    access_order visit = access_order::linear) {
  constexpr int n = View::n_dim;
  require(e.check());
  require(broken_unless(e.n_x == n, rule::window_shape_mismatch, "tile_window", {"view dims", n}, {"encoding X dims", e.n_x}));
  for (int i = 0; i < n; ++i)
    require(broken_unless(e.x_length(i) == lengths[i], rule::window_shape_mismatch, "tile_window", {"dim", i},
                          {"window length", lengths[i]}, {"encoding X length", e.x_length(i)}));
  tile_window<View> w{view, lengths, e, make_load_store_traits(e, view.desc.top_vectors(), visit), thread, {}, {}, {}, {}, {}, 0, {}};
  w.prepare_x_of();
  require(broken_unless(w.traits.scalars_per_vector <= tile_window<View>::max_vector, rule::window_vector_too_long,
                        "tile_window", {"scalars per vector", w.traits.scalars_per_vector},
                        {"limit", tile_window<View>::max_vector}));
  w.set_origin(origin);
  return w;
}

}  // namespace tilesim
