// tilesim/sim/arch/gfx942.cpp: AMD CDNA3 (MI300X, gfx942) LDS, as data.
//
// Sources: R = ../shared/reference/lds-banks-and-swizzles.md (section numbers). The phase tables of R 2.3
// were derived empirically by nod-ai/AMD engineers (pairwise same-bank latency probes) and agree with
// AMD's Triton PR #11365 and the CK-Tile LDS bank-conflict blog; the stride sweeps of R 2.5 (reproduced
// in sim/models/lds_banks.test.cpp) confirm them through SQ_LDS_BANK_CONFLICT.
#include "sim/arch/cdna3.hpp"

namespace tilesim::sim {

arch_table cdna3_lds_tables(std::string_view name, std::string_view description) {
  using namespace arch_data;
  arch_table a;
  a.name = name;
  a.description = description;
  a.wave_size = 64;  // R 2.1
  a.banks = 32;      // R 2.1 [doc]: 32 banks of 512 dwords, 4 bytes each
  a.bank_bytes = 4;

  // ds_read_b32: 2 x 32 (T0-31; T32-63); ds_read_b64: 4 x 16; ds_read_b128: 8 x 8 non-contiguous;
  // ds_write_b128: 8 x 8 contiguous (R 2.3 [meas + staff]).
  const std::vector<std::vector<int>> read_b128 = {
      lanes({{0, 3}, {20, 23}}),   lanes({{32, 35}, {52, 55}}), lanes({{4, 7}, {16, 19}}),
      lanes({{36, 39}, {48, 51}}), lanes({{8, 11}, {28, 31}}),  lanes({{40, 43}, {60, 63}}),
      lanes({{12, 15}, {24, 27}}), lanes({{44, 47}, {56, 59}})};
  const auto load = access_kind::load, store = access_kind::store;
  a.lds_rules = {
      {load, 4, 32, contiguous(64, 32), lds_merge::none, "R 2.3/2.5 [meas]: ds_read_b32, 2 phases of 32 lanes"},
      {load, 8, 32, contiguous(64, 16), lds_merge::none, "R 2.3/2.5 [meas]: ds_read_b64, 4 phases of 16 lanes"},
      {load, 16, 32, read_b128, lds_merge::none,
       "R 2.3/2.5 [meas]: ds_read_b128, 8 phases of 8 lanes, {0-3,20-23}, {32-35,52-55}, ..."},
      {store, 16, 32, contiguous(64, 8), lds_merge::none, "R 2.3 [meas + staff]: ds_write_b128, 8 x 8 contiguous"},
      // Not found in any source (R 2.3 "Not found"): ds_write_b32/b64 and the sub-dword ds_read_u8/u16,
      // ds_write_b8/b16. Assumed, not measured: the same 128 bytes per phase as every measured table, in
      // contiguous lane groups like ds_write_b128 (so b32 and b64 writes use the ds_read_b32/b64 groups).
      {store, 4, 32, contiguous(64, 32), lds_merge::none,
       "assumed, not measured: ds_write_b32 as 2 x 32 contiguous (128 B per phase, like every measured table)"},
      {store, 8, 32, contiguous(64, 16), lds_merge::none,
       "assumed, not measured: ds_write_b64 as 4 x 16 contiguous (128 B per phase, like every measured table)"},
      {load, 1, 32, contiguous(64, 32), lds_merge::none,
       "assumed, not measured: ds_read_u8 like ds_read_b32; same dword = broadcast (CK's stricter sub-dword "
       "rule R 2.4 'R2' is unverified)"},
      {load, 2, 32, contiguous(64, 32), lds_merge::none,
       "assumed, not measured: ds_read_u16 like ds_read_b32; same dword = broadcast"},
      {store, 1, 32, contiguous(64, 32), lds_merge::none, "assumed, not measured: ds_write_b8 like ds_write_b32"},
      {store, 2, 32, contiguous(64, 32), lds_merge::none, "assumed, not measured: ds_write_b16 like ds_write_b32"},
  };

  lds_timing_constants& t = a.lds_timing;
  // Assumed, not measured (no calibration data for steady state on AMD exists in the reference):
  // the bank array serves one 128-byte phase per clock (R 2.1: 128 B/clk peak), and each of the two SIMD-pair
  // ports moves 64 B/clk and takes 16 addresses per clock; a store sends addresses then data (R 2.2 [doc]:
  // a 64-lane b32 store takes 8 cycles, b128 20 cycles on one port), a load's data returns while addresses
  // go in. Both ports work at once (R 2.2), so per instruction: max(phases, port cycles / 2).
  t.wavefronts_per_clock = 1;
  t.floor = {0, 0};
  t.slope = {1, 1};
  t.intercept = {0, 0};
  t.ports = 2;
  t.addresses_per_clock = 16;
  t.port_bytes_per_clock = {64, 64};
  // Assumed, not measured: R 2.6 finds no vendor LDS latency; 64 cycles is a placeholder of the order of
  // the MI300X block timings of R 2.5 (~500 cycles for 64 conflict-free ds_read_b32 with loop overhead).
  t.latency_cycles = 64;

  // Assumed, not measured: the reference has no AMD global-memory sector data; counted like sm90 (32-byte
  // sectors, 128-byte lines) so `tilesim global` answers the same question on every arch.
  a.sector_bytes = 32;
  a.line_bytes = 128;
  a.global_evidence = "assumed, not measured: 32-byte sectors and 128-byte lines as on sm90";

  // Issue: 4 SIMDs per CU, each 16 lanes wide, so a wave64 VALU instruction takes 4 clocks (AMD CDNA3 ISA
  // reference guide, "Compute unit"; CDNA3 white paper). Integer the same (assumed); dependent VALU latency of
  // 8 clocks assumed, not measured (two passes of a 4-clock instruction). A shuffle (ds_bpermute_b32, through
  // the LDS crossbar) assumed 8 clocks. Matrix: 8 clocks per 2048 multiply-adds: v_mfma_f32_16x16x16_f16 is 4
  // passes of 4 clocks, v_mfma_f32_32x32x8_f16 8 passes (CDNA3 ISA guide, MFMA table), i.e. 1024 fp16 FMAs per
  // clock per CU, MI300X's 1307 TFLOPS dense fp16 peak at 304 CUs and 2.1 GHz (CDNA3 white paper).
  a.issue = {4, {4, 4, 8, 8}, 8, "CDNA3 ISA guide (4 SIMD16 per CU: 4 clocks per wave64 VALU op; MFMA passes); latency assumed"};
  // Assumed, not measured: no published per-CU L2 latency / bandwidth figures were found for CDNA3 in the
  // reference; the sm90 structure with 64 B per clock per CU from L2 (2 sectors) and 500 clocks of latency.
  a.global = {500, 120, 2, 1e9, 2, 2, 0, 0, 0, 0, 0, "assumed, not measured (no CDNA3 global-memory measurements)"};
  // 512 VGPRs of 64 lanes per SIMD, 4 SIMDs: 131072 32-bit registers per CU (CDNA3 ISA guide; AGPRs not counted).
  a.occupancy = {304, 2048, 32, 64 * 1024, 131072,
                 "MI300X: 304 CUs, 64 KiB LDS per CU (CDNA3 white paper); 32 waves of 64 and 4 x 512 VGPRs per CU (ISA guide)"};
  return a;
}

const arch_table& gfx942_table() {
  static const arch_table table = arch_data::finish_arch_table(
      cdna3_lds_tables("gfx942", "AMD CDNA3 (MI300X): 64 lanes, 32 banks x 4 B, 128 B per phase"));
  return table;
}

}  // namespace tilesim::sim
