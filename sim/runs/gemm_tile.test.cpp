// Laws of gemm_tile.hpp: C equals the host reference exactly for every LDS layout and both wave sizes; the
// fragment encodings make every FMA thread-local; each wave issues the labelled steps in their barrier
// intervals; the layouts move the LDS read addresses; a missing barrier is reported as a race naming the
// LDS labels; splits that are not exact stop the run with the rule and the values.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/runs/gemm_tile_run.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;
using namespace tilesim::programs;

namespace {

const gemm_lds_layout layouts[] = {gemm_lds_layout::row_major, gemm_lds_layout::padded, gemm_lds_layout::ck_xor};
const char* const layout_names[] = {"row_major", "padded", "ck_xor"};

struct gemm_case {
  gemm_params params;
  std::vector<float> a, b;
  sim::run_result result;
};

// Runs p on (block, wave) with gemm_input operands (seeds 1 and 2).
gemm_case run_case(const gemm_params& p, int block, int wave, bool measure_stack = false, int max_reports = 1000) {
  std::vector<float> a = gemm_input(p.m * p.k, 1), b = gemm_input(p.n * p.k, 2);
  sim::launch l = gemm_launch(p, block, wave);
  l.measure_stack = measure_stack;
  l.max_reports = max_reports;
  sim::run_result r = run_gemm(l, p, a, b);
  return {p, std::move(a), std::move(b), std::move(r)};
}

// The instructions of wave w of workgroup 0 labelled `label`, in issue order.
std::vector<const sim::wave_instruction*> labelled(const sim::run_result& r, int w, const std::string& label) {
  std::vector<const sim::wave_instruction*> v;
  for (const sim::wave_instruction& i : r.workgroups[0].waves[static_cast<std::size_t>(w)].instructions)
    if (i.access.label == label) v.push_back(&i);
  return v;
}

// The first n lane addresses of an instruction.
std::vector<sim::address_t> first_lanes(const sim::wave_instruction& i, int n) {
  return std::vector<sim::address_t>(i.access.address.begin(), i.access.address.begin() + n);
}

}  // namespace

TEST_CASE("gemm: gemm_input is small integers, and the reference is exact on them") {
  const std::vector<float> v = gemm_input(1000, 3);
  std::set<float> values(v.begin(), v.end());
  CHECK(values == std::set<float>{-2, -1, 0, 1, 2});
  CHECK(gemm_input(4, 0) == std::vector<float>{-2, 2, -1, -1});
  gemm_params p;
  p.m = 1, p.n = 2, p.k = 3;
  CHECK(reference_gemm(p, {1, 2, -2}, {2, 0, 1, -1, 1, 1}) == std::vector<float>{0, -1});
}

TEST_CASE("gemm: C == A * B^T exactly for every LDS layout on (256 threads, wave 64) and (256 threads, wave 32), grid 2, 2 K steps") {
  for (int k = 0; k < 3; ++k)
    for (const int wave : {64, 32}) {
      CAPTURE(layout_names[k]);
      CAPTURE(wave);
      gemm_params p;
      p.m = 128;  // two block tiles along M
      p.layout = layouts[k];
      const gemm_case c = run_case(p, 256, wave);
      CHECK(c.result.workgroups.size() == 2);
      CHECK(c.result.memory.get<float>(p.c) == reference_gemm(p, c.a, c.b));
      CHECK(c.result.clean());
      CHECK(c.result.uniform());
      CHECK(c.result.memory.guards_intact());
    }
}

TEST_CASE("gemm: 128 x 128 block tiles (m_iter = n_iter = 2), 4 K steps, a 2 x 2 grid: exact on wave 64 and wave 32") {
  for (const int wave : {64, 32}) {
    CAPTURE(wave);
    gemm_params p;
    p.m = p.n = 256;
    p.k = 128;
    p.m_per_block = p.n_per_block = 128;
    p.layout = gemm_lds_layout::padded;
    const gemm_warp_grid g = make_gemm_warp_grid(p, 256, wave);
    CHECK(g.m_iter == 2);
    CHECK(g.n_iter == 2);
    const gemm_case c = run_case(p, 256, wave);
    CHECK(c.result.memory.get<float>(p.c) == reference_gemm(p, c.a, c.b));
    CHECK(c.result.clean());
    CHECK(c.result.uniform());
  }
}

TEST_CASE("gemm: the warp grid of 256 threads: 2 x 2 warps of 32 x 32 on wave 64, 2 x 4 warps of 32 x 16 on wave 32") {
  const gemm_warp_grid amd = make_gemm_warp_grid(gemm_params{}, 256, 64);
  CHECK(amd.m_warps == 2);
  CHECK(amd.n_warps == 2);
  CHECK(amd.warp_m == 32);
  CHECK(amd.warp_n == 32);
  CHECK(amd.m_iter == 1);
  CHECK(amd.n_iter == 1);
  CHECK(amd.k_iter == 8);
  const gemm_warp_grid nv = make_gemm_warp_grid(gemm_params{}, 256, 32);
  CHECK(nv.m_warps == 2);
  CHECK(nv.n_warps == 4);
  CHECK(nv.warp_n == 16);
  CHECK(nv.lanes_n == 4);
  CHECK(nv.n_iter == 1);
}

TEST_CASE("gemm: every C element has one owner, whose A and B fragments hold its row and column for every k at the FMA's y") {
  for (const int wave : {64, 32})
    for (const index_t tile : {64, 128}) {
      CAPTURE(wave);
      CAPTURE(tile);
      gemm_params p;
      p.m = p.n = p.m_per_block = p.n_per_block = tile;
      const gemm_warp_grid g = make_gemm_warp_grid(p, 256, wave);
      const tile_distribution_encoding a = make_gemm_a_encoding(g, p.vector), b = make_gemm_b_encoding(g, p.vector),
                                       c = make_gemm_c_encoding(g);
      REQUIRE(c.x_length(0) == tile);
      REQUIRE(c.x_length(1) == tile);
      REQUIRE(a.x_length(1) == p.k_per_block);
      std::vector<int> owners(static_cast<std::size_t>(tile * tile));
      bool fragments_match = true;
      for (index_t warp = 0; warp < 256 / wave; ++warp)
        for (index_t lane = 0; lane < wave; ++lane) {
          const auto thread = partition_index(c, warp, lane);
          for (index_t mi = 0; mi < g.m_iter; ++mi)
            for (index_t ni = 0; ni < g.n_iter; ++ni)
              for (index_t i = 0; i < gemm_per_lane; ++i)
                for (index_t j = 0; j < gemm_per_lane; ++j) {
                  const auto x = c.x_of(thread, {mi, ni, i, j});
                  ++owners[static_cast<std::size_t>(x[0] * tile + x[1])];
                  for (index_t ki = 0; ki < g.k_iter; ++ki)
                    for (index_t e = 0; e < p.vector; ++e) {
                      const index_t kk = ki * p.vector + e;
                      const auto xa = a.x_of(thread, {mi, ki, i, e}), xb = b.x_of(thread, {ni, ki, j, e});
                      fragments_match = fragments_match && xa[0] == x[0] && xa[1] == kk && xb[0] == x[1] && xb[1] == kk;
                    }
                }
        }
      CHECK(fragments_match);
      CHECK(std::set<int>(owners.begin(), owners.end()) == std::set<int>{1});
    }
  // The header's example: thread 9 (warp 0, lane 9) computes rows 1, 9, 17, 25 x cols 1, 9, 17, 25.
  const tile_distribution_encoding c = make_gemm_c_encoding(make_gemm_warp_grid(gemm_params{}, 256, 64));
  CHECK(c.x_of(partition_index(c, 0, 9), {0, 0, 0, 0})[0] == 1);
  CHECK(c.x_of(partition_index(c, 0, 9), {0, 0, 3, 2})[0] == 25);
  CHECK(c.x_of(partition_index(c, 0, 9), {0, 0, 3, 2})[1] == 17);
  // Warp 3 = (M warp 1, N warp 1) starts at (32, 32).
  CHECK(c.x_of(partition_index(c, 3, 0), {0, 0, 0, 0})[0] == 32);
  CHECK(c.x_of(partition_index(c, 3, 0), {0, 0, 0, 0})[1] == 32);
}

TEST_CASE("gemm: per K step each wave issues 2+2 global loads and 2+2 LDS stores, a barrier, 32+32 LDS loads; at the end 16 scalar C stores") {
  for (const int wave : {64, 32}) {
    CAPTURE(wave);
    const gemm_case c = run_case(gemm_params{}, 256, wave);
    const sim::workgroup_record& w = c.result.workgroups[0];
    CHECK(w.intervals == 4);  // 2 steps: barrier after the stores, between the steps, after the stores
    CHECK(w.lds_bytes == 2 * 64 * 32 * 4);
    REQUIRE(w.waves.size() == static_cast<std::size_t>(256 / wave));
    for (const sim::wave_record& v : w.waves) {
      CAPTURE(v.wave);
      std::vector<std::string> expected_labels;
      std::vector<int> expected_intervals;
      auto expect = [&](const char* label, int count, int interval) {
        for (int i = 0; i < count; ++i) {
          expected_labels.push_back(label);
          expected_intervals.push_back(interval);
        }
      };
      for (int step = 0; step < 2; ++step) {
        expect("A global load", 2, 2 * step);
        expect("B global load", 2, 2 * step);
        expect("A lds store", 2, 2 * step);
        expect("B lds store", 2, 2 * step);
        expect("A lds load", 32, 2 * step + 1);
        expect("B lds load", 32, 2 * step + 1);
      }
      expect("C global store", 16, 3);
      std::vector<std::string> labels;
      std::vector<int> intervals;
      bool widths_right = true, all_active = true;
      for (const sim::wave_instruction& i : v.instructions) {
        labels.push_back(i.access.label);
        intervals.push_back(i.interval);
        widths_right = widths_right && i.access.width == (i.access.label == "C global store" ? 4 : 16);
        all_active = all_active && i.access.active_lanes() == wave;
      }
      CHECK(labels == expected_labels);
      CHECK(intervals == expected_intervals);
      CHECK(widths_right);
      CHECK(all_active);
    }
  }
}

TEST_CASE("gemm: on an A lds load lanes 0-7 read rows 0-7 of one K vector, 128 B apart on row_major, 144 B on padded, XOR-spread on ck_xor; B lanes 0-7 read one address") {
  auto a_loads = [](gemm_lds_layout layout, std::size_t which) {
    gemm_params p;
    p.layout = layout;
    const gemm_case c = run_case(p, 256, 64);
    return first_lanes(*labelled(c.result, 0, "A lds load").at(which), 8);
  };
  // Load 4 is the K vector k = 4..7 (ki = 1) of rows 0-7: the loads go i (row group) fastest, then ki.
  CHECK(a_loads(gemm_lds_layout::row_major, 4) == std::vector<sim::address_t>{16, 144, 272, 400, 528, 656, 784, 912});
  CHECK(a_loads(gemm_lds_layout::padded, 4) == std::vector<sim::address_t>{16, 160, 304, 448, 592, 736, 880, 1024});
  // ck_xor (fp32, KPerBlock 32, KPack 4: MLdsLayer 1, K0 8): row r's chunk 1 sits at chunk 1 XOR (r mod 8).
  std::vector<sim::address_t> xor_expected;
  for (sim::address_t r = 0; r < 8; ++r) xor_expected.push_back(4 * (32 * r + 4 * (1 ^ r)));
  CHECK(a_loads(gemm_lds_layout::ck_xor, 4) == xor_expected);
  // Load 1 is rows 8-15 (i = 1) at k = 0..3.
  CHECK(a_loads(gemm_lds_layout::row_major, 1).front() == 8 * 128);

  gemm_params p;
  p.layout = gemm_lds_layout::row_major;
  const gemm_case c = run_case(p, 256, 64);
  const std::vector<sim::address_t> b = first_lanes(*labelled(c.result, 0, "B lds load").at(0), 8);
  CHECK(std::set<sim::address_t>(b.begin(), b.end()).size() == 1);
  // The B tile is the second LDS allocation, right after A's 64 x 32 floats.
  CHECK(b.front() == 64 * 32 * 4);
}

TEST_CASE("gemm: priced on gfx942, row_major's A lds load is 8-way (64 wavefronts, ideal 8) and its B load 2-way; padded and ck_xor are conflict-free") {
  struct expected {
    gemm_lds_layout layout;
    long long a_wavefronts, b_wavefronts;  // per instruction instance
    int a_ways, b_ways;
  };
  // gfx942's ds_read_b128 phases pair lanes 0-3 with 20-23 (reference §5.3). On A those lanes read rows 0-3
  // and 4-7 of one K vector: eight rows 128 bytes apart, the same four banks on row_major (8-way). On B they
  // read rows 0 and 2 (ln = 0 and 2): 2-way on row_major.
  for (const expected& t : {expected{gemm_lds_layout::row_major, 64, 16, 8, 2}, expected{gemm_lds_layout::padded, 8, 8, 1, 1},
                            expected{gemm_lds_layout::ck_xor, 8, 8, 1, 1}}) {
    CAPTURE(static_cast<int>(t.layout));
    gemm_params p;
    p.layout = t.layout;
    const gemm_case c = run_case(p, 256, 64);
    const sim::program_report r = sim::make_program_report(sim::arch_named("gfx942"), c.result);
    bool checked_a = false, checked_b = false, stores_ideal = true;
    for (const sim::instruction_report& i : r.instructions) {
      if (i.label == "A lds load") {
        CHECK(i.wavefronts == t.a_wavefronts * i.instances);
        CHECK(i.ideal == 8 * i.instances);
        CHECK(i.max_ways == t.a_ways);
        checked_a = true;
      } else if (i.label == "B lds load") {
        CHECK(i.wavefronts == t.b_wavefronts * i.instances);
        CHECK(i.max_ways == t.b_ways);
        checked_b = true;
      } else if (i.label == "A lds store" || i.label == "B lds store") {
        stores_ideal = stores_ideal && i.wavefronts == i.ideal;
      }
    }
    CHECK(checked_a);
    CHECK(checked_b);
    CHECK(stores_ideal);
  }
}

TEST_CASE("gemm: the LDS stores of every layout put the 2 x 64 x 32 floats at distinct 16-byte vectors inside the allocation") {
  for (int k = 0; k < 3; ++k) {
    CAPTURE(layout_names[k]);
    gemm_params p;
    p.layout = layouts[k];
    const gemm_case c = run_case(p, 256, 64);
    std::set<sim::address_t> stored;
    bool aligned_inside = true;
    for (int w = 0; w < 4; ++w)
      for (const char* label : {"A lds store", "B lds store"}) {
        const auto ins = labelled(c.result, w, label);
        for (std::size_t s = 0; s < 2; ++s)  // the first step's two stores
          for (sim::address_t addr : ins.at(s)->access.address) {
            aligned_inside = aligned_inside && addr % 16 == 0 && addr + 16 <= c.result.workgroups[0].lds_bytes;
            stored.insert(addr);
          }
      }
    CHECK(aligned_inside);
    CHECK(stored.size() == 2 * 64 * 32 / 4);
  }
}

TEST_CASE("gemm: a planted missing barrier is reported as an LDS race between the store and load labels, with a wrong C") {
  struct planted {
    gemm_planted_bug bug;
    std::set<int> intervals;  // where the racing accesses meet
  };
  // Without the barrier before the loads, each step's stores and loads share an interval (0 and 1 with the
  // barrier between steps); without the one between steps, step 0's loads meet step 1's stores in interval 1.
  for (const planted& t : {planted{gemm_planted_bug::no_barrier_before_lds_load, {0, 1}},
                           planted{gemm_planted_bug::no_barrier_before_next_lds_store, {1}}}) {
    CAPTURE(static_cast<int>(t.bug));
    gemm_params p;
    p.bug = t.bug;
    const gemm_case c = run_case(p, 256, 64, false, 1 << 20);  // every race listed
    CHECK_FALSE(c.result.clean());
    CHECK(c.result.found.races > 0);
    CHECK(c.result.found.bounds_errors == 0);
    CHECK(c.result.memory.get<float>(p.c) != reference_gemm(p, c.a, c.b));
    REQUIRE_FALSE(c.result.workgroups[0].races.empty());
    CHECK(c.result.workgroups[0].races.size() == c.result.found.races);
    std::set<std::string> pairs;
    std::set<int> intervals;
    bool all_lds_store_vs_load = true;
    for (const sim::race& r : c.result.workgroups[0].races) {
      all_lds_store_vs_load = all_lds_store_vs_load && r.space == sim::memory_space::lds &&
                              r.first.interval == r.second.interval &&
                              (r.first.kind == sim::access_kind::store) != (r.second.kind == sim::access_kind::store);
      pairs.insert(r.first.label + " / " + r.second.label);
      intervals.insert(r.first.interval);
    }
    CHECK(all_lds_store_vs_load);
    CHECK(intervals == t.intervals);
    // Both operands race, and only a store label meets a load label of the same operand.
    const std::set<std::string> either_order = {"A lds store / A lds load", "A lds load / A lds store",
                                                "B lds store / B lds load", "B lds load / B lds store"};
    bool only_expected = true, a_seen = false, b_seen = false;
    for (const std::string& s : pairs) {
      only_expected = only_expected && either_order.count(s) == 1;
      a_seen = a_seen || s[0] == 'A';
      b_seen = b_seen || s[0] == 'B';
    }
    CHECK(only_expected);
    CHECK(a_seen);
    CHECK(b_seen);
    const std::string line = sim::describe(c.result.workgroups[0].races.front());
    CHECK(line.find("lds store") != std::string::npos);
    CHECK(line.find("lds load") != std::string::npos);
  }
}

TEST_CASE("gemm: a split that is not exact stops the run with the rule and the values; the host driver names bad sizes") {
  gemm_params p;
  p.m = 96;
  p.m_per_block = 48;  // 2 warps along M need a multiple of 64 rows
  try {
    (void)run_case(p, 256, 64);
    FAIL("no run_error");
  } catch (const sim::run_error& e) {
    CHECK(e.why == sim::run_error::reason::program_threw);
    CHECK(e.threads == std::vector<int>{0});
    CHECK(std::string(e.what()).find("gemm tile") != std::string::npos);
    CHECK(std::string(e.what()).find("(M per block = 48, M warps * 32 = 64)") != std::string::npos);
  }
  const gemm_params d;
  CHECK_THROWS_WITH_AS(run_gemm(gemm_launch(d, 256, 64), d, std::vector<float>(5), gemm_input(64 * 64, 2)),
                       "gemm: A must hold m * k and B n * k elements (A holds 5, B 4096; m = 64, n = 64, k = 64)",
                       std::invalid_argument);
  sim::launch two = gemm_launch(d, 256, 64);
  two.grid = 2;
  CHECK_THROWS_WITH_AS(run_gemm(two, d, gemm_input(64 * 64, 1), gemm_input(64 * 64, 2)),
                       "gemm: the grid must be one workgroup per block tile (grid = 2, tiles = 1)", std::invalid_argument);
  gemm_params odd;
  odd.n = 100;
  CHECK_THROWS_AS(gemm_workgroups(odd), std::invalid_argument);
  CHECK_THROWS_AS(make_gemm_warp_grid(gemm_params{}, 256, 48), spec_error);  // 256 threads are not whole waves of 48
}

TEST_CASE("gemm: a thread's deepest fiber stack stays under half the default stack (room for larger tiles)") {
  gemm_params p;
  p.m = p.n = p.m_per_block = p.n_per_block = 128;
  const gemm_case c = run_case(p, 256, 64, true);
  CHECK(c.result.workgroups[0].stack_used > 0);
  CHECK(c.result.workgroups[0].stack_used < sim::default_stack_bytes / 2);
}
