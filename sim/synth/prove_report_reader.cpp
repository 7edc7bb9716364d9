// tilesim/sim/synth/prove_report_reader.cpp: parse_report (prove.hpp), a proof shard read and checked whole.
//
// A shard report comes back from another machine (a CI matrix job, a Slurm array task) and is believed only
// when its fields agree with each other: shards in [1, 1000000] (as --shard allows), 'merged' a comma list of
// distinct shard numbers in [1, shards], shard 0 when it holds all of them, else one of them (the first);
// counts >= 0 with held + failed + skipped = checked <= grid_points; a counterexample exactly when something
// failed, at an index inside the grid. Anything else is std::invalid_argument naming the field
// and the value: "'merged': '51' names shard 51 of 50".
#include <set>
#include <stdexcept>
#include <string>

#include "util/json.hpp"
#include "sim/synth/prove.hpp"

namespace tilesim::synth {
namespace {

[[noreturn]] void refuse(const std::string& field, const std::string& what) {
  throw std::invalid_argument("'" + field + "': " + what);
}

// The member `key` of `v` as an integer in [lo, hi].
long long integer_in(const util::json_value& v, const std::string& key, long long lo, long long hi) {
  const util::json_value& x = v[key];
  if (!x.is_number()) refuse(key, "expected an integer");
  long long n = 0;
  try {
    n = x.integer();
  } catch (const std::invalid_argument&) {
    refuse(key, "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  if (n < lo || n > hi) refuse(key, std::to_string(n) + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return n;
}

// The member `key` as a string, or nothing when it is null.
std::optional<std::string> text_or_null(const util::json_value& v, const std::string& key) {
  const util::json_value& x = v[key];
  if (x.is_null()) return std::nullopt;
  if (!x.is_string()) refuse(key, "expected a string or null");
  return x.string();
}

// A value for an error line: at most 32 bytes of it, quoted.
std::string shown(const std::string& s) { return "'" + (s.size() <= 32 ? s : s.substr(0, 32) + "...") + "'"; }

}  // namespace

prove_report parse_report(const std::string& text) {
  const util::json_value v = util::parse_json(text);
  if (!v.is_object()) throw std::invalid_argument("a prove report is one JSON object");
  // Reports written before issue 16 have no schema field; any other version is not this format.
  if (v.get("schema")) {
    if (!v["schema"].is_string()) refuse("schema", "expected a string");
    if (v["schema"].string() != prove_schema)
      throw std::invalid_argument("a prove report of schema \"" + v["schema"].string() + "\" (this tilesim reads " + prove_schema + ")");
  }
  prove_report r;
  const auto string_field = [&](const char* key) {
    if (!v[key].is_string()) refuse(key, "expected a string");
    return v[key].string();
  };
  r.claim = string_field("claim");
  r.fingerprint = string_field("fingerprint");
  constexpr long long max_points = 1LL << 50;
  r.grid_points = integer_in(v, "grid_points", 0, max_points);
  r.shards = static_cast<int>(integer_in(v, "shards", 1, 1000000));
  r.shard = static_cast<int>(integer_in(v, "shard", 0, r.shards));
  const std::string merged = string_field("merged");
  std::set<int> seen;
  for (std::size_t at = 0; at <= merged.size();) {
    const std::size_t comma = std::min(merged.find(',', at), merged.size());
    const std::string item = merged.substr(at, comma - at);
    const bool digits = !item.empty() && item.size() <= 7 && item.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) refuse("merged", shown(item) + " is not a shard number (a comma list of 1.." + std::to_string(r.shards) + ")");
    const int s = std::stoi(item);
    if (s < 1 || s > r.shards) refuse("merged", shown(item) + " names shard " + item + " of " + std::to_string(r.shards));
    if (!seen.insert(s).second) refuse("merged", "shard " + item + " is listed twice");
    r.merged.push_back(s);
    at = comma + 1;
  }
  if (r.shard != 0 && !seen.count(r.shard))
    refuse("shard", std::to_string(r.shard) + " is not among the shards it holds ('merged': " + shown(merged) + ")");
  if (r.shard == 0 && static_cast<int>(r.merged.size()) != r.shards)
    refuse("shard", "0 (all shards merged), but 'merged' holds " + std::to_string(r.merged.size()) + " of " + std::to_string(r.shards));
  r.checked = integer_in(v, "checked", 0, max_points);
  if (r.checked > r.grid_points)
    refuse("grid_points", std::to_string(r.grid_points) + ", but " + std::to_string(r.checked) + " points were checked");
  r.held = integer_in(v, "held", 0, r.checked);
  r.failed = integer_in(v, "failed", 0, r.checked);
  r.skipped = integer_in(v, "skipped", 0, r.checked);
  if (r.held + r.failed + r.skipped != r.checked)
    refuse("held", std::to_string(r.held) + " + failed " + std::to_string(r.failed) + " + skipped " + std::to_string(r.skipped) +
                       " is not checked " + std::to_string(r.checked));
  const long long first = integer_in(v, "first_index", -1, r.grid_points - 1);
  if ((first >= 0) != (r.failed > 0))
    refuse("first_index", std::to_string(first) + " with " + std::to_string(r.failed) + " failed points");
  if (first >= 0) {
    const auto point = text_or_null(v, "first_point"), detail = text_or_null(v, "first_detail"),
               reproduce = text_or_null(v, "first_reproduce");
    r.first = counterexample{first, point.value_or(""), detail.value_or(""), reproduce.value_or("")};
  }
  return r;
}

}  // namespace tilesim::synth
