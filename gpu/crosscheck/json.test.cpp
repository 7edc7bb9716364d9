// tilesim/gpu/crosscheck/json.test.cpp: the JSON model reads back what it writes and names what is wrong.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "gpu/crosscheck/json.hpp"

using tilesim::gpu::dump;
using tilesim::gpu::exact_u64;
using tilesim::gpu::read_u64;
using tilesim::gpu::json_error;
using tilesim::gpu::json_value;
using tilesim::gpu::parse_json;

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
  CHECK(back["n"].number() == 12345678901234.0);
  CHECK(back["x"].number() == 0.1);
  CHECK(back["inner"]["list"][1].number() == 2.5);
  CHECK(back["name"].string() == "copy \"fp16\"\n\t\\ é");
}

TEST_CASE("parse_json reads standard text: whitespace, \\u escapes, exponents") {
  const json_value v = parse_json(" { \"a\" : [ 1e3 , -0.5E-1, \"\\u0041\\u00e9\" ] , \"b\":null } ");
  CHECK(v["a"][0].number() == 1000);
  CHECK(v["a"][1].number() == -0.05);
  CHECK(v["a"][2].string() == "A\xc3\xa9");
  CHECK(v["b"].is_null());
  CHECK(v.get("c") == nullptr);
}

TEST_CASE("malformed JSON and wrong types throw json_error naming the byte or the key") {
  auto message = [](auto f) {
    try {
      f();
    } catch (const json_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message([] { parse_json("[1,]"); }) == "JSON at byte 3: expected a value, found ']'");
  CHECK(message([] { parse_json("{\"a\" 1}"); }) == "JSON at byte 5: expected ':', found '1'");
  CHECK(message([] { parse_json("\"open"); }) == "JSON at byte 5: unterminated string, found the end");
  CHECK(message([] { parse_json("[1] 2"); }) == "JSON at byte 4: text after the document, found '2'");
  CHECK(message([] { parse_json(std::string(100, '[')); }).find("nesting deeper than 64") != std::string::npos);
  const json_value v = parse_json("{\"a\": \"text\"}");
  CHECK(message([&] { (void)v["b"]; }) == "missing key \"b\"");
  CHECK(message([&] { (void)v["a"].number(); }) == "expected a number, found string");
  CHECK(message([&] { (void)v["a"][0]; }) == "expected an array, found string");
}

TEST_CASE("non-finite numbers are written as null (JSON has no NaN)") {
  CHECK(dump(json_value(std::nan(""))) == "null");
  CHECK(dump(json_value(json_value::array{1, 2})) == "[1, 2]");
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
  auto message = [](const json_value& v) {
    try {
      (void)read_u64(v, "seed of copy");
    } catch (const json_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message(json_value(1.5)) == "seed of copy: 1.5 is not a 64-bit integer (a number must be integral and in (-2^63, 2^63))");
  CHECK(message(json_value(1e19)).find("seed of copy: 1e+19 is not a 64-bit integer") == 0);
  CHECK(message(json_value(std::nan(""))).find("seed of copy: null is not") == 0);
  CHECK(message(json_value("18446744073709551616")) ==
        "seed of copy: \"18446744073709551616\" is not an unsigned 64-bit decimal integer (0..18446744073709551615)");
  for (const char* bad : {"", "-1", "12a", " 1", "+1", "123456789012345678901"})
    CHECK_MESSAGE(message(json_value(bad)).find("is not an unsigned 64-bit decimal integer") != std::string::npos, bad);
  CHECK(message(json_value(true)) == "expected a number, found boolean");
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
