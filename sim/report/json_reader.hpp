// tilesim/sim/report/json_reader.hpp: a small, strict JSON reader for the reports tilesim writes itself.
//
// DEFINITION. parse_json(text) reads one RFC 8259 value into a json_value tree: objects (members in their
// order, names unique), arrays, strings (every escape, \u with surrogate pairs to UTF-8), numbers (kept as their
// text, so 64-bit integers and 17-digit doubles come back exactly), true, false, null. Accessors check the
// type and name what they expected: at("grid").integer() throws std::invalid_argument
// "'grid': expected an integer, found a string". Partial reports (partial_report.hpp) are read with it.
//
// WORKED EXAMPLE.
//   json_value v = parse_json(R"({"grid": 8, "sets": [[0, 3]], "name": "a\u00e9"})");
//   v.at("grid").integer() == 8;  v.at("sets").items()[0].items()[1].integer() == 3;  v.at("name").text() == "a\xc3\xa9"
//
// INVARIANTS: anything but one value and whitespace is refused with the byte offset; depth is capped (256);
// reading is linear in the text's size (the duplicate-name check is a hash set, issue 38).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tilesim::sim {

class json_value {
 public:
  enum class type { null, boolean, number, string, array, object };

  type kind() const { return kind_; }
  bool is_null() const { return kind_ == type::null; }
  // The value as each type; throws std::invalid_argument naming `name_` and what was found.
  bool boolean() const;
  std::int64_t integer() const;  // a number written as an integer that fits 64 bits
  double number() const;         // any number (strtod: the nearest double)
  const std::string& text() const;
  const std::vector<json_value>& items() const;
  // The member `key` of an object (throws when absent), or whether it has one.
  const json_value& at(const std::string& key) const;
  bool has(const std::string& key) const;
  // An object's members in their order.
  const std::vector<std::pair<std::string, json_value>>& members() const;

 private:
  friend class json_parser;
  type kind_ = type::null;
  bool flag_ = false;
  std::string text_;  // string contents, or a number's text
  std::vector<json_value> items_;
  std::vector<std::pair<std::string, json_value>> members_;
  std::string name_ = "value";  // what errors call it: the member name or "item N"
  [[noreturn]] void wrong(const char* expected) const;
};

// Reads `text`; throws std::invalid_argument "JSON: ... at byte N".
json_value parse_json(const std::string& text);

// `s` as a JSON string literal, quotes included (control characters as \u00XX).
std::string json_quote(const std::string& s);

}  // namespace tilesim::sim
