// tilesim/sim/arch/gfx950.cpp: AMD CDNA4 (MI350/MI355, gfx950) LDS, as data.
//
// Sources: R = ../shared/reference/lds-banks-and-swizzles.md. R 2.1: 160 KB, 64 banks x 4 B, reads at
// 256 B/clk. R 2.3 [meas + staff]: ds_read_b32 1 x 64, ds_read_b64 2 x 32, ds_read_b128 4 x 16 in
// non-contiguous groups. R 6.1 notes that rocRoller models 32 banks for everything but b64/b128 reads while
// the nod-ai measurement gives b32 reads one phase of 64 lanes (which needs 64 banks): this table follows
// the measurement, 64 banks for every instruction, because the bank is a property of the address.
#include "sim/arch/arch.hpp"

namespace tilesim::sim {

const arch_table& gfx950_table() {
  using namespace arch_data;
  static const arch_table table = [] {
    arch_table a;
    a.name = "gfx950";
    a.description = "AMD CDNA4 (MI350/MI355): 64 lanes, 64 banks x 4 B, reads 256 B per phase";
    a.wave_size = 64;
    a.banks = 64;
    a.bank_bytes = 4;
    const std::vector<std::vector<int>> read_b128 = {lanes({{0, 3}, {12, 15}, {20, 23}, {24, 27}}),
                                                     lanes({{32, 35}, {44, 47}, {52, 55}, {56, 59}}),
                                                     lanes({{4, 7}, {8, 11}, {16, 19}, {28, 31}}),
                                                     lanes({{36, 39}, {40, 43}, {48, 51}, {60, 63}})};
    const auto load = access_kind::load, store = access_kind::store;
    // Writes: no source gives gfx950 write phases (R 2.3 "Not found"), nor a write bandwidth beyond the read
    // doubling. Assumed, not measured: writes keep CDNA3's 128 bytes per phase in contiguous groups
    // (b32 2 x 32, b64 4 x 16, b128 8 x 8), checked over the 64 physical banks.
    const std::string_view write_note =
        "assumed, not measured: CDNA3's 128-byte contiguous write phases over 64 banks (no gfx950 write table)";
    a.lds_rules = {
        {load, 4, 64, contiguous(64, 64), lds_merge::none, "R 2.3 [meas]: ds_read_b32, 1 phase of 64 lanes"},
        {load, 8, 64, contiguous(64, 32), lds_merge::none, "R 2.3 [meas]: ds_read_b64, 2 phases of 32 lanes"},
        {load, 16, 64, read_b128, lds_merge::none,
         "R 2.3 [meas]: ds_read_b128, 4 phases of 16 lanes, {0-3,12-15,20-23,24-27}, ..."},
        {load, 1, 64, contiguous(64, 64), lds_merge::none,
         "assumed, not measured: ds_read_u8 like ds_read_b32; same dword = broadcast"},
        {load, 2, 64, contiguous(64, 64), lds_merge::none,
         "assumed, not measured: ds_read_u16 like ds_read_b32; same dword = broadcast"},
        {store, 1, 64, contiguous(64, 32), lds_merge::none, write_note},
        {store, 2, 64, contiguous(64, 32), lds_merge::none, write_note},
        {store, 4, 64, contiguous(64, 32), lds_merge::none, write_note},
        {store, 8, 64, contiguous(64, 16), lds_merge::none, write_note},
        {store, 16, 64, contiguous(64, 8), lds_merge::none, write_note},
    };

    lds_timing_constants& t = a.lds_timing;
    // Assumed, not measured: one phase per clock (256 B/clk reads, R 2.1; writes 128 B per phase), and
    // CDNA3's two ports (R 2.2) with the read return doubled to 128 B/clk per port to match the doubled
    // read bandwidth; addresses and write data as on CDNA3.
    t.wavefronts_per_clock = 1;
    t.floor = {0, 0};
    t.slope = {1, 1};
    t.intercept = {0, 0};
    t.ports = 2;
    t.addresses_per_clock = 16;
    t.port_bytes_per_clock = {128, 64};
    t.latency_cycles = 64;  // assumed, not measured (no source; see gfx942.cpp)

    a.sector_bytes = 32;  // assumed, not measured (see gfx942.cpp)
    a.line_bytes = 128;
    a.global_evidence = "assumed, not measured: 32-byte sectors and 128-byte lines as on sm90";
    // MFMA 32x32x8 / 16x16x16 f16 assumed at gfx942's rate (CDNA4's doubled fp16 rate is in its new 32x32x16 and
    // 16x16x32 instructions, which tilesim does not model).
    a.issue = {4, {4, 4, 8, 8}, 8, "as gfx942 (CDNA4 keeps 4 SIMD16 per CU); MFMA rate and latency assumed"};
    a.global = {500, 120, 2, 1e9, 2, 2, 0, 0, 0, 0, 0, "assumed, not measured (no CDNA4 global-memory measurements)"};
    a.occupancy = {256, 2048, 32, 160 * 1024, 131072,
                   "MI355X: 256 CUs, 160 KiB LDS per CU (CDNA4 white paper); registers as gfx942 (assumed)"};
    return finish_arch_table(std::move(a));
  }();
  return table;
}

}  // namespace tilesim::sim
