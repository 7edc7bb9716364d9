// tilesim/cli/fuzz_cli_text.cpp: libFuzzer target over the text a user types on tilesim's command line.
//
// The first input byte picks what the rest is: 0 an encoding in CK's spelling (`tilesim encoding --encoding`,
// parse_ck_encoding), 1 a numeric option's value (parse_int), 2 a command line of options, one argument per
// line, against a table of integer and word options (parse_options: every numeric option of every command
// goes through it), 3 the same lines with free-text options taken first (take_text_option for --only / --arch,
// take_flag for --json: the --only filters). Allowed outcomes: a result that keeps the laws below, or
// usage_error / spec_error (the messages a user sees, exit 2). Any other exception, a crash, a sanitizer report
// or a broken law aborts (a finding). Laws: a parsed encoding's ck_spelling() parses to the same spelling;
// parse_int(to_string(n)) == n; parsed integers lie in their option's range and words among its choices;
// after take_text_option / take_flag no argument names the taken option. Build and run (clang):
//   CXX=clang++ meson setup build-fuzz --wrap-mode=nodownload -Db_sanitize=address,undefined -Db_lundef=false
//     -Dbench=disabled -Dtests=disabled -Dgpu=disabled -Damd=disabled
//   ninja -C build-fuzz cli/fuzz_cli_text
//   mkdir -p build-fuzz/corpus-cli && build-fuzz/cli/fuzz_cli_text -max_total_time=600 -max_len=1024 -timeout=10
//     -rss_limit_mb=2048 build-fuzz/corpus-cli cli/fuzz_cli_text_seeds
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "util/args.hpp"
#include "cli/encodings.hpp"
#include "spec/rules.hpp"

using namespace tilesim;
using namespace tilesim::cli;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::size_t from = 0;
  for (std::size_t at; (at = text.find('\n', from)) != std::string::npos; from = at + 1) v.push_back(text.substr(from, at - from));
  if (from < text.size()) v.push_back(text.substr(from));
  return v;
}

const std::vector<option_spec>& table() {
  static const std::vector<option_spec> specs = {
      {.name = "rows", .help = "rows", .default_value = 4, .min = 1, .max = 1 << 20},
      {.name = "cols", .help = "cols", .default_value = 4, .min = 1, .max = 1 << 20},
      {.name = "shift", .help = "shift", .default_value = 0, .min = -64, .max = 64},
      {.name = "show", .help = "what", .choices = {"offsets", "banks", "both"}, .default_word = "both"},
  };
  return specs;
}

void one(std::uint8_t kind, const std::string& text) {
  switch (kind % 4) {
    case 0: {
      const tile_distribution_encoding e = parse_ck_encoding(text);
      const std::string spelling = e.ck_spelling();
      require(parse_ck_encoding(spelling).ck_spelling() == spelling);
      break;
    }
    case 1: {
      const std::int64_t n = parse_int(text, "option --fuzz");
      require(parse_int(std::to_string(n), "option --fuzz") == n);
      break;
    }
    case 2: {
      const options o = parse_options(lines_of(text), table(), "fuzz");
      for (const option_spec& s : table()) {
        if (s.is_word()) {
          bool known = false;
          for (const std::string& c : s.choices) known = known || o.word(s.name) == c;
          require(known);
        } else {
          require(o.integer(s.name) >= s.min && o.integer(s.name) <= s.max);
        }
      }
      break;
    }
    default: {
      std::vector<std::string> args = lines_of(text);
      const auto only = take_text_option(args, "only");
      const auto arch = take_text_option(args, "arch");
      const bool json = take_flag(args, "json");
      for (const std::string& a : args) require(a != "--only" && a.rfind("--only=", 0) != 0 && a != "--json");
      require(!only || !only->empty());
      (void)arch;
      (void)json;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  try {
    one(data[0], std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  } catch (const usage_error&) {
  } catch (const spec_error&) {
  }
  return 0;
}
