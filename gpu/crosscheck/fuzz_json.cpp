// tilesim/gpu/crosscheck/fuzz_json.cpp: libFuzzer target over the JSON a replay reads (json.hpp).
//
// The input is a JSON text, as a recording in data/recordings/ is. parse_json either throws json_error or gives a
// document for which the laws hold: parse_json(dump(v)) == v (compact and indented), and read_u64 of every
// value either throws json_error or gives a value that exact_u64 writes back as the same digits when the
// value was a canonical decimal string. Any other exception, crash, sanitizer report or broken law aborts (a
// finding). Build and run (clang, as sim/patterns/meson.build's target):
//   CXX=clang++ meson setup build-fuzz --wrap-mode=nodownload -Db_sanitize=address,undefined -Db_lundef=false
//     -Dbench=disabled -Dtests=disabled -Dgpu=disabled -Damd=disabled
//   ninja -C build-fuzz gpu/fuzz_json
//   mkdir -p build-fuzz/corpus-json && build-fuzz/gpu/fuzz_json -max_total_time=600 -max_len=4096 -timeout=10
//     -rss_limit_mb=2048 build-fuzz/corpus-json gpu/crosscheck/fuzz_json_seeds
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "gpu/crosscheck/json.hpp"

using namespace tilesim::gpu;

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
  if (v.is_array())
    for (const json_value& e : v.elements()) check_integers(e, depth + 1);
  if (v.is_object())
    for (const auto& member : v.members()) check_integers(member.second, depth + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  json_value v;
  try {
    v = parse_json(text);
  } catch (const json_error&) {
    return 0;
  }
  try {
    require(parse_json(dump(v)) == v);
    require(parse_json(dump(v, 2)) == v);
  } catch (const json_error&) {
    std::abort();  // what dump writes must parse
  }
  check_integers(v, 0);
  return 0;
}
