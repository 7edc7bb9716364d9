// tilesim/util/args.hpp: strict parsing of tilesim's command line.
//
// Every option is `--name VALUE` or `--name=VALUE`; an option_spec says what a name accepts: an integer in a
// closed range [min, max], or one word out of a fixed list. Integers are read strictly: an optional '-', then
// decimal digits, nothing else ("8x", "", " 8", "+8", "0x10" and values beyond 64 bits are rejected).
//
// Everything wrong on the command line is a usage_error whose text names the culprit, e.g.
//   "option --rows: '8x' is not an integer"
//   "option --banks must be in [1, 1024] (got 0)"
//   "unknown option --pad for layout morton (its options: --rows --cols ...)"
// main() prints it as one line on stderr and exits with code 2.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tilesim::cli {

// A command-line mistake: exit code 2, one line on stderr.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `text` fit for one error line: control characters (< 0x20, 0x7f) escaped (\n, \t, \x1b), cut after
// `max` bytes with the full size said: escaped("a\nb") == "a\\nb", escaped(100 KB of 'r') == "rrr... (102400 bytes)".
std::string escaped(std::string_view text, std::size_t max = 64);
// escaped(value) in single quotes, as error lines show values: quoted("4\nx") == "'4\\nx'".
std::string quoted(std::string_view value, std::size_t max = 64);

// "123" -> 123, "-3" -> -3; anything else throws usage_error naming `what` (e.g. "option --rows").
std::int64_t parse_int(std::string_view text, std::string_view what);

// What one option accepts. An integer option has no `choices`; a word option has them and ignores the range.
struct option_spec {
  std::string name;  // without the leading "--"
  std::string help;  // one line for --help
  std::int64_t default_value = 0;
  std::int64_t min = 0, max = 0;
  std::vector<std::string> choices = {};
  std::string default_word = {};

  bool is_word() const { return !choices.empty(); }
  // "--rows N (1..1048576, default 4)" / "--show offsets|banks|both (default both)"
  std::string synopsis() const;
};

// The options given on one command line, defaults filled in; lookups of undeclared names throw logic_error.
class options {
 public:
  std::int64_t integer(const std::string& name) const;
  const std::string& word(const std::string& name) const;
  bool given(const std::string& name) const { return given_.count(name) != 0; }

 private:
  friend options parse_options(const std::vector<std::string>&, const std::vector<option_spec>&, std::string_view);
  std::map<std::string, std::int64_t> integers_;
  std::map<std::string, std::string> words_;
  std::map<std::string, bool> given_;
};

// Parses `args` (everything after the command and layout name) against `specs`; `context` names the command
// in errors ("layout morton"). Throws usage_error for unknown, repeated, valueless or out-of-range options.
options parse_options(const std::vector<std::string>& args, const std::vector<option_spec>& specs,
                      std::string_view context);

// Who takes a free-text option, for its error lines. Without a command (the default): "option --seed needs a
// value", "option --seed is given twice"; with one (and what the value may be): "option --arch of bank needs a
// value (sm90, gfx90a, gfx942, gfx950)", "option --arch of bank given twice", as `tilesim bank` words them.
struct option_owner {
  std::string command;  // "bank"
  std::string values;   // "sm90, gfx90a, gfx942, gfx950"
};

// Removes a free-text option `--name VALUE` or `--name=VALUE` from args and returns VALUE (nullopt when
// absent); for values the option table cannot hold (a path, an encoding). Given twice or empty: usage_error.
std::optional<std::string> take_text_option(std::vector<std::string>& args, const std::string& name,
                                            const option_owner& owner = {});

// Removes every `--name` flag (no value) from args; true when there was one: take_flag(args, "json").
bool take_flag(std::vector<std::string>& args, const std::string& name);

// After the take_* calls: throws usage_error for the first argument left that looks like an option ("-x" or
// "--x"; a lone "-" is stdin, not an option), "unknown option --wide for bank (its options: --arch ARCH, --detail)".
void reject_unknown_options(const std::vector<std::string>& args, std::string_view context, std::string_view options);

}  // namespace tilesim::cli
