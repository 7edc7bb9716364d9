// tilesim/spec/window/tensor_view.hpp: a descriptor over a buffer of elements; the memory a tile window reads.
//
// DEFINITION. tensor_view<Desc, Buffer> pairs a descriptor (top index -> element offset) with an element
// buffer. The buffer is the only thing that touches memory, one whole vector access at a time:
//   size()                            elements addressable (CK's num_records / sizeof(T))
//   load(offset, n, out, valid)       out[0..n) = elements offset..offset+n-1; T{} where outside [0, size())
//                                     (AMD buffer loads return 0); all T{} when !valid (CK zeroes the vector)
//   store(offset, n, in, valid)       elements = in[0..n) where inside [0, size()); nothing when !valid
//   add(offset, n, in, valid)         the same with +=
// so no offset a program computes ever reaches host memory outside the allocation. span_buffer<T> is the
// plain one over a T array; the simulator substitutes its own buffer, which also records each vector access
// (and decides, per address space, whether an invalid vector still moves data, as a global load does).
// The address space (global or LDS) only changes how strict mode names a stray access: CK checks neither
// window nor tensor bounds on LDS, and on the GPU an LDS offset past the allocation aliases other data.
//
// WORKED EXAMPLE. A 4x4 row-major view of 16 floats t[i] = i: view.at({2, 1}) == 9; view.at({0, 17}) is
// offset 17, outside the buffer, so it reads 0 (CK would read 0 there too: its buffer range check).
//
// COMPILE-TIME WIDTH. load_vector<N>(buffer, offset, out, valid) / store_vector<N> move a vector whose length
// is a template parameter: a buffer that has a member of that name (the GPU's, gpu/runtime/device_context.hpp) picks
// its one instruction at compile time and does no per-element work; any other buffer gets load(offset, N, ..).
// A view over constant<D> (make_tensor_view(constant<D>{}, buffer)) holds fixed_descriptor<D>: no data.
//
// INVARIANT: a view's buffer holds at least the descriptor's element_space_size elements (checked by
// make_tensor_view), so every in-bounds top index reads real data.
#pragma once

#include "spec/descriptor.hpp"
#include "spec/fixed_descriptor.hpp"

namespace tilesim {

enum class address_space { global, lds };

// The memory behind a view: element reads and writes, range-checked against size().
template <class B>
concept element_buffer = requires(B b, const B cb, index_t offset, typename B::value_type* out,
                                  const typename B::value_type* in, bool valid) {
  { cb.size() } -> std::same_as<index_t>;
  cb.load(offset, offset, out, valid);
  b.store(offset, offset, in, valid);
  b.add(offset, offset, in, valid);
};

// A T array of `count` elements; out-of-range reads give T{} and out-of-range writes are dropped.
template <class T>
struct span_buffer {
  using value_type = T;
  T* data = nullptr;
  index_t count = 0;

  TILESIM_HOST_DEVICE constexpr index_t size() const { return count; }
  TILESIM_HOST_DEVICE constexpr bool holds(index_t offset) const { return offset >= 0 && offset < count; }
  // Elements offset..offset+n-1 into out; 0 outside the buffer or when !valid. {1,2,3}.load(2, 2, o, true): o = {3, 0}.
  TILESIM_HOST_DEVICE constexpr void load(index_t offset, index_t n, T* out, bool valid) const {
    for (index_t j = 0; j < n; ++j) out[j] = valid && holds(offset + j) ? data[offset + j] : T{};
  }
  TILESIM_HOST_DEVICE constexpr void store(index_t offset, index_t n, const T* in, bool valid) const {
    for (index_t j = 0; j < n; ++j)
      if (valid && holds(offset + j)) data[offset + j] = in[j];
  }
  TILESIM_HOST_DEVICE constexpr void add(index_t offset, index_t n, const T* in, bool valid) const {
    for (index_t j = 0; j < n; ++j)
      if (valid && holds(offset + j)) data[offset + j] += in[j];
  }
};

template <class Desc, element_buffer Buffer>
struct tensor_view {
  using descriptor_type = Desc;
  using buffer_type = Buffer;
  using value_type = typename Buffer::value_type;
  static constexpr int n_dim = Desc::n_top;

  Desc desc;
  Buffer buffer;
  address_space space = address_space::global;

  // The element at a top index (pad-invalid elements read 0, as a tile load would): 4x4: at({2, 1}) == t[9].
  TILESIM_HOST_DEVICE constexpr value_type at(const multi_index<n_dim>& top) const {
    const auto c = desc.make_coordinate(top);
    value_type v{};
    buffer.load(c.offset(), 1, &v, desc.is_valid(c));
    return v;
  }
};

// A view over any element buffer (e.g. the simulator's recording one); throws when the buffer is smaller than
// the descriptor's element space.
template <class Desc, element_buffer Buffer>
TILESIM_HOST_DEVICE constexpr tensor_view<Desc, Buffer> make_tensor_view(const Desc& desc, const Buffer& buffer,
                                                                         address_space space = address_space::global) {
  require_launch(broken_unless(buffer.size() >= desc.element_space_size, rule::window_buffer_too_small, "tensor_view",
                               {"buffer elements", buffer.size()}, {"element space size", desc.element_space_size}));
  return {desc, buffer, space};
}

// A view through a compile-time descriptor: make_tensor_view(constant<make_row_major_descriptor(64, 32)>{}, lds).
template <auto D, element_buffer Buffer>
TILESIM_HOST_DEVICE constexpr tensor_view<fixed_descriptor<D>, Buffer> make_tensor_view(
    constant<D> desc, const Buffer& buffer, address_space space = address_space::global) {
  return make_tensor_view(as_descriptor(desc), buffer, space);
}

// Elements offset..offset+N-1 into out (N known at compile time): the buffer's own load_vector<N> if it has one.
template <index_t N, element_buffer B>
TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void load_vector(const B& buffer, index_t offset,
                                                              typename B::value_type* out, bool valid) {
  if constexpr (requires { buffer.template load_vector<N>(offset, out, valid); })
    buffer.template load_vector<N>(offset, out, valid);
  else
    buffer.load(offset, N, out, valid);
}
// load_vector<N>, issued every time it is reached even when nothing was stored since (a benchmark's deliberate
// re-read: the LDS sweep); the same as load_vector<N> on a buffer without a reload_vector member.
template <index_t N, element_buffer B>
TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void reload_vector(const B& buffer, index_t offset,
                                                                typename B::value_type* out, bool valid) {
  if constexpr (requires { buffer.template reload_vector<N>(offset, out, valid); })
    buffer.template reload_vector<N>(offset, out, valid);
  else
    load_vector<N>(buffer, offset, out, valid);
}
// in[0..N) to elements offset..offset+N-1 (N known at compile time).
template <index_t N, element_buffer B>
TILESIM_HOST_DEVICE TILESIM_INLINE constexpr void store_vector(const B& buffer, index_t offset,
                                                               const typename B::value_type* in, bool valid) {
  if constexpr (requires { buffer.template store_vector<N>(offset, in, valid); })
    buffer.template store_vector<N>(offset, in, valid);
  else
    buffer.store(offset, N, in, valid);
}

// A view of `count` elements at `data` through `desc` (a span_buffer; the same size rule):
// make_tensor_view(make_naive_descriptor_packed<2>({4, 4}), t, 16).
template <class Desc, class T>
TILESIM_HOST_DEVICE constexpr tensor_view<Desc, span_buffer<T>> make_tensor_view(
    const Desc& desc, T* data, index_t count, address_space space = address_space::global) {
  return make_tensor_view(desc, span_buffer<T>{data, count}, space);
}

}  // namespace tilesim
