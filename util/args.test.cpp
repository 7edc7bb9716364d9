// tilesim/util/args.test.cpp: the free-text options, flags and leftovers every command takes, and their error lines.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "util/args.hpp"

using tilesim::cli::option_owner;
using tilesim::cli::reject_unknown_options;
using tilesim::cli::take_flag;
using tilesim::cli::take_text_option;
using tilesim::cli::usage_error;

namespace {

// The text of the usage_error `f` throws, or "no error".
template <class F>
std::string message(F f) {
  try {
    f();
  } catch (const usage_error& e) {
    return e.what();
  }
  return "no error";
}

using args_t = std::vector<std::string>;

}  // namespace

TEST_CASE("take_text_option removes --name VALUE or --name=VALUE and leaves the rest in order") {
  args_t a = {"x", "--seed", "7", "y", "--only=copy", "-"};
  CHECK(take_text_option(a, "seed") == "7");
  CHECK(take_text_option(a, "only") == "copy");
  CHECK(!take_text_option(a, "report").has_value());
  CHECK(a == args_t{"x", "y", "-"});
}

TEST_CASE("take_text_option's error lines: missing, repeated or empty values, worded for the command that asks") {
  CHECK(message([] { args_t a = {"--seed"}; take_text_option(a, "seed"); }) == "option --seed needs a value");
  CHECK(message([] { args_t a = {"--seed", "--only", "x"}; take_text_option(a, "seed"); }) == "option --seed needs a value");
  CHECK(message([] { args_t a = {"--seed=1", "--seed", "2"}; take_text_option(a, "seed"); }) == "option --seed is given twice");
  CHECK(message([] { args_t a = {"--seed="}; take_text_option(a, "seed"); }) == "option --seed: the value is empty");
  const option_owner bank{"bank", "sm90, gfx942"};
  CHECK(message([&] { args_t a = {"--arch"}; take_text_option(a, "arch", bank); }) ==
        "option --arch of bank needs a value (sm90, gfx942)");
  CHECK(message([&] { args_t a = {"--arch", "sm90", "--arch=gfx942"}; take_text_option(a, "arch", bank); }) ==
        "option --arch of bank given twice");
}

TEST_CASE("take_flag removes every --name and says whether there was one") {
  args_t a = {"--json", "f", "--json", "--jsonx"};
  CHECK(take_flag(a, "json"));
  CHECK(!take_flag(a, "json"));
  CHECK(a == args_t{"f", "--jsonx"});
}

TEST_CASE("reject_unknown_options names the first option left, escaped; plain words and a lone - pass") {
  CHECK(message([] { reject_unknown_options({"f", "-", "g"}, "bank", "--arch ARCH"); }) == "no error");
  CHECK(message([] { reject_unknown_options({"f", "--wide", "-x"}, "bank", "--arch ARCH, --detail"); }) ==
        "unknown option --wide for bank (its options: --arch ARCH, --detail)");
  CHECK(message([] { reject_unknown_options({"-\n"}, "bank", "--arch ARCH"); }) ==
        "unknown option -\\n for bank (its options: --arch ARCH)");
}
