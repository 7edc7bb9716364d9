// tilesim/sim/arch/gfx90a.cpp: AMD CDNA2 (MI200, gfx90a) LDS, as data.
//
// Sources: R = ../shared/reference/lds-banks-and-swizzles.md. CDNA2 has the same LDS geometry as CDNA3
// (R 2.1: 64 KB, 32 banks x 4 B, 128 B/clk, wave64) and the same issue datapath description (R 2.2), but
// no source measures its phase groups. Assumed, not measured: gfx90a uses the gfx942 tables unchanged
// (gfx942.cpp), including the non-contiguous ds_read_b128 groups; measure with the nod-ai harness before
// trusting a gfx90a ds_read_b128 answer.
#include "sim/arch/cdna3.hpp"

namespace tilesim::sim {

const arch_table& gfx90a_table() {
  static const arch_table table = [] {
    arch_table a =
        cdna3_lds_tables("gfx90a", "AMD CDNA2 (MI200): 64 lanes, 32 banks x 4 B; phase groups assumed = gfx942");
    for (lds_phase_rule& r : a.lds_rules)
      r.evidence = "assumed, not measured: the gfx942 table (no CDNA2 table in any source)";
    // Issue as gfx942 (4 SIMD16 per CU), but CDNA2's matrix cores are half as fast: v_mfma_f32_16x16x16_f16 is 8
    // passes (32 clocks), 32x32x8 16 (CDNA3 ISA guide's CDNA2 column; MI250X's 383 TFLOPS dense fp16 at 220 CUs
    // and 1.7 GHz is 512 FMAs per clock per CU): 16 clocks per 2048 multiply-adds. Latency assumed.
    a.issue = {4, {4, 4, 8, 16}, 8, "CDNA2: 4 SIMD16 per CU, MFMA passes (CDNA3 ISA guide); latency assumed"};
    a.occupancy = {110, 2048, 32, 64 * 1024, 131072,
                   "MI250X: 110 CUs per GCD, 64 KiB LDS per CU (CDNA2 white paper); 4 x 512 VGPRs of 64 lanes per CU"};
    return arch_data::finish_arch_table(std::move(a));
  }();
  return table;
}

}  // namespace tilesim::sim
