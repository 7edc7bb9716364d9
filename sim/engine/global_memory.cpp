// tilesim/sim/engine/global_memory.cpp: storage, guards and lookups of the simulated global buffers.
#include "sim/engine/global_memory.hpp"

#include <stdexcept>

namespace tilesim::sim {

namespace {
std::string quoted(const std::string& s) { return "'" + s + "'"; }
}  // namespace

int global_memory::add_raw(std::string name, type_key type, std::string type_name, std::size_t element_bytes,
                           index_t count) {
  const index_t limit = max_bytes / static_cast<index_t>(element_bytes);
  if (count < 0 || count > limit)
    throw std::invalid_argument("global_memory: buffer " + quoted(name) + " needs 0 <= count <= " +
                                std::to_string(limit) + " elements of " + std::to_string(element_bytes) +
                                " bytes (count = " + std::to_string(count) + ")");
  buffer b;
  b.info = {std::move(name), type, std::move(type_name), element_bytes, count, next_base_};
  const std::size_t bytes = static_cast<std::size_t>(b.info.bytes());
  const std::size_t total = guard_bytes + bytes + guard_bytes;
  b.storage.resize((total + sizeof(chunk) - 1) / sizeof(chunk));
  auto* raw = reinterpret_cast<unsigned char*>(b.storage.data());
  std::memset(raw, guard_value, b.storage.size() * sizeof(chunk));
  std::memset(raw + guard_bytes, 0, bytes);
  next_base_ = (b.info.base + static_cast<address_t>(bytes) + base_alignment - 1) / base_alignment * base_alignment;
  if (bytes == 0) next_base_ += base_alignment;  // an empty buffer still gets an address of its own
  buffers_.push_back(std::move(b));
  return static_cast<int>(buffers_.size()) - 1;
}

const global_memory::buffer& global_memory::at(int slot) const {
  if (slot < 0 || slot >= size())
    throw std::out_of_range("global_memory: no buffer in slot " + std::to_string(slot) + " (there are " +
                            std::to_string(size()) + ")");
  return buffers_[static_cast<std::size_t>(slot)];
}

const global_buffer_info& global_memory::info(int slot) const { return at(slot).info; }

unsigned char* global_memory::data(int slot) {
  return const_cast<unsigned char*>(static_cast<const global_memory&>(*this).data(slot));
}
const unsigned char* global_memory::data(int slot) const {
  return reinterpret_cast<const unsigned char*>(at(slot).storage.data()) + guard_bytes;
}

void global_memory::check_type(int slot, type_key type, const std::string& type_name) const {
  const global_buffer_info& i = info(slot);
  if (i.type != type)
    throw std::invalid_argument("global buffer " + std::to_string(slot) + " (" + quoted(i.name) + ") holds " +
                                i.type_name + ", not " + type_name);
}

bool global_memory::guards_intact() const {
  for (const buffer& b : buffers_) {
    const auto* raw = reinterpret_cast<const unsigned char*>(b.storage.data());
    const std::size_t total = b.storage.size() * sizeof(chunk);
    const std::size_t end = guard_bytes + static_cast<std::size_t>(b.info.bytes());
    for (std::size_t k = 0; k < guard_bytes; ++k)
      if (raw[k] != guard_value) return false;
    for (std::size_t k = end; k < total; ++k)
      if (raw[k] != guard_value) return false;
  }
  return true;
}

int global_memory::buffer_at(address_t address) const {
  for (int s = 0; s < size(); ++s) {
    const global_buffer_info& i = info(s);
    if (address >= i.base && address - i.base < static_cast<address_t>(i.bytes())) return s;
  }
  return -1;
}

}  // namespace tilesim::sim
