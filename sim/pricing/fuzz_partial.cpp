// tilesim/sim/pricing/fuzz_partial.cpp: libFuzzer target over what `tilesim merge` reads: partial reports.
//
// The input is a partial report's text (tilesim.program-partial/1). parse_partial either throws
// std::invalid_argument (the one error line a user sees, exit 2) or returns a partial, which check_partial
// (partial_checks.hpp) refuses the same way or passes; then, laws: to_json of it parses again to the same JSON (nothing is lost
// or invented on the way), and merge_partials of it alone returns or throws std::invalid_argument. Any other
// exception, a crash, a sanitizer report, a leak, an allocation past -rss_limit_mb or a broken law is a
// finding. Seeds: sim/pricing/fuzz_partial_seeds (partials of tilesim run, with mutations). Run in the test
// command for a few seconds (tests/run_fuzzer.py, the clang build); for longer:
//   build-clang/sim/pricing/fuzz_partial -max_total_time=600 -max_len=65536 -timeout=10 -rss_limit_mb=2048
//     NEW_CORPUS_DIR sim/pricing/fuzz_partial_seeds
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "sim/arch/arch.hpp"
#include "sim/pricing/partial_checks.hpp"
#include "sim/pricing/partial_report.hpp"

using namespace tilesim::sim;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  partial_report p;
  try {
    p = parse_partial(text);
    check_partial(arch_of(p), p);
  } catch (const std::invalid_argument&) {
    return 0;  // refused with a message: the allowed outcome for bad input
  }
  const std::string again = to_json(p);
  partial_report q;
  try {
    q = parse_partial(again);
  } catch (const std::invalid_argument&) {
    std::abort();  // what tilesim writes it must read
  }
  require(to_json(q) == again);
  try {
    (void)merge_partials(arch_named(p.arch), {p});
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
