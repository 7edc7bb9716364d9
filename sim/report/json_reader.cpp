// tilesim/sim/report/json_reader.cpp: recursive descent over RFC 8259, numbers kept as text.
#include "sim/report/json_reader.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <unordered_set>

namespace tilesim::sim {

namespace {

const char* type_name(json_value::type t) {
  switch (t) {
    case json_value::type::null: return "null";
    case json_value::type::boolean: return "a boolean";
    case json_value::type::number: return "a number";
    case json_value::type::string: return "a string";
    case json_value::type::array: return "an array";
    case json_value::type::object: return "an object";
  }
  return "?";
}

}  // namespace

class json_parser {
 public:
  explicit json_parser(const std::string& s) : s_(s) {}

  json_value document() {
    json_value v = value(0);
    space();
    if (at_ != s_.size()) fail("text after the value");
    return v;
  }

 private:
  const std::string& s_;
  std::size_t at_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("JSON: " + what + " at byte " + std::to_string(at_));
  }
  void space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\n' || s_[at_] == '\r' || s_[at_] == '\t')) ++at_;
  }
  bool take(char c) {
    space();
    if (at_ < s_.size() && s_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  void word(const char* w) {
    for (const char* p = w; *p; ++p, ++at_)
      if (at_ >= s_.size() || s_[at_] != *p) fail(std::string("expected '") + w + "'");
  }

  json_value value(int depth) {
    if (depth > 256) fail("nesting deeper than 256");
    space();
    if (at_ >= s_.size()) fail("unexpected end");
    json_value v;
    const char c = s_[at_];
    if (c == '{') {
      ++at_;
      v.kind_ = json_value::type::object;
      if (take('}')) return v;
      std::unordered_set<std::string> seen;  // the duplicate check in constant time per member: linear reading
      do {
        space();
        std::string key = string();
        if (!seen.insert(key).second) fail("member '" + key + "' given twice");
        expect(':');
        json_value item = value(depth + 1);
        item.name_ = key;
        v.members_.emplace_back(std::move(key), std::move(item));
      } while (take(','));
      expect('}');
    } else if (c == '[') {
      ++at_;
      v.kind_ = json_value::type::array;
      if (take(']')) return v;
      do {
        json_value item = value(depth + 1);
        item.name_ = "item " + std::to_string(v.items_.size());
        v.items_.push_back(std::move(item));
      } while (take(','));
      expect(']');
    } else if (c == '"') {
      v.kind_ = json_value::type::string;
      v.text_ = string();
    } else if (c == 't' || c == 'f') {
      v.kind_ = json_value::type::boolean;
      v.flag_ = c == 't';
      word(v.flag_ ? "true" : "false");
    } else if (c == 'n') {
      word("null");
    } else {
      v.kind_ = json_value::type::number;
      v.text_ = number();
    }
    return v;
  }

  std::string number() {
    const std::size_t start = at_;
    auto digits = [&]() {
      const std::size_t d = at_;
      while (at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '9') ++at_;
      if (at_ == d) fail("expected a digit");
    };
    if (at_ < s_.size() && s_[at_] == '-') ++at_;
    if (at_ < s_.size() && s_[at_] == '0') ++at_;
    else digits();
    if (at_ < s_.size() && s_[at_] == '.') {
      ++at_;
      digits();
    }
    if (at_ < s_.size() && (s_[at_] == 'e' || s_[at_] == 'E')) {
      ++at_;
      if (at_ < s_.size() && (s_[at_] == '+' || s_[at_] == '-')) ++at_;
      digits();
    }
    return s_.substr(start, at_ - start);
  }

  unsigned hex4() {
    if (at_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[at_++];
      v = v * 16 + (h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : 99u);
      if (v > 0xffff) fail("bad \\u escape");
    }
    return v;
  }

  std::string string() {
    if (at_ >= s_.size() || s_[at_] != '"') fail("expected a string");
    ++at_;
    std::string out;
    for (;;) {
      if (at_ >= s_.size()) fail("unterminated string");
      const char c = s_[at_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= s_.size()) fail("unterminated escape");
      const char e = s_[at_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xd800 && cp < 0xdc00) {
            if (at_ + 2 > s_.size() || s_[at_] != '\\' || s_[at_ + 1] != 'u') fail("lone high surrogate");
            at_ += 2;
            const unsigned low = hex4();
            if (low < 0xdc00 || low >= 0xe000) fail("bad low surrogate");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            fail("lone low surrogate");
          }
          if (cp < 0x80) {
            out += static_cast<char>(cp);
          } else if (cp < 0x800) {
            out += static_cast<char>(0xc0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3f));
          } else if (cp < 0x10000) {
            out += static_cast<char>(0xe0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (cp & 0x3f));
          } else {
            out += static_cast<char>(0xf0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (cp & 0x3f));
          }
          break;
        }
        default: fail(std::string("bad escape \\") + e);
      }
    }
  }
};

void json_value::wrong(const char* expected) const {
  throw std::invalid_argument("'" + name_ + "': expected " + expected + ", found " + type_name(kind_));
}

bool json_value::boolean() const {
  if (kind_ != type::boolean) wrong("a boolean");
  return flag_;
}

std::int64_t json_value::integer() const {
  if (kind_ != type::number || text_.find_first_of(".eE") != std::string::npos) wrong("an integer");
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text_.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0')
    throw std::invalid_argument("'" + name_ + "': " + text_ + " does not fit a 64-bit integer");
  return v;
}

double json_value::number() const {
  if (kind_ != type::number) wrong("a number");
  return std::strtod(text_.c_str(), nullptr);
}

const std::string& json_value::text() const {
  if (kind_ != type::string) wrong("a string");
  return text_;
}

const std::vector<json_value>& json_value::items() const {
  if (kind_ != type::array) wrong("an array");
  return items_;
}

const json_value& json_value::at(const std::string& key) const {
  if (kind_ != type::object) wrong("an object");
  for (const auto& m : members_)
    if (m.first == key) return m.second;
  throw std::invalid_argument("'" + name_ + "': no member '" + key + "'");
}

bool json_value::has(const std::string& key) const {
  if (kind_ != type::object) return false;
  for (const auto& m : members_)
    if (m.first == key) return true;
  return false;
}

const std::vector<std::pair<std::string, json_value>>& json_value::members() const {
  if (kind_ != type::object) wrong("an object");
  return members_;
}

json_value parse_json(const std::string& text) { return json_parser(text).document(); }

std::string json_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace tilesim::sim
