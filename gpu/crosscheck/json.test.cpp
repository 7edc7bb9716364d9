// tilesim/gpu/crosscheck/json.test.cpp: the JSON model reads back what it writes and names what is wrong.
#include <doctest/doctest.h>

#include <cmath>

#include "gpu/crosscheck/json.hpp"

using tilesim::gpu::dump;
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
