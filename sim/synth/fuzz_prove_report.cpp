// tilesim/sim/synth/fuzz_prove_report.cpp: libFuzzer target over what `tilesim prove --merge` reads: proof shards.
//
// The input is a shard report's text (tilesim.prove/1). parse_report either throws std::invalid_argument (one
// error line, exit 2) or returns a report whose fields agree (prove_report_reader.cpp); then, laws: to_json of
// it reads back to the same JSON, and merge_reports of it with itself refuses the repeated shard. Any other
// exception, a crash, a sanitizer report or a broken law is a finding. Seeds: sim/synth/fuzz_prove_report_seeds.
// Run in the test command for a few seconds (tests/run_fuzzer.py, the clang build); for longer:
//   build-clang/sim/synth/fuzz_prove_report -max_total_time=600 -max_len=4096 -timeout=10 -rss_limit_mb=2048
//     NEW_CORPUS_DIR sim/synth/fuzz_prove_report_seeds
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "sim/synth/prove.hpp"

using namespace tilesim::synth;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  prove_report r;
  try {
    r = parse_report(text);
  } catch (const std::invalid_argument&) {
    return 0;  // refused with a message: the allowed outcome for bad input
  }
  const std::string again = to_json(r);
  try {
    if (to_json(parse_report(again)) != again) std::abort();
  } catch (const std::invalid_argument&) {
    std::abort();  // what tilesim writes it must read
  }
  try {
    (void)merge_reports({r, r});
    std::abort();  // the same shard twice must be refused
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
