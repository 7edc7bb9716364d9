// tilesim/gpu/crosscheck/help.test.cpp: `tilesim-gpu --help` and each subcommand's --help (help.hpp).
//
// THE LAWS. Every option a subcommand of tilesim_gpu.cpp takes (take_text_option / take_flag, read from the
// source, as tilesim-gpu itself needs nvcc to build) is named as --NAME in that subcommand's help; every help
// text lists the exit codes 0, 1, 2 and 77; --help or -h anywhere among a subcommand's arguments asks for help,
// a longer word does not; an unknown subcommand has no help (main reports it, exit 2).
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "gpu/crosscheck/help.hpp"

using tilesim::gpu::gpu_help;
using tilesim::gpu::wants_help;

namespace {

// The options taken in tilesim_gpu.cpp between `from` and `to` (function headers).
std::set<std::string> options_taken(const std::string& source, const std::string& from, const std::string& to) {
  const std::size_t a = source.find(from), b = source.find(to, a == std::string::npos ? 0 : a);
  REQUIRE_MESSAGE(a != std::string::npos, "tilesim_gpu.cpp has no " << from);
  REQUIRE_MESSAGE(b != std::string::npos, "tilesim_gpu.cpp has no " << to << " after " << from);
  const std::string body = source.substr(a, b - a);
  static const std::regex take(R"re(take_(?:text_option|flag)\(args, "([a-z-]+)"\))re");
  std::set<std::string> names;
  for (std::sregex_iterator i(body.begin(), body.end(), take), end; i != end; ++i) names.insert((*i)[1]);
  return names;
}

}  // namespace

TEST_CASE("tilesim-gpu: each subcommand's help names every option tilesim_gpu.cpp takes for it") {
  std::ifstream in("cli/tilesim_gpu.cpp");  // meson runs gpu_unit in the repository root
  REQUIRE_MESSAGE(in.good(), "run gpu_unit from the repository root (it reads cli/tilesim_gpu.cpp)");
  const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::set<std::string> counters = options_taken(source, "int counters_pass(", "int crosscheck("),
                              crosscheck = options_taken(source, "int crosscheck(", "int main(");
  CHECK(counters == std::set<std::string>{"seed", "only", "sweep-iterations"});
  CHECK(crosscheck.size() == 9);  // seed only report repeat no-counters sweep-iterations source-counters ncu-source sass
  for (const std::string& o : counters) CHECK_MESSAGE(std::string(gpu_help("counters-pass")).find("--" + o) != std::string::npos, o);
  for (const std::string& o : crosscheck) CHECK_MESSAGE(std::string(gpu_help("crosscheck")).find("--" + o) != std::string::npos, o);
}

TEST_CASE("tilesim-gpu: every help text lists exit codes 0, 1, 2, 77 and the overview names each subcommand") {
  for (const char* command : {"", "crosscheck", "counters-pass", "device"}) {
    CAPTURE(command);
    const char* help = gpu_help(command);
    REQUIRE(help != nullptr);
    for (const char* code : {"\n  0 ", "\n  1 ", "\n  2 ", "\n  77 "}) CHECK(std::string(help).find(code) != std::string::npos);
    CHECK(std::string(help).find("--help") != std::string::npos);
  }
  for (const char* command : {"crosscheck", "counters-pass", "device"})
    CHECK(std::string(gpu_help("")).find(std::string("tilesim-gpu ") + command) != std::string::npos);
  CHECK(gpu_help("fly") == nullptr);
}

TEST_CASE("tilesim-gpu: --help or -h anywhere asks for help; other words do not") {
  CHECK(wants_help({"--help"}));
  CHECK(wants_help({"--only", "copy", "-h"}));
  CHECK_FALSE(wants_help({}));
  CHECK_FALSE(wants_help({"--only", "--help-me"}));
  CHECK_FALSE(wants_help({"--seed", "7"}));
}
