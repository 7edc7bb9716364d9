// Laws of the CuTe swizzle example: every case copies exactly; the byte swizzle <B,4,3> of Hopper's GMMA
// atoms is the element swizzle <B,3,3> for fp16; the LDS wavefronts of the 16-byte stores and the 8x8
// matrix reads, priced on the case's arch, are what the bank arithmetic of the header's essay gives.
#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "examples/cute_swizzle/cute_swizzle_variants.hpp"
#include "sim/models/lds_banks.hpp"
#include "sim/runs/copy_run.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;
using namespace tilesim::examples;

namespace {

// The case named `name` on `arch`.
const copy_case& find_case(const std::string& name, const std::string& arch) {
  static const std::vector<copy_case> cases = cute_swizzle_cases();
  return find_copy_case(cases, name, arch);
}

// Runs the case and prices its LDS store and load on its arch.
copy_lds_cost price(const copy_case& c, sim::run_result* keep = nullptr) { return price_copy_case(c, keep); }

// CuTe's Swizzle<B,M,S> on one offset (S > 0): the B bits at M+S are XOR-ed into the B bits at M.
constexpr index_t cute_apply(int b, int m, int s, index_t o) {
  const index_t yyy = ((index_t{1} << b) - 1) << (m + s);
  return o ^ ((o & yyy) >> s);
}

}  // namespace

TEST_CASE("cute-swizzle: 13 cases, unique (name, arch), one workgroup of 256 threads, 16-byte vectors, fp16 rows of 16/32/64 halves") {
  const std::vector<cute_swizzle_case> cases = cute_swizzle_cases();
  CHECK(cases.size() == 13);
  std::set<std::pair<std::string, std::string>> seen;
  for (const cute_swizzle_case& c : cases) {
    CAPTURE(c.name);
    CHECK(seen.insert({c.name, c.arch}).second);
    CHECK(c.block == 256);
    CHECK(c.params.rows == 128);
    CHECK(c.params.vector == 8);
    CHECK(c.params.read == programs::copy_read_order::gemm_operand);
    CHECK(c.params.lane_rows == (c.arch == "sm90" ? 16 : 32));
  }
  CHECK(cute_swizzle_variants().size() == cases.size());
}

TEST_CASE("cute-swizzle: every variant passes with output == input") {
  for (const variant& v : cute_swizzle_variants()) {
    CAPTURE(v.name);
    CAPTURE(v.arch);
    CHECK(v.example == "cute-swizzle");
    const outcome o = v.run();
    CHECK(o.passed);
    CHECK(o.check == "output == input");
    CHECK(o.run.clean());
  }
}

TEST_CASE("cute-swizzle: for fp16 the byte swizzle <B,4,3> at byte 2o is the element swizzle <B,3,3> at o, on rows of the atom's width") {
  // SW32 = <1,4,3> on 8 x 32 B (16 halves), SW64 = <2,4,3> on 8 x 64 B (32), SW128 = <3,4,3> on 8 x 128 B (64).
  const std::pair<int, index_t> atoms[] = {{1, 16}, {2, 32}, {3, 64}};
  for (const auto& atom : atoms) {  // no structured binding: clang 14 cannot capture one in CAPTURE
    const int bits = atom.first;
    const index_t width = atom.second;
    CAPTURE(bits);
    const auto d = make_cute_swizzle_descriptor(bits, 3, 3, 128, width);
    int differ = 0;
    for (index_t r = 0; r < 128; ++r)
      for (index_t c = 0; c < width; ++c)
        differ += 2 * d.calculate_offset({r, c}) != cute_apply(bits, 4, 3, 2 * (r * width + c));
    CHECK(differ == 0);
  }
  // The key is the 128-byte line: SW32 moves row 4's chunk 0 to chunk 1 (byte 4*32 + 16), SW64 row 2's
  // chunk 0 to chunk 1 (2*64 + 16), SW128 row 1's chunk 0 to chunk 1 (128 + 16).
  CHECK(2 * make_cute_swizzle_descriptor(1, 3, 3, 128, 16).calculate_offset({4, 0}) == 4 * 32 + 16);
  CHECK(2 * make_cute_swizzle_descriptor(2, 3, 3, 128, 32).calculate_offset({2, 0}) == 2 * 64 + 16);
  CHECK(2 * make_cute_swizzle_descriptor(3, 3, 3, 128, 64).calculate_offset({1, 0}) == 128 + 16);
  // So the SW128 case is the Swizzle<3,3,3> 8x64 case, parameter for parameter.
  const cute_swizzle_case sw128 = find_case("SW128 Swizzle<3,4,3> 8x64", "sm90");
  const cute_swizzle_case e333 = find_case("Swizzle<3,3,3> 8x64", "sm90");
  CHECK(sw128.params.cols == e333.params.cols);
  CHECK(sw128.params.swizzle_bits == e333.params.swizzle_bits);
  CHECK(sw128.params.swizzle_base == e333.params.swizzle_base);
  CHECK(sw128.params.swizzle_shift == e333.params.swizzle_shift);
}

TEST_CASE("cute-swizzle sm90, hand-derived: ldmatrix matrix 0 (lanes 0-7 = rows 0-7, chunk 0) of 128-byte rows lands on bank quads key(r) = r mod 2^B") {
  // Quad of a 16-byte vector at byte address a: (a / 16) mod 8 on 32 banks. Row r's chunk 0 is at byte
  // 128r + 16*key(r), so its quad is key(r); the ways are the most rows sharing a key.
  auto quads = [](const std::string& name) {
    sim::run_result r;
    (void)price(find_case(name, "sm90"), &r);
    for (const sim::wave_instruction& i : r.workgroups[0].waves[0].instructions)
      if (i.access.label == "lds load") {
        std::vector<int> q;
        for (int lane = 0; lane < 8; ++lane) q.push_back(static_cast<int>(i.access.address[lane] / 16 % 8));
        const sim::lds_detail d = sim::lds_instruction_detail(sim::arch_named("sm90"), i.access);
        return std::make_pair(q, d.phases[0].ways);
      }
    FAIL("no lds load");
    return std::make_pair(std::vector<int>{}, 0);
  };
  CHECK(quads("row-major 8x64") == std::make_pair(std::vector<int>{0, 0, 0, 0, 0, 0, 0, 0}, 8));
  CHECK(quads("Swizzle<1,3,3> 8x64") == std::make_pair(std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1}, 4));
  CHECK(quads("Swizzle<2,3,3> 8x64") == std::make_pair(std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3}, 2));
  CHECK(quads("Swizzle<3,3,3> 8x64") == std::make_pair(std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}, 1));
  // 32-byte rows: row r at byte 32r, quad 2r mod 8; SW32 adds key (r/4) mod 2 to the chunk.
  CHECK(quads("row-major 8x16") == std::make_pair(std::vector<int>{0, 2, 4, 6, 0, 2, 4, 6}, 2));
  CHECK(quads("SW32 Swizzle<1,4,3> 8x16") == std::make_pair(std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}, 1));
  // 64-byte rows: quad 4r mod 8; SW64 adds key (r/2) mod 4.
  CHECK(quads("row-major 8x32") == std::make_pair(std::vector<int>{0, 4, 0, 4, 0, 4, 0, 4}, 4));
  CHECK(quads("SW64 Swizzle<2,4,3> 8x32") == std::make_pair(std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7}, 1));
}

TEST_CASE("cute-swizzle: LDS wavefronts actual / ideal of the store and the load, per case, as the bank arithmetic predicts") {
  // Ideal counts, 128 x W halves on 256 threads = W/2 elements = W/16 vectors per thread.
  //   sm90 (8 warps, STS.128 / LDS.128 = 4 phases of 8 lanes): W/16 stores per warp -> 8 * W/16 * 4 = 2W
  //     wavefronts ideal (W = 64: 128, 32: 64, 16: 32); the ldmatrix read takes K16 per instruction,
  //     W/16 per warp: the same 2W.
  //   gfx942 (4 waves, 8 phases of 8 lanes), W = 64: 4 stores per wave -> 4*4*8 = 128; 4 reads -> 128.
  // Stores are 1-way everywhere: 8 lanes write one whole 128-byte line (or 4 rows of 32 B, 2 of 64 B) and
  // a swizzle only permutes 16-byte chunks inside a line. Loads: ideal x the ways of the essay's table
  // (sm90: 8 rows of one matrix per phase; gfx942: rows {0-3, 20-23} etc., whose keys r mod 8 are 0..7).
  struct expected {
    const char* name;
    const char* arch;
    long long store, store_ideal, load, load_ideal;
  };
  const expected table[] = {
      {"row-major 8x64", "sm90", 128, 128, 1024, 128},      // 8 rows on one quad: 8-way
      {"Swizzle<1,3,3> 8x64", "sm90", 128, 128, 512, 128},  // key r mod 2: 4 rows per quad, 4-way
      {"Swizzle<2,3,3> 8x64", "sm90", 128, 128, 256, 128},  // key r mod 4: 2-way
      {"Swizzle<3,3,3> 8x64", "sm90", 128, 128, 128, 128},  // key r mod 8: conflict-free
      {"row-major 8x16", "sm90", 32, 32, 64, 32},           // 32-byte rows: rows r, r+4 share a quad, 2-way
      {"SW32 Swizzle<1,4,3> 8x16", "sm90", 32, 32, 32, 32}, // rows 4-7 shifted one chunk: 1-way
      {"row-major 8x32", "sm90", 64, 64, 256, 64},          // 64-byte rows: quads 0 4 0 4 ..., 4-way
      {"SW64 Swizzle<2,4,3> 8x32", "sm90", 64, 64, 64, 64}, // quads 0 4 1 5 2 6 3 7: 1-way
      {"SW128 Swizzle<3,4,3> 8x64", "sm90", 128, 128, 128, 128},  // = Swizzle<3,3,3> 8x64
      // gfx942 ds_read_b128, phase {0-3, 20-23}: rows 0-3 and 20-23, r mod 8 = 0..7, all at one chunk.
      {"row-major 8x64, mfma read", "gfx942", 128, 128, 1024, 128},      // one quad: 8-way
      {"Swizzle<1,3,3> 8x64, mfma read", "gfx942", 128, 128, 512, 128},  // 4-way
      {"Swizzle<2,3,3> 8x64, mfma read", "gfx942", 128, 128, 256, 128},  // 2-way
      {"Swizzle<3,3,3> 8x64, mfma read", "gfx942", 128, 128, 128, 128},  // 1-way
  };
  CHECK(std::size(table) == cute_swizzle_cases().size());
  for (const expected& e : table) {
    CAPTURE(e.name);
    CAPTURE(e.arch);
    const copy_lds_cost n = price(find_case(e.name, e.arch));
    CHECK(n.store == e.store);
    CHECK(n.store_ideal == e.store_ideal);
    CHECK(n.load == e.load);
    CHECK(n.load_ideal == e.load_ideal);
    // Every phase of an instruction conflicts alike here, so the worst phase's ways = actual / ideal.
    CHECK(n.store_ways == e.store / e.store_ideal);
    CHECK(n.load_ways == e.load / e.load_ideal);
  }
}
