// tilesim/sim/arch/cdna3.hpp: the CDNA3 LDS tables (gfx942.cpp), shared with gfx90a (gfx90a.cpp), which has
// no published table of its own. Internal to sim/arch.
//   arch_table t = cdna3_lds_tables("gfx942", "AMD CDNA3 ...");   // then arch_data::finish_arch_table(t)
#pragma once

#include <string_view>

#include "sim/arch/arch.hpp"

namespace tilesim::sim {

// A CDNA3 table under another name: wave64, 32 banks, R 2.3's phase groups, the assumed timing.
arch_table cdna3_lds_tables(std::string_view name, std::string_view description);

}  // namespace tilesim::sim
