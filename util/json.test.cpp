// tilesim/util/json.test.cpp: the JSON library reads back what it writes, keeps integers exact, and names what is wrong.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "util/json.hpp"

using tilesim::util::dump;
using tilesim::util::exact_u64;
using tilesim::util::json_error;
using tilesim::util::json_quote;
using tilesim::util::json_value;
using tilesim::util::parse_json;
using tilesim::util::read_u64;

namespace {

// The text of the json_error `f` throws, or "no error".
template <class F>
std::string message(F f) {
  try {
    f();
  } catch (const json_error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("parse_json(dump(v)) == v for nested values, escapes and awkward numbers") {
  json_value v;
  v.set("name", "copy \"fp16\"\n\t\\ é");
  v.set("n", 12345678901234LL);
  v.set("x", 0.1);
  v.set("tiny", -3.0e-300);
  v.set("flags", json_value::array{json_value(true), json_value(false), json_value()});
  json_value& inner = v.set("inner", json_value::object{});
  inner.set("list", json_value::array{1, 2.5, -7});
  const json_value back = parse_json(dump(v));
  CHECK(back == v);
  CHECK(parse_json(dump(v, 2)) == v);
  CHECK(back["n"].number() == 12345678901234.0);
  CHECK(back["x"].number() == 0.1);
  CHECK(back["inner"]["list"][1].number() == 2.5);
  CHECK(back["name"].string() == "copy \"fp16\"\n\t\\ é");
}

TEST_CASE("dump writes the recordings' form: two-space indentation, short number arrays on one line, shortest numbers") {
  json_value r;
  r.set("n", 64);
  r.set("list", json_value::array{1, 2.5});
  r.set("empty", json_value::array{});
  r.set("names", json_value::array{"a"});
  CHECK(dump(r) == "{\n  \"n\": 64,\n  \"list\": [1, 2.5],\n  \"empty\": [],\n  \"names\": [\n    \"a\"\n  ]\n}");
  CHECK(dump(r["list"], 4) == "[1, 2.5]");
  json_value long_list = json_value::array{};
  for (int k = 0; k < 17; ++k) long_list.push(k);  // more than 16 numbers: one per line
  CHECK(dump(long_list).find("[\n  0,\n  1,") == 0);
  CHECK(dump(json_value(1e19)) == "1e+19");
  CHECK(dump(json_value(0.1)) == "0.1");
  CHECK(dump(json_value(-2.0)) == "-2");
  CHECK(dump(json_value(std::nan(""))) == "null");  // JSON has no NaN
  CHECK(dump(json_value(json_value::array{1, 2})) == "[1, 2]");
}

TEST_CASE("json_quote escapes quotes, backslashes and control characters, and nothing else") {
  CHECK(json_quote("a\"\n") == "\"a\\\"\\n\"");
  CHECK(json_quote("\t\r\\\x01\x1f") == "\"\\t\\r\\\\\\u0001\\u001f\"");
  CHECK(json_quote("é/") == "\"é/\"");
}

TEST_CASE("parse_json reads standard text: whitespace, \\u escapes with surrogate pairs, exponents, exact integers") {
  const json_value v = parse_json(" { \"a\" : [ 1e3 , -0.5E-1, \"\\u0041\\u00e9\" ] , \"b\":null } ");
  CHECK(v["a"][0].number() == 1000);
  CHECK(v["a"][1].number() == -0.05);
  CHECK(v["a"][2].string() == "A\xc3\xa9");
  CHECK(v["b"].is_null());
  CHECK(v.get("c") == nullptr);
  const json_value w = parse_json(R"({"grid": 8, "big": 9007199254740993, "d": 0.10000000000000001, "s": "a\u00e9\n\ud83d\ude00",
                                      "list": [true, null, []], "neg": -9223372036854775808})");
  CHECK(w["grid"].integer() == 8);
  CHECK(w["big"].integer() == 9007199254740993);  // beyond a double's integers: kept as text
  CHECK(w["neg"].integer() == INT64_MIN);
  CHECK(w["d"].number() == 0.1);
  CHECK(w["s"].string() == "a\xc3\xa9\n\xf0\x9f\x98\x80");
  CHECK(w["list"][0].boolean());
  CHECK(w["list"][1].is_null());
  CHECK(w["list"][2].elements().empty());
  CHECK(json_value(12).integer() == 12);  // built values are integers too
  CHECK(json_value(3.0).integer() == 3);
}

TEST_CASE("malformed JSON is refused with the byte and what was found there") {
  CHECK(message([] { parse_json("[1,]"); }) == "JSON at byte 3: expected a value, found ']'");
  CHECK(message([] { parse_json("{\"a\" 1}"); }) == "JSON at byte 5: expected ':', found '1'");
  CHECK(message([] { parse_json("\"open"); }) == "JSON at byte 5: unterminated string, found the end");
  CHECK(message([] { parse_json("[1] 2"); }) == "JSON at byte 4: text after the document, found '2'");
  CHECK(message([] { parse_json("{\"a\": 1,}"); }) == "JSON at byte 8: expected a member name, found '}'");
  CHECK(message([] { parse_json("[\x01]"); }) == "JSON at byte 1: expected a value, found byte 0x01");
  CHECK(message([] { parse_json(std::string(100, '[')); }).find("nesting deeper than 64") != std::string::npos);
  CHECK(message([] { parse_json("\"\\ud83d\""); }).find("a high surrogate without its low half") != std::string::npos);
  CHECK(message([] { parse_json("\"\\ude00\""); }).find("a low surrogate without its high half") != std::string::npos);
}

TEST_CASE("a member name given twice is refused, and reading stays linear in the number of members") {
  CHECK(message([] { parse_json("{\"a\": 1, \"a\": 2}"); }) == "JSON at byte 9: member 'a' given twice");
  std::string big = "{";
  for (int k = 0; k < 200000; ++k) big += "\"k" + std::to_string(k) + "\": " + std::to_string(k) + ", ";
  big += "\"k0\": 0}";  // a quadratic check would compare 2e10 names; a hash set does 2e5 look-ups
  CHECK(message([&] { parse_json(big); }).find("member 'k0' given twice") != std::string::npos);
}

TEST_CASE("json_duplicates::keep reads a name given twice as written: both members in order, lookups find the first") {
  const json_value v = parse_json(R"({"n": 1, "m": 2, "n": 3})", tilesim::util::json_duplicates::keep);
  CHECK(v.members().size() == 3);
  CHECK(v["n"].integer() == 1);
  CHECK(v.members()[2].second.integer() == 3);
  CHECK(parse_json(dump(v), tilesim::util::json_duplicates::keep) == v);
}

TEST_CASE("accessors name the value (member or item) and what they expected") {
  const json_value v = parse_json(R"({"a": "text", "list": [1, 1.5, 2]})");
  CHECK(message([&] { (void)v["b"]; }) == "'value': no member 'b'");
  CHECK(message([&] { (void)v["a"].number(); }) == "'a': expected a number, found a string");
  CHECK(message([&] { (void)v["a"].integer(); }) == "'a': expected an integer, found a string");
  CHECK(message([&] { (void)v["a"][0]; }) == "'a': expected an array, found a string");
  CHECK(message([&] { (void)v["list"][3]; }) == "'list': index 3 past an array of 3");
  CHECK(message([&] { (void)v["list"][1].integer(); }) == "'item 1': expected an integer, found a number");
  CHECK(message([&] { (void)parse_json("99999999999999999999").integer(); }) ==
        "'value': 99999999999999999999 does not fit a 64-bit integer");
  json_value built;
  built.set("seed", true);
  CHECK(message([&] { (void)built["seed"].string(); }) == "'seed': expected a string, found a boolean");
  CHECK(message([&] { built.push(1); }) == "'value': expected an array, found an object");
}

TEST_CASE("64-bit integers are exact: read_u64(parse_json(dump(exact_u64(x)))) == x for every bit pattern tried") {
  for (const std::uint64_t x : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{9007199254740993ull},  // 2^53 + 1
                                std::uint64_t{9223372036854775809ull}, UINT64_MAX, std::uint64_t{0xD75A0BC8E3F01234ull}}) {
    CAPTURE(x);
    json_value v;
    v.set("seed", exact_u64(x));
    const std::string text = dump(v);
    CHECK(dump(exact_u64(x)).find_first_not_of("\"0123456789") == std::string::npos);  // digits, never a double
    CHECK(read_u64(parse_json(text)["seed"], "seed") == x);
  }
  CHECK(dump(exact_u64(UINT64_MAX)) == "\"18446744073709551615\"");
}

TEST_CASE("read_u64 reads a pre-issue-16 seed (a signed 64-bit integer as a double) as that value wrapped to 64 bits") {
  // The recordings hold e.g. "seed": -7.867953154990771e+18; replay has always used these values.
  const double legacy = -7.867953154990771e+18;
  CHECK(read_u64(json_value(legacy), "seed") == static_cast<std::uint64_t>(static_cast<long long>(legacy)));
  CHECK(read_u64(json_value(12345), "seed") == 12345u);
  CHECK(read_u64(parse_json("9.212671111728033e+18"), "seed") == 9212671111728032768ull);  // the double's value
}

TEST_CASE("read_u64 rejects what is not a 64-bit integer, naming the field and the value") {
  auto refusal = [](const json_value& v) { return message([&] { (void)read_u64(v, "seed of copy"); }); };
  CHECK(refusal(json_value(1.5)) == "seed of copy: 1.5 is not a 64-bit integer (a number must be integral and in (-2^63, 2^63))");
  CHECK(refusal(json_value(1e19)).find("seed of copy: 1e+19 is not a 64-bit integer") == 0);
  CHECK(refusal(json_value(std::nan(""))).find("seed of copy: null is not") == 0);
  CHECK(refusal(json_value("18446744073709551616")) ==
        "seed of copy: \"18446744073709551616\" is not an unsigned 64-bit decimal integer (0..18446744073709551615)");
  for (const char* bad : {"", "-1", "12a", " 1", "+1", "123456789012345678901"})
    CHECK_MESSAGE(refusal(json_value(bad)).find("is not an unsigned 64-bit decimal integer") != std::string::npos, bad);
  CHECK(refusal(json_value(true)) == "'value': expected a number, found a boolean");
}

TEST_CASE("parse_json takes RFC 8259 numbers only: no hex, inf, nan, leading zeros or bare dots; no overflow to infinity") {
  for (const char* bad : {"0x10", "-inf", "-nan", "-", "1.", ".5", "1e", "1e+", "01", "1e400", "-1e400", "[\"\\u12g4\"]"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_json(bad), json_error);
  }
  CHECK(parse_json("-0.5e-3").number() == -0.0005);
  CHECK(parse_json("0").number() == 0);
  CHECK(parse_json("1E+2").number() == 100);
  CHECK(parse_json("\"\\u00e9\"").string() == "\xc3\xa9");
}

TEST_CASE("json_error is a std::invalid_argument: the commands' bad-input handlers catch it") {
  CHECK_THROWS_AS(parse_json("{"), std::invalid_argument);
}
