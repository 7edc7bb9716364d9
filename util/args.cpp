// tilesim/util/args.cpp: strict integer and option parsing (see args.hpp for the contract).
//
// std::from_chars does the digit work: it never skips blanks, accepts no '+', no base prefix, and reports
// overflow as result_out_of_range, so "consumed every character and no error" is exactly "an integer".
#include "util/args.hpp"

#include <charconv>
#include <system_error>

namespace tilesim::cli {

std::string escaped(std::string_view text, std::size_t max) {
  static const char* const hex = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7f) out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    else out += static_cast<char>(c);  // UTF-8 bytes stay: a name in another script is still readable
  }
  if (text.size() > max) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string quoted(std::string_view value, std::size_t max) { return "'" + escaped(value, max) + "'"; }

std::int64_t parse_int(std::string_view text, std::string_view what) {
  const std::string shown = quoted(text);
  if (text.empty()) throw usage_error(std::string(what) + ": the value is empty, expected an integer");
  std::int64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range)
    throw usage_error(std::string(what) + ": " + shown + " does not fit in a 64-bit integer");
  if (ec != std::errc{} || end != last) throw usage_error(std::string(what) + ": " + shown + " is not an integer");
  return value;
}

std::string option_spec::synopsis() const {
  std::string s = "--" + name;
  if (is_word()) {
    s += " ";
    for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? "|" : "") + choices[i];
    return s + " (default " + default_word + ")";
  }
  return s + " N (" + std::to_string(min) + ".." + std::to_string(max) + ", default " + std::to_string(default_value) +
         ")";
}

std::int64_t options::integer(const std::string& name) const {
  const auto it = integers_.find(name);
  if (it == integers_.end()) throw std::logic_error("tilesim cli: integer option --" + name + " was never declared");
  return it->second;
}

const std::string& options::word(const std::string& name) const {
  const auto it = words_.find(name);
  if (it == words_.end()) throw std::logic_error("tilesim cli: word option --" + name + " was never declared");
  return it->second;
}

options parse_options(const std::vector<std::string>& args, const std::vector<option_spec>& specs,
                      std::string_view context) {
  options out;
  for (const option_spec& s : specs) {
    if (s.is_word())
      out.words_[s.name] = s.default_word;
    else
      out.integers_[s.name] = s.default_value;
  }
  auto known_names = [&] {
    std::string list;
    for (const option_spec& s : specs) list += (list.empty() ? "--" : " --") + s.name;
    return list;
  };

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0 || arg.size() == 2)
      throw usage_error("unexpected argument " + quoted(arg) + " for " + std::string(context) +
                        " (options look like --name VALUE)");
    std::string name = arg.substr(2), value;
    bool has_value = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      has_value = true;
    }
    const option_spec* spec = nullptr;
    for (const option_spec& s : specs)
      if (s.name == name) spec = &s;
    if (!spec)
      throw usage_error("unknown option --" + escaped(name) + " for " + std::string(context) +
                        " (its options: " + known_names() + ")");
    if (out.given_.count(name)) throw usage_error("option --" + name + " is given twice");
    if (!has_value) {
      // A following "--word" is the next option, not a value: "--rows --cols 4" lacks the rows value.
      if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
        throw usage_error("option --" + name + " needs a value");
      value = args[++i];
    }
    out.given_[name] = true;
    const std::string what = "option --" + name;
    if (spec->is_word()) {
      bool ok = false;
      for (const std::string& c : spec->choices) ok = ok || c == value;
      if (!ok) {
        std::string list;
        for (const std::string& c : spec->choices) list += (list.empty() ? "" : "|") + c;
        throw usage_error(what + ": " + quoted(value) + " is not one of " + list);
      }
      out.words_[name] = value;
    } else {
      const std::int64_t v = parse_int(value, what);
      if (v < spec->min || v > spec->max)
        throw usage_error(what + " must be in [" + std::to_string(spec->min) + ", " + std::to_string(spec->max) +
                          "] (got " + std::to_string(v) + ")");
      out.integers_[name] = v;
    }
  }
  return out;
}

// Removes `--name VALUE` or `--name=VALUE` from args and returns VALUE; nullopt when absent.
std::optional<std::string> take_text_option(std::vector<std::string>& args, const std::string& name,
                                            const option_owner& owner) {
  std::optional<std::string> value;
  const std::string flag = "--" + name;
  const std::string what = owner.command.empty() ? "option " + flag : "option " + flag + " of " + owner.command;
  for (std::size_t i = 0; i < args.size();) {
    const std::string& a = args[i];
    std::size_t used = 0;
    std::string v;
    if (a == flag) {
      if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
        throw usage_error(what + " needs a value" + (owner.values.empty() ? "" : " (" + owner.values + ")"));
      v = args[i + 1];
      used = 2;
    } else if (a.rfind(flag + "=", 0) == 0) {
      v = a.substr(flag.size() + 1);
      used = 1;
    }
    if (used == 0) {
      ++i;
      continue;
    }
    if (value) throw usage_error(what + (owner.command.empty() ? " is given twice" : " given twice"));
    if (v.empty()) throw usage_error(what + ": the value is empty");
    value = v;
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i + used));
  }
  return value;
}

bool take_flag(std::vector<std::string>& args, const std::string& name) {
  const std::string flag = "--" + name;
  bool found = false;
  for (std::size_t i = 0; i < args.size();) {
    if (args[i] == flag) {
      found = true;
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  return found;
}

void reject_unknown_options(const std::vector<std::string>& args, std::string_view context, std::string_view options) {
  for (const std::string& a : args)
    if (a.size() > 1 && a[0] == '-')
      throw usage_error("unknown option " + escaped(a) + " for " + std::string(context) + " (its options: " +
                        std::string(options) + ")");
}

}  // namespace tilesim::cli
