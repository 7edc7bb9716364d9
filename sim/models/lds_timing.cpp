// tilesim/sim/models/lds_timing.cpp: the steady-state formula of lds_timing.hpp.
#include "sim/models/lds_timing.hpp"

#include <algorithm>

namespace tilesim::sim {

double steady_cycles(const arch_table& arch, const wave_access& access) {
  return steady_cycles(arch, access, lds_instruction_cost(arch, access));
}

double steady_cycles(const arch_table& arch, const wave_access& access, const lds_cost& cost) {
  const lds_timing_constants& t = arch.lds_timing;
  const int active = cost.active;
  if (active == 0) return 0;
  const std::size_t k = access.kind == access_kind::load ? 0 : 1;
  double cycles = t.slope[k] * cost.pipe_slots + t.intercept[k] + (cost.packed ? t.packed_extra : 0.0);
  if (t.ports > 0) {
    const double address = active / t.addresses_per_clock;
    const double data = static_cast<double>(active) * access.width / t.port_bytes_per_clock[k];
    const double port = access.kind == access_kind::load ? std::max(address, data) : address + data;
    cycles = std::max(cycles, port / t.ports);
  }
  return std::max(t.floor[k], cycles);
}

double lds_pipe_cycles(const arch_table& arch, const lds_cost& cost) {
  return cost.pipe_slots / arch.lds_timing.wavefronts_per_clock;
}

}  // namespace tilesim::sim
