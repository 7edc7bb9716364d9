// tilesim/sim/engine/shared_window.hpp: tile windows over the simulator's buffers, set up once per runner.
//
// DEFINITION. A program makes its tile windows with spec's make_tile_window (spec/window/tile_window.hpp); over a
// view of recording_buffers argument-dependent lookup finds the overload below instead, which returns a
// shared_tile_window: a spec tile_window (the same members, the same accesses in the same order) whose
// thread-independent work is done once for all the threads a runner simulates (window_memo.hpp):
//   setup  the encoding's check, the load/store traits (vector dim, access curve) and the affine form of x_of
//          are made by the first thread that makes a window equal to it (same view type, descriptor bytes,
//          window lengths, encoding and visiting order); a later thread copies them, then computes only its
//          own x base and first coordinate;
//   walk   a load, store or update runs the window's accesses from a table: the offset and pad validity of each
//          access, taken once per start coordinate (the descriptor's hidden index of access 0) and the register
//          index d of each access, taken once per window. Threads whose coordinate walks begin at the same
//          hidden index take the same walk (the moves depend on nothing else), so replicated readers (the
//          GEMM's A fragment: 16 distinct walks for 256 threads) share one. Over an affine descriptor (embed,
//          unmerge and pass_through only: naive and row-major views) access i is at the thread's first offset
//          plus a delta taken once per window, always valid; an entry whose first 64 walks never repeat
//          (every thread starts elsewhere) stops keeping them and walks as spec does.
// What a thread records is unchanged: buffer.load / store / add with the same offset, count and validity, in
// curve order. Strict mode (a reporter) and windows over other buffers are spec's own code.
//
// WHY EQUAL BYTES. Descriptors have no operator==; two descriptors whose object bytes are equal are equal
// values (they hold integers and flags only), so a byte comparison never reuses a wrong entry. Unequal padding
// can only make a lookup miss, which costs a setup, not a result.
//
// EXAMPLE. 256 threads each make_tile_window(a_lds, {64, 32}, {0, 0}, a_frag, partition_index(a_frag, w, l)):
// thread 0 checks a_frag, makes the traits (32 accesses of 4 floats) and the 32 register indices; threads 1-255
// copy them; a_read.load(regs) of thread 0 walks the xor descriptor once and keeps the 32 offsets, thread 8
// (same rows) replays them.
//
// INVARIANTS: a shared_tile_window's accesses equal those of the spec tile_window made from the same arguments
// (tile_window_program.test.cpp and every program's report); a table is used only by a window of its entry.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
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

  // Whether walks are worth keeping: not when the first trial_walks never met a start coordinate twice (each
  // thread of a global copy window starts elsewhere; its walk is then spec's, not a table's).
  bool sharing() const { return reused > 0 || taken < trial_walks; }

  // Whether a window made from these arguments has this entry's setup.
  bool matches(const View& view, const multi_index<View::n_dim>& lengths, const tile_distribution_encoding& e,
               access_order order) const {
    return order == visit && proto.lengths == lengths && proto.view.space == view.space &&
           std::memcmp(&proto.view.desc, &view.desc, sizeof(view.desc)) == 0 &&
           (std::memcmp(&proto.encoding, &e, sizeof(e)) == 0 || proto.encoding == e);
  }

  // The first slot of the walk that starts at coordinate `first` of a window w of this entry (taken now if new).
  std::size_t walk(const tile_window<View>& w) {
    auto found = walks.find(w.first_.hidden);
    if (found != walks.end()) {
      ++reused;
      return found->second;
    }
    ++taken;
    if (walks.size() >= max_walks) {
      walks.clear();
      offsets.clear();
      valid.clear();
    }
    const std::size_t slot = offsets.size();
    w.for_each_access([&](const window_access<View::n_dim>& a) {
      offsets.push_back(a.offset);
      valid.push_back(a.valid ? 1 : 0);
    });
    walks.emplace(w.first_.hidden, slot);
    return slot;
  }
};

}  // namespace detail

// A spec tile_window whose setup and walks are shared through its entry (nullptr: plain spec behaviour).
template <class View>
struct shared_tile_window : tile_window<View> {
  using base = tile_window<View>;
  using entry_type = detail::shared_window_entry<View>;
  entry_type* shared = nullptr;

  // Loads this thread's elements into dst, as tile_window::load (CK semantics).
  template <class T, index_t C>
  void load(distributed_tensor<T, C>& dst) const {
    if (!shared || (!entry_type::affine && !shared->sharing())) return base::load(dst);
    require_room(dst);
    std::memcpy(&dst.encoding, &this->encoding, sizeof(dst.encoding));  // a vector copy, not rep movs
    const index_t n = this->traits.scalars_per_vector, stride = this->vector_d_stride_;
    typename base::value_type vec[base::max_vector];
    auto put = [&](index_t i) {
      const index_t d = shared->d[static_cast<std::size_t>(i)];
      for (index_t j = 0; j < n; ++j) dst[d + j * stride] = static_cast<T>(vec[j]);
    };
    if constexpr (entry_type::affine) {
      const index_t first = this->first_.offset();
      for (index_t i = 0; i < this->traits.num_access; ++i) {
        this->view.buffer.load(first + shared->delta[static_cast<std::size_t>(i)], n, vec, true);
        put(i);
      }
    } else {
      const std::size_t slot = shared->walk(*this);
      for (index_t i = 0; i < this->traits.num_access; ++i) {
        const std::size_t s = slot + static_cast<std::size_t>(i);
        this->view.buffer.load(shared->offsets[s], n, vec, shared->valid[s] != 0);
        put(i);
      }
    }
  }
  // Strict mode: spec's walk.
  template <class T, index_t C, class Report>
  void load(distributed_tensor<T, C>& dst, Report&& report) const {
    base::load(dst, report);
  }

  // Stores this thread's elements from src, as tile_window::store.
  template <class T, index_t C>
  void store(const distributed_tensor<T, C>& src) const {
    if (!shared || (!entry_type::affine && !shared->sharing())) return base::store(src);
    write(src, memory_op::store);
  }
  template <class T, index_t C, class Report>
  void store(const distributed_tensor<T, C>& src, Report&& report) const {
    base::store(src, report);
  }
  // Adds src into memory, as tile_window::update.
  template <class T, index_t C>
  void update(const distributed_tensor<T, C>& src) const {
    if (!shared || (!entry_type::affine && !shared->sharing())) return base::update(src);
    write(src, memory_op::update);
  }
  template <class T, index_t C, class Report>
  void update(const distributed_tensor<T, C>& src, Report&& report) const {
    base::update(src, report);
  }

 private:
  // tile_window's capacity rule, with its message.
  template <class T, index_t C>
  void require_room(const distributed_tensor<T, C>&) const {
    require(broken_unless(shared->elements <= C, rule::distributed_tensor_too_small, "tile_window",
                          {"elements per thread", shared->elements}, {"capacity", C}));
  }

  template <class T, index_t C>
  void write(const distributed_tensor<T, C>& src, memory_op op) const {
    require_room(src);
    const index_t n = this->traits.scalars_per_vector, stride = this->vector_d_stride_;
    typename base::value_type vec[base::max_vector];
    auto put = [&](index_t i, index_t offset, bool valid) {
      const index_t d = shared->d[static_cast<std::size_t>(i)];
      for (index_t j = 0; j < n; ++j) vec[j] = static_cast<typename base::value_type>(src[d + j * stride]);
      if (op == memory_op::store)
        this->view.buffer.store(offset, n, vec, valid);
      else
        this->view.buffer.add(offset, n, vec, valid);
    };
    if constexpr (entry_type::affine) {
      const index_t first = this->first_.offset();
      for (index_t i = 0; i < this->traits.num_access; ++i) put(i, first + shared->delta[static_cast<std::size_t>(i)], true);
    } else {
      const std::size_t slot = shared->walk(*this);
      for (index_t i = 0; i < this->traits.num_access; ++i) {
        const std::size_t s = slot + static_cast<std::size_t>(i);
        put(i, shared->offsets[s], shared->valid[s] != 0);
      }
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
  auto* ctx = static_cast<thread_context*>(view.buffer.recorder());
  if (!ctx) return shared_tile_window<View>{tilesim::make_tile_window(view, lengths, origin, e, thread, visit), nullptr};
  detail::window_memo& memo = ctx->window_memo();
  entry_type* entry = nullptr;
  for (const auto& candidate : memo.entries) {
    if (candidate->tag != entry_type::type_tag()) continue;
    auto* typed = static_cast<entry_type*>(candidate.get());
    if (typed->matches(view, lengths, e, visit)) {
      entry = typed;
      break;
    }
  }
  if (!entry) {
    // The first window of its kind: spec's make_tile_window checks everything; its setup becomes the entry's.
    auto made = std::make_unique<entry_type>();
    made->tag = entry_type::type_tag();
    made->proto = tilesim::make_tile_window(view, lengths, origin, e, thread, visit);
    made->proto.view.buffer = recording_buffer<T>{};
    made->proto.thread = {};
    made->visit = visit;
    made->elements = e.elements_per_thread();
    made->y0 = made->proto.traits.first_y(0);
    made->d.reserve(static_cast<std::size_t>(made->proto.traits.num_access));
    made->proto.for_each_access([&](const window_access<View::n_dim>& a) {
      made->d.push_back(made->proto.d_of(a.y));
      made->delta.push_back(a.offset - made->proto.first_.offset());
    });
    entry = made.get();
    memo.entries.push_back(std::move(made));
  }
  // One copy of the prototype; its descriptor already equals the view's byte for byte (matches()).
  shared_tile_window<View> w{entry->proto, entry};
  w.view.buffer = view.buffer;
  w.thread = thread;
  const auto base = e.x_of(thread, multi_index<tile_distribution_encoding::max_y>{});
  for (int i = 0; i < View::n_dim; ++i) w.x_base_[i] = base[i];
  w.origin_ = origin;  // set_origin(origin), with access 0's y made once
  w.first_ = w.view.desc.make_coordinate(origin + w.x_of(entry->y0));
  return w;
}

}  // namespace tilesim::sim
