// tilesim/sim/patterns/pattern_file.cpp: the line parser and the bounded streaming reader (pattern_file.hpp).
#include "sim/patterns/pattern_file.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace tilesim::sim {
namespace {


// What each byte is to the parser: ordinary (part of a token), blank, '#', or a control byte (an error).
enum byte_class : unsigned char { ordinary, blank, hash, control };

constexpr std::array<byte_class, 256> byte_classes = [] {
  std::array<byte_class, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[static_cast<std::size_t>(c)] = control;
  t[0x7f] = control;
  for (char c : {' ', '\t', '\r', '\v', '\f'}) t[static_cast<unsigned char>(c)] = blank;
  t['#'] = hash;
  return t;
}();

byte_class class_of(char c) { return byte_classes[static_cast<unsigned char>(c)]; }

// A token for an error message, at most 32 bytes: "lod", "1234567890123456789012345678901234..." .
std::string quoted(std::string_view token) {
  std::string s(1, '\'');
  s.append(token.substr(0, 32));
  s.append(token.size() > 32 ? "...'" : "'");
  return s;
}

enum class number { ok, not_digits, too_large };

// Walks a line token by token (tokens are runs of ordinary bytes between blanks). It stops for good at
// '#' (a comment) or at a control byte, which it remembers: "a b#c" -> "a", "b", then empty.
class scanner {
 public:
  explicit scanner(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}

  // The next token; empty at the end of the line, at '#' or at a control byte.
  std::string_view next() {
    while (p_ < end_ && class_of(*p_) == blank) ++p_;
    const char* first = p_;
    while (p_ < end_ && class_of(*p_) == ordinary) ++p_;
    if (p_ < end_ && class_of(*p_) != blank) {  // '#' or a control byte: nothing after it counts
      if (class_of(*p_) == control) control_ = static_cast<unsigned char>(*p_), has_control_ = true;
      end_ = p_;
    }
    return std::string_view(first, static_cast<std::size_t>(p_ - first));
  }

  // The next token read as an unsigned decimal of at most `max` in the same pass (the hot path: offsets).
  // False at the end of the line; else `token`, and `kind` ok with `value`, not_digits or too_large.
  bool next_number(std::uint64_t max, std::string_view& token, number& kind, std::uint64_t& value) {
    while (p_ < end_ && class_of(*p_) == blank) ++p_;
    const char* first = p_;
    std::uint64_t v = 0;
    for (; p_ < end_; ++p_) {
      const unsigned digit = static_cast<unsigned char>(*p_) - unsigned{'0'};
      if (digit > 9) break;
      if (v <= max) v = v * 10 + digit;  // v <= max < 2^60 before: no overflow; stays > max once above
    }
    kind = v <= max ? number::ok : number::too_large;
    if (p_ < end_ && class_of(*p_) == ordinary) {  // a non-digit inside the token
      kind = number::not_digits;
      while (p_ < end_ && class_of(*p_) == ordinary) ++p_;
    }
    if (p_ < end_ && class_of(*p_) != blank) {  // '#' or a control byte
      if (class_of(*p_) == control) control_ = static_cast<unsigned char>(*p_), has_control_ = true;
      end_ = p_;
    }
    token = std::string_view(first, static_cast<std::size_t>(p_ - first));
    value = v;
    return !token.empty();
  }

  // Whether the scan stopped at a control byte, and its message: "control byte 0x01 in the line".
  bool has_control() const { return has_control_; }
  std::string control_message() const {
    static const char hex[] = "0123456789abcdef";
    return std::string("control byte 0x") + hex[control_ >> 4] + hex[control_ & 15] + " in the line";
  }

 private:
  const char* p_;
  const char* end_;
  unsigned char control_ = 0;
  bool has_control_ = false;
};

// Reads an unsigned decimal of at most `max`: "42" -> ok, 42; "4x" -> not_digits; "99999999999" -> too_large.
number parse_unsigned(std::string_view token, std::uint64_t max, std::uint64_t& value) {
  if (token.empty()) return number::not_digits;
  value = 0;
  bool too_large = false;
  for (char c : token) {
    const unsigned digit = static_cast<unsigned char>(c) - unsigned{'0'};
    if (digit > 9) return number::not_digits;
    if (!too_large) {
      value = value * 10 + digit;  // value <= max < 2^60 before, no overflow
      too_large = value > max;
    }
  }
  return too_large ? number::too_large : number::ok;
}

// Error messages of parse_pattern_line: all have the line number prepended by the caller.
std::string bad_width(std::string_view token) {
  return "width " + std::string(token.size() <= 32 ? token : token.substr(0, 32)) + " is not one of 1, 2, 4, 8, 16";
}

}  // namespace

line_kind parse_pattern_line(std::string_view line, const arch_table& arch, memory_space space, wave_access& out,
                             std::string& error) {
  scanner t(line);
  const std::string_view name = t.next();
  if (t.has_control()) return error = t.control_message(), line_kind::error;
  if (name.empty()) return line_kind::blank;
  const std::string_view width_text = t.next(), op_text = t.next();
  if (t.has_control()) return error = t.control_message(), line_kind::error;
  if (width_text.empty() || op_text.empty()) {
    error = "expected NAME WIDTH OP and " + std::to_string(arch.wave_size) + " offsets, found only " +
            (width_text.empty() ? "1 field" : "2 fields");
    return line_kind::error;
  }
  std::uint64_t width = 0;
  if (parse_unsigned(width_text, 16, width) != number::ok || (width & (width - 1)) != 0 || width == 0) {
    error = width_text.find_first_not_of("0123456789") == std::string_view::npos ? bad_width(width_text)
                                                                                 : "width " + quoted(width_text) +
                                                                                       " is not one of 1, 2, 4, 8, 16";
    return line_kind::error;
  }
  access_kind kind;
  if (op_text == "load") {
    kind = access_kind::load;
  } else if (op_text == "store") {
    kind = access_kind::store;
  } else {
    error = "operation " + quoted(op_text) + " is neither load nor store";
    return line_kind::error;
  }
  out.label.assign(name.data(), name.size());
  out.kind = kind;
  out.space = space;
  out.width = static_cast<int>(width);
  out.address.resize(static_cast<std::size_t>(arch.wave_size));
  const std::size_t lanes = out.address.size();
  address_t* address = out.address.data();
  std::size_t found = 0;
  // A token cut short by a control byte is not judged: the control byte is the error.
  std::string_view tok;
  number kind_of_number = number::ok;
  std::uint64_t v = 0;
  for (; t.next_number(inactive_offset, tok, kind_of_number, v) && !t.has_control(); ++found) {
    if (found >= lanes) continue;  // too many: counted for the message below
    auto lane = [found] { return "lane " + std::to_string(found) + ": offset "; };
    switch (kind_of_number) {
      case number::not_digits:
        error = lane() + quoted(tok) + " is not an unsigned decimal integer";
        return line_kind::error;
      case number::too_large:
        error = lane() + std::string(tok.substr(0, 32)) + (tok.size() > 32 ? "..." : "") +
                " is out of range (at most 4294967295, which marks an inactive lane)";
        return line_kind::error;
      case number::ok: break;
    }
    if (v == inactive_offset) {
      address[found] = no_address;
    } else if ((v & (width - 1)) != 0) {
      error = lane() + std::to_string(v) + " is not a multiple of the width " + std::to_string(width);
      return line_kind::error;
    } else {
      address[found] = v;
    }
  }
  if (t.has_control()) return error = t.control_message(), line_kind::error;
  if (found != lanes) {
    error = "expected " + std::to_string(lanes) + " offsets for " + std::string(arch.name) + ", found " +
            std::to_string(found);
    return line_kind::error;
  }
  return line_kind::pattern;
}

pattern_reader::pattern_reader(std::istream& in, const arch_table& arch, memory_space space,
                               std::size_t max_line_bytes)
    : in_(in),
      arch_(arch),
      space_(space),
      max_line_(std::max<std::size_t>(max_line_bytes, 1)),
      capacity_(16 * max_line_ + 16),
      buffer_(new char[capacity_]) {}

// The next line in [begin_, end_), refilling the buffer as needed; `overlong` when it exceeded the limit
// (its bytes were dropped as they came). False at the end of input.
bool pattern_reader::next_line(std::string_view& line, bool& overlong) {
  overlong = false;
  for (;;) {
    const char* first = buffer_.get() + begin_;
    if (const void* nl = std::memchr(first, '\n', end_ - begin_)) {
      const char* stop = static_cast<const char*>(nl);
      line = std::string_view(first, static_cast<std::size_t>(stop - first));
      begin_ += line.size() + 1;
      overlong = discarding_ || line.size() > max_line_;
      discarding_ = false;
      ++line_;
      return true;
    }
    if (eof_) {
      if (begin_ == end_ && !discarding_) return false;
      line = std::string_view(first, end_ - begin_);
      overlong = discarding_ || line.size() > max_line_;
      discarding_ = false;
      begin_ = end_;
      ++line_;
      return true;
    }
    if (end_ - begin_ > max_line_) {  // no newline within the limit: drop what we have
      discarding_ = true;
      begin_ = end_ = 0;
    } else if (begin_ > 0) {  // keep the partial line, make room behind it
      std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    in_.read(buffer_.get() + end_, static_cast<std::streamsize>(capacity_ - end_));
    const std::streamsize got = in_.gcount();
    end_ += static_cast<std::size_t>(got);
    if (got == 0) {  // end of input, or a stream that failed (then read_failed)
      eof_ = true;
      read_failed_ = in_.bad();
    }
  }
}

pattern_reader::result pattern_reader::next(wave_access& access) {
  std::string_view line;
  bool overlong = false;
  while (next_line(line, overlong)) {
    if (overlong) {
      error_ = {line_, "longer than " + std::to_string(max_line_) + " bytes"};
      return result::error;
    }
    switch (parse_pattern_line(line, arch_, space_, access, message_)) {
      case line_kind::blank: continue;
      case line_kind::pattern: return result::pattern;
      case line_kind::error: error_ = {line_, message_}; return result::error;
    }
  }
  return result::end;
}

}  // namespace tilesim::sim
