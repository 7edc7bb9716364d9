// tilesim/util/json.cpp: json_value's accessors, parse_json (recursive descent over RFC 8259) and dump (see json.hpp).
#include "util/json.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_set>

namespace tilesim::util {

namespace {

// What errors call each kind: "a string", "null".
const char* kind_name(std::size_t index) {
  static const char* names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
  return names[index];
}

}  // namespace

void json_value::wrong(const char* expected) const {
  throw json_error("'" + name_ + "': expected " + expected + ", found " + kind_name(v_.index()));
}

bool json_value::boolean() const {
  if (const bool* b = std::get_if<bool>(&v_)) return *b;
  wrong("a boolean");
}
double json_value::number() const {
  if (const number_t* n = std::get_if<number_t>(&v_)) return n->value;
  wrong("a number");
}
std::int64_t json_value::integer() const {
  const number_t* n = std::get_if<number_t>(&v_);
  if (!n) wrong("an integer");
  // Digits after an optional '-' (RFC 8259's integers); a number built from a double is read as dump writes it.
  const std::string text = n->text.empty() ? number_text(n->value) : n->text;
  const std::size_t sign = !text.empty() && text[0] == '-' ? 1 : 0;
  if (text.size() == sign || text.find_first_not_of("0123456789", sign) != std::string::npos) wrong("an integer");
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0') throw json_error("'" + name_ + "': " + text + " does not fit a 64-bit integer");
  return v;
}
const std::string& json_value::string() const {
  if (const std::string* s = std::get_if<std::string>(&v_)) return *s;
  wrong("a string");
}
const json_value::array& json_value::elements() const {
  if (const array* a = std::get_if<array>(&v_)) return *a;
  wrong("an array");
}
const json_value::object& json_value::members() const {
  if (const object* o = std::get_if<object>(&v_)) return *o;
  wrong("an object");
}
const json_value* json_value::get(const std::string& key) const {
  if (const object* o = std::get_if<object>(&v_))
    for (const auto& [k, v] : *o)
      if (k == key) return &v;
  return nullptr;
}
const json_value& json_value::operator[](const std::string& key) const {
  (void)members();  // "expected an object" first
  if (const json_value* v = get(key)) return *v;
  throw json_error("'" + name_ + "': no member '" + key + "'");
}
const json_value& json_value::operator[](std::size_t i) const {
  const array& a = elements();
  if (i >= a.size())
    throw json_error("'" + name_ + "': index " + std::to_string(i) + " past an array of " + std::to_string(a.size()));
  return a[i];
}
json_value& json_value::at(const std::string& key) {
  return const_cast<json_value&>(static_cast<const json_value&>(*this)[key]);
}
json_value& json_value::at(std::size_t i) { return const_cast<json_value&>(static_cast<const json_value&>(*this)[i]); }
json_value& json_value::set(const std::string& key, json_value value) {
  if (is_null()) v_ = object{};
  if (!is_object()) wrong("an object");
  value.name_ = key;
  object& o = std::get<object>(v_);
  o.emplace_back(key, std::move(value));
  return o.back().second;
}
json_value& json_value::push(json_value value) {
  if (is_null()) v_ = array{};
  if (!is_array()) wrong("an array");
  array& a = std::get<array>(v_);
  value.name_ = "item " + std::to_string(a.size());
  a.push_back(std::move(value));
  return a.back();
}

class json_parser {
 public:
  json_parser(const std::string& t, json_duplicates d) : t_(t), duplicates_(d) {}

  json_value document() {
    json_value v = value(0);
    space();
    if (i_ != t_.size()) fail("text after the document");
    return v;
  }

 private:
  const std::string& t_;
  const json_duplicates duplicates_;
  std::size_t i_ = 0;

  // "JSON at byte 3: expected a value, found ']'" (a byte that is not printable ASCII as "byte 0x1f").
  [[noreturn]] void fail(const std::string& what) const {
    std::string found = "the end";
    if (i_ < t_.size()) {
      const unsigned char c = static_cast<unsigned char>(t_[i_]);
      char hex[16];
      std::snprintf(hex, sizeof hex, "byte 0x%02x", c);
      found = c >= 0x20 && c < 0x7f ? std::string("'") + t_[i_] + "'" : std::string(hex);
    }
    throw json_error("JSON at byte " + std::to_string(i_) + ": " + what + ", found " + found);
  }
  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    space();
    if (i_ < t_.size() && t_[i_] == c) return ++i_, true;
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(const char* w) {
    const std::string s(w);
    if (t_.compare(i_, s.size(), s) == 0) return i_ += s.size(), true;
    return false;
  }

  json_value value(int depth) {
    if (depth > 64) fail("nesting deeper than 64");
    space();
    if (i_ >= t_.size()) fail("expected a value");
    const char c = t_[i_];
    if (c == '{') return obj(depth);
    if (c == '[') return arr(depth);
    if (c == '"') return json_value(str());
    if (word("true")) return json_value(true);
    if (word("false")) return json_value(false);
    if (word("null")) return json_value();
    if (c == '-' || (c >= '0' && c <= '9')) return num();
    fail("expected a value");
  }
  json_value obj(int depth) {
    ++i_;
    json_value o = json_value::object{};
    auto& members = std::get<json_value::object>(o.v_);
    if (eat('}')) return o;
    std::unordered_set<std::string> seen;  // the duplicate check in constant time per member: linear reading
    do {
      space();
      if (i_ >= t_.size() || t_[i_] != '"') fail("expected a member name");
      const std::size_t at = i_;
      std::string key = str();
      if (duplicates_ == json_duplicates::refuse && !seen.insert(key).second)
        throw json_error("JSON at byte " + std::to_string(at) + ": member '" + key + "' given twice");
      expect(':');
      json_value item = value(depth + 1);
      item.name_ = key;
      members.emplace_back(std::move(key), std::move(item));
    } while (eat(','));
    expect('}');
    return o;
  }
  json_value arr(int depth) {
    ++i_;
    json_value a = json_value::array{};
    auto& items = std::get<json_value::array>(a.v_);
    if (eat(']')) return a;
    do {
      json_value item = value(depth + 1);
      item.name_ = "item " + std::to_string(items.size());
      items.push_back(std::move(item));
    } while (eat(','));
    expect(']');
    return a;
  }
  unsigned hex4() {
    if (i_ + 4 > t_.size()) fail("\\u escape needs 4 hex digits");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k, ++i_) {
      const char h = t_[i_];
      const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (d < 0) fail("\\u escape needs 4 hex digits");
      v = v * 16 + static_cast<unsigned>(d);
    }
    return v;
  }
  static void utf8(unsigned cp, std::string& s) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xc0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xe0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      s += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      s += static_cast<char>(0xf0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      s += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  std::string str() {
    ++i_;
    std::string s;
    while (true) {
      if (i_ >= t_.size()) fail("unterminated string");
      const char c = t_[i_];
      if (c == '"') return ++i_, s;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      ++i_;
      if (c != '\\') {
        s += c;
        continue;
      }
      if (i_ >= t_.size()) fail("unterminated escape");
      const char e = t_[i_++];
      switch (e) {
        case '"': s += '"'; break;
        case '\\': s += '\\'; break;
        case '/': s += '/'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xd800 && cp < 0xdc00) {  // a high surrogate: its low half must follow
            if (t_.compare(i_, 2, "\\u") != 0) fail("a high surrogate without its low half");
            i_ += 2;
            const unsigned low = hex4();
            if (low < 0xdc00 || low >= 0xe000) fail("a high surrogate without its low half");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            fail("a low surrogate without its high half");
          }
          utf8(cp, s);
          break;
        }
        default: --i_; fail("unknown escape");
      }
    }
  }
  // RFC 8259's number, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, and nothing strtod also takes (hex,
  // inf, nan; found by fuzz_json); a number beyond a double's range is an error, not infinity.
  json_value num() {
    const std::size_t start = i_;
    auto digits = [&] {
      const std::size_t from = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
      return i_ - from;
    };
    if (i_ < t_.size() && t_[i_] == '-') ++i_;
    if (i_ < t_.size() && t_[i_] == '0') {
      ++i_;
    } else if (digits() == 0) {
      i_ = start;
      fail("expected a number");
    }
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (digits() == 0) fail("expected a digit after '.'");
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (digits() == 0) fail("expected a digit in the exponent");
    }
    json_value n;
    std::string text = t_.substr(start, i_ - start);
    const double d = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(d)) {
      i_ = start;
      fail("number out of a double's range");
    }
    n.v_ = json_value::number_t{d, std::move(text)};
    return n;
  }
};

namespace {

void write(const json_value& v, int indent, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent) + 2, ' '), close(static_cast<std::size_t>(indent), ' ');
  if (v.is_null()) {
    out += "null";
  } else if (v.is_number()) {
    out += number_text(v.number());
  } else if (v.is_string()) {
    out += json_quote(v.string());
  } else if (v.is_array()) {
    const auto& a = v.elements();
    bool flat = a.size() <= 16;
    for (const json_value& e : a) flat = flat && (e.is_number() || e.is_null());
    if (a.empty()) {
      out += "[]";
      return;
    }
    out += flat ? "[" : "[\n";
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!flat) out += pad;
      write(a[i], indent + 2, out);
      if (i + 1 < a.size()) out += flat ? ", " : ",\n";
    }
    out += flat ? "]" : "\n" + close + "]";
  } else if (v.is_object()) {
    const auto& o = v.members();
    if (o.empty()) {
      out += "{}";
      return;
    }
    out += "{\n";
    for (std::size_t i = 0; i < o.size(); ++i) {
      out += pad + json_quote(o[i].first) + ": ";
      write(o[i].second, indent + 2, out);
      if (i + 1 < o.size()) out += ",";
      out += "\n";
    }
    out += close + "}";
  } else {
    out += v.boolean() ? "true" : "false";
  }
}

}  // namespace

json_value parse_json(const std::string& text, json_duplicates duplicates) {
  return json_parser(text, duplicates).document();
}

std::string dump(const json_value& v, int indent) {
  std::string out;
  write(v, indent, out);
  return out;
}

std::string json_quote(const std::string& s) {
  std::string o = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      case '\r': o += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          o += buf;
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}

std::string number_text(double d) {
  if (!std::isfinite(d)) return "null";  // JSON has no NaN or infinity
  if (d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

json_value exact_u64(std::uint64_t v) { return json_value(std::to_string(v)); }

std::uint64_t read_u64(const json_value& v, const std::string& what) {
  if (v.is_string()) {
    const std::string& t = v.string();
    std::uint64_t r = 0;
    bool ok = !t.empty() && t.size() <= 20;
    for (std::size_t i = 0; ok && i < t.size(); ++i) {
      const unsigned digit = static_cast<unsigned char>(t[i]) - static_cast<unsigned char>('0');
      ok = digit <= 9 && r <= (UINT64_MAX - digit) / 10;
      r = r * 10 + digit;
    }
    if (!ok)
      throw json_error(what + ": \"" + t + "\" is not an unsigned 64-bit decimal integer (0.." + std::to_string(UINT64_MAX) + ")");
    return r;
  }
  const double d = v.number();  // throws json_error naming the type when neither a string nor a number
  constexpr double two63 = 9223372036854775808.0;
  if (!(d > -two63 && d < two63) || d != static_cast<double>(static_cast<long long>(d)))
    throw json_error(what + ": " + number_text(d) + " is not a 64-bit integer (a number must be integral and in (-2^63, 2^63))");
  return static_cast<std::uint64_t>(static_cast<long long>(d));
}

}  // namespace tilesim::util
