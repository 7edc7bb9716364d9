// Laws of examples/morton: the layouts agree and are bijections, the program copies every texel, and its
// global sectors, lines and LDS wavefronts are the numbers worked out by hand in kernel/morton/morton.hpp.
#include <doctest/doctest.h>

#include <iterator>
#include <string>
#include <vector>

#include "examples/morton/morton_variants.hpp"
#include "sim/models/global_coalescing.hpp"
#include "sim/report/program_report.hpp"
#include "spec/error_of.test.hpp"
#include "sim/engine/same_accesses.test.hpp"

using namespace tilesim;
using namespace tilesim::examples;
using tilesim::testing::error_of;

namespace {

// The worked example of the essay: 4x4, T = 2.
constexpr index_t table_4x4[4][4] = {{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}};

template <class L>
constexpr bool matches_4x4(const L& layout) {
  for (index_t y = 0; y < 4; ++y)
    for (index_t x = 0; x < 4; ++x)
      if (layout.calculate_offset({y, x}) != table_4x4[y][x]) return false;
  return true;
}

// Two 4x4 tiles side by side (4 x 8, T = 4): the right tile starts at 16.
constexpr index_t table_4x8[4][8] = {{0, 1, 4, 5, 16, 17, 20, 21},
                                     {2, 3, 6, 7, 18, 19, 22, 23},
                                     {8, 9, 12, 13, 24, 25, 28, 29},
                                     {10, 11, 14, 15, 26, 27, 30, 31}};

template <class L>
constexpr bool matches_4x8(const L& layout) {
  for (index_t y = 0; y < 4; ++y)
    for (index_t x = 0; x < 8; ++x)
      if (layout.calculate_offset({y, x}) != table_4x8[y][x]) return false;
  return true;
}

const sim::instruction_report* find(const sim::program_report& r, const std::string& label) {
  for (const auto& i : r.instructions)
    if (i.label == label) return &i;
  return nullptr;
}

sim::run_result run_case(const morton_case& c) {
  return run_morton(launch_on(c.arch, c.grid, c.block), c.params, morton_image(c.params.height, c.params.width));
}

// The run-time and the compiled form of one launch: same accesses, same output (the row-major image).
template <morton_shape S>
void check_compiled_matches_runtime(const std::string& arch) {
  const sim::launch l = launch_on(arch, static_cast<int>(S.grid), static_cast<int>(S.threads));
  REQUIRE(l.wave_size == S.warp_size);
  const std::vector<float> image = morton_image(S.params.height, S.params.width);
  const sim::run_result runtime = run_morton(l, S.params, image);
  const sim::run_result compiled = run_morton(l, constant<S>{}, image);
  CHECK(runtime.clean());
  CHECK(compiled.clean());
  CHECK(compiled.uniform());
  sim::testing::check_same_accesses(compiled, runtime);
  CHECK(compiled.memory.get<float>(1) == runtime.memory.get<float>(1));
  CHECK(compiled.memory.get<float>(1) == image);
}

// The first instruction carrying `label` in wave 0 of workgroup 0.
const sim::wave_access& first_access(const sim::run_result& r, const std::string& label) {
  for (const auto& i : r.workgroups.at(0).waves.at(0).instructions)
    if (i.access.label == label) return i.access;
  FAIL("no instruction labelled " << label);
  return r.workgroups.at(0).waves.at(0).instructions.at(0).access;
}

}  // namespace

TEST_CASE("the worked examples: 4x4 with T = 2 and 4x8 with T = 4, all three builds") {
  static_assert(matches_4x4(make_morton_tiled_descriptor(4, 4, 2)));
  static_assert(matches_4x4(make_morton_tiled_bits(4, 4, 2)));
  static_assert(matches_4x4(make_morton_tiled_descriptor_morton(4, 4, 2)));
  static_assert(matches_4x8(make_morton_tiled_descriptor(4, 8, 4)));
  static_assert(matches_4x8(make_morton_tiled_bits(4, 8, 4)));
  static_assert(matches_4x8(make_morton_tiled_descriptor_morton(4, 8, 4)));
  // Texel (2, 3) of the 4x4: tile (1, 1) at 12, in-tile (0, 1) -> 1.
  static_assert(make_morton_tiled_descriptor(4, 4, 2).calculate_offset({2, 3}) == 13);
  // 64 x 64, T = 8: texel (9, 3) is in tile (1, 0) at 8 * 64, in-tile (1, 3) -> 7; the compiled layout agrees.
  static_assert(make_morton_tiled_bits(64, 64, 8).calculate_offset({9, 3}) == 519);
  static_assert(fixed_layout<make_morton_tiled_bits(64, 64, 8)>{}.calculate_offset({9, 3}) == 519);
  // The digits inverse of (a) gives the texel back.
  const auto a = make_morton_tiled_descriptor(4, 4, 2);
  const auto inv = a.graph.top_index({13});
  CHECK(inv.found);
  CHECK(inv.index == multi_index<2>{2, 3});
  CHECK(a.lengths() == multi_index<2>{4, 4});
  CHECK(a.element_space_size == 16);
  CHECK(spread_bits(0b111) == 0b010101);
}

TEST_CASE("descriptor (transforms) == bits == spec's morton transform on every texel, and each is a bijection") {
  struct shape {
    index_t h, w, t;
  };
  for (const shape s : {shape{64, 64, 8}, shape{32, 16, 4}, shape{16, 64, 16}, shape{64, 32, 32}, shape{8, 8, 1},
                        shape{6, 10, 2}, shape{8, 64, 8}}) {
    CAPTURE(s.h);
    CAPTURE(s.w);
    CAPTURE(s.t);
    const auto a = make_morton_tiled_descriptor(s.h, s.w, s.t);
    const auto b = make_morton_tiled_bits(s.h, s.w, s.t);
    const auto c = make_morton_tiled_descriptor_morton(s.h, s.w, s.t);
    CHECK(a.lengths() == multi_index<2>{s.h, s.w});
    CHECK(a.element_space_size == s.h * s.w);
    std::vector<int> hits(static_cast<std::size_t>(s.h * s.w), 0);
    int disagreements = 0, outside = 0, not_inverted = 0;
    for (index_t y = 0; y < s.h; ++y)
      for (index_t x = 0; x < s.w; ++x) {
        const index_t o = a.calculate_offset({y, x});
        disagreements += o != b.calculate_offset({y, x}) || o != c.calculate_offset({y, x});
        if (o < 0 || o >= s.h * s.w) {
          ++outside;
          continue;
        }
        ++hits[static_cast<std::size_t>(o)];
        const auto back = a.graph.top_index({o});
        not_inverted += !back.found || back.index != multi_index<2>{y, x};
      }
    CHECK(disagreements == 0);
    CHECK(outside == 0);
    CHECK(not_inverted == 0);
    int twice_or_never = 0;
    for (int n : hits) twice_or_never += n != 1;
    CHECK(twice_or_never == 0);  // onto [0, H*W), each offset once: a bijection
  }
}

TEST_CASE("the layout rules name their values, the same for all three builds") {
  auto all_three = [](index_t h, index_t w, index_t t) {
    const auto ea = error_of([&] { (void)make_morton_tiled_descriptor(h, w, t); });
    const auto eb = error_of([&] { (void)make_morton_tiled_bits(h, w, t); });
    const auto ec = error_of([&] { (void)make_morton_tiled_descriptor_morton(h, w, t); });
    CHECK(ea == eb);
    CHECK(ea == ec);
    return ea;
  };
  const auto six = all_three(24, 24, 6);
  CHECK(six.first == rule::morton_length_not_power_of_two);
  CHECK(six.second.find("(tile = 6)") != std::string::npos);
  const auto big = all_three(64, 64, 64);
  CHECK(big.first == rule::tile_too_large);
  CHECK(big.second.find("(tile = 64, max tile = 32)") != std::string::npos);
  const auto ragged = all_three(20, 64, 8);
  CHECK(ragged.first == rule::tile_not_dividing);
  CHECK(ragged.second.find("(height = 20, width = 64, tile = 8)") != std::string::npos);
  CHECK(all_three(16, 16, 8).first == rule::none);
}

TEST_CASE("the program's parameter rules name their values; a rejected launch is a run_error") {
  morton_params p;  // 64 x 64, T = 8, 8x4 footprints
  CHECK(!check_morton_params(p, 32, 256, 8));
  CHECK(check_morton_params(p, 64, 256, 8).what == rule::launch_split_not_exact);  // 8x4 != 64 lanes
  CHECK(check_morton_params(p, 32, 256, 4).what == rule::launch_split_not_exact);  // 8 bands, grid 4
  CHECK(check_morton_params(p, 32, 96 * 2, 8).what == rule::launch_split_not_exact);  // 16 footprints, 6 waves
  p.footprint_rows = 4;
  p.footprint_cols = 8;
  p.staging = texel_staging::lds_morton;  // a 4-row band cannot hold 8x8 tiles
  CHECK(check_morton_params(p, 32, 256, 16).what == rule::tile_not_dividing);
  p.staging = texel_staging::direct;
  CHECK(!check_morton_params(p, 32, 256, 16));
  try {
    (void)run_morton(launch_on("gfx942", 8, 256), morton_params{}, morton_image(64, 64));
    FAIL("no run_error");
  } catch (const sim::run_error& e) {
    CHECK(e.why == sim::run_error::reason::program_threw);
    CHECK(std::string(e.what()).find("(footprint rows = 8, footprint cols = 4, warp size = 64)") != std::string::npos);
  }
  CHECK_THROWS_AS(run_morton(launch_on("sm90", 8, 256), morton_params{}, std::vector<float>(5)), std::invalid_argument);
}

TEST_CASE("every case: output == the row-major image, clean and uniform; the variants say so") {
  const std::vector<morton_case> cases = morton_cases();
  CHECK(cases.size() == 8);
  for (const morton_case& c : cases) {
    CAPTURE(c.name);
    CAPTURE(c.arch);
    const sim::run_result r = run_case(c);
    bool passed = false;
    CHECK(compare_morton_output(c.params, r.memory.get<float>(1), morton_image(64, 64), passed) == "output == image");
    CHECK(passed);
    CHECK(r.clean());
    CHECK(r.uniform());
  }
  for (const variant& v : morton_variants()) {
    CAPTURE(v.name);
    CHECK(v.example == "morton");
    const outcome o = v.run();
    CHECK(o.passed);
    CHECK(o.check == "output == image");
  }
  // A wrong output names the first differing texel and both values.
  std::vector<float> wrong = morton_image(64, 64);
  wrong[3 * 64 + 5] = -1;
  bool passed = true;
  CHECK(compare_morton_output(morton_params{}, wrong, morton_image(64, 64), passed) == "out(3, 5) = -1, expected 197");
  CHECK(!passed);
}

// What each case costs, per label, summed over instances (sm90: 8 workgroups x 8 waves x 2 passes = 128
// instances of every label; gfx942: 8 x 4 x 2 = 64). Sectors are 32 B = 8 texels; lines 128 B = 32 texels.
struct expected_cost {
  long long load_sectors, load_ideal;          // "texel load"
  long long store_sectors, store_ideal;        // "texel store"
  long long lds_store, lds_store_ideal;        // "lds store" wavefronts (0: no LDS)
  long long lds_load, lds_load_ideal;          // "lds load" wavefronts
  int load_lines;                              // lines of one "texel load" instance
};

TEST_CASE("the priced cases: sectors, lines and LDS wavefronts are the hand-derived numbers") {
  const expected_cost expected[8] = {
      // 0. sm90 row-major, 8 rows x 4 cols: each row is 16 B inside one sector, rows 256 B apart: 8 sectors
      //    and 8 lines per instance (ideal 128 B / 32 = 4): 128 x 8 = 1024, ideal 512. The row-major store
      //    has the same footprint: the same 1024 / 512.
      {1024, 512, 1024, 512, 0, 0, 0, 0, 8},
      // 1. sm90 Morton-tiled (transforms): the footprint is cols 0-3 (or 4-7) x rows 0-7 of one 8x8 tile,
      //    z = 0..15 and 32..47 (+16): two aligned 64-byte runs = 4 sectors (ideal) in 2 lines; 128 x 4 = 512.
      //    The store is still a row-major 8x4 footprint: 1024 / 512.
      {512, 512, 1024, 512, 0, 0, 0, 0, 2},
      // 2. sm90 Morton-tiled (bits): the same addresses as 1.
      {512, 512, 1024, 512, 0, 0, 0, 0, 2},
      // 3. sm90 Morton input, Z-ordered LDS band (8 x 64, eight 64-word tiles): load as 1. lds store: the
      //    footprint's words z = 0..15 and 32..47 hit banks 0-15 twice in sm90's single 32-lane phase: 2-way,
      //    2 wavefronts (ideal 1) x 128 = 256 / 128. lds load: 32 consecutive x of one row span 4 tiles whose
      //    in-row z {0,1,4,5,16,17,20,21} (+ row bits) fall on the same 8 banks: 4-way, 4 x 128 = 512 / 128.
      //    texel store: 32 consecutive texels = 128 aligned bytes = 4 sectors (ideal) x 128 = 512.
      {512, 512, 512, 512, 256, 128, 512, 128, 2},
      // 4. gfx942 row-major, 8 x 8: each row is 32 aligned bytes = exactly one sector: 8 sectors = ideal
      //    (but 8 lines); 64 x 8 = 512. Store: the same.
      {512, 512, 512, 512, 0, 0, 0, 0, 8},
      // 5. gfx942 Morton-tiled (transforms): the footprint is one whole tile, 256 contiguous bytes: 8 sectors
      //    (no saving in sectors) but 2 lines instead of 8.
      {512, 512, 512, 512, 0, 0, 0, 0, 2},
      // 6. gfx942 Morton-tiled (bits): as 5.
      {512, 512, 512, 512, 0, 0, 0, 0, 2},
      // 7. gfx942 Morton input, Z-ordered LDS band. lds store: ds_write_b32 in 2 phases of 32 lanes = rows 0-3
      //    (z 0..31) and rows 4-7 (z 32..63): 32 distinct banks each, 2 wavefronts = ideal; 64 x 2 = 128.
      //    lds load: each 32-lane phase reads 32 consecutive x = 4 tiles on the same 8 banks: 4-way, 8 per
      //    instance (ideal 2): 512 / 128. texel store: 64 consecutive texels = 8 sectors (ideal) x 64 = 512.
      {512, 512, 512, 512, 128, 128, 512, 128, 2},
  };
  const std::vector<morton_case> cases = morton_cases();
  REQUIRE(cases.size() == 8);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const morton_case& c = cases[i];
    const expected_cost& e = expected[i];
    CAPTURE(c.name);
    CAPTURE(c.arch);
    const sim::run_result r = run_case(c);
    const sim::arch_table& arch = sim::arch_named(c.arch);
    const sim::program_report rep = sim::make_program_report(arch, r);
    const sim::instruction_report* load = find(rep, "texel load");
    const sim::instruction_report* store = find(rep, "texel store");
    REQUIRE(load);
    REQUIRE(store);
    CHECK(load->instances == (c.arch == "sm90" ? 128 : 64));
    CHECK(load->sectors == e.load_sectors);
    CHECK(load->ideal_sectors == e.load_ideal);
    CHECK(store->sectors == e.store_sectors);
    CHECK(store->ideal_sectors == e.store_ideal);
    const sim::instruction_report* lds_store = find(rep, "lds store");
    const sim::instruction_report* lds_load = find(rep, "lds load");
    CHECK((lds_store != nullptr) == (e.lds_store > 0));
    if (lds_store && lds_load) {
      CHECK(lds_store->wavefronts == e.lds_store);
      CHECK(lds_store->ideal == e.lds_store_ideal);
      CHECK(lds_load->wavefronts == e.lds_load);
      CHECK(lds_load->ideal == e.lds_load_ideal);
    }
    const sim::global_cost g = sim::global_instruction_cost(arch, first_access(r, "texel load"));
    CHECK(g.lines == e.load_lines);
    CHECK(g.sectors * load->instances == e.load_sectors);  // every instance costs the same
  }
}

TEST_CASE("a row-major LDS band moves the conflicts to the footprint side (the contrast the essay states)") {
  auto priced = [](const std::string& arch, index_t cols) {
    morton_params p;
    p.footprint_cols = cols;
    p.layout = texel_layout::row_major;
    p.staging = texel_staging::lds_row_major;
    const sim::run_result r = run_morton(launch_on(arch, 8, 256), p, morton_image(64, 64));
    bool passed = false;
    CHECK(compare_morton_output(p, r.memory.get<float>(1), morton_image(64, 64), passed) == "output == image");
    return sim::make_program_report(sim::arch_named(arch), r);
  };
  // sm90, 8x4 footprint into a 64-word-stride band: 4 banks, 8 rows each = 8-way: 8 per instance x 128.
  // The row read is 32 consecutive words: 1 (ideal).
  const sim::program_report s = priced("sm90", 4);
  CHECK(find(s, "lds store")->wavefronts == 1024);
  CHECK(find(s, "lds store")->ideal == 128);
  CHECK(find(s, "lds store")->max_ways == 8);
  CHECK(find(s, "lds load")->wavefronts == 128);
  // gfx942, 8x8 footprint: each 32-lane phase is 4 rows x 8 cols on 8 banks: 4-way, 8 per instance x 64.
  // The row read: two phases of 32 consecutive words: 2 (ideal).
  const sim::program_report g = priced("gfx942", 8);
  CHECK(find(g, "lds store")->wavefronts == 512);
  CHECK(find(g, "lds store")->ideal == 128);
  CHECK(find(g, "lds store")->max_ways == 4);
  CHECK(find(g, "lds load")->wavefronts == 128);
  // The Z-ordered band for comparison (cases 3 and 7): sm90 2-way stores / 4-way loads; gfx942 1 / 4.
  const std::vector<morton_case> cases = morton_cases();
  const sim::program_report zs = sim::make_program_report(sim::arch_named("sm90"), run_case(cases[3]));
  CHECK(find(zs, "lds store")->max_ways == 2);
  CHECK(find(zs, "lds load")->max_ways == 4);
  const sim::program_report zg = sim::make_program_report(sim::arch_named("gfx942"), run_case(cases[7]));
  CHECK(find(zg, "lds store")->max_ways == 1);
  CHECK(find(zg, "lds load")->max_ways == 4);
}

TEST_CASE("the compiled form (constant<morton_shape>) records the run-time form's accesses and output, lane by lane") {
  const std::vector<morton_case> cases = morton_cases();
  constexpr index_t n = static_cast<index_t>(std::size(morton_case_table));
  REQUIRE(cases.size() == static_cast<std::size_t>(n));
  int compared = 0;
  static_for<n>([&](auto i) {
    constexpr morton_shape shape = morton_case_shape(morton_case_table[decltype(i)::value]);
    const morton_case& c = cases[static_cast<std::size_t>(decltype(i)::value)];
    CAPTURE(c.name);
    CAPTURE(c.arch);
    if (c.arch != "sm90" && c.arch != "gfx942") return;
    CHECK(shape.params == c.params);  // the table is the case list
    CHECK(shape.grid == c.grid);
    CHECK(shape.threads == c.block);
    check_compiled_matches_runtime<shape>(c.arch);
    ++compared;
  });
  CHECK(compared == 8);
  // Not cases, the other staging: a row-major LDS band, on both arches.
  constexpr morton_params sm90_band = morton_case_params(texel_layout::row_major, texel_staging::lds_row_major, 4);
  constexpr morton_params gfx942_band = morton_case_params(texel_layout::morton_bits, texel_staging::lds_row_major, 8);
  check_compiled_matches_runtime<morton_shape{sm90_band, 256, 32, 8}>("sm90");
  check_compiled_matches_runtime<morton_shape{gfx942_band, 256, 64, 8}>("gfx942");
  // A compiled shape runs only at its launch: grid 4 is a run_error naming both grids.
  try {
    (void)run_morton(launch_on("sm90", 4, 256), constant<morton_case_shape(morton_case_table[0])>{},
                     morton_image(64, 64));
    FAIL("no run_error");
  } catch (const sim::run_error& e) {
    CHECK(std::string(e.what()).find("(block = 256, compiled threads = 256, grid = 4, compiled grid = 8)") !=
          std::string::npos);
  }
}
