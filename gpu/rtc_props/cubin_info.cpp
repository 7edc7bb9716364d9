// tilesim/gpu/rtc_props/cubin_info.cpp: the ELF walk behind cubin_frame (cubin_info.hpp).
#include "gpu/rtc_props/cubin_info.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

namespace tilesim::gpu::props {
namespace {

// Little-endian unsigned of `n` bytes at `at`; false when it does not fit in `bytes`.
bool read_le(const std::string& bytes, std::uint64_t at, int n, std::uint64_t& out) {
  if (at > bytes.size() || static_cast<std::uint64_t>(n) > bytes.size() - at) return false;
  out = 0;
  for (int i = n - 1; i >= 0; --i) out = out << 8 | static_cast<unsigned char>(bytes[at + i]);
  return true;
}

struct section {
  std::uint64_t name = 0, type = 0, offset = 0, size = 0, link = 0;
};

constexpr int eiattr_frame_size = 0x11, eiattr_min_stack_size = 0x12, eiattr_regcount = 0x2f;
constexpr std::uint64_t sht_symtab = 2;
constexpr std::uint64_t elf_symbol_bytes = 24, elf_section_header_bytes = 64;

}  // namespace

std::optional<cubin_frame_info> cubin_frame(const std::string& cubin, const std::string& name) {
  // ELF64 little-endian: "\x7f" "ELF", class 2, data 1.
  if (cubin.size() < 64 || std::memcmp(cubin.data(), "\x7f" "ELF\x02\x01", 6) != 0) return std::nullopt;
  std::uint64_t shoff = 0, shnum = 0, shstrndx = 0;
  if (!read_le(cubin, 0x28, 8, shoff) || !read_le(cubin, 0x3c, 2, shnum) || !read_le(cubin, 0x3e, 2, shstrndx))
    return std::nullopt;
  std::vector<section> sections(shnum);
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const std::uint64_t h = shoff + i * elf_section_header_bytes;
    section& s = sections[i];
    if (!read_le(cubin, h, 4, s.name) || !read_le(cubin, h + 4, 4, s.type) || !read_le(cubin, h + 24, 8, s.offset) ||
        !read_le(cubin, h + 32, 8, s.size) || !read_le(cubin, h + 40, 4, s.link) || s.offset > cubin.size() ||
        s.size > cubin.size() - s.offset)
      return std::nullopt;
  }
  // A NUL-terminated string at `at` inside section `strings`, or "" when it runs out of the section.
  const auto string_at = [&](std::uint64_t strings, std::uint64_t at) -> std::string {
    if (strings >= sections.size() || at >= sections[strings].size) return "";
    const char* begin = cubin.data() + sections[strings].offset + at;
    const std::size_t room = sections[strings].size - at;
    const void* end = std::memchr(begin, 0, room);
    return end ? std::string(begin, static_cast<const char*>(end)) : "";
  };
  std::optional<std::uint64_t> symbol;
  const section* info = nullptr;
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const section& s = sections[i];
    if (string_at(shstrndx, s.name) == ".nv.info") info = &s;
    if (s.type != sht_symtab) continue;
    for (std::uint64_t k = 0; k * elf_symbol_bytes + elf_symbol_bytes <= s.size; ++k) {
      std::uint64_t sym_name = 0;
      read_le(cubin, s.offset + k * elf_symbol_bytes, 4, sym_name);
      if (string_at(s.link, sym_name) == name) symbol = k;
    }
  }
  if (!symbol || info == nullptr) return std::nullopt;
  std::optional<std::uint64_t> values[3];  // registers, frame, min stack
  for (std::uint64_t at = info->offset, end = info->offset + info->size; at + 2 <= end;) {
    const auto format = static_cast<unsigned char>(cubin[at]);
    const auto attribute = static_cast<unsigned char>(cubin[at + 1]);
    std::uint64_t size = 0;
    if (format == 0x04) {
      if (!read_le(cubin, at + 2, 2, size) || at + 4 + size > end) return std::nullopt;
      std::uint64_t sym = 0, value = 0;
      if (size == 8 && read_le(cubin, at + 4, 4, sym) && read_le(cubin, at + 8, 4, value) && sym == *symbol) {
        if (attribute == eiattr_regcount) values[0] = value;
        if (attribute == eiattr_frame_size) values[1] = value;
        if (attribute == eiattr_min_stack_size) values[2] = value;
      }
      at += 4 + size;
    } else {
      at += 4;  // format, attribute and a u16 (0x03: the value; 0x02: a byte and padding; 0x01: padding)
    }
  }
  if (!values[0] || !values[1] || !values[2]) return std::nullopt;
  return cubin_frame_info{static_cast<int>(*values[0]), static_cast<long long>(*values[1]),
                          static_cast<long long>(*values[2])};
}

}  // namespace tilesim::gpu::props
