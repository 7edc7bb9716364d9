// tilesim/sim/patterns/pattern_file.test.cpp: the pattern format: what it accepts, each error with its line
// number, and that reading goes on after a bad line and across buffer refills.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/patterns/pattern_file.hpp"

using namespace tilesim::sim;

namespace {

struct outcome {
  std::vector<wave_access> patterns;
  std::vector<std::string> errors;  // "line 3: ..."
};

outcome read_all(const std::string& text, const char* arch = "sm90") {
  std::istringstream in(text);
  pattern_reader reader(in, arch_named(arch), memory_space::lds);
  outcome o;
  wave_access a;
  for (pattern_reader::result r; (r = reader.next(a)) != pattern_reader::result::end;) {
    if (r == pattern_reader::result::pattern)
      o.patterns.push_back(a);
    else
      o.errors.push_back(reader.error().text());
  }
  CHECK(!reader.read_failed());
  return o;
}

// "p 4 load 0 4 8 ... 124" with n offsets of `step` bytes.
std::string line_of(const std::string& head, int n, int step) {
  std::string s = head;
  for (int i = 0; i < n; ++i) s += " " + std::to_string(step * i);
  return s;
}

}  // namespace

TEST_CASE("the H200 truth file parses into 46 patterns with names, widths, kinds and 32 offsets") {
  std::ifstream in("data/calibration/h200-smem-known.patterns");
  REQUIRE_MESSAGE(in.good(), "run from the repository root");
  std::stringstream s;
  s << in.rdbuf();
  const outcome o = read_all(s.str());
  CHECK(o.errors.empty());
  REQUIRE(o.patterns.size() == 46);
  CHECK(o.patterns[0].label == "ld_w4_linear");
  CHECK(o.patterns[0].width == 4);
  CHECK(o.patterns[0].kind == access_kind::load);
  CHECK(o.patterns[0].space == memory_space::lds);
  CHECK(o.patterns[0].address[31] == 124);
  CHECK(o.patterns[20].label == "st_w4_linear");
  CHECK(o.patterns[20].kind == access_kind::store);
}

TEST_CASE("comments, blank lines, tabs, CRLF, 4294967295 and a last line without newline are accepted") {
  const std::string text = "# a comment\n\n   \t\n" + line_of("a\t4\tload", 31, 4) + " 4294967295 # trailing\r\n" +
                           line_of("b 16 store", 32, 16);
  const outcome o = read_all(text);
  CHECK(o.errors.empty());
  REQUIRE(o.patterns.size() == 2);
  CHECK(o.patterns[0].label == "a");
  CHECK(o.patterns[0].address[31] == no_address);
  CHECK(o.patterns[0].active_lanes() == 31);
  CHECK(o.patterns[1].address[31] == 496);
  CHECK(read_all(line_of("z 004 load", 32, 4)).patterns.at(0).width == 4);  // leading zeros are decimal
}

TEST_CASE("each malformed line is reported with its line number and what is wrong, and reading goes on") {
  const std::string good = line_of("good 4 load", 32, 4);
  const std::string text = good + "\n" +                               // 1
                           line_of("w12 12 load", 32, 12) + "\n" +     // 2
                           line_of("wx x load", 32, 4) + "\n" +        // 3
                           line_of("op 4 lod", 32, 4) + "\n" +         // 4
                           "short 4\n" +                               // 5
                           line_of("n31 4 load", 31, 4) + "\n" +       // 6
                           line_of("n33 4 load", 33, 4) + "\n" +       // 7
                           line_of("bad 4 load", 3, 4) + " 12x" + line_of("", 28, 4) + "\n" +  // 8
                           line_of("big 4 load", 31, 4) + " 4294967296\n" +                    // 9
                           line_of("mis 8 load", 5, 8) + " 44" + line_of("", 26, 8) + "\n" +   // 10
                           line_of("neg 4 load", 31, 4) + " -4\n" +                            // 11
                           "ctl 4 load\x01 0\n" +                                              // 12
                           good + "\n";                                                        // 13
  const outcome o = read_all(text);
  CHECK(o.patterns.size() == 2);
  const std::vector<std::string> expected = {
      "line 2: width 12 is not one of 1, 2, 4, 8, 16",
      "line 3: width 'x' is not one of 1, 2, 4, 8, 16",
      "line 4: operation 'lod' is neither load nor store",
      "line 5: expected NAME WIDTH OP and 32 offsets, found only 2 fields",
      "line 6: expected 32 offsets for sm90, found 31",
      "line 7: expected 32 offsets for sm90, found 33",
      "line 8: lane 3: offset '12x' is not an unsigned decimal integer",
      "line 9: lane 31: offset 4294967296 is out of range (at most 4294967295, which marks an inactive lane)",
      "line 10: lane 5: offset 44 is not a multiple of the width 8",
      "line 11: lane 31: offset '-4' is not an unsigned decimal integer",
      "line 12: control byte 0x01 in the line",
  };
  CHECK(o.errors == expected);
}

TEST_CASE("the offset count follows the arch: gfx942 needs 64") {
  CHECK(read_all(line_of("p 4 load", 64, 4), "gfx942").patterns.size() == 1);
  const outcome o = read_all(line_of("p 4 load", 32, 4), "gfx942");
  REQUIRE(o.errors.size() == 1);
  CHECK(o.errors[0] == "line 1: expected 64 offsets for gfx942, found 32");
}

TEST_CASE("a line over 64 KiB is one error, skipped without being stored, and the next line still parses") {
  const std::string text = "x" + std::string(200000, '9') + "\n" + line_of("after 4 load", 32, 4) + "\n" +
                           std::string(70000, ' ');
  const outcome o = read_all(text);
  REQUIRE(o.errors.size() == 2);
  CHECK(o.errors[0] == "line 1: longer than 65536 bytes");
  CHECK(o.errors[1] == "line 3: longer than 65536 bytes");
  REQUIRE(o.patterns.size() == 1);
  CHECK(o.patterns[0].label == "after");
}

TEST_CASE("long tokens are cut in messages; huge numbers are out of range, not wrapped") {
  const outcome o = read_all(line_of("p 4 load", 31, 4) + " " + std::string(100, '9') + "\n" +
                             line_of("q 4 " + std::string(40, 'z'), 32, 4));
  REQUIRE(o.errors.size() == 2);
  CHECK(o.errors[0].find("is out of range") != std::string::npos);
  CHECK(o.errors[0].size() < 160);
  CHECK(o.errors[1] == "line 2: operation 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...' is neither load nor store");
}

TEST_CASE("a stream of 40000 lines (several buffer refills) gives every pattern with the right line numbers") {
  std::string text;
  for (int i = 0; i < 40000; ++i) text += line_of("p" + std::to_string(i) + " 16 load", 32, 16) + "\n";
  REQUIRE(text.size() > 3 * (std::size_t{1} << 20));
  std::istringstream in(text);
  pattern_reader reader(in, arch_named("sm90"), memory_space::global);
  wave_access a;
  int n = 0;
  while (reader.next(a) == pattern_reader::result::pattern) {
    ++n;
    if (reader.line_number() != n) break;
  }
  CHECK(n == 40000);
  CHECK(a.label == "p39999");
  CHECK(a.space == memory_space::global);
}

TEST_CASE("with a small line limit, overlong lines and buffer refills interleave correctly with good lines") {
  // Limit 300 bytes, so the buffer holds 16 x 300 + 16: lines of 250 (good), 1000 and 7000 bytes (overlong).
  const std::string good = line_of("g 4 load", 32, 4);  // about 250 bytes
  REQUIRE(good.size() < 300);
  std::string text;
  for (int i = 0; i < 50; ++i) text += good + "\n" + std::string(i % 2 ? 1000 : 7000, 'x') + "\n";
  std::istringstream in(text);
  pattern_reader reader(in, arch_named("sm90"), memory_space::lds, 300);
  wave_access a;
  int patterns = 0, errors = 0;
  for (pattern_reader::result r; (r = reader.next(a)) != pattern_reader::result::end;) {
    if (r == pattern_reader::result::pattern) {
      ++patterns;
      CHECK(reader.line_number() % 2 == 1);
    } else {
      ++errors;
      CHECK(reader.error().text() == "line " + std::to_string(reader.line_number()) + ": longer than 300 bytes");
    }
  }
  CHECK(patterns == 50);
  CHECK(errors == 50);
}
