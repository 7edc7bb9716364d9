// tilesim/gpu/crosscheck/json.hpp: the small JSON model the cross-check writes and its replay test reads.
//
// DEFINITION. json_value is null, a boolean, a number (double), a string, an array or an object (keys in
// insertion order). parse_json reads RFC 8259 text (no comments, no trailing commas); dump writes it back
// with two-space indentation, numbers as the shortest text that reads back to the same double.
//
// WORKED EXAMPLE.
//   json_value v = parse_json(R"({"points": [{"name": "copy", "wavefronts": 64}]})");
//   v["points"][0]["wavefronts"].number() == 64
//   v["points"][0].get("cycles") == nullptr          // absent key
//   parse_json("[1,]") throws json_error("JSON at byte 3: expected a value, found ']'")
//
// INVARIANTS: parse_json(dump(v)) == v; a type mismatch (number() of a string) or a missing key via
// operator[] throws json_error naming the key or the types, never undefined behaviour.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tilesim::gpu {

class json_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class json_value {
 public:
  using array = std::vector<json_value>;
  using object = std::vector<std::pair<std::string, json_value>>;

  json_value() = default;
  json_value(std::nullptr_t) {}
  json_value(bool b) : v_(b) {}
  json_value(double d) : v_(d) {}
  json_value(int i) : v_(static_cast<double>(i)) {}
  json_value(long long i) : v_(static_cast<double>(i)) {}
  json_value(unsigned long i) : v_(static_cast<double>(i)) {}
  json_value(const char* s) : v_(std::string(s)) {}
  json_value(std::string s) : v_(std::move(s)) {}
  json_value(array a) : v_(std::move(a)) {}
  json_value(object o) : v_(std::move(o)) {}

  bool is_null() const { return v_.index() == 0; }
  bool is_number() const { return std::holds_alternative<double>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_array() const { return std::holds_alternative<array>(v_); }
  bool is_object() const { return std::holds_alternative<object>(v_); }

  bool boolean() const;
  double number() const;
  const std::string& string() const;
  const array& elements() const;
  const object& members() const;
  // Member `key` (throws json_error naming it when absent); element i of an array.
  const json_value& operator[](const std::string& key) const;
  const json_value& operator[](std::size_t i) const;
  // Member `key` or nullptr.
  const json_value* get(const std::string& key) const;
  // Member `key` for changing it (throws json_error naming it when absent); element i likewise.
  json_value& at(const std::string& key);
  json_value& at(std::size_t i);

  // Appends member key = value (objects) or an element (arrays); turns null into the right kind.
  json_value& set(const std::string& key, json_value value);
  json_value& push(json_value value);

  bool operator==(const json_value& other) const = default;

 private:
  const char* type_name() const;
  std::variant<std::monostate, bool, double, std::string, array, object> v_;
};

json_value parse_json(const std::string& text);
std::string dump(const json_value& v, int indent = 0);

// 64-bit integers exactly (issue 16). A JSON number is a double to json_value and to most readers, exact
// only up to 2^53, so a seed is written as its decimal text: exact_u64(17293822569102704640ull) is the string
// "17293822569102704640". read_u64 reads it back bit for bit; it also reads a number, the form recordings
// made before issue 16 hold (the seed as a signed 64-bit integer converted to double, e.g. -2.93e+18), as
// that signed value wrapped to 64 bits: what replaying those recordings has always used (the double already
// lost the low bits, so it is not the seed the GPU had). Anything else (a fraction, a number outside
// (-2^63, 2^63), text that is not 1 to 20 decimal digits, a value above 2^64 - 1) throws json_error naming
// `what` and the value.
json_value exact_u64(std::uint64_t v);
std::uint64_t read_u64(const json_value& v, const std::string& what);

}  // namespace tilesim::gpu
