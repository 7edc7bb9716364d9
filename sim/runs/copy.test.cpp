// Laws of copy.hpp: the output equals the input for every LDS layout, read order, element type and wave
// size; the instruction stream is the four labelled steps; the layouts change the LDS read addresses.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sim/runs/copy_run.hpp"

using namespace tilesim;
using namespace tilesim::programs;

namespace {

const copy_lds_layout layouts[] = {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor,
                                   copy_lds_layout::cute_swizzle};
const char* const layout_names[] = {"row_major", "padded", "ck_xor", "cute_swizzle"};

template <class T>
sim::run_result copy_once(const sim::launch& l, const copy_params& p) {
  return run_copy<T>(l, p, copy_input<T>(copy_elements(l, p)));
}

// The LDS load addresses of wave 0, lanes 0..n-1.
std::vector<sim::address_t> lds_load_lanes(const sim::run_result& r, int n) {
  for (const sim::wave_instruction& i : r.workgroups[0].waves[0].instructions)
    if (i.access.label == "lds load")
      return std::vector<sim::address_t>(i.access.address.begin(), i.access.address.begin() + n);
  return {};
}

}  // namespace

TEST_CASE("copy: output == input for every LDS layout x read order x (fp16, wave 64, 256 threads) and (fp32, wave 32, 128 threads), grid 2") {
  for (int k = 0; k < 4; ++k)
    for (const copy_read_order order : {copy_read_order::same_as_write, copy_read_order::lanes_down_rows}) {
      CAPTURE(layout_names[k]);
      CAPTURE(static_cast<int>(order));
      copy_params p;
      p.layout = layouts[k];
      p.read = order;
      const sim::launch amd{.grid = 2, .block = 256, .wave_size = 64};
      const sim::run_result h = copy_once<std::uint16_t>(amd, p);
      CHECK(h.memory.get<std::uint16_t>(1) == h.memory.get<std::uint16_t>(0));
      CHECK(h.clean());
      CHECK(h.uniform());
      copy_params q = p;
      q.vector = 4;  // 16 bytes of fp32
      const sim::launch nv{.grid = 2, .block = 128, .wave_size = 32};
      const sim::run_result f = copy_once<float>(nv, q);
      CHECK(f.memory.get<float>(1) == f.memory.get<float>(0));
      CHECK(f.clean());
      CHECK(f.uniform());
    }
}

TEST_CASE("copy: each wave issues global load, lds store, lds load, global store of 16 bytes, barrier between the LDS steps") {
  const sim::run_result r = copy_once<std::uint16_t>({.block = 256, .wave_size = 64}, copy_params{});
  for (const sim::wave_record& w : r.workgroups[0].waves) {
    REQUIRE(w.instructions.size() == 4);
    const char* labels[] = {"global load", "lds store", "lds load", "global store"};
    const int intervals[] = {0, 0, 1, 1};
    for (std::size_t i = 0; i < 4; ++i) {
      CHECK(w.instructions[i].access.label == labels[i]);
      CHECK(w.instructions[i].interval == intervals[i]);
      CHECK(w.instructions[i].access.width == 16);
      CHECK(w.instructions[i].access.active_lanes() == 64);
    }
  }
  CHECK(r.workgroups[0].lds_bytes == 64 * 32 * 2);
}

TEST_CASE("copy: lanes_down_rows reads rows 64 B apart on row_major, 80 B on padded, and 16-byte chunks XOR-ed on ck_xor and cute_swizzle") {
  auto lanes = [](copy_lds_layout layout) {
    copy_params p;
    p.layout = layout;
    return lds_load_lanes(copy_once<std::uint16_t>({.block = 256, .wave_size = 64}, p), 4);
  };
  CHECK(lanes(copy_lds_layout::row_major) == std::vector<sim::address_t>{0, 64, 128, 192});
  CHECK(lanes(copy_lds_layout::padded) == std::vector<sim::address_t>{0, 80, 160, 240});
  // CK: L = 2 rows per 128-byte LDS row; rows 2, 3 XOR their chunk with 1 (spec/layouts/ck_lds_xor.hpp example).
  CHECK(lanes(copy_lds_layout::ck_xor) == std::vector<sim::address_t>{0, 64, 144, 208});
  // Swizzle<2,3,2>: row r's chunk c sits at chunk c XOR (r mod 4).
  CHECK(lanes(copy_lds_layout::cute_swizzle) == std::vector<sim::address_t>{0, 64 + 16, 128 + 32, 192 + 48});
}

TEST_CASE("copy: every LDS layout stores the tile to distinct 16-byte vectors inside its allocation") {
  for (int k = 0; k < 4; ++k) {
    CAPTURE(layout_names[k]);
    copy_params p;
    p.layout = layouts[k];
    const sim::run_result r = copy_once<std::uint16_t>({.block = 256, .wave_size = 64}, p);
    std::set<sim::address_t> stored;
    for (const sim::wave_record& w : r.workgroups[0].waves)
      for (sim::address_t a : w.instructions[1].access.address) {
        CHECK(a % 16 == 0);
        CHECK(a + 16 <= r.workgroups[0].lds_bytes);
        stored.insert(a);
      }
    CHECK(stored.size() == 256);
  }
}

TEST_CASE("copy: parameters the pattern or a layout rejects stop the run with the rule and the thread") {
  copy_params p;
  p.cols = 30;  // vector 8 does not divide 30
  const sim::launch l{.block = 256, .wave_size = 64};
  try {
    (void)copy_once<std::uint16_t>(l, p);
    FAIL("no run_error");
  } catch (const sim::run_error& e) {
    CHECK(e.why == sim::run_error::reason::program_threw);
    CHECK(e.threads == std::vector<int>{0});
    CHECK(std::string(e.what()).find("every split must be exact") != std::string::npos);
    CHECK(std::string(e.what()).find("(cols = 30, vector = 8)") != std::string::npos);
  }
  CHECK_THROWS_WITH_AS(run_copy<float>(l, copy_params{}, std::vector<float>(5)),
                       "copy: the input holds 5 elements, grid * rows * cols = 2048", std::invalid_argument);
  copy_params huge;
  huge.rows = index_t{1} << 40;
  CHECK_THROWS_AS(copy_elements(l, huge), std::invalid_argument);
}

// ---- gemm_operand: the GEMM operand read (lane l -> row l % R of its row group, vector l / R of its K group) ----

namespace {

// The LDS load addresses of every "lds load" instruction of wave w of workgroup 0, in issue order.
std::vector<std::vector<sim::address_t>> lds_load_addresses(const sim::run_result& r, int w) {
  std::vector<std::vector<sim::address_t>> out;
  for (const sim::wave_instruction& i : r.workgroups[0].waves[static_cast<std::size_t>(w)].instructions)
    if (i.access.label == "lds load") out.emplace_back(i.access.address.begin(), i.access.address.end());
  return out;
}

// CK's fp16 A tile, 128 x 32, read as MFMA's (R = 32) or ldmatrix's (R = 16) operand.
copy_params operand_tile(index_t lane_rows, copy_lds_layout layout = copy_lds_layout::row_major) {
  copy_params p;
  p.rows = 128;
  p.cols = 32;
  p.layout = layout;
  p.read = copy_read_order::gemm_operand;
  p.lane_rows = lane_rows;
  return p;
}

}  // namespace

TEST_CASE("copy gemm_operand: output == input for every LDS layout, R = 32 on wave 64 and R = 16 on wave 32, 256 threads, grid 2") {
  for (int k = 0; k < 4; ++k) {
    CAPTURE(layout_names[k]);
    const sim::run_result mfma = copy_once<std::uint16_t>({.grid = 2, .block = 256, .wave_size = 64}, operand_tile(32, layouts[k]));
    CHECK(mfma.memory.get<std::uint16_t>(1) == mfma.memory.get<std::uint16_t>(0));
    CHECK(mfma.clean());
    const sim::run_result ldsm = copy_once<std::uint16_t>({.grid = 2, .block = 256, .wave_size = 32}, operand_tile(16, layouts[k]));
    CHECK(ldsm.memory.get<std::uint16_t>(1) == ldsm.memory.get<std::uint16_t>(0));
    CHECK(ldsm.clean());
  }
  copy_params p2024 = operand_tile(32, copy_lds_layout::ck_xor);
  p2024.ck_order = ck_lds_order::k0_l_2024;
  const sim::run_result r = copy_once<std::uint16_t>({.grid = 2, .block = 256, .wave_size = 64}, p2024);
  CHECK(r.memory.get<std::uint16_t>(1) == r.memory.get<std::uint16_t>(0));
}

TEST_CASE("copy gemm_operand R = 32, wave 64 (MFMA 32x32x8 A): lane l of warp w reads row 32w + l%32 at k = 8*(l/32), then k + 16") {
  // Row-major 128 x 32 fp16: element (m, k) at byte 2*(32m + k). 4 warps x 32 rows = 128 rows, one row
  // iteration; K = 32 is two K groups of 16 (two lane groups of 8), so each wave issues two reads.
  const sim::run_result r = copy_once<std::uint16_t>({.block = 256, .wave_size = 64}, operand_tile(32));
  for (int w = 0; w < 4; ++w) {
    const auto loads = lds_load_addresses(r, w);
    REQUIRE(loads.size() == 2);
    for (int g = 0; g < 2; ++g)
      for (int l = 0; l < 64; ++l) {
        const index_t m = 32 * w + l % 32, k = 16 * g + 8 * (l / 32);
        CAPTURE(w);
        CAPTURE(g);
        CAPTURE(l);
        CHECK(loads[static_cast<std::size_t>(g)][static_cast<std::size_t>(l)] == static_cast<sim::address_t>(2 * (32 * m + k)));
      }
  }
  // The encoding says the same: lane 33 of warp 1, first element of its first read = (33, 8).
  const tile_distribution_encoding e = operand_read_pattern{256, 64, 128, 32, 8, 32}.encoding();
  CHECK(e.x_of(partition_index(e, 1, 33), {})[0] == 33);
  CHECK(e.x_of(partition_index(e, 1, 33), {})[1] == 8);
}

TEST_CASE("copy gemm_operand R = 16, wave 32 (ldmatrix.x4): lanes 0-7 address rows 0-7 at k 0, 8-15 rows 8-15, 16-23 rows 0-7 at k 8, 24-31 rows 8-15 at k 8") {
  const sim::run_result r = copy_once<std::uint16_t>({.block = 256, .wave_size = 32}, operand_tile(16));
  for (int w = 0; w < 8; ++w) {
    const auto loads = lds_load_addresses(r, w);
    REQUIRE(loads.size() == 2);  // 8 warps x 16 rows = 128: one row group; K 32 = two reads of K16
    for (int g = 0; g < 2; ++g)
      for (int l = 0; l < 32; ++l) {
        const index_t m = 16 * w + l % 16, k = 16 * g + 8 * (l / 16);
        CAPTURE(w);
        CAPTURE(g);
        CAPTURE(l);
        CHECK(loads[static_cast<std::size_t>(g)][static_cast<std::size_t>(l)] == static_cast<sim::address_t>(2 * (32 * m + k)));
      }
  }
  // Matrix 2 (lanes 16-23) of warp 0's first read: rows 0-7 at k = 8, bytes 16, 80, ..., 464.
  const auto loads = lds_load_addresses(r, 0);
  CHECK(std::vector<sim::address_t>(loads[0].begin() + 16, loads[0].begin() + 24) ==
        std::vector<sim::address_t>{16, 80, 144, 208, 272, 336, 400, 464});
}

TEST_CASE("copy gemm_operand: more row groups than warps iterate rows outer, K inner") {
  // 64 x 64 fp16 on 64 threads, wave 32, R = 16: W = 2, MI = 64 / (16*2) = 2, KG = 64 / 16 = 4, so 8 reads
  // per warp; as in CK's block GEMM the warps interleave: warp 1 reads rows 16-31 (k 0, 16, 32, 48), then
  // rows 48-63.
  copy_params p;
  p.rows = 64;
  p.cols = 64;
  p.read = copy_read_order::gemm_operand;
  p.lane_rows = 16;
  const sim::run_result r = copy_once<std::uint16_t>({.block = 64, .wave_size = 32}, p);
  CHECK(r.memory.get<std::uint16_t>(1) == r.memory.get<std::uint16_t>(0));
  const auto loads = lds_load_addresses(r, 1);
  REQUIRE(loads.size() == 8);
  const index_t first_row[8] = {16, 16, 16, 16, 48, 48, 48, 48}, first_k[8] = {0, 16, 32, 48, 0, 16, 32, 48};
  for (std::size_t i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(loads[i][0] == static_cast<sim::address_t>(2 * (64 * first_row[i] + first_k[i])));
  }
}

TEST_CASE("copy gemm_operand: R must divide the wave, and R * warps the rows; the error names the values") {
  auto message = [](const copy_params& p, int wave) {
    try {
      (void)copy_once<std::uint16_t>({.block = 256, .wave_size = wave}, p);
    } catch (const sim::run_error& e) {
      return std::string(e.what());
    }
    return std::string("no run_error");
  };
  CHECK(message(operand_tile(24), 64).find("gemm operand read") != std::string::npos);
  CHECK(message(operand_tile(24), 64).find("(warp size = 64, lane rows R = 24)") != std::string::npos);
  copy_params short_tile = operand_tile(32);
  short_tile.rows = 64;  // 4 waves x 32 rows need 128
  CHECK(message(short_tile, 64).find("(rows = 64, rows per pass = R * warps = 128)") != std::string::npos);
  copy_params narrow = operand_tile(32);
  narrow.cols = 8;   // one instruction reads K16
  narrow.rows = 256;  // (the write pattern needs 256 rows for one 8-column vector per thread and row)
  CHECK(message(narrow, 64).find("(cols = 8, cols per read = (warp size / R) * vector = 16)") != std::string::npos);
  CHECK(operand_read_pattern{256, 64, 128, 32, 8, 0}.check().what == rule::length_not_positive);
  CHECK(operand_read_pattern{256, 64, 128, 32, 8, 32}.check().what == rule::none);
}

TEST_CASE("copy ldmatrix_operand: output == input for every LDS layout and both CK orders, wave 32, grid 2; 64 x 64 on "
          "64 threads iterates row groups outer, K groups inner") {
  for (int k = 0; k < 4; ++k) {
    CAPTURE(layout_names[k]);
    copy_params p = operand_tile(16, layouts[k]);
    p.read = copy_read_order::ldmatrix_operand;
    const sim::run_result r = copy_once<std::uint16_t>({.grid = 2, .block = 256, .wave_size = 32}, p);
    CHECK(r.memory.get<std::uint16_t>(1) == r.memory.get<std::uint16_t>(0));
    CHECK(r.clean());
  }
  copy_params p2024 = operand_tile(16, copy_lds_layout::ck_xor);
  p2024.read = copy_read_order::ldmatrix_operand;
  p2024.ck_order = ck_lds_order::k0_l_2024;
  const sim::run_result r = copy_once<std::uint16_t>({.grid = 2, .block = 256, .wave_size = 32}, p2024);
  CHECK(r.memory.get<std::uint16_t>(1) == r.memory.get<std::uint16_t>(0));
  copy_params square;
  square.rows = 64;
  square.cols = 64;
  square.read = copy_read_order::ldmatrix_operand;
  square.lane_rows = 16;
  const sim::run_result s = copy_once<std::uint16_t>({.block = 64, .wave_size = 32}, square);
  CHECK(s.memory.get<std::uint16_t>(1) == s.memory.get<std::uint16_t>(0));
  std::vector<const sim::wave_instruction*> reads;
  for (const sim::wave_instruction& i : s.workgroups[0].waves[1].instructions)
    if (i.access.label == "ldmatrix") reads.push_back(&i);
  REQUIRE(reads.size() == 8);  // MI 2 x KG 4; warp 1 takes rows 16-31, then 48-63
  CHECK(reads[0]->access.address[0] == 2 * (64 * 16 + 0));
  CHECK(reads[4]->access.address[0] == 2 * (64 * 48 + 0));
  CHECK(reads[5]->access.address[16] == 2 * (64 * 48 + 16 + 8));
}

TEST_CASE("copy ldmatrix_operand: one ldmatrix.x4 per 16 x 16 sub-tile at the R = 16 row addresses (op_ldsm), then "
          "4-byte stores of the mma A fragment: lane 5's first register is A(1, 2..3)") {
  copy_params p = operand_tile(16);
  p.read = copy_read_order::ldmatrix_operand;
  const sim::run_result r = copy_once<std::uint16_t>({.block = 256, .wave_size = 32}, p);
  const copy_params per_lane = operand_tile(16);
  const sim::run_result e = copy_once<std::uint16_t>({.block = 256, .wave_size = 32}, per_lane);
  for (int w = 0; w < 8; ++w) {
    CAPTURE(w);
    std::vector<const sim::wave_instruction*> ldsm, stores;
    for (const sim::wave_instruction& i : r.workgroups[0].waves[static_cast<std::size_t>(w)].instructions) {
      if (i.access.label == "ldmatrix") ldsm.push_back(&i);
      if (i.access.label == "global store") stores.push_back(&i);
      CHECK(i.access.label != "lds load");
    }
    REQUIRE(ldsm.size() == 2);
    const auto loads = lds_load_addresses(e, w);  // the per-lane read's addresses: the same rows
    for (std::size_t g = 0; g < 2; ++g) {
      CHECK(ldsm[g]->matrix_access);
      CHECK(ldsm[g]->access.width == 16);
      CHECK(ldsm[g]->access.address == loads[g]);
    }
    REQUIRE(stores.size() == 8);  // 2 sub-tiles x 4 registers
    for (std::size_t j = 0; j < 8; ++j) {
      CAPTURE(j);
      CHECK(stores[j]->access.width == 4);
      const index_t kg = static_cast<index_t>(j / 4), i = static_cast<index_t>(j % 4), lane = 5;
      const index_t row = 16 * w + 8 * (i % 2) + lane / 4, col = 16 * kg + 8 * (i / 2) + 2 * (lane % 4);
      CHECK(stores[j]->access.address[5] == r.memory.info(1).base + static_cast<sim::address_t>(2 * (32 * row + col)));
    }
  }
}

TEST_CASE("copy read encodings: the R = 32 wave-64 operand read is CK's MFMA 32x32x16 iterate-K A embedded in the "
          "warps (the same encoding operand_read_pattern spells out); ldmatrix_operand's is the mma A fragment's") {
  copy_params p = operand_tile(32);
  const operand_read_pattern r{256, 64, 128, 32, 8, 32};
  CHECK(make_copy_read_encoding(p, 256, 64) == r.encoding());
  CHECK(make_copy_read_encoding(p, 256, 64) == embed_encoding(r.outer_encoding(), make_mfma_32x32x16_iterate_k_a_encoding()));
  p = operand_tile(16);
  p.read = copy_read_order::ldmatrix_operand;
  const tile_distribution_encoding f = make_copy_read_encoding(p, 256, 32);
  // Warp 1, lane 5 (g 1, q 1), d = 2 (register 1, low half) holds A(16 + 9, 2): mma's A rule in warp 1's rows.
  CHECK(f.x_of(partition_index(f, 1, 5), f.y_of(2))[0] == 25);
  CHECK(f.x_of(partition_index(f, 1, 5), f.y_of(2))[1] == 2);
  // d = 8 + 2: the second K group (k + 16).
  CHECK(f.x_of(partition_index(f, 1, 5), f.y_of(10))[1] == 18);
}

TEST_CASE("copy ldmatrix_operand: a wave other than 32, or elements other than 16 bits, is refused naming the values") {
  copy_params p = operand_tile(16);
  p.read = copy_read_order::ldmatrix_operand;
  try {
    (void)copy_once<std::uint16_t>({.block = 256, .wave_size = 64}, p);
    FAIL("wave 64 ran");
  } catch (const sim::run_error& e) {
    CHECK(std::string(e.what()).find("ldmatrix operand read") != std::string::npos);
    CHECK(std::string(e.what()).find("warp size = 64") != std::string::npos);
  }
  try {  // vector 8 of fp32: the split would do, the element size does not
    (void)copy_once<float>({.block = 256, .wave_size = 32}, p);
    FAIL("fp32 ran");
  } catch (const sim::run_error& e) {
    CHECK(std::string(e.what()).find("16-bit elements") != std::string::npos);
  }
}
