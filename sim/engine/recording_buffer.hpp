// tilesim/sim/engine/recording_buffer.hpp: the simulator's element_buffer: moves data and records each access.
//
// DEFINITION. recording_buffer<T> is what `ctx.global<T>(slot)` and `ctx.lds<T>(count)` return in the
// simulator: a small handle (thread, buffer, element pointer, count) that satisfies spec's element_buffer
// concept, so programs build tensor views and tile windows on it exactly as on a span_buffer. Each call of
// load/store/add is one vector access: it is recorded (one lane_access) and then moves the elements the
// recorder allows (inside the buffer, valid). load gives T{} for the others, as CK's buffer loads do;
// store/add drop them. add is an atomic read-modify-write (the GPU side implements it with atomicAdd).
// load_common / store_common take a tile window's vectors in one call: recorded exactly as that many loads or
// stores, when every one is a common access (valid, inside the buffer, aligned), else left to the caller.
//
// WORKED EXAMPLE. In a program, thread t:
//   auto tile = ctx.lds<float>(256);
//   float v = 1.0f;
//   tile.store(t, 1, &v, true);   // one lane access: LDS byte 4*t, 4 bytes, a store
//   tile.load(300, 1, &v, true);  // reported out of bounds (element 300 of 256); v == 0, nothing read
//
// INVARIANTS: a default-constructed handle is an empty buffer (size 0, loads give T{}); a handle belongs to
// the thread whose context made it (the record names that thread); no call reads or writes host memory
// outside [data, data + count); T is trivially copyable.
#pragma once

#include <span>
#include <type_traits>

#include "sim/engine/access_recorder.hpp"
#include "spec/window/tensor_view.hpp"

namespace tilesim::sim {

template <class T>
class recording_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "recording_buffer: element types must be trivially copyable");

 public:
  using value_type = T;

  recording_buffer() = default;
  recording_buffer(access_recorder* recorder, T* data, const buffer_ref& ref)
      : recorder_(recorder), data_(data), ref_(ref) {}

  // Elements addressable: ctx.lds<float>(256).size() == 256.
  index_t size() const { return ref_.count; }
  memory_space space() const { return ref_.space; }
  // The global slot or LDS allocation index.
  int id() const { return ref_.id; }
  // The thread's recorder (its thread_context); nullptr for a default-constructed handle.
  access_recorder* recorder() const { return recorder_; }
  // Where its elements live (the recorder's view) and the first of them: what a cp.async keeps until it lands.
  const buffer_ref& ref() const { return ref_; }
  T* data() const { return data_; }

  // out[0..n) = elements offset..offset+n-1; T{} outside the buffer or when !valid. One recorded access, at the
  // caller's line (its site: lane_access.hpp; the builtins, as barrier's, for clang 14 with libstdc++ 12).
  void load(index_t offset, index_t n, T* out, bool valid, const char* file = __builtin_FILE(),
            int line = __builtin_LINE()) const {
    const element_range r = record(access_kind::load, offset, n, valid, false, {file, line});
    for (index_t j = 0; j < n; ++j) out[j] = r.holds(j) ? data_[offset + j] : T{};
  }
  // Elements offset..offset+n-1 = in[0..n), where inside the buffer; nothing when !valid. One recorded access.
  void store(index_t offset, index_t n, const T* in, bool valid, const char* file = __builtin_FILE(),
             int line = __builtin_LINE()) const {
    const element_range r = record(access_kind::store, offset, n, valid, false, {file, line});
    for (index_t j = r.begin; j < r.end; ++j) data_[offset + j] = in[j];
  }
  // Elements += in[0..n), where inside the buffer; nothing when !valid. One recorded (atomic) access.
  void add(index_t offset, index_t n, const T* in, bool valid, const char* file = __builtin_FILE(),
           int line = __builtin_LINE()) const {
    const element_range r = record(access_kind::store, offset, n, valid, true, {file, line});
    for (index_t j = r.begin; j < r.end; ++j) data_[offset + j] += in[j];
  }
  // Loads offsets.size() vectors of n elements, vector i at element base + offsets[i] (valid[i]: its guard; valid
  // empty: all valid), recorded as that many calls of load would record them, and hands take(i, elements) each
  // vector's n elements where they lie, when every access is a common one (access_recorder::record_common);
  // false, with nothing recorded or read, otherwise (the caller then loads them one by one). `site`: the program's
  // call (a tile window's load), which the one-by-one loads must name too.
  template <class Take>
  bool load_common(index_t base, std::span<const index_t> offsets, index_t n, std::span<const unsigned char> valid,
                   Take&& take, access_site site) const {
    if (!recorder_ || !recorder_->record_common(ref_, access_kind::load, base, offsets, n, valid, site)) return false;
    for (std::size_t i = 0; i < offsets.size(); ++i) take(i, static_cast<const T*>(data_ + base + offsets[i]));
    return true;
  }
  // The same for stores: put(i, elements) writes vector i's n elements where they lie.
  template <class Put>
  bool store_common(index_t base, std::span<const index_t> offsets, index_t n, std::span<const unsigned char> valid,
                    Put&& put, access_site site) const {
    if (!recorder_ || !recorder_->record_common(ref_, access_kind::store, base, offsets, n, valid, site)) return false;
    for (std::size_t i = 0; i < offsets.size(); ++i) put(i, data_ + base + offsets[i]);
    return true;
  }

 private:
  element_range record(access_kind kind, index_t offset, index_t n, bool valid, bool atomic, access_site site) const {
    return recorder_ ? recorder_->record(ref_, kind, offset, n, valid, atomic, site) : element_range{};
  }

  access_recorder* recorder_ = nullptr;
  T* data_ = nullptr;
  buffer_ref ref_{};
};

static_assert(element_buffer<recording_buffer<float>>);

}  // namespace tilesim::sim
