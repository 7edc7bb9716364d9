// tilesim/sim/patterns/fuzz_pattern_file.cpp: libFuzzer entry point over the pattern parser and both models.
//
// The first input byte picks the arch (bits 0-1), the space (bit 2) and a 300-byte line limit (bit 3, so
// that overlong lines and buffer refills happen within small inputs); the rest is a pattern file. Every pattern the
// reader returns is priced by lds_instruction_cost, lds_instruction_detail, steady_cycles and
// global_instruction_cost, and their invariants are checked; a broken invariant aborts (a finding), as does
// any crash, sanitizer report, leak, or exception escaping (the models may only throw for inputs the parser
// never returns). Build and run: see sim/patterns/meson.build.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "sim/arch/arch.hpp"
#include "sim/models/global_coalescing.hpp"
#include "sim/models/lds_banks.hpp"
#include "sim/models/lds_timing.hpp"
#include "sim/patterns/pattern_file.hpp"

using namespace tilesim::sim;

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

void check_models(const arch_table& arch, const wave_access& a) {
  const lds_cost c = lds_instruction_cost(arch, a);
  require(c.ideal >= 0 && c.ideal <= c.wavefronts && c.excess == c.wavefronts - c.ideal);
  require(c.ideal <= c.passes && c.passes <= c.pipe_slots && c.bank_conflicts >= 0);
  require((a.active_lanes() == 0) == (c.wavefronts == 0));
  const lds_detail d = lds_instruction_detail(arch, a);
  require(d.cost.wavefronts == c.wavefronts && d.cost.passes == c.passes && d.cost.max_ways == c.max_ways);
  int sum = 0;
  for (const lds_phase_detail& p : d.phases) {
    std::size_t most = 0;
    for (const auto& w : p.words) most = w.size() > most ? w.size() : most;
    require(static_cast<int>(most) == p.ways);
    sum += p.ways;
  }
  require(sum == c.wavefronts);
  const double cycles = steady_cycles(arch, a, c);
  require(std::isfinite(cycles) && cycles >= 0);
  const global_cost g = global_instruction_cost(arch, a);
  require(g.ideal_sectors <= g.sectors && g.ideal_lines <= g.lines && g.lines <= g.sectors);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const arch_table& arch = *all_arch_tables()[data[0] % 4];
  const memory_space space = (data[0] & 4) ? memory_space::global : memory_space::lds;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  pattern_reader reader(in, arch, space, (data[0] & 8) ? 300 : max_pattern_line_bytes);
  wave_access access;
  std::int64_t last_line = 0;
  for (;;) {
    const pattern_reader::result r = reader.next(access);
    if (r == pattern_reader::result::end) break;
    require(reader.line_number() > last_line);
    last_line = reader.line_number();
    if (r == pattern_reader::result::error) {
      require(!reader.error().message.empty());
      continue;
    }
    require(access.address.size() == static_cast<std::size_t>(arch.wave_size));
    check_models(arch, access);
  }
  return 0;
}
