// tilesim/sim/engine/shared_window.hpp: tile windows over the simulator's buffers, set up once per runner.
//
// DEFINITION. A program makes its tile windows with spec's make_tile_window (spec/window/tile_window.hpp); over a
// view of recording_buffers argument-dependent lookup finds the overload below instead, which returns a
// shared_tile_window: a window that makes the same accesses in the same order as the spec tile_window of the
// same arguments (load, store, update, move, set_origin, origin, x_of, d_of, for_each_access; full() is that
// spec window), with the thread-independent work done once for all the threads a runner simulates
// (window_memo.hpp):
//   setup  the encoding's check, the load/store traits (vector dim, access curve) and the affine form of x_of
//          are made by the first thread that makes a window equal to it (same view type, descriptor bytes,
//          window lengths, encoding and visiting order) and kept in a shared entry; a thread's window holds a
//          pointer to it and only what is its own (buffer handle, P index, x base, origin, first coordinate:
//          a few hundred bytes, not a copy of descriptor and encoding);
//   walk   a load, store or update runs the window's accesses from a table: the offset and pad validity of each
//          access, taken once per start coordinate (the descriptor's hidden index of access 0) and the register
//          index d of each access, taken once per window. Threads whose coordinate walks begin at the same
//          hidden index take the same walk (the moves depend on nothing else), so replicated readers (the
//          GEMM's A fragment: 16 distinct walks for 256 threads) share one. Over an affine descriptor (embed,
//          unmerge and pass_through only: naive and row-major views) access i is at the thread's first offset
//          plus a delta taken once per window, always valid; an entry whose first 64 walks never repeat
//          (every thread starts elsewhere) stops keeping them, and each access walks as spec's does
//          (walk_offsets: the same coordinate moves, on the shared descriptor).
// What a thread records is unchanged: buffer.load / store / add with the same offset, count and validity, in
// curve order; a load or store whose offsets come from a table or the affine form goes to the buffer as one run
// (load_common / store_common: recorded as those calls would be, in one call) unless one access is not a common
// one. Strict mode (a reporter) runs on full(); windows over other buffers are spec's own code.
//
// WHY EQUAL BYTES. Descriptors have no operator==; two descriptors whose object bytes are equal are equal
// values (they hold integers and flags only), so a byte comparison never reuses a wrong entry. Unequal padding
// can only make a lookup miss, which costs a setup, not a result.
//
// EXAMPLE. 256 threads each make_tile_window(a_lds, {64, 32}, {0, 0}, a_frag, partition_index(a_frag, w, l)):
// thread 0 checks a_frag, makes the traits (32 accesses of 4 floats) and the 32 register indices; threads 1-255
// point to them; a_read.load(regs) of thread 0 walks the xor descriptor once and keeps the 32 offsets, thread 8
// (same rows) replays them.
//
// INVARIANTS: a shared_tile_window's accesses equal those of the spec tile_window made from the same arguments
// (tile_window_program.test.cpp and every program's report); a table is used only by a window of its entry.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "sim/engine/recording_buffer.hpp"
#include "sim/engine/thread_context.hpp"
#include "sim/engine/window_memo.hpp"
#include "spec/descriptor.hpp"
#include "spec/transforms/embed.hpp"
#include "spec/transforms/pass_through.hpp"
#include "spec/transforms/unmerge.hpp"
#include "spec/window/tile_window.hpp"

namespace tilesim::sim {

namespace detail {

// Transforms whose lower index is a fixed linear function of the upper one, moves included (an offset is
// then base + a fixed delta per access), and which are always valid.
template <class T>
inline constexpr bool affine_transform = false;
template <int N>
inline constexpr bool affine_transform<embed<N>> = true;
template <int N>
inline constexpr bool affine_transform<unmerge<N>> = true;
template <>
inline constexpr bool affine_transform<pass_through> = true;
// A descriptor made of affine transforms only (naive and row-major ones): offset(top) = c + L . top, all valid.
template <class D>
inline constexpr bool affine_descriptor = false;
template <int N, class... Ts>
inline constexpr bool affine_descriptor<descriptor<N, Ts...>> = (affine_transform<Ts> && ...);

// Hash of a hidden index (FNV-style over its integers).
template <int N>
struct hidden_hash {
  std::size_t operator()(const multi_index<N>& h) const {
    std::size_t r = 1469598103934665603ull;
    for (int i = 0; i < N; ++i) r = (r ^ static_cast<std::size_t>(h[i])) * 1099511628211ull;
    return r;
  }
};

// The shared setup of one window: a prototype tile_window (no buffer, no thread), the register index of each
// access, and the walks taken so far by start coordinate.
template <class View>
struct shared_window_entry : window_memo::entry {
  using hidden_type = multi_index<View::descriptor_type::n_hidden>;
  static constexpr std::size_t max_walks = 4096;  // walks kept per entry before they are dropped
  static constexpr std::size_t trial_walks = 64;  // walks taken before an entry whose walks never repeat stops keeping them

  static const void* type_tag() {
    static const char tag = 0;
    return &tag;
  }

  // Affine descriptors need no table per start: access i is at first_.offset() + delta[i], always valid.
  static constexpr bool affine = affine_descriptor<typename View::descriptor_type>;

  tile_window<View> proto;
  access_order visit = access_order::linear;
  index_t elements = 0;             // encoding.elements_per_thread()
  multi_index<tile_distribution_encoding::max_y> y0{};  // traits.first_y(0)
  std::vector<index_t> d;           // per access: d_of(y) of its first element
  std::vector<index_t> delta;       // affine: per access, its offset less access 0's
  std::unordered_map<hidden_type, std::size_t, hidden_hash<View::descriptor_type::n_hidden>> walks;  // -> first slot
  std::vector<index_t> offsets;     // per walk, num_access offsets
  std::vector<unsigned char> valid;  // per walk, num_access pad validities
  std::size_t taken = 0, reused = 0;  // walks taken and found so far
  std::size_t generation = 0;         // how many times the walks were dropped (a window's cached slot is stale)

  // Whether walks are worth keeping: not when the first trial_walks never met a start coordinate twice (each
  // thread of a global copy window starts elsewhere; its walk is then spec's, not a table's).
  bool sharing() const { return reused > 0 || taken < trial_walks; }

  // The entry of a window made from these arguments (spec's make_tile_window checks everything; its setup,
  // without buffer and thread, becomes the prototype).
  static std::unique_ptr<shared_window_entry> make(const View& view, const multi_index<View::n_dim>& lengths,
                                                   const multi_index<View::n_dim>& origin,
                                                   const tile_distribution_encoding& e,
                                                   const multi_index<tile_distribution_encoding::max_p>& thread,
                                                   access_order order) {
    auto made = std::make_unique<shared_window_entry>();
    made->tag = type_tag();
    made->proto = tilesim::make_tile_window(view, lengths, origin, e, thread, order);
    made->proto.view.buffer = typename View::buffer_type{};
    made->proto.thread = {};
    made->visit = order;
    made->elements = e.elements_per_thread();
    made->y0 = made->proto.traits.first_y(0);
    made->d.reserve(static_cast<std::size_t>(made->proto.traits.num_access));
    made->proto.for_each_access([&](const window_access<View::n_dim>& a) {
      made->d.push_back(made->proto.d_of(a.y));
      made->delta.push_back(a.offset - made->proto.first_.offset());
    });
    return made;
  }

  // Whether a window made from these arguments has this entry's setup.
  bool matches(const View& view, const multi_index<View::n_dim>& lengths, const tile_distribution_encoding& e,
               access_order order) const {
    return order == visit && proto.lengths == lengths && proto.view.space == view.space && same_encoding(e) &&
           std::memcmp(&proto.view.desc, &view.desc, sizeof(view.desc)) == 0;
  }
  // proto.encoding == e: equal bytes, or (padding aside) equal fields; a differing Y or count rules it out
  // before the field-wise comparison.
  bool same_encoding(const tile_distribution_encoding& e) const {
    const tile_distribution_encoding& a = proto.encoding;
    if (std::memcmp(&a, &e, sizeof(e)) == 0) return true;
    if (a.n_r != e.n_r || a.n_x != e.n_x || a.n_p != e.n_p || a.n_y != e.n_y) return false;
    for (int j = 0; j < tile_distribution_encoding::max_y; ++j)
      if (!(a.y[j] == e.y[j])) return false;
    return a == e;
  }

  // The first slot of the walk that starts at `first`, taken now through walk_from(f) if the start is new.
  template <class Walker>
  std::size_t walk(const typename tile_window<View>::coordinate_type& first, const Walker& walk_from) {
    auto found = walks.find(first.hidden);
    if (found != walks.end()) {
      ++reused;
      return found->second;
    }
    ++taken;
    if (walks.size() >= max_walks) {
      walks.clear();
      offsets.clear();
      valid.clear();
      ++generation;
    }
    const std::size_t slot = offsets.size();
    walk_from([&](index_t, index_t offset, bool ok) {
      offsets.push_back(offset);
      valid.push_back(ok ? 1 : 0);
    });
    walks.emplace(first.hidden, slot);
    return slot;
  }
};

}  // namespace detail

// One thread's tile window over a view of recording buffers: what depends on the thread (its buffer handle, P
// index, x base, origin and first coordinate) and a pointer to the shared entry (descriptor, encoding, traits,
// strides, tables), a few hundred bytes instead of a spec window's copy of all of it (fewer cold cache lines
// when 256 fibers take turns). It does what tile_window<View> does; full() is that spec window, for strict mode
// and for code that wants one.
template <class View>
struct shared_tile_window {
  using spec_window = tile_window<View>;
  using entry_type = detail::shared_window_entry<View>;
  using value_type = typename View::value_type;
  using coordinate_type = typename spec_window::coordinate_type;
  static constexpr int n_dim = View::n_dim;
  static constexpr int max_y = spec_window::max_y;
  static constexpr int max_p = spec_window::max_p;
  static constexpr index_t max_vector = spec_window::max_vector;

  entry_type* shared = nullptr;        // the runner's entry, or own's
  std::shared_ptr<entry_type> own;     // a window over a buffer no context recorded: an entry of its own
  typename View::buffer_type buffer;   // this thread's handle
  multi_index<max_p> thread{};
  multi_index<n_dim> x_base_{};
  multi_index<n_dim> origin_{};
  coordinate_type first_{};            // the view coordinate of access 0's first element
  // The slot of this window's walk in its entry, while first_ and the entry's generation are unchanged (an LDS
  // window that does not move is loaded once per step: one lookup, not one per step).
  mutable std::size_t walk_slot_ = 0;
  mutable std::size_t walk_generation_ = ~std::size_t{0};

  TILESIM_HOST_DEVICE const multi_index<n_dim>& origin() const { return origin_; }
  // The view's descriptor (the same bytes in every thread's view).
  const typename View::descriptor_type& desc() const { return shared->proto.view.desc; }

  // encoding.x_of(thread, y), from the prototype's affine form and this thread's x base.
  multi_index<n_dim> x_of(const multi_index<max_y>& y) const {
    const spec_window& p = shared->proto;
    multi_index<n_dim> x{};
    for (int i = 0; i < n_dim; ++i) {
      index_t sum = x_base_[i];
      for (int j = 0; j < p.encoding.n_y; ++j) sum += p.y_dim_[j] == i ? y[j] * p.y_stride_[j] : 0;
      x[i] = sum;
    }
    return x;
  }
  // encoding.d_of(y) (the same in every thread).
  index_t d_of(const multi_index<max_y>& y) const { return shared->proto.d_of(y); }

  // Recomputes the first coordinate for a new origin (tile_window::set_origin).
  void set_origin(const multi_index<n_dim>& origin) {
    walk_generation_ = ~std::size_t{0};
    origin_ = origin;
    first_ = desc().make_coordinate(origin_ + x_of(shared->y0));
  }
  // Moves the window by `step` (tile_window::move: only the coordinate moves).
  void move(const multi_index<n_dim>& step) {
    walk_generation_ = ~std::size_t{0};
    origin_ += step;
    desc().move(first_, step);
  }

  // The spec window this one stands for: the prototype with this thread's buffer, P index, base and origin.
  spec_window full() const {
    spec_window w = shared->proto;
    w.view.buffer = buffer;
    w.thread = thread;
    w.x_base_ = x_base_;
    w.origin_ = origin_;
    w.first_ = first_;
    return w;
  }
  operator spec_window() const { return full(); }

  // f(i, offset, valid) for each access in curve order: tile_window::for_each_access's walk (one coordinate moved
  // from access to access, the curve taken digit by digit), on the shared descriptor and traits.
  template <class F>
  void walk_offsets(F&& f) const {
    const spec_window& p = shared->proto;
    coordinate_type c = first_;
    const multi_index<max_y> grid = p.traits.curve.grid();
    multi_index<max_y> digit{};
    multi_index<n_dim> x = x_of(shared->y0);
    for (index_t i = 0; i < p.traits.num_access; ++i) {
      f(i, c.offset(), desc().is_valid(c));
      if (i + 1 == p.traits.num_access) break;
      p.traits.curve.next_digits(grid, digit);
      const multi_index<n_dim> next_x = x_of(p.traits.curve.y_of_digits(grid, digit));
      desc().move(c, next_x - x);
      x = next_x;
    }
  }

  // The slot of this window's walk in the entry's tables (looked up, or taken, once per start and generation).
  std::size_t walk_slot() const {
    if (walk_generation_ != shared->generation) {
      walk_slot_ = shared->walk(first_, [&](auto&& f) { walk_offsets(f); });
      walk_generation_ = shared->generation;  // after walk(): a walk that dropped the tables counts the new ones
    }
    return walk_slot_;
  }

  // tile_window::for_each_access, on the spec window.
  template <class F>
  void for_each_access(F&& f) const {
    full().for_each_access(f);
  }

  // Loads this thread's elements into dst, as tile_window::load (CK semantics); every access is at the caller's line.
  template <class T, index_t C>
  void load(distributed_tensor<T, C>& dst, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    require_room(dst);
    const guard_mark mark(*this);
    const access_site site{file, line};
    const spec_window& p = shared->proto;
    std::memcpy(&dst.encoding, &p.encoding, sizeof(dst.encoding));
    const index_t n = p.traits.scalars_per_vector, stride = p.vector_d_stride_;
    value_type vec[max_vector];
    // Access i: straight into the registers when they are consecutive and of the buffer's type (no staging
    // copy, whose 16-byte read of four 4-byte stores would stall on store forwarding), else through vec.
    auto get = [&](index_t i, index_t offset, bool valid) {
      const index_t d = shared->d[static_cast<std::size_t>(i)];
      if constexpr (std::is_same_v<T, value_type>) {
        if (stride == 1) return buffer.load(offset, n, &dst[d], valid, file, line);
      }
      buffer.load(offset, n, vec, valid, file, line);
      for (index_t j = 0; j < n; ++j) dst[d + j * stride] = static_cast<T>(vec[j]);
    };
    // All accesses recorded at once: vector i's elements read where they lie.
    auto take = [&](std::size_t i, const value_type* from) {
      const index_t d = shared->d[i];
      for (index_t j = 0; j < n; ++j) dst[d + j * stride] = static_cast<T>(from[j]);
    };
    each_access(
        [&](index_t base, std::span<const index_t> offsets, std::span<const unsigned char> valid) {
          return buffer.load_common(base, offsets, n, valid, take, site);
        },
        get);
  }
  // Strict mode: spec's walk.
  template <class T, index_t C, class Report>
  void load(distributed_tensor<T, C>& dst, Report&& report) const {
    full().load(dst, report);
  }

  // Stores this thread's elements from src, as tile_window::store.
  template <class T, index_t C>
  void store(const distributed_tensor<T, C>& src, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    write(src, memory_op::store, {file, line});
  }
  template <class T, index_t C, class Report>
  void store(const distributed_tensor<T, C>& src, Report&& report) const {
    full().store(src, report);
  }
  // Adds src into memory, as tile_window::update.
  template <class T, index_t C>
  void update(const distributed_tensor<T, C>& src, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    write(src, memory_op::update, {file, line});
  }
  template <class T, index_t C, class Report>
  void update(const distributed_tensor<T, C>& src, Report&& report) const {
    full().update(src, report);
  }

 private:
  // Through a descriptor with a pad the kernel checks each access's guard at run time: a load or store marks its
  // accesses so (lane_access::guarded) for the timing model while it runs.
  struct guard_mark {
    access_recorder* recorder;
    explicit guard_mark(const shared_tile_window& w)
        : recorder(View::descriptor_type::may_be_invalid ? w.buffer.recorder() : nullptr) {
      if (recorder) recorder->guarded(true);
    }
    guard_mark(const guard_mark&) = delete;
    guard_mark& operator=(const guard_mark&) = delete;
    ~guard_mark() {
      if (recorder) recorder->guarded(false);
    }
  };

  // tile_window's capacity rule, with its message.
  template <class T, index_t C>
  void require_room(const distributed_tensor<T, C>&) const {
    require(broken_unless(shared->elements <= C, rule::distributed_tensor_too_small, "tile_window",
                          {"elements per thread", shared->elements}, {"capacity", C}));
  }

  template <class T, index_t C>
  void write(const distributed_tensor<T, C>& src, memory_op op, access_site site) const {
    require_room(src);
    const guard_mark mark(*this);
    const spec_window& p = shared->proto;
    const index_t n = p.traits.scalars_per_vector, stride = p.vector_d_stride_;
    value_type vec[max_vector];
    auto put = [&](index_t i, index_t offset, bool valid) {
      const index_t d = shared->d[static_cast<std::size_t>(i)];
      const value_type* from = vec;
      if constexpr (std::is_same_v<T, value_type>) {
        if (stride == 1) from = &src[d];  // consecutive registers of the buffer's type: no staging copy
      }
      if (from == vec)
        for (index_t j = 0; j < n; ++j) vec[j] = static_cast<value_type>(src[d + j * stride]);
      if (op == memory_op::store)
        buffer.store(offset, n, from, valid, site.file, site.line);
      else
        buffer.add(offset, n, from, valid, site.file, site.line);
    };
    // All stores recorded at once: vector i's elements written where they go.
    auto put_in_place = [&](std::size_t i, value_type* to) {
      const index_t d = shared->d[i];
      for (index_t j = 0; j < n; ++j) to[j] = static_cast<value_type>(src[d + j * stride]);
    };
    each_access(
        [&](index_t base, std::span<const index_t> offsets, std::span<const unsigned char> valid) {
          return op == memory_op::store && buffer.store_common(base, offsets, n, valid, put_in_place, site);
        },
        put);
  }

  // Runs the window's accesses in curve order: all at once through all(base, offsets, valid) (access i at element
  // base + offsets[i], valid when valid is empty or valid[i] != 0) where the table or the affine form knows them in
  // advance and `all` takes them (returns true), else one by one through each(i, offset, valid).
  template <class All, class Each>
  void each_access(All&& all, Each&& each) const {
    const auto count = static_cast<std::size_t>(shared->proto.traits.num_access);
    if constexpr (entry_type::affine) {
      const index_t first = first_.offset();
      if (all(first, std::span<const index_t>(shared->delta), std::span<const unsigned char>{})) return;
      for (std::size_t i = 0; i < count; ++i) each(static_cast<index_t>(i), first + shared->delta[i], true);
    } else if (!shared->sharing()) {
      walk_offsets(each);
    } else {
      const std::size_t slot = walk_slot();
      const std::span<const index_t> offsets(shared->offsets.data() + slot, count);
      const std::span<const unsigned char> valid(shared->valid.data() + slot, count);
      if (all(index_t{0}, offsets, valid)) return;
      for (std::size_t i = 0; i < count; ++i) each(static_cast<index_t>(i), offsets[i], valid[i] != 0);
    }
  }
};

// make_tile_window over a view of recording buffers (found by argument-dependent lookup): spec's window, its
// setup shared with the runner's other threads (see the essay). Throws what spec's make_tile_window throws.
template <class Desc, class T>
shared_tile_window<tensor_view<Desc, recording_buffer<T>>> make_tile_window(
    const tensor_view<Desc, recording_buffer<T>>& view, const multi_index<Desc::n_top>& lengths,
    const multi_index<Desc::n_top>& origin, const tile_distribution_encoding& e,
    const multi_index<tile_distribution_encoding::max_p>& thread, access_order visit = access_order::linear) {
  using View = tensor_view<Desc, recording_buffer<T>>;
  using entry_type = detail::shared_window_entry<View>;
  shared_tile_window<View> w;
  auto* ctx = static_cast<thread_context*>(view.buffer.recorder());
  if (!ctx) {
    w.own = entry_type::make(view, lengths, origin, e, thread, visit);
    w.shared = w.own.get();
  } else {
    detail::window_memo& memo = ctx->window_memo();
    for (const auto& candidate : memo.entries) {
      if (candidate->tag != entry_type::type_tag()) continue;
      auto* typed = static_cast<entry_type*>(candidate.get());
      if (typed->matches(view, lengths, e, visit)) {
        w.shared = typed;
        break;
      }
    }
    if (!w.shared) {
      memo.entries.push_back(entry_type::make(view, lengths, origin, e, thread, visit));
      w.shared = static_cast<entry_type*>(memo.entries.back().get());
    }
  }
  w.buffer = view.buffer;
  w.thread = thread;
  const auto base = e.x_of(thread, multi_index<tile_distribution_encoding::max_y>{});
  for (int i = 0; i < View::n_dim; ++i) w.x_base_[i] = base[i];
  w.set_origin(origin);
  return w;
}

}  // namespace tilesim::sim
