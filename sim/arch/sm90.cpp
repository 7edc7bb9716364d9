// tilesim/sim/arch/sm90.cpp: NVIDIA Hopper (H100, H200) shared memory, as data.
//
// Sources: R = ../shared/reference/lds-banks-and-swizzles.md (section numbers), H = sim/calibration/
// (H200 measurements: h200-smem-known.* from the lead's harness, h200-smem-probe.* and the latency from
// gpu/calibrate/, all on one H200, driver 580.159.04; README.md there says how).
#include "sim/arch/arch.hpp"

namespace tilesim::sim {

const arch_table& sm90_table() {
  using namespace arch_data;
  static const arch_table table = [] {
    arch_table a;
    a.name = "sm90";
    a.description = "NVIDIA Hopper (H100/H200): 32 lanes, 32 banks x 4 B, 128 B per wavefront";
    a.wave_size = 32;  // R 1.1
    a.banks = 32;      // R 1.1 [doc]; H: stride 128 B = 32 wavefronts for 4-byte accesses
    a.bank_bytes = 4;

    // Phases: 32 lanes for <= 4 bytes, 16 for 8, 8 for 16 (R 1.2 [code: nvFuser, Triton], H: all 146 lines).
    // Sub-word widths: one phase of 32, lanes in the same 32-bit word never conflict (R 1.3 [doc];
    // H: ld/st_w1_*, ld/st_w2_* in h200-smem-probe).
    const std::string_view w4 = "measured (H200): one phase of 32 lanes; R 1.2";
    const std::string_view sub =
        "measured (H200, h200-smem-probe w1/w2): one phase of 32 lanes, same word = no conflict";
    const std::string_view ld_wide =
        "measured (H200): contiguous phases (R 1.2); loads pair lanes with equal addresses (h200-smem-probe)";
    const std::string_view st_wide = "measured (H200): contiguous phases (R 1.2); stores never merge";
    for (access_kind k : {access_kind::load, access_kind::store}) {
      const bool load = k == access_kind::load;
      a.lds_rules.push_back({k, 1, 32, contiguous(32, 32), lds_merge::none, sub});
      a.lds_rules.push_back({k, 2, 32, contiguous(32, 32), lds_merge::none, sub});
      a.lds_rules.push_back({k, 4, 32, contiguous(32, 32), lds_merge::none, w4});
      a.lds_rules.push_back({k, 8, 32, contiguous(32, 16), load ? lds_merge::sm90_pairs : lds_merge::none,
                             load ? ld_wide : st_wide});
      a.lds_rules.push_back({k, 16, 32, contiguous(32, 8), load ? lds_merge::sm90_pairs : lds_merge::none,
                             load ? ld_wide : st_wide});
    }
    // H: h200-calibration (866 lines): a phase with no active lane costs a clock only when the other phases
    // need fewer clocks than there are phases (LDS.128 lanes 0-3 at stride 128: 4, not 4 + 3).
    for (lds_phase_rule& r : a.lds_rules) r.empty_phases = lds_empty_phases::fill_to_phases;

    lds_timing_constants& t = a.lds_timing;
    // One wavefront (128 B) per clock per SM: R 1.7 ("128 bytes/cycle") and H: 32 warps repeating a
    // one-wavefront access in an 8-way unrolled loop take 1.016 cycles per access (h200-smem-probe).
    t.wavefronts_per_clock = 1;
    // Fitted to h200-smem-known.truth.tsv (46 lines, the lead's harness: 32 warps x 256 repetitions):
    //   floor = mean cycles of the 1-wavefront lines (6 loads, 5 stores): 1.734 / 1.528. The floor is that
    //   harness's own issue rate (its loop spends about 7 / 6 instructions per access on 4 schedulers);
    //   the same accesses in an unrolled loop run at 1.016 (h200-smem-known.unrolled-cycles.tsv).
    //   slope, intercept = least squares over the lines with >= 2 wavefronts (20 loads, 15 stores):
    //   loads 0.99583 * slots + 0.0485, stores 0.99441 * slots + 0.0417.
    //   packed_extra = mean residual of the two paired 16-byte loads (ld_w16_broadcast, ld_w16_pairs_same):
    //   0.068 (the unrolled probe shows +0.04 for every paired load).
    // Worst error over the 46 lines after the fit: 1.3 % (ld_w8_broadcast); see lds_banks.test.cpp.
    t.floor = {1.734, 1.528};
    t.slope = {0.99583, 0.99441};
    t.intercept = {0.0485, 0.0417};
    t.packed_extra = 0.068;
    t.ports = 0;  // not modelled: the wavefront pipe explains every measured line
    // 29 cycles per dependent 4-byte load (H: pointer chase through shared memory, one thread, including
    // the address arithmetic of each step; 29.05 over 4096 steps). R 1.7 gives 20-30 for older GPUs.
    t.latency_cycles = 29;

    // Global memory: 32-byte sectors, 128-byte lines (H: h200-global-probe.truth.tsv, 40 lines of
    // l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st} per instruction, all equal to the sectors touched).
    a.sector_bytes = 32;
    a.line_bytes = 128;
    a.global_evidence = "measured (H200): sectors = distinct 32-byte sectors the active lanes touch";
    return finish_arch_table(std::move(a));
  }();
  return table;
}

}  // namespace tilesim::sim
