// tilesim/sim/arch/sm90.cpp: NVIDIA Hopper (H100, H200) shared memory, as data.
//
// Sources: R = ../shared/reference/lds-banks-and-swizzles.md (section numbers), H = data/calibration/
// (H200 measurements: h200-smem-known.* from the lead's harness, h200-smem-probe.* and the latency from
// gpu/calibrate/, all on one H200, driver 580.159.04; data/calibration/README.md says how).
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
    // ldmatrix / stmatrix: each 8x8 matrix its own phase, phases never merge (lds_banks.hpp).
    a.matrix_phases.evidence = {
        "measured (H200, h200-ldmatrix-phases.tsv): ldmatrix.x1/x2/x4, each 8x8 matrix its own phase, never merged",
        "measured (H200, h200-stmatrix-phases.tsv, 2026-11-29): stmatrix.x1/x2/x4, each 8x8 matrix its own phase, "
        "never merged (one row for all lanes: 4/2/1 wavefronts; 8-way 32/16/8), as STS.128 at the same rows"};

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

    // Issue: 4 sub-partitions per SM, each with one warp scheduler issuing one warp instruction per clock,
    // 32 FP32 lanes (an FFMA per clock) and 16 INT32 lanes (an integer instruction every 2 clocks): NVIDIA H100
    // Tensor Core GPU Architecture whitepaper (2022), "H100 SM architecture". Dependent FFMA latency 4 clocks:
    // published microbenchmarks (Jia et al. 2018, "Dissecting the NVIDIA Volta GPU Architecture via
    // Microbenchmarking"; Luo et al. 2024 find the same on Hopper); not measured here. Shuffles: 32 results per
    // clock per SM (CUDA C++ Programming Guide, arithmetic instruction throughput, compute capability 9.0), so one
    // SHFL every 4 clocks per scheduler. mma.sync m16n8k16 (2048 FMAs): assumed 4 clocks per scheduler, the dense
    // fp16 tensor peak of the whitepaper (989 TFLOPS: ~2048 FMAs per clock per SM) spread over 4 schedulers;
    // mma.sync on Hopper is reported to reach less than wgmma's peak, so this is optimistic (not measured).
    a.issue = {4, {1, 2, 4, 4}, 4, "whitepaper (4 schedulers, 32 FP32 + 16 INT32 lanes each); FFMA latency 4: published "
                             "microbenchmarks, not measured here"};
    // Address arithmetic (sim/pricing/address_arithmetic.hpp): an LDS address that is no recent one plus a
    // constant step costs 2 integer instructions, a LOP3 (the XOR) and a LEA (scale and add the base), and the
    // access waits for them. Measured on an H100 (2026-11-25, Nsight smsp__inst_executed.sum under `tilesim-gpu
    // crosscheck --only "gemm fp32 128x128x64"`): the CK-XOR fp32 GEMM executes 48320 warp instructions where the
    // padded one executes 42720, 175 more per warp; its SASS has 94 more LOP3 and 52 more LEA over the same 64 LDS.
    // The rule charges 30 of that GEMM's 128 LDS loads per warp (60 instructions, not 175: nvcc recomputes
    // addresses whose step the rule finds constant), and with the wait that prices its cycles within 3 % (6879
    // measured, 7060 predicted; padded 6234 and 6172): the count is fitted to the cycles, not to the SASS.
    a.issue.address_ops = 2;
    a.issue.address_evidence = "measured (H100): CK-XOR fp32 GEMM 175 more instructions per warp than padded (LOP3, LEA)";
    // Guards checked at run time (tile accesses through a padded descriptor; issue 33). The SASS of the H200 props
    // kernels (seed 18/27, cuobjdump of 833 NVRTC cubins, 2026-11-29): each guarded STG sits in its own branch or
    // predicate region with ~8 instructions (a 64-bit ISETP pair on the row, then the address recomputed: IMAD.SHL,
    // LOP3, SHF, LEA, LEA.HI.X), 4 of them dependent; the first predicated LDG waits for S2R SR_CTAID / SR_TID and
    // the guard's compare chain. Counts and depths fitted on props-h200.json (seed 18, 500 cases) by a grid over
    // ops 4-10, depths 2-8, load depth 0-20: median |cycle error| 19.3 % -> 7.6 %; judged on recordings never used
    // in the fit: props-h200-default.json (seed 27) 20.1 % -> 7.6 %, props-h200-seed20261129.json (recorded before
    // the fit, opened after it) 20.6 % -> 7.8 %, the H100's props-h100.json 20.0 % -> 7.5 %.
    a.issue.guarded_store_ops = 8;
    a.issue.guarded_store_depth = 4;
    a.issue.guarded_load_depth = 15;
    a.issue.guarded_store_evidence =
        "fitted (H200 props seed 18; held out: seeds 27 and 20261129, H100 seed 18): SASS of guarded STG/LDG regions";
    // Shuffles (issue 33): the generated shuffle reductions (props --kinds reduce) ran 130-150 clocks longer than
    // predicted on an H200 whenever a wave shuffled, by about the same amount at every butterfly depth (1 to 5
    // levels), and about 86 clocks longer with no shuffle (not modelled). Fitted on the reduce cases of
    // props-h200-kinds-seed20261201.json and -20261202.json (138 cases, a grid over 0-200 clocks: median |cycle
    // error| 11.5 % -> 3.9 % at 130-150); judged on the held-out props-h200-pairs-seed20261203-repeat10.json (64
    // reduce cases recorded before the fit): 14.6 % -> 5.6 %; the row sums (h200-row-sums.json) -9.3 % -> +6.7 %. The cause (SHFL's first issue, the convergence barrier
    // before it, or its register bank) is not isolated; the count is a wave's, not per level.
    a.issue.first_shuffle_latency = 140;
    a.issue.shuffle_evidence = "fitted (H200 props seeds 20261201/02 reduce cases; held out: seed 20261203): once per wave";

    // Global memory, measured on an H100 (data/calibration/README.md, "H100 global memory"):
    //   first_touch_latency 523: h100-burst.tsv `burst_cold`, buffers allocated and filled from the host before
    //     every launch, as the cross-check's launches are: the load phase (barrier to barrier, as clock64 spans
    //     are taken) minus sectors / 2.26, median over 10 lines with 1 or 8 blocks: 523 (486-555). The same
    //     burst on memory earlier launches read (`burst`, least squares 327 + 0.443 per sector over 128-1024
    //     sectors) shows what a warm L2 and TLB save; the bare chase (h100-global.tsv) gives 290 for one
    //     dependent L2 hit. The simulator runs one launch on fresh buffers, so a first touch is the cold case.
    //   sm_load_sectors_per_clock 2.26: that fit's slope (1 / 0.443) with 8 SMs busy.
    //   l2_sectors_per_clock 100: with 64 blocks (one per SM) the slope is 0.69 per sector (1.45 per SM per
    //     clock, 93 for the GPU), with 132 blocks 1.20 (0.83 per SM, 110 for the GPU): the L2 serves about 100
    //     sectors per clock in all, shared by the SMs that load.
    //   l1_load_latency 39.6: h100-global.tsv, dependent ld.global.ca hits (16-128 KiB sets): a sector this SM
    //     loaded earlier in the launch.
    //   l1_sectors_per_clock 2.6: sectors served from a line the SM already holds or has asked for (an L1 hit or
    //     a request merged into a pending miss), per phase (load_phase_bytes): h100-conv-probe.tsv, the weight
    //     loads alone (1692 such phase sectors of 1728 per block) 2.8 per clock beyond the first-touch latency,
    //     the whole im2col block 2.3; 2.6 between them. (Was 4, assumed: 128 B per clock, R 1.7.)
    //   store_sectors_per_clock 1.37: h100-burst.tsv, store phase 73-96 / 304 / 633 cycles for 256 / 512 / 1024
    //     sectors per block (8 to 132 blocks): 0.73 cycles per sector beyond a 256-sector buffer.
    //   datapath_bytes_per_clock 128: L1 and shared memory are one 128 B per clock data path (R 1.7; H100
    //     whitepaper: "combined L1 data cache and shared memory"), so global data holds the LDS pipe too; assumed.
    //   prologue_cycles 0: not fitted (docs/accuracy.md).
    //   load_phase_bytes 128: h100-conv-probe.tsv (gpu/calibrate/conv_probe.cu): the im2col convolution's 16-byte
    //     weight loads (8 lanes of each quarter warp in 8 lines, 8 sectors per instruction) cost ~1130 cycles
    //     per block where its pixel loads (a quarter warp in one sector) cost ~680, the same sectors from L2 and
    //     the same lane bytes; Nsight counts 8 L1 tag requests per weight load. Both fit sectors per quarter
    //     warp (32 per weight load, 4 per pixel load) at the burst's 2.26 per clock, and the scalar (naive)
    //     convolution, a whole warp per phase, takes the same ~1390 cycles as im2col for the same phase sectors.
    //   l2_hit_latency 390, near_region_bytes 2 MiB (issue 33, loops): a sector not yet loaded, in a region this
    //     SM loaded from in an earlier interval, is an L2 hit. data/calibration/h200-page-touch.tsv (H200,
    //     gpu/calibrate/page_touch_probe.cu): one warp's chain of dependent 128-byte loads on a buffer the host
    //     wrote just before the launch, as the cross-check and props runs write theirs. At strides of 128 B-64 KiB
    //     every load after the first costs 298-539 clocks (median 356 over the 24 tiles 1-6), as on a buffer the
    //     previous launch read: the host's copy leaves it in L2. At 2-8 MiB strides (a new page each) 340-992; the
    //     region is the 2 MiB page cudaMalloc maps (assumed). The H100 burst on warm memory gives 327 (above).
    //     The value, fitted within that range on a grid of 356-523 in steps of 10-40: 390, minimising the mean
    //     median |cycle error| over props-h200-kinds-seed20261201/02.json and the four H100 catalogue recordings
    //     (7.76 % without the rule; 7.52 % at the probe's 356; 7.00 % at 390). Held out: the
    //     props-h200-pairs-seed20261203-repeat10.json run 8.25 -> 7.99 % (loops 17.1 -> 10.3 %, 90th percentile
    //     24.0 -> 20.4 %), the H200 catalogue 6.64 -> 6.32 % (docs/accuracy.md).
    a.global = {523, 39.6, 2.26, 100, 2.6, 1.37, 128, 0, 128, 390, 2 << 20,
                "measured (H100, data/calibration/h100-burst.tsv, h100-global.tsv and h100-conv-probe.tsv)",
                "fitted within the H200 probe's range (data/calibration/h200-page-touch.tsv; props seeds 20261201/02 and the H100 "
                "catalogue; held out: seed 20261203, the H200 catalogue)"};

    // cp.async (LDGSTS.E.BYPASS.128), measured on an H200 (data/calibration/h200-ldgsts-burst.tsv,
    // gpu/calibrate/global_memory.cu `burst_async`): the burst's load phase with cp.async.cg, commit, wait_group 0,
    // beside the LDG burst of the same shape in the same run, on fresh memory (burst_*_cold) with 8 and 16 blocks,
    // least squares over 256-1024 sectors per block:
    //   sm_sectors_per_clock 3.55: LDGSTS 3.85 (8 blocks) and 3.26 (16), where LDG gives 2.66 and 2.37 (the load's
    //     2.26, measured on the H100, holds on the H200); a load into no register streams ~1.45x faster.
    //   first_touch_latency 495: the fits' intercepts 507 and 482 (LDG's: 554 and 535; the load's 523).
    // Judged on examples/async_pipeline (never used in the fit), see its replay test.
    a.async_copy = {3.55, 495, "measured (H200, data/calibration/h200-ldgsts-burst.tsv: burst_async_cold, 8 and 16 blocks)"};

    // 132 SMs (H100 SXM5 and H200), 2048 threads, 32 blocks, 228 KiB of shared memory and 64 K 32-bit registers
    // per SM: CUDA C++ Programming Guide, "Compute Capability 9.0" technical specifications; the device query on
    // both devices.
    a.occupancy = {132, 2048, 32, 228 * 1024, 65536,
                   "CUDA Programming Guide, compute capability 9.0; 132 SMs on H100 SXM/H200"};
    // Guarded accesses: nvcc puts each access of a lane whose element lies past the tensor under a branch (the
    // generated props kernels' PTX: `@%p bra` around every ld.global / st.global of a padded window), so an invalid
    // global load shows no address (no sectors) and a warp none of whose lanes is valid skips the instruction
    // (Nsight counts no smsp__sass_inst_executed_op_global_ld for it). Measured: data/recordings/props-h100.json
    // case 41 (fp16, 64x16 tile over a 7x7 tensor): 14 global load / 14 store instructions and 19 load sectors
    // on the GPU, where issuing every invalid load gave 32 / 32 and 352.
    a.guards = {false, false,
                "measured (H100), data/recordings/props-h100.json case 41: invalid global loads and warps with no "
                "valid lane issue nothing"};
    // nvcc serves a repeated shared-memory load from the first one's registers (sim/pricing/reused_loads.hpp).
    // Measured: data/recordings/props-h200-kinds-seed20261201.json (H200, 2026-11-29): 29 stencils executed fewer
    // LDS loads than written (case 1: offsets -1 and +1 of a 2-row tile, 4 LDS where 6 are written). Reusing every
    // load equal to an earlier one matched 18 of them and made 6 others differ (nvcc does not prove a shifted
    // window's elements equal); the block rule matches 9 and no other case; judged on the next kinds recording
    // (docs/accuracy.md).
    a.codegen = {true, "measured (H200), data/recordings/props-h200-kinds-seed20261201.json: stencils' repeated LDS reads"};
    return finish_arch_table(std::move(a));
  }();
  return table;
}

}  // namespace tilesim::sim
