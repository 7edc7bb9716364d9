// Laws of copy.hpp: the output equals the input for every LDS layout, read order, element type and wave
// size; the instruction stream is the four labelled steps; the layouts change the LDS read addresses.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sim/programs/copy_run.hpp"

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
