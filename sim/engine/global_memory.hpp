// tilesim/sim/engine/global_memory.hpp: the global buffers a host hands to a simulated launch.
//
// DEFINITION. A global_memory is a list of typed buffers, numbered by slot in the order they are added.
// Every buffer sits at its own 256-byte-aligned base address in one simulated global address space (slot 0
// at 0, each next one at the first multiple of 256 after the previous one's end), so the engine can record
// real byte addresses for coalescing models and still tell which buffer an address belongs to. Programs
// reach slot s as `ctx.global<T>(s)`; T must be the type the host used (checked, both names reported).
// Around each buffer's host storage lie guard bytes (0xCD) that nothing may change: guards_intact() says
// whether they survived, so tests can prove that out-of-bounds writes never reached host memory.
//
// WORKED EXAMPLE.
//   global_memory mem;
//   int in  = mem.add<float>("in", std::vector<float>(100, 1.0f));  // slot 0: base 0, 400 bytes
//   int out = mem.add<float>("out", 100);                              // slot 1: base 512, zeros
//   ... run ...; std::vector<float> r = result.memory.get<float>(out);
//
// INVARIANTS: bases are multiples of 256 and buffers never overlap; element types are trivially copyable;
// a buffer's size never changes after add.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/engine/type_key.hpp"
#include "sim/wave_access.hpp"
#include "spec/config.hpp"

namespace tilesim::sim {

struct global_buffer_info {
  std::string name;
  type_key type = nullptr;
  std::string type_name;
  std::size_t element_bytes = 0;
  index_t count = 0;
  address_t base = 0;  // in the simulated global address space, a multiple of 256

  index_t bytes() const { return count * static_cast<index_t>(element_bytes); }
};

class global_memory {
 public:
  static constexpr address_t base_alignment = 256;
  static constexpr std::size_t guard_bytes = 64;
  static constexpr unsigned char guard_value = 0xCD;
  static constexpr index_t max_bytes = index_t{1} << 40;

  // A buffer holding a copy of `values`; returns its slot. add<float>("in", v) == 0 for the first buffer.
  template <class T>
  int add(std::string name, std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T>, "global_memory: element types must be trivially copyable");
    const int slot = add_raw(std::move(name), type_key_of<T>(), type_name_of<T>(), sizeof(T),
                             static_cast<index_t>(values.size()));
    if (!values.empty()) std::memcpy(data(slot), values.data(), values.size_bytes());
    return slot;
  }
  template <class T>
  int add(std::string name, const std::vector<T>& values) {
    return add<T>(std::move(name), std::span<const T>(values));
  }
  // A buffer of `count` copies of `fill`; throws std::invalid_argument for count < 0 or more than 2^40 bytes.
  template <class T>
  int add(std::string name, index_t count, const T& fill = T{}) {
    static_assert(std::is_trivially_copyable_v<T>, "global_memory: element types must be trivially copyable");
    const int slot = add_raw(std::move(name), type_key_of<T>(), type_name_of<T>(), sizeof(T), count);
    unsigned char* p = data(slot);
    for (index_t i = 0; i < count; ++i) std::memcpy(p + i * static_cast<index_t>(sizeof(T)), &fill, sizeof(T));
    return slot;
  }

  int size() const { return static_cast<int>(buffers_.size()); }
  // The buffer's name, type, size and base; throws std::out_of_range naming the slot.
  const global_buffer_info& info(int slot) const;

  // A copy of the buffer's elements; throws std::invalid_argument when T is not the buffer's type.
  template <class T>
  std::vector<T> get(int slot) const {
    const std::span<const T> e = elements<T>(slot);
    return std::vector<T>(e.begin(), e.end());
  }
  // The buffer's elements in place (host access before or after a run).
  template <class T>
  std::span<T> elements(int slot) {
    check_type(slot, type_key_of<T>(), type_name_of<T>());
    return {reinterpret_cast<T*>(data(slot)), static_cast<std::size_t>(info(slot).count)};
  }
  template <class T>
  std::span<const T> elements(int slot) const {
    check_type(slot, type_key_of<T>(), type_name_of<T>());
    return {reinterpret_cast<const T*>(data(slot)), static_cast<std::size_t>(info(slot).count)};
  }

  // True when every guard byte around every buffer still holds guard_value.
  bool guards_intact() const;
  // The slot whose [base, base + bytes) holds `address`, or -1: buffer_at(512) == 1 in the example above.
  int buffer_at(address_t address) const;

  // The first element byte of a slot (16-byte aligned); the engine's access path. Throws for a bad slot.
  unsigned char* data(int slot);
  const unsigned char* data(int slot) const;
  // Throws std::invalid_argument "global buffer 1 ('out') holds float, not int" when the types differ.
  void check_type(int slot, type_key type, const std::string& type_name) const;

 private:
  struct alignas(16) chunk {
    unsigned char bytes[16];
  };
  struct buffer {
    global_buffer_info info;
    std::vector<chunk> storage;  // guard, elements, guard
  };
  int add_raw(std::string name, type_key type, std::string type_name, std::size_t element_bytes, index_t count);
  const buffer& at(int slot) const;

  std::vector<buffer> buffers_;
  address_t next_base_ = 0;
};

}  // namespace tilesim::sim
