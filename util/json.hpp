// tilesim/util/json.hpp: tilesim's one JSON library: a strict reader, a builder, and the writer of recordings.
//
// DEFINITION. json_value is null, a boolean, a number, a string, an array or an object (members in their order,
// names unique when read). parse_json(text) reads one RFC 8259 value: no comments, no trailing commas, no hex,
// inf or nan, strings with every escape (\u with surrogate pairs, to UTF-8). A number keeps the text it was
// read from as well as the nearest double, so integer() gives 64-bit integers exactly (2^53 + 1 included) while
// number() gives the double. Values are built with set (objects) and push (arrays); dump writes one back with
// two-space indentation, numbers as the shortest text that reads back to the same double (integers below
// 1e15 as plain digits), arrays of at most 16 numbers on one line. Every accessor checks the type, and every
// error is a json_error (a std::invalid_argument) naming the value: the member it is, or "item N" of an array.
//
// WORKED EXAMPLE.
//   json_value v = parse_json(R"({"grid": 8, "big": 9007199254740993, "points": [{"name": "copy"}]})");
//   v["grid"].integer() == 8;  v["big"].integer() == 9007199254740993;  v["points"][0]["name"].string() == "copy"
//   v.get("cycles") == nullptr;  v["grid"].string() throws "'grid': expected a string, found a number"
//   parse_json("[1,]") throws "JSON at byte 3: expected a value, found ']'"
//   json_value r;  r.set("n", 64);  r.set("list", json_value::array{1, 2.5});  dump(r) == "{\n  \"n\": 64,\n  \"list\": [1, 2.5]\n}"
//
// INVARIANTS: parse_json(dump(v)) == v (numbers compare by their double; non-finite ones are written as null);
// anything but one value and whitespace is refused with the byte offset; nesting is capped (64 levels); a
// name given twice in an object is refused (unless json_duplicates::keep is asked for), and reading is linear in
// the text's size (a hash set of names, issue 38); bad input never crashes or reads past the text (fuzzed: util/fuzz_json.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tilesim::util {

// Malformed JSON text or a value that is not what the reader asked for; the text names the byte or the value.
class json_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class json_value {
 public:
  using array = std::vector<json_value>;
  using object = std::vector<std::pair<std::string, json_value>>;

  json_value() = default;
  json_value(std::nullptr_t) {}
  json_value(bool b) : v_(b) {}
  json_value(double d) : v_(number_t{d, {}}) {}
  json_value(int i) : v_(number_t{static_cast<double>(i), std::to_string(i)}) {}
  json_value(long long i) : v_(number_t{static_cast<double>(i), std::to_string(i)}) {}
  json_value(unsigned long i) : v_(number_t{static_cast<double>(i), std::to_string(i)}) {}
  json_value(const char* s) : v_(std::string(s)) {}
  json_value(std::string s) : v_(std::move(s)) {}
  json_value(array a) : v_(std::move(a)) {}
  json_value(object o) : v_(std::move(o)) {}

  bool is_null() const { return v_.index() == 0; }
  bool is_boolean() const { return std::holds_alternative<bool>(v_); }
  bool is_number() const { return std::holds_alternative<number_t>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_array() const { return std::holds_alternative<array>(v_); }
  bool is_object() const { return std::holds_alternative<object>(v_); }

  // The value as each type; throws json_error "'grid': expected a number, found a string" otherwise.
  bool boolean() const;
  double number() const;        // any number, as the nearest double: 0.10000000000000001 -> 0.1
  std::int64_t integer() const;  // a number written as an integer that fits 64 bits, exactly: "-9007199254740993"
  const std::string& string() const;
  const array& elements() const;
  const object& members() const;
  // Member `key` (throws json_error "'value': no member 'key'" when absent); element i of an array.
  const json_value& operator[](const std::string& key) const;
  const json_value& operator[](std::size_t i) const;
  // Member `key` or nullptr (nullptr too when this is not an object).
  const json_value* get(const std::string& key) const;
  // Member `key` or element i for changing it; throws as operator[] does.
  json_value& at(const std::string& key);
  json_value& at(std::size_t i);

  // Appends member key = value (objects) or an element (arrays) and returns it; turns null into the right kind.
  json_value& set(const std::string& key, json_value value);
  json_value& push(json_value value);

  // Same kind and contents (numbers by their double, object members in order); the names errors use are not compared.
  bool operator==(const json_value& other) const { return v_ == other.v_; }

 private:
  friend class json_parser;
  struct number_t {
    double value = 0;
    std::string text;  // as read or built from an integer ("9007199254740993"); empty when built from a double
    bool operator==(const number_t& o) const { return value == o.value; }
  };
  [[noreturn]] void wrong(const char* expected) const;
  std::variant<std::monostate, bool, number_t, std::string, array, object> v_;
  std::string name_ = "value";  // what errors call it: the member's name, "item N", or "value" at the top
};

// What parse_json does with a name given twice in one object: refuse it ("JSON at byte 9: member 'a' given
// twice"), or keep every member in order, lookups finding the first: how the recordings of data/recordings/ are
// read, as one of them (h100-user-program.json, written before its writer was fixed) holds names twice.
enum class json_duplicates { refuse, keep };

// Reads `text`; throws json_error "JSON at byte N: what is wrong[, found 'c' | the end]".
json_value parse_json(const std::string& text, json_duplicates duplicates = json_duplicates::refuse);
// `v` as text; `indent` is the column v starts at (nested values and the closing bracket are indented from it).
std::string dump(const json_value& v, int indent = 0);
// `s` as a JSON string literal, quotes included: \" \\ \n \t \r, other control characters as \u00XX.
std::string json_quote(const std::string& s);
// A double as dump writes it: 64 -> "64", 0.1 -> "0.1", 1e19 -> "1e+19", NaN -> "null".
std::string number_text(double d);

// 64-bit integers exactly (issue 16). A JSON number is a double to most readers, exact only up to 2^53, so a
// seed is written as its decimal text: exact_u64(17293822569102704640ull) is the string "17293822569102704640".
// read_u64 reads it back bit for bit; it also reads a number, the form recordings made before issue 16 hold (the
// seed as a signed 64-bit integer converted to double, e.g. -2.93e+18), as that signed value wrapped to 64 bits:
// what replaying those recordings has always used (the double already lost the low bits, so it is not the seed
// the GPU had). Anything else (a fraction, a number outside (-2^63, 2^63), text that is not 1 to 20 decimal
// digits, a value above 2^64 - 1) throws json_error naming `what` and the value.
json_value exact_u64(std::uint64_t v);
std::uint64_t read_u64(const json_value& v, const std::string& what);

}  // namespace tilesim::util
