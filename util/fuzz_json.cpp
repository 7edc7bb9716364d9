// tilesim/util/fuzz_json.cpp: libFuzzer target over the one JSON library (json.hpp): every recording, partial
// report and proof shard from another machine is read by it.
//
// The input is a JSON text, as a recording in data/recordings/ is. parse_json either throws json_error or gives a
// document for which the laws hold: parse_json(dump(v)) == v (compact and indented; names given twice read with
// json_duplicates::keep, as the recordings are); read_u64 of every value
// either throws json_error or gives a value that exact_u64 writes back as the same digits when the value was a
// canonical decimal string; integer() of every value either throws json_error or gives x with
// parse_json(to_string(x)).integer() == x (exact, beyond 2^53 too). Any other exception, crash, sanitizer report
// or broken law aborts (a finding). The unit suite runs it for a few seconds where clang builds it (fuzz-json,
// util/meson.build); longer, in a clang build:
//   CXX=clang++ meson setup build-fuzz --wrap-mode=nodownload -Db_sanitize=address,undefined -Db_lundef=false
//     -Dbench=disabled -Dtests=disabled -Dgpu=disabled -Damd=disabled
//   ninja -C build-fuzz util/fuzz_json
//   mkdir -p build-fuzz/corpus-json && build-fuzz/util/fuzz_json -max_total_time=600 -max_len=4096 -timeout=10
//     -rss_limit_mb=2048 build-fuzz/corpus-json util/fuzz_json_seeds
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "util/json.hpp"

using namespace tilesim::util;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

void check_integers(const json_value& v, int depth) {
  if (depth > 70) return;
  try {
    const std::uint64_t x = read_u64(v, "fuzz");
    if (v.is_string() && (v.string().size() == 1 || v.string()[0] != '0')) require(exact_u64(x) == v);
  } catch (const json_error&) {
  }
  try {
    const std::int64_t x = v.integer();
    require(parse_json(std::to_string(x)).integer() == x);
  } catch (const json_error&) {
  }
  if (v.is_array())
    for (const json_value& e : v.elements()) check_integers(e, depth + 1);
  if (v.is_object())
    for (const auto& member : v.members()) check_integers(member.second, depth + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  json_value v;
  json_duplicates mode = json_duplicates::refuse;
  try {
    v = parse_json(text);
  } catch (const json_error&) {
    try {  // a name given twice, perhaps: the recordings' reading keeps both
      mode = json_duplicates::keep;
      v = parse_json(text, mode);
    } catch (const json_error&) {
      return 0;
    }
  }
  try {
    require(parse_json(dump(v), mode) == v);
    require(parse_json(dump(v, 2), mode) == v);
  } catch (const json_error&) {
    std::abort();  // what dump writes must parse
  }
  check_integers(v, 0);
  return 0;
}
